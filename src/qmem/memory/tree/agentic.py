"""What a heading's words mean in an agent's own memory (`domains.Context.agentic`: a third of the
file's sections or more name agents, skills, models, MCP servers).

Known issues there are the agent's gotchas: "Known Issues" under an agent's memory lists what to watch
for in the world it runs in (a small model that botches tool arguments, a host that hangs, an app to
rebuild by hand), the lessons a reader opens for them; in a software project's memory the same heading is
the product's bug list, the code's. The readers of the real sets filed them so (four sections).
"""

from __future__ import annotations

from .cues_more import KNOWN_ISSUES

LESSONS = "lessons"
CODEBASE = "codebase"


def issues_are_lessons(scores: dict[str, float], order: list[str], why: dict[str, list[str]],
                       where: dict[str, int]) -> None:
    """In an agent's memory, move a heading's points for the code to lessons when the only words
    that gave them name known issues (a heading that names the code otherwise keeps them)."""
    reasons = [r for r in why.get(CODEBASE, []) if r.startswith("heading: ")]
    texts = [r.removeprefix("heading: ").rpartition(" (+")[0] for r in reasons]
    if not texts or not all(t in KNOWN_ISSUES for t in texts) or len(reasons) != len(why.get(CODEBASE, [])):
        return
    points = scores.pop(CODEBASE)
    scores[LESSONS] = scores.get(LESSONS, 0) + points
    if LESSONS not in order:
        order[order.index(CODEBASE)] = LESSONS
    else:
        order.remove(CODEBASE)
    if CODEBASE in where:
        where[LESSONS] = min(where.pop(CODEBASE), where.get(LESSONS, 10**5))
    why[LESSONS] = why.get(LESSONS, []) + [f"{r.rpartition(' (+')[0]}, in an agent's memory, is a gotcha (+{points:g})"
                                           for r in reasons[:1]]
    del why[CODEBASE]
