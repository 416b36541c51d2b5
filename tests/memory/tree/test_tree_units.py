"""What the tree files as units follows the file's own structure (a title written as several `#`
lines is one title, not `#` sections), and a rule that says "don't show" stays a rule (texts invented)."""

from __future__ import annotations

import pytest

from qmem.memory import shared
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


# -- a rule that says "don't show" is no secret (texts invented) ----------------------------------

RULES_NOT_SECRETS = ["Don't show raw errors to users", "Do not tell customers the internal price", "No one else deploys",
                     "Rules: don't tell the client about the delay", "Nobody else has access to the NAS",
                     "Regla: no mostrar errores al usuario", "不要告诉用户内部价格", "ユーザーにエラーを見せないで", "나만의 루틴"]
SECRETS_STILL = ["Plans (don't tell anyone)", "Tell no one", "別告訴別人", "メモ（見せないで）", "Just between us"]


@pytest.mark.parametrize("heading", RULES_NOT_SECRETS)
def test_a_verb_of_telling_or_showing_marks_nothing_without_whom_it_is_kept_from(heading):
    assert not shared.confidential(heading)


@pytest.mark.parametrize("heading", SECRETS_STILL)
def test_telling_nobody_and_asides_still_mark_a_section(heading):
    assert shared.confidential(heading)


def test_a_rule_headed_do_not_show_stays_pinned_for_the_shared_boot(tmp_path):
    text = ("# Memory\n\n## Who I am\n- Dana, runs a small bakery\n\n## Do not show raw errors to users\n"
            "- always log errors to the file, never print stack traces to users\n- never paste a traceback into a chat\n"
            "- always answer with a short apology\n\n## Oven\n- the oven is a Rational, serviced in May\n")
    ws = make_ws(tmp_path, text)
    result = tree.migrate(ws, force=True, day="2026-03-01", explain=True)
    rows = {r["section"]: r["domain"] for r in result.sections}
    assert rows["Do not show raw errors to users"] == "(root: pinned)", rows


def test_a_bugs_symptoms_and_diagnosis_are_not_health():
    from qmem.memory.tree.domains import explain, load_table
    table = load_table({})
    bug = explain("Diagnosis of the build failure", "- the CI runner ran out of disk; pytest cache grew to 9 GB\n"
                  "- the build script retries twice\n", table)
    assert bug.domain != "private", bug.cues
    assert explain("网关卡住的症状", "- 服务器日志停止，重启服务后恢复\n", table).domain != "private"
    assert explain("Symptoms", "- headaches most mornings, worse after coffee\n- saw the doctor on Tuesday\n", table).domain == "private"
    assert explain("Diagnosis (2026-05)", "- mild anemia; iron supplements daily\n", table).domain == "private"
