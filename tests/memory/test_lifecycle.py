"""The memory lifecycle: remember, flush, state, boot, distill, janitor, maintain, protocol."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
from datetime import date

import pytest

from qmem.base.errors import BadInputError
from qmem.memory import boot, daily, distill, janitor, state
from qmem.memory.tree import grow as tree
from qmem.memory.workspace import Workspace

from ..conftest import ROOT

D = date(2026, 2, 28)


@pytest.fixture
def ws(workspace):
    return Workspace(str(workspace))


def log(ws, day=D):
    return open(ws.daily_log(day), encoding="utf-8").read()


# -- remember -----------------------------------------------------------------------------------

def test_remember_creates_the_log_and_computes_expiry(tmp_path):
    ws = Workspace(str(tmp_path))
    first = daily.remember(ws, "BSC USDC has 18 decimals", type_="K", priority="P1", ref="knowledge.md#bsc", day=D)
    assert (first.path, first.line) == ("memory/2026-02-28.md", 3)
    assert first.entry == "- [K] [P1|expire:2026-05-29] BSC USDC has 18 decimals → knowledge.md#bsc"
    assert daily.remember(ws, "short lived", type_="E", priority="P2", day=D).entry == \
        "- [E] [P2|expire:2026-03-30] short lived"
    assert daily.remember(ws, "forever", type_="security", priority="P0", day=D).entry == "- [!] [P0] forever"
    assert daily.remember(ws, "until then", expire="2026-06-01", day=D).entry == "- [P1|expire:2026-06-01] until then"
    assert daily.remember(ws, "multi\nline   text", day=D).entry == "- multi line text"
    assert log(ws).startswith("# 2026-02-28\n\n- [K]")
    for bad in ({"type_": "Z"}, {"priority": "P5"}, {"expire": "2026-13-01"}):
        with pytest.raises(BadInputError):
            daily.remember(ws, "x", day=D, **bad)
    with pytest.raises(BadInputError, match="empty"):
        daily.remember(ws, "   ", day=D)


def _remember_many(root, k):
    ws = Workspace(root)
    for i in range(100):
        daily.remember(ws, f"process {k} note {i:03d} " + "x" * 100, type_="E", day=D)


def test_concurrent_remember_loses_nothing(tmp_path):
    procs = [multiprocessing.Process(target=_remember_many, args=(str(tmp_path), k)) for k in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    lines = [line for line in log(Workspace(str(tmp_path))).splitlines() if line.startswith("- ")]
    assert len(lines) == 800
    assert all(re.fullmatch(r"- \[E\] process \d note \d{3} x{100}", line) for line in lines)
    assert len(set(lines)) == 800


# -- flush --------------------------------------------------------------------------------------

def test_flush_drops_duplicates_and_appends_one_block(ws):
    notes = "\n".join([
        "BSC USDC has 18 decimals!",                       # normalised duplicate of the log
        "[S] use rsync --partial for big copies",
        '{"text": "Lin prefers Markdown tables", "type": "P", "priority": "P2"}',
        "- [E] flushed event",
        "用户报告钱包余额异常，排查后确认是精度问题（18位小数）不是被盗",  # near-duplicate (CJK pairs)
        "use rsync --partial for big copies",              # duplicate inside the batch
        "",
    ])
    report = daily.flush(ws, notes, day=D)
    assert report.kept == ["- [S] use rsync --partial for big copies",
                           "- [P] [P2|expire:2026-03-30] Lin prefers Markdown tables", "- [E] flushed event"]
    assert len(report.dropped) == 3
    text = log(ws)
    assert text.count("flushed event") == 1 and text.endswith("- [E] flushed event\n")
    again = daily.flush(ws, notes, day=D)
    assert again.kept == [] and len(again.dropped) == 6  # idempotent


def test_flush_bad_json(ws):
    with pytest.raises(BadInputError, match="text"):
        daily.flush(ws, '{"type": "K"}', day=D)


# -- state --------------------------------------------------------------------------------------

def test_state_set_show_clear_archives(ws, workspace):
    assert state.show(ws) == ""
    state.set_state(ws, "refactoring the parser; next: tests")
    assert state.show(ws) == "refactoring the parser; next: tests\n"
    moved = state.clear(ws)
    assert moved.startswith("memory/archive/session-state-")
    assert (workspace / moved).read_text(encoding="utf-8") == "refactoring the parser; next: tests\n"
    assert state.show(ws) == "" and state.clear(ws) is None


# -- boot ---------------------------------------------------------------------------------------

def test_boot_order_and_budget(ws):
    state.set_state(ws, "working on the backup cron")
    result = boot.boot(ws, budget=2000, days=2, today=D)
    assert [p.kind for p in result.parts] == ["L0", "state", "daily", "daily"]
    assert [p.path for p in result.parts[2:]] == ["memory/2026-02-28.md", "memory/2026-02-27.md"]
    assert result.tokens <= 2000 and result.notes == []


def test_boot_trims_oldest_daily_lines_first_and_says_how_to_read_them(ws):
    for i in range(60):
        daily.remember(ws, f"今天的第{i}条记录：部署和备份都正常", type_="E", day=date(2026, 2, 27))
    for i in range(10):
        daily.remember(ws, f"today note {i}", day=D)
    result = boot.boot(ws, budget=700, days=2, today=D)
    assert result.tokens <= 700
    newest = next(p for p in result.parts if p.path.endswith("2026-02-28.md"))
    assert "today note 9" in newest.text and newest.omitted is None
    older = next(p for p in result.parts if p.path.endswith("2026-02-27.md"))
    first, count = older.omitted
    assert "今天的第59条记录" in older.text and "今天的第0条记录" not in older.text
    assert any(f"qmem get memory/2026-02-27.md:{first}:{count}" in note for note in result.notes)


def test_boot_shared_scope_leaves_out_private_parts(ws):
    text = boot.boot(ws, budget=5000, scope="shared", today=D).parts[0].text
    assert "私钥泄露" not in text and "Lin, a backend engineer" not in text  # security, identity
    assert "Rsync over SSH" in text
    result = boot.boot(ws, budget=5000, scope="shared", today=D)
    assert any("shared scope: left out" in n for n in result.notes)


def test_boot_shared_scope_on_a_tree_root(tmp_path):
    root = tmp_path / "flat"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_bytes((ROOT / "examples" / "flat-memory" / "MEMORY.md").read_bytes())
    ws = Workspace(str(root))
    tree.migrate(ws)
    text = boot.boot(ws, budget=5000, scope="shared").parts[0].text
    assert "- **security**" not in text and "- **identity**" not in text
    assert "- **infrastructure**" in text


def test_boot_prefers_abstract(ws, workspace):
    (workspace / "memory" / ".abstract").write_text("# Abstract\nshort\n", encoding="utf-8")
    assert boot.boot(ws, today=D).parts[0].path == "memory/.abstract"


# -- distill ------------------------------------------------------------------------------------

def test_distill_routes_merges_and_is_idempotent(ws, workspace):
    daily.remember(ws, "BSC USDC has 18 decimals.", type_="K", day=date(2026, 2, 26))
    daily.remember(ws, "an untyped note", day=D)
    first = distill.distill(ws, days=3, today=D)
    assert first.untyped == 1
    knowledge = (workspace / "memory" / "knowledge.md").read_text(encoding="utf-8")
    line = next(row for row in knowledge.splitlines() if "BSC USDC has 18 decimals" in row and "[log]" in row)
    assert line == "- [K] BSC USDC has 18 decimals → memory/knowledge.md#bsc (2026-02-26, 2026-02-28) [log](2026-02-28.md)"
    assert "<!-- qmem:summary -->" in knowledge and knowledge.index("qmem:summary") < knowledge.index("## BSC")
    skills = (workspace / "memory" / "skills.md").read_text(encoding="utf-8")
    assert skills.startswith("# Skills\n") and "排查链上余额" in skills
    assert (workspace / "memory" / "behaviors.md").exists() and (workspace / "memory" / "events.md").exists()
    memory_md = (workspace / "MEMORY.md").read_text(encoding="utf-8")
    assert "<!-- qmem:stats -->" in memory_md and "memory/knowledge.md" in memory_md
    before = {p: open(p, "rb").read() for p in ws.topic_files() + [ws.memory_md]}
    second = distill.distill(ws, days=3, today=D)
    assert second.added == [] and second.merged == []
    assert {p: open(p, "rb").read() for p in ws.topic_files() + [ws.memory_md]} == before


def test_distill_dry_run_writes_nothing(ws, workspace):
    before = sorted(os.listdir(workspace / "memory"))
    report = distill.distill(ws, days=3, today=D, dry_run=True)
    assert report.added and sorted(os.listdir(workspace / "memory")) == before


def test_distill_into_a_tree_and_custom_routes(tmp_path):
    root = tmp_path / "flat"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_bytes((ROOT / "examples" / "flat-memory" / "MEMORY.md").read_bytes())
    ws = Workspace(str(root))
    tree.migrate(ws)
    daily.remember(ws, "rotate the deploy key", type_="!", day=D)
    daily.remember(ws, "prefers tea in the afternoon", type_="P", day=D)
    distill.distill(ws, days=1, today=D, memory_config={"distill": {"P": "memory/people.md"}})
    leaf = open(os.path.join(ws.domains, "security", "security.md"), encoding="utf-8").read()
    assert "rotate the deploy key" not in leaf  # migrate's leaf stays as migrate wrote it
    assert "rotate the deploy key" in open(os.path.join(ws.domains, "security", "security-distilled.md"),
                                           encoding="utf-8").read()
    assert "prefers tea" in open(os.path.join(ws.memory_dir, "people.md"), encoding="utf-8").read()
    assert tree.reindex(ws).changed or True
    root_text = open(ws.memory_md, encoding="utf-8").read()
    assert root_text.index("qmem:stats") < root_text.index("## Domains")


# -- janitor ------------------------------------------------------------------------------------

EXPIRING = """# Notes

