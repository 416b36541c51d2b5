"""`qmem tree review`: the leaves whose placement was weak, each with its best alternatives and
the `qmem tree move` that applies one, so an agent can check a whole tree in one read.

qmem files about half of a real file's sections where a careful reader first looks, and the
misses are mostly sections whose verdict was weak. The verdicts say which: they are planned again
from the original MEMORY.md (rebuilt from the tree, as rollback would) with the current config,
which gives the plan migrate made, and matched to the leaves on disk by heading in reassembly
order (so a leaf moved since is found where it is). A verdict is weak when
- no domain was clear: the section kept a domain named after its own heading, or took the
  thinnest evidence there was (`confident` is false);
- only heading words chose it, and the text points elsewhere: no body evidence for that domain,
  some for another (a heading alone, with nothing else said, is not listed: on the labelled
  fixtures that rule flagged 121 sections of which 6 were wrong; with "some for another", 68 and
  the same 6);
- the heading names no topic and the body's lead decided;
- it was a close call: the runner-up scored within `[tree] confidence` (default 2, the body
  evidence a section needs) of the winner.
Not listed: pinned sections, sections placed by `[tree.place]`, ones a secret, a tag or a
confidential heading decided, and ones already moved to another domain (a reader decided).
"""

from __future__ import annotations

import os
import shlex

from ...text.analysis import estimate_tokens
from ..workspace import Workspace
from . import domains as domains_mod
from .files import TreeError, file_text, open_tree
from .move import NOT_MIGRATED, first_heading
from .place import PLACED
from .rollback import reassemble
from .shape import plan
from .units import Part
from .verdict import Verdict

MOST_ALTERNATIVES = 3
_DECIDED = ("explicit tag in the heading", "heading marks it confidential", PLACED)


class Review:
    """What `review` found: the weak placements and what the rest of the tree was."""

    def __init__(self, workspace: str) -> None:
        self.workspace = workspace
        self.sections = 0  # sections of the original MEMORY.md matched to a leaf
        # {"section", "line", "leaf", "domain", "weak", "why", "tokens", "alternatives", "commands", "template"}:
        # one per weak placement, in file order; "template" is the move with DOMAIN left to choose
        self.weak: list[dict[str, object]] = []
        self.skipped: dict[str, int] = {}  # why sections are not reviewed: pinned, placed, decided, moved
        self.domains: list[str] = []  # the tree's domains now (any can be a move's target)

    def to_dict(self) -> dict[str, object]:
        return dict(vars(self))


def review(ws: Workspace, tree_config: dict[str, object] | None = None, config_file: str = "") -> Review:
    """The weak placements of the migrated tree at `ws` (see the module docstring). Reads only."""
    tree_config = tree_config or {}
    _, manifest = open_tree(ws, NOT_MIGRATED)
    try:
        original = reassemble(ws).decode("utf-8", "replace")
    except TreeError as exc:
        raise TreeError(f"{exc}; qmem tree migrate --dry-run --explain shows every verdict") from None
    budget = manifest.get("root_budget")
    the_plan = plan(original, tree_config, config_file, root_budget=budget if isinstance(budget, int) and budget > 0 else None)
    margin = domains_mod.confidence_of(tree_config, config_file)
    result = Review(ws.root)
    result.domains = sorted(name for name in os.listdir(ws.domains)
                            if not name.startswith(".") and os.path.isdir(os.path.join(ws.domains, name))
                            and not os.path.islink(os.path.join(ws.domains, name)))
    leaves = _leaves_in_order(ws, manifest)
    for part in the_plan.parts:
        verdict = part.verdict
        if not isinstance(verdict, Verdict):
            continue
        if not part.heading:  # `tree move` takes these by path; their verdicts are --explain's
            result.skipped["entries of a file without headings"] = result.skipped.get("entries of a file without headings", 0) + 1
            continue
        leaf = _take(leaves, part.title) if part.files else None
        if leaf is None:  # kept in the root (pinned), or a leaf no longer on disk
            if part.pinned:
                result.skipped["pinned"] = result.skipped.get("pinned", 0) + 1
            continue
        result.sections += 1
        skip = _not_reviewed(part, verdict, leaf)
        if skip:
            result.skipped[skip] = result.skipped.get(skip, 0) + 1
            continue
        weak = weakness(verdict, margin)
        if weak:
            result.weak.append(_row(ws, part, verdict, leaf, weak))
    return result


