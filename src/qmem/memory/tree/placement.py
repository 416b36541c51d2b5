"""A `tree move` made to last: the `[tree.place]` entry that files the section there again.

`tree reindex` never moves a leaf, so a move survives it without help. A migrate after a
rollback classifies MEMORY.md afresh, from cues, and would put the section back where qmem
first filed it: the move alone does not last. So the move records the reader's choice in the
config it ran with, as `[tree.place] "Heading" = "domain"` (the table migrate already reads),
written by `base.config_entry` (every other byte of the file kept, or nothing written).

Before writing, the entry is tried: the original MEMORY.md (rebuilt from the tree) is planned
with it, as a re-migrate would, and the entry is written only when exactly that one section
lands in the domain. When it would not (two sections share the heading, so the entry would move
both; a secret, a confidential heading or an explicit pin outranks a place; the leaf opens with
no heading), nothing is written and `why` says so: the move stands, a re-migrate may undo it.
"""

from __future__ import annotations

from ...base.config_entry import entry_line, set_entry
from ..workspace import Workspace
from . import place
from .rollback import reassemble
from .shape import plan

TABLE = ("tree", "place")


def lasting(ws: Workspace, heading: str, domain: str, tree_config: dict[str, object], config_file: str, *,
            write: bool) -> dict[str, object]:
    """{"heading", "domain", "config", "recorded", "why", "by_hand"}: the entry that keeps the
    section whose heading is `heading` in `domain` on a re-migrate, written to `config_file` when
    `write` and it does what it says ("recorded"). "why": what stopped it; "by_hand": how to add
    it when it would work but was not written (not asked, no config file, an edit refused)."""
    current = tree_config.get("place", {})
    known = current if isinstance(current, dict) else {}
    key = next((k for k in known if place.matches(str(k), heading)), heading) if heading else ""
    out: dict[str, object] = {"heading": key, "domain": domain, "config": config_file, "recorded": False, "why": "",
                              "by_hand": ""}
    out["why"] = _would_not_last(ws, key, domain, {**tree_config, "place": {**known, key: domain}}, config_file)
    if out["why"]:
        return out  # no entry would keep it: none to suggest either
    if write and config_file:
        out["why"] = set_entry(config_file, TABLE, key, domain)
        out["recorded"] = not out["why"]
    if not out["recorded"]:
        out["by_hand"] = f"add {entry_line(key, domain)} under [tree.place] in {config_file or 'the config'}"
    return out


def _would_not_last(ws: Workspace, key: str, domain: str, tree_config: dict[str, object], config_file: str) -> str:
    """Why `[tree.place] key = domain` would not file exactly that section in `domain` on a
    re-migrate ("" when it would)."""
    if not key:
        return "the leaf opens with no heading, and [tree.place] names sections by their headings"
    the_plan = plan(reassemble(ws).decode("utf-8", "replace"), tree_config, config_file)
    named = [part for part in the_plan.parts if part.heading and place.matches(key, part.title)]
    if len(named) != 1:
        return (f"{len(named)} sections of the original MEMORY.md have the heading {key!r}: "
                + ("an entry would file them all there" if named else "no entry can name this one"))
    if named[0].pinned or named[0].domain != domain:
        mine = f"[tree.place] {key!r} = {domain!r} not applied: "
        return next((w[len(mine):] for w in the_plan.warnings if w.startswith(mine)),
                    f"a re-migrate files it in {named[0].domain}")
    return ""