- [K] [P1|expire:2026-01-01] old fact
  with a continuation line
- [K] [P2|expire:2027-01-01] still fresh
- [P0] permanent fact
- plain fact
- [P1|expire:2026-13-40] malformed date
- [P7|expire:2026-01-01] unknown priority

### [P2|expire:2026-02-01] Old project
details of the old project
#### Sub heading
more details

### Current project
current details

```
- [K] [P1|expire:2020-01-01] inside a code block
```
"""


def test_janitor_moves_expired_entries_and_sections(ws, workspace):
    (workspace / "memory" / "notes.md").write_text(EXPIRING, encoding="utf-8")
    report = janitor.janitor(ws, today=date(2026, 3, 1))
    moved = [m.text.splitlines()[0] for m in report.moved]
    assert moved == ["- [K] [P1|expire:2026-01-01] old fact", "### [P2|expire:2026-02-01] Old project"]
    assert any("bad expiry date" in p for p in report.problems)
    assert any("unknown priority" in p for p in report.problems)
    notes = (workspace / "memory" / "notes.md").read_text(encoding="utf-8")
    for gone in ("old fact", "continuation", "Old project", "Sub heading", "more details"):
        assert gone not in notes
    for kept in ("still fresh", "permanent fact", "plain fact", "malformed date", "Current project",
                 "inside a code block"):
        assert kept in notes
    archive = (workspace / "memory" / "archive" / "2026-03.md").read_text(encoding="utf-8")
    assert "## From memory/notes.md (expired 2026-01-01, archived 2026-03-01)" in archive
    assert "with a continuation line" in archive and "more details" in archive
    again = janitor.janitor(ws, today=date(2026, 3, 1))
    assert again.moved == [] and (workspace / "memory" / "archive" / "2026-03.md").read_text(encoding="utf-8") == archive


def test_janitor_dry_run(ws, workspace):
    (workspace / "memory" / "notes.md").write_text(EXPIRING, encoding="utf-8")
    report = janitor.janitor(ws, today=date(2026, 3, 1), dry_run=True)
    assert len(report.moved) == 2
    assert (workspace / "memory" / "notes.md").read_text(encoding="utf-8") == EXPIRING
    assert not (workspace / "memory" / "archive").exists()


def test_janitor_crash_between_archive_and_source_then_rerun(ws, workspace, monkeypatch):
    (workspace / "memory" / "notes.md").write_text(EXPIRING, encoding="utf-8")

    class Crash(Exception):
        pass

    def crash(*args, **kwargs):
        raise Crash()

    monkeypatch.setattr(janitor, "rewrite_locked", crash)
    with pytest.raises(Crash):
        janitor.janitor(ws, today=date(2026, 3, 1))
    monkeypatch.undo()
    janitor.janitor(ws, today=date(2026, 3, 1))
    everything = "".join(open(p, encoding="utf-8").read() for p in
                         [workspace / "memory" / "notes.md", workspace / "memory" / "archive" / "2026-03.md"])
    assert everything.count("old fact") == 1 and everything.count("details of the old project") == 1
    assert everything.count("still fresh") == 1


def test_janitor_never_loses_a_concurrent_append(ws, workspace):
    path = ws.daily_log(D)
    from qmem.base.writes import append_locked

    append_locked(path, "- [K] [P1|expire:2026-01-01] expired\n", header="# 2026-02-28\n\n")  # remember refuses a past date
    appended = []
    real = janitor.find_moves

    def find_and_append(*args, **kwargs):  # an agent appends right after the janitor read the file
        if args[1] == path and not appended:
            appended.append(daily.remember(ws, "appended meanwhile", day=D))
        return real(*args, **kwargs)

    janitor.find_moves = find_and_append
    try:
        janitor.janitor(ws, today=date(2026, 3, 1))
    finally:
        janitor.find_moves = real
    text = log(ws)
    assert appended and "appended meanwhile" in text and "[K] [P1|expire:2026-01-01]" not in text


# -- CLI ------------------------------------------------------------------------------------------

def test_memory_cli_commands_and_flags(cli, workspace, monkeypatch):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.chdir(workspace)
    out = cli("remember", "BSC USDC and USDT both have 18 decimals", "--type", "K", "--priority", "P1",
              "--ref", "knowledge.md#bsc", "--date", "2026-02-28")
    assert out.code == 0 and out.out.startswith("memory/2026-02-28.md:10@") and "  - [K] [P1|expire:2026-05-29]" in out.out
    data = json.loads(cli("remember", "note", "-t", "E", "-p", "P2", "--expire", "2026-04-01", "--date",
                          "2026-02-28", "-w", str(workspace), "--json").out)
    assert data["entry"] == "- [E] [P2|expire:2026-04-01] note"
    assert cli("remember", "x", "--type", "Z").code == 2
    assert cli("remember", "x", "--date", "yesterday").code == 2
    notes = workspace / "notes.txt"
    notes.write_text("[S] a new skill\nBSC USDC has 18 decimals\n", encoding="utf-8")
    flushed = cli("flush", "--from", str(notes), "--date", "2026-02-28")
    assert "kept 1, dropped 1" in flushed.out
    assert json.loads(cli("flush", "--from", str(notes), "--date", "2026-02-28", "--json").out)["kept"] == []
    assert cli("flush", "--from", str(workspace / "missing.txt")).code == 2
    assert cli("state", "set", "doing X").code == 0
    assert cli("state", "show").out.strip() == "doing X"
    assert json.loads(cli("state", "show", "--json").out)["text"] == "doing X\n"
    assert "old buffer is in memory/archive/" in cli("state", "clear").out
    assert cli("state", "show").out.strip() == "(empty)"
    booted = cli("boot", str(workspace), "--budget", "600", "--days", "2", "--today", "2026-02-28")
    assert booted.code == 0 and "<!-- qmem boot: MEMORY.md" in booted.out
    parts = json.loads(cli("boot", "--scope", "shared", "--today", "2026-02-28", "--json").out)
    assert parts["scope"] == "shared" and parts["tokens"] <= parts["budget"]
    assert cli("boot", "--scope", "public").code == 2
    plan = cli("distill", "--days", "3", "--today", "2026-02-28", "--dry-run")
    assert plan.out.startswith("dry run:")
    assert json.loads(cli("distill", "--days", "3", "--today", "2026-02-28", "--json").out)["added"]
    assert "0 added" in cli("distill", "--today", "2026-02-28").out
    swept = cli("janitor", "--today", "2026-12-31", "--dry-run")
    assert "would move" in swept.out
    assert json.loads(cli("janitor", "--today", "2026-12-31", "--json").out)["moved"]
    report = json.loads(cli("maintain", "--today", "2026-12-31", "--json").out)
    assert report["refreshed"] == ["main"] and report["janitor"]["moved"] == []
    assert "index: refreshed main" in cli("maintain", "--today", "2026-12-31").out
    assert cli("maintain", "-q").out == ""
    assert "qmem boot" in cli("protocol").out
    for command in (["boot"], ["remember"], ["flush"], ["state", "show"], ["state", "set"], ["state", "clear"],
                    ["distill"], ["janitor"], ["maintain"], ["protocol"]):
        assert cli(*command, "--help").code == 0, command


def test_commands_need_a_workspace(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("boot").code == 2
    monkeypatch.setenv("QMEM_WORKSPACE", str(ROOT / "examples" / "workspace"))
    assert cli("boot", "--today", "2026-02-28").code == 0
