"""Issue 16, item 2: forget and correct remembered entries (moved, never deleted), MCP
memory_forget, `state append`, and `state set` keeping the previous buffer."""

from __future__ import annotations

import json
import os

import pytest

from qmem.memory import forget
from qmem.memory.workspace import Workspace


@pytest.fixture
def ws(cli, workspace, monkeypatch):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def archive_text(ws) -> str:
    folder = ws / "memory" / "archive"
    return "".join((folder / n).read_text(encoding="utf-8") for n in sorted(os.listdir(folder)) if n[:4].isdigit())


def test_forget_by_ref_moves_the_entry_to_the_archive_and_refreshes_the_index(cli, ws):
    log = ws / "memory" / "2026-02-28.md"
    before = log.read_bytes()
    assert "2026-02-28.md" in cli("search", "nas-01", "--files").out
    res = cli("forget", "memory/2026-02-28.md:4 nightly backup")
    assert res.code == 0, res
    assert res.out.startswith("forgot memory/2026-02-28.md:4@770eae82  - [E] Deployed the nightly backup job")
    assert "moved to memory/archive/" in res.out and "nothing is deleted" in res.out
    after = log.read_bytes()
    gone = [line for line in before.splitlines(keepends=True) if line not in after.splitlines(keepends=True)]
    assert len(gone) == 1 and b"nas-01" in gone[0]
    assert after == before.replace(gone[0], b"")  # every other byte unchanged
    assert "Deployed the nightly backup job" in archive_text(ws) and "qmem:moved" in archive_text(ws)
    found = cli("search", "nas-01", "--files").out
    assert "2026-02-28.md" not in found and "memory/archive/" not in found  # refreshed at once; archives excluded


def test_forget_by_words_refuses_when_several_match_and_lists_them(cli, ws):
    res = cli("forget", "usdc")
    assert res.code == 2 and "3 entries match" in res.err and "memory/2026-02-28.md:5" in res.err
    assert "--all" in res.err and not (ws / "memory" / "archive").exists()
    res = cli("forget", "usdc", "--all", "--json")
    data = json.loads(res.out)
    assert res.code == 0 and len(data["forgotten"]) == 3 and data["archive"].startswith("memory/archive/")
    assert archive_text(ws).count("BSC USDC") == 3
    assert cli("forget", "usdc").code == 2 and "no remembered entry matches" in cli("forget", "usdc").err


def test_forget_refuses_non_entries_and_paths_outside(cli, ws):
    assert "is not a list entry" in cli("forget", "memory/2026-02-28.md:1").err
    assert cli("forget", "../../etc/passwd.md:1").code == 2
    assert cli("forget", "   ").code == 2


def test_forget_with_a_chinese_phrase(cli, ws):
    res = cli("forget", "精度问题")
    assert res.code == 0 and "用户报告钱包余额异常" in res.out
    assert "用户报告钱包余额异常" not in (ws / "memory" / "2026-02-28.md").read_text(encoding="utf-8")


def test_forget_after_a_crash_does_not_archive_twice(ws):
    w = Workspace(str(ws))
    block = forget.find(w, "memory/2026-02-28.md:4@770eae82")[0]
    forget._archive(w, [block], __import__("datetime").date.today(), "Forgotten from")  # crashed after this
    forget.forget(w, "memory/2026-02-28.md:4@770eae82")
    assert archive_text(ws).count("Deployed the nightly backup job") == 1
    assert "Deployed the nightly" not in (ws / "memory" / "2026-02-28.md").read_text(encoding="utf-8")


def test_remember_replace_corrects_in_place_and_keeps_the_old_wording(cli, ws):
    res = cli("remember", "BSC USDC has 18 decimals on BNB chain", "--replace", "memory/2026-02-28.md:5@29cc093e")
    assert res.code == 0, res
    from qmem.memory.entries import entry_id

    new = "- [K] BSC USDC has 18 decimals on BNB chain → memory/knowledge.md#bsc"
    assert res.out.splitlines()[0] == f"memory/2026-02-28.md:5@{entry_id(new)}  {new}"
    assert "the old entry is in memory/archive/" in res.out
    lines = (ws / "memory" / "2026-02-28.md").read_text(encoding="utf-8").splitlines()
    assert lines[4] == "- [K] BSC USDC has 18 decimals on BNB chain → memory/knowledge.md#bsc"
    assert "- [K] BSC USDC has 18 decimals → memory/knowledge.md#bsc" in archive_text(ws)
    assert cli("search", "BNB chain", "--files").out.startswith(str(ws / "memory" / "2026-02-28.md"))
    res = cli("remember", "x", "--replace", "usdc")
    assert res.code == 2 and "name one" in res.err


