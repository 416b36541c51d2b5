"""What the tree files as units follows the file's own structure; a title written as several `#`
lines is one title, not `#` sections (texts invented)."""

from __future__ import annotations

from qmem.memory.tree import grow as tree
from qmem.memory.tree import units

from .test_tree_invariants import check_invariants, make_ws

TITLE_IN_THREE_LINES = (
    "# MEMORY.md - long-term memory\n"
    "# events, decisions, lessons and people\n"
    "# settings are in TOOLS.md / looks in IDENTITY.md\n"
    "\n"
    "## How the files are used\n- daily notes go to memory/YYYY-MM-DD.md\n\n"
    "## Lessons\n- never restart the gateway during a call\n\n"
    "## The robot\n- arm firmware 2.1, calibrate before each demo\n"
)


def test_a_title_written_as_several_h1_lines_stays_a_title():
    preamble, parts = units.units(TITLE_IN_THREE_LINES)
    assert [p.title for p in parts] == ["How the files are used", "Lessons", "The robot"]
    assert preamble.count("\n# ") == 2 and preamble.startswith("# MEMORY.md")
    assert preamble + "".join(p.text for p in parts) == TITLE_IN_THREE_LINES


def test_h1_sections_with_bodies_are_still_sections():
    text = "# Title\n# Subtitle\n\n# Section A\ncontent a\n# Section B\ncontent b\n"
    preamble, parts = units.units(text)
    assert preamble == "# Title\n# Subtitle\n\n" and [p.title for p in parts] == ["Section A", "Section B"]
    text = "# A\ncontent\n# B\ncontent\n# C\nmore\n"
    assert [p.title for p in units.units(text)[1]] == ["A", "B", "C"]


def test_migrate_files_each_section_under_a_multi_line_title(tmp_path):
    ws = make_ws(tmp_path, TITLE_IN_THREE_LINES)
    result = tree.migrate(ws, force=True, day="2026-03-01", explain=True)
    assert len(result.sections) == 3, [r["section"] for r in result.sections]
    check_invariants(ws, TITLE_IN_THREE_LINES)
