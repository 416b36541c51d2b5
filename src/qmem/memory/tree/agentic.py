"""What a heading's words mean in an agent's own memory (`domains.Context.agentic`: a third of the
file's sections or more name agents, skills, models, MCP servers); `domains.explain` hands it the
heading's points before the body is read.

Known issues there are the agent's gotchas: "Known Issues" under an agent's memory lists what to watch
for in the world it runs in (a small model that botches tool arguments, a host that hangs, an app to
rebuild by hand), the lessons a reader opens for them; in a software project's memory the same heading is
the product's bug list, the code's. The readers of the real sets filed them so (four sections).
Settings that name no machine ("Config Notes", "系統設定") are the agent's own (see `_GENERIC`), and so
are its routines ("Daily Routines": its scheduled runs, see `_ROUTINE`).
"""

from __future__ import annotations

import re

from .cues_more import KNOWN_ISSUES
from .verdict import HEADING_WEIGHT

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


# Words for settings and for "the system" that name no machine: in an agent's memory, "Config Notes",
# "系統設定" and "システム設定" hold the agent's own settings (its memory flush, model fallbacks, bot,
# gateway), the machine's when a machine is named ("Mac設定", "设备配置", "Browser Configuration") or the
# user marked the heading with the machine's emoji ("⚙️ システム設定" over backup scripts and volumes).
_GENERIC = frozenset(("config", "configuration", "settings", "設定", "配置", "设置", "設置", "系統", "系统", "システム",
                      "system", "systems"))


def settings_are_the_agent_s(scores: dict[str, float], order: list[str], why: dict[str, list[str]],
                             where: dict[str, int]) -> None:
    """In an agent's memory, a heading that names only settings or "the system" (no machine, no other
    domain) is the agent's own configuration."""
    infra = "infrastructure"
    if set(scores) != {infra}:
        return
    reasons = [r.removeprefix("heading: ").rpartition(" (+") for r in why.get(infra, []) if r.startswith("heading: ")]
    words = [text for text, _, _ in reasons if any(ch.isalpha() for ch in text)]
    if len(words) != len(reasons) or not words or not all(text in _GENERIC for text in words) \
            or scores[infra] < HEADING_WEIGHT:
        return  # a machine named, its emoji (⚙️, 🛠), or one broad word alone ("关键配置"): as before
    scores["agents"] = scores.pop(infra)
    order[:] = ["agents"]
    if infra in where:
        where["agents"] = where.pop(infra)
    why["agents"] = [f"heading: {words[0]}, in an agent's memory, is the agent's own settings (+{scores['agents']:g})"]
    del why[infra]


# An agent's routines are its scheduled runs ("📅 Daily Routines" over its morning digest and night work
# block, as "例行任務" is): a heading that is a routine and nothing else. The user's routine is named so
# ("My morning routine", "Sam's routine") and stays theirs.
_ROUTINE = frozenset(("routine", "routines", "daily", "morning", "evening", "nightly", "weekly", "night"))


def routines_are_the_agent_s(head: str, scores: dict[str, float], order: list[str], why: dict[str, list[str]],
                             where: dict[str, int]) -> None:
    """In an agent's memory, a heading of routine words alone ("Daily Routines") is the agent's runs."""
    words = re.findall(r"[^\W\d_]+", head)
    if set(scores) != {"identity"} or not words or not set(words) <= _ROUTINE or not set(words) & {"routine", "routines"}:
        return
    scores["agents"] = scores.pop("identity")
    order[:] = ["agents"]
    if "identity" in where:
        where["agents"] = where.pop("identity")
    why["agents"] = [f"heading: {head}, in an agent's memory, is the agent's scheduled runs (+{scores['agents']:g})"]
    del why["identity"]


def read(head: str, scores: dict[str, float], order: list[str], why: dict[str, list[str]],
         where: dict[str, int]) -> None:
    """A heading's points in an agent's memory, as the rules above read them (the heading's domains,
    their order, the evidence and where each stands are changed in place)."""
    issues_are_lessons(scores, order, why, where)
    settings_are_the_agent_s(scores, order, why, where)
    routines_are_the_agent_s(head, scores, order, why, where)