def weakness(verdict: Verdict, margin: float) -> str:
    """Why `verdict` is a weak placement ("" when it is not): see the module docstring."""
    if not verdict.confident:
        return "no clear domain: " + (verdict.cues[0] if verdict.cues else "no evidence")
    if any("the heading names no topic" in cue for cue in verdict.cues):
        return "the heading names no topic: the body's lead decided"
    runner = _ranked(verdict)[:1]
    evidence = [cue for cue in verdict.cues if cue.startswith(("heading:", "body:", "entries:"))]
    if runner and evidence and all(cue.startswith("heading:") for cue in evidence):
        return f"heading words only: no body evidence for {verdict.domain}, some for {runner[0][0]}"
    score = verdict.scores.get(verdict.domain, 0.0)
    if runner and score - runner[0][1] < margin:
        return (f"a close call: {verdict.domain} {score:g}, {runner[0][0]} {runner[0][1]:g} "
                f"(within the confidence of {margin:g})")
    return ""


def decided(part: Part, verdict: Verdict) -> str:
    """Why a section's placement is not qmem's guess to review ("" when it is): pinned, placed
    by [tree.place], or decided by a secret, a tag or a confidential heading."""
    if part.pinned:
        return "pinned"
    if verdict.cues[:1] and verdict.cues[0] in _DECIDED or verdict.secrets:
        return "placed" if PLACED in verdict.cues else "decided by a secret, a tag or a confidential heading"
    return ""


def _not_reviewed(part: Part, verdict: Verdict, leaf: str) -> str:
    if decided(part, verdict):
        return decided(part, verdict)
    return "moved since migrate" if leaf.split("/", 1)[0] != part.domain else ""


def alternatives(verdict: Verdict) -> list[dict[str, object]]:
    """The other domains the evidence scored, best first (body evidence counts when none scored)."""
    return [{"domain": d, "score": score} for d, score in _ranked(verdict)]


def _ranked(verdict: Verdict) -> list[tuple[str, float]]:
    scored = {d: float(s) for d, s in verdict.scores.items() if d != verdict.domain and s > 0}
    if not scored:
        scored = {d: float(n) for d, n in verdict.support.items() if d != verdict.domain and n > 0}
    return sorted(scored.items(), key=lambda row: (-row[1], row[0]))[:MOST_ALTERNATIVES]


def _row(ws: Workspace, part: Part, verdict: Verdict, leaf: str, weak: str) -> dict[str, object]:
    others = alternatives(verdict)
    folder = leaf.count("/") > 1
    path = f"memory/domains/{leaf.rsplit('/', 1)[0] + '/' if folder else leaf}"

    def command(domain: str) -> str:  # a part names its whole folder
        return shlex.join(["qmem", "tree", "move", f"memory/domains/{leaf}", domain, "-w", ws.root])

    return {"section": part.title, "line": part.line, "leaf": path, "domain": verdict.domain, "weak": weak,
            "why": list(verdict.cues), "tokens": estimate_tokens(part.text), "alternatives": others,
            "commands": [command(str(alt["domain"])) for alt in others],
            "template": command("DOMAIN").replace("'DOMAIN'", "DOMAIN")}


def _leaves_in_order(ws: Workspace, manifest: dict) -> list[tuple[str, str]]:
    """(leaf under memory/domains, its first heading) in reassembly order; a folder of parts
    by its first part only (the one that opens with the section's heading)."""
    out, folders = [], set()
    for kind, rel in manifest.get("order", []):
        if kind != "leaf" or not isinstance(rel, str):
            continue
        folder = "/".join(rel.split("/")[:2]) if rel.count("/") > 1 else ""
        if folder in folders:
            continue
        if folder:
            folders.add(folder)
        out.append((rel, first_heading(file_text(os.path.join(ws.domains, rel)) or "")))
    return out


def _take(leaves: list[tuple[str, str]], title: str) -> str | None:
    """The first leaf left whose heading is `title`, taken off the list."""
    for k, (rel, heading) in enumerate(leaves):
        if heading == title:
            del leaves[k]
            return rel
    return None