def test_mcp_memory_forget(ws):
    from qmem.faces.mcp import Memory

    result = Memory().memory_forget("memory/2026-02-28.md:4 nightly backup job")
    assert result["forgotten"][0]["line"] == 4 and result["archive"].startswith("memory/archive/")


def test_state_append_adds_and_set_archives_the_previous_buffer(cli, ws):
    assert cli("state", "set", "refactoring the parser").code == 0
    res = cli("state", "append", "next: tests for the parser")
    assert res.code == 0 and res.out.strip() == "SESSION-STATE.md:2"
    assert (ws / "SESSION-STATE.md").read_text(encoding="utf-8") == \
        "refactoring the parser\nnext: tests for the parser\n"
    res = cli("state", "set", "a new task")
    assert res.code == 0 and "the previous buffer is in memory/archive/session-state-" in res.out
    kept = res.out.split("the previous buffer is in ")[1].strip()
    assert (ws / kept).read_text(encoding="utf-8") == "refactoring the parser\nnext: tests for the parser\n"
    assert "previous" not in cli("state", "set", "a new task").out  # same text: nothing to keep
    assert cli("state", "append", "  ").code == 2


# -- a ref names an entry, not a line; words are whole words --------------------------------------

def test_a_ref_from_remember_still_names_its_entry_after_janitor_moved_the_lines(cli, ws):
    log = ws / "memory" / "2026-03-01.md"
    log.write_text("# 2026-03-01\n\n- [K] [P2|expire:2026-03-05] the staging password rotates weekly\n"
                   "- [K] the wifi code is 4417\n", encoding="utf-8")
    fact = cli("remember", "the gate code is 1234", "--date", "2026-03-01", "--json")
    ref = json.loads(fact.out)["ref"]
    assert ref.startswith("memory/2026-03-01.md:5@")
    assert cli("janitor", "--today", "2026-03-10").code == 0  # the expired entry leaves: lines shift up
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[3] == "- the gate code is 1234" and lines[4:] == []  # line 5 is now past the end
    fixed = cli("remember", "the gate code is 9876", "--replace", ref)
    assert fixed.code == 0, fixed
    text = log.read_text(encoding="utf-8")
    assert "the gate code is 9876" in text and "the gate code is 1234" not in text
    assert "the wifi code is 4417" in text  # the entry that moved onto the old line is untouched


def test_a_ref_whose_entry_is_gone_acts_on_nothing(cli, ws):
    log = ws / "memory" / "2026-03-01.md"
    log.write_text("# 2026-03-01\n\n- [K] first fact\n- [K] second fact\n", encoding="utf-8")
    ref = forget.find(Workspace(str(ws)), "memory/2026-03-01.md:3 first fact")[0].ref
    assert cli("forget", ref).code == 0
    before = log.read_bytes()
    again = cli("forget", ref)  # line 3 now holds "second fact": not the entry the ref names
    assert again.code == 2 and "no longer in memory/2026-03-01.md" in again.err, again
    assert log.read_bytes() == before


def test_a_bare_line_names_no_entry_and_the_refusal_gives_its_ref(cli, ws):
    before = (ws / "memory" / "2026-02-28.md").read_bytes()
    res = cli("forget", "memory/2026-02-28.md:4")
    assert res.code == 2 and res.err.count("\n") == 1
    assert "memory/2026-02-28.md:4@770eae82" in res.err and "lines move" in res.err
    res = cli("remember", "x", "--replace", "memory/2026-02-28.md:5")
    assert res.code == 2 and "memory/2026-02-28.md:5@29cc093e" in res.err
    assert (ws / "memory" / "2026-02-28.md").read_bytes() == before
    wrong_words = cli("forget", "memory/2026-02-28.md:4 gateway latency")
    assert wrong_words.code == 2 and (ws / "memory" / "2026-02-28.md").read_bytes() == before


def test_forget_words_match_whole_words_only(cli, ws):
    log = ws / "memory" / "2026-03-02.md"
    log.write_text("# 2026-03-02\n\n- [K] keep this one\n- [K] 网关延迟已修复\n", encoding="utf-8")
    res = cli("forget", "ep th")
    assert res.code == 2 and "no remembered entry matches" in res.err
    assert "keep this one" in log.read_text(encoding="utf-8")
    assert cli("forget", "keep this").code == 0
    assert "keep this one" not in log.read_text(encoding="utf-8")
    assert cli("forget", "延迟").code == 0  # Chinese has no spaces: a part of a run is words
