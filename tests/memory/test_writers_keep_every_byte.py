"""Memory writers never lose, alter or misplace a byte (issue 11): one test per finding."""

from __future__ import annotations

import json
import os

import pytest

from qmem.base.errors import QmemError
from qmem.memory.tree import grow as tree

from ..conftest import ROOT

FLAT = ROOT / "examples" / "flat-memory"
DAY = "2026-03-01"


def make_ws(tmp_path, text: str | bytes, name: str = "ws") -> tree.Workspace:
    root = tmp_path / name
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    (root / "memory" / "2026-02-28.md").write_text("# 2026-02-28\n- [E] a daily log entry\n", encoding="utf-8")
    return tree.Workspace(str(root))


def flat_ws(tmp_path) -> tuple[tree.Workspace, str]:
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    tree.migrate(ws, day=DAY)
    return ws, original


def read(path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def leaves_text(ws: tree.Workspace) -> str:
    out = []
    for dirpath, _, files in os.walk(ws.domains):
        out += [read(os.path.join(dirpath, n)) for n in sorted(files) if n.endswith(".md") and n != "_index.md"]
    return "\n".join(out)


# -- 1. reindex keeps sections appended to the root ------------------------------------------------

def test_reindex_moves_sections_appended_to_the_root_into_leaves_and_reports_them(tmp_path):
    ws, _ = flat_ws(tmp_path)
    with open(ws.memory_md, "a", encoding="utf-8") as handle:
        handle.write("\n## New lesson about paging\n- [K] Opsgenie pages the on-call phone\n"
                     "\n## [pin] Always\n- keep this one in the root\n")
    result = tree.reindex(ws, day=DAY)
    moved = {m["what"]: m["to"] for m in result.moved}
    target = moved["section 'New lesson about paging'"]
    assert target.startswith("memory/domains/") and "Opsgenie pages the on-call phone" in read(os.path.join(ws.root, target))
    root = read(ws.memory_md)
    assert "## New lesson about paging" not in root  # moved, not copied
    assert root.index("keep this one in the root") < root.index("## Domains")
    assert target.split("/")[2] in root  # its domain is listed
    assert not tree.reindex(ws, day=DAY).changed  # nothing more to move the second time


def test_reindex_keeps_lines_written_inside_the_domain_list(tmp_path):
    ws, _ = flat_ws(tmp_path)
    root = read(ws.memory_md)
    at = root.index("- **", root.index("## Domains"))  # a domain's line
    line_end = root.index("\n", at) + 1
    with open(ws.memory_md, "w", encoding="utf-8", newline="") as handle:
        handle.write(root[:line_end] + "- a note typed under a domain entry\n" + root[line_end:])
    tree.reindex(ws, day=DAY)
    root = read(ws.memory_md)
    assert root.index("a note typed under a domain entry") < root.index("## Domains")


# -- 2. rollback refuses (or rescues) root text qmem did not write, even after reindex --------------

def test_rollback_sees_a_root_edit_after_reindex_and_rescues_it(tmp_path):
    ws, original = flat_ws(tmp_path)
    root = read(ws.memory_md)
    with open(ws.memory_md, "w", encoding="utf-8", newline="") as handle:
        handle.write(root.replace("Keep facts short;", "Keep facts short (edited by hand);"))
    tree.reindex(ws, day=DAY)
    with pytest.raises(tree.TreeError, match="MEMORY.md"):
        tree.rollback(ws)
    result = tree.rollback(ws, force=True)
    assert "edited by hand" in read(os.path.join(ws.root, result.rescue, "MEMORY.md"))
    assert read(ws.memory_md) == original


# -- 3. the original title stays, and root + leaves reassemble the original byte for byte -----------

@pytest.mark.parametrize("text", [
    "# Agent Mia\r\n\r\nintro\r\n\r\n## [pin] Rules\r\n- r\r\n\r\n## Servers\r\n- s\r\n## [P0] Keys\r\n- k\r\n## Family\r\n- f",
    "\n\nno title here\n## Family\n- f\n## [pin] Rules\n- r\n\n\n",
    "## Servers\n- s\n## Clients\n- c\n",
    "---\ntitle: x\n---\n# Title after front matter\n## Servers\n- s\u2028still the same line\n",
])
def test_root_keeps_the_title_and_reassembles_the_original(tmp_path, text):
    ws = make_ws(tmp_path, text)
    tree.migrate(ws, force=True, day=DAY)
    root = read(ws.memory_md)
    title = next((line for line in text.splitlines() if line.startswith("# ")), "# Memory Index")
    assert title in root.split("## Domains")[0]
    assert tree.reassemble(ws) == text.encode("utf-8")
    tree.rollback(ws)
    assert open(ws.memory_md, "rb").read() == text.encode("utf-8")


# -- 4. hand-added leaves: rollback rescues them into a named folder; migrate names what blocks it ---

def test_rollback_rescues_hand_added_leaves_and_migrate_runs_again(tmp_path):
    ws, original = flat_ws(tmp_path)
    added = os.path.join(ws.domains, "security", "new-keys.md")
    with open(added, "w", encoding="utf-8") as handle:
        handle.write("## New keys\n- [!] rotated the deploy key\n")
    with pytest.raises(tree.TreeError, match=r"new-keys.md \(added\)"):
        tree.rollback(ws)
    result = tree.rollback(ws, force=True)
    rescued = os.path.join(ws.root, result.rescue, "domains", "security", "new-keys.md")
    assert "rotated the deploy key" in read(rescued)
    assert {"what": "added after migrate", "from": "memory/domains/security/new-keys.md",
            "to": os.path.relpath(rescued, ws.root)} in result.moved
    assert read(ws.memory_md) == original and not os.path.exists(ws.domains)
    assert tree.migrate(ws, day=DAY).changed  # nothing stranded blocks the next migrate


def test_migrate_names_the_files_of_a_domains_folder_it_did_not_make(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    os.makedirs(os.path.join(ws.domains, "misc"))
    with open(os.path.join(ws.domains, "misc", "mine.md"), "w", encoding="utf-8") as handle:
        handle.write("- mine\n")
    with pytest.raises(tree.TreeError, match="memory/domains/misc/mine.md"):
        tree.migrate(ws, day=DAY)
    assert read(os.path.join(ws.domains, "misc", "mine.md")) == "- mine\n"


# -- 8 (tree part). a tampered manifest or a staging link never reaches outside the workspace -------

@pytest.mark.parametrize("field,value", [
    ("leaves", {"../../../outside.md": "0"}),
    ("indexes", ["../../outside.md"]),
    ("backup", "../outside.md"),
])
def test_tampered_manifest_is_refused(tmp_path, field, value):
    ws, _ = flat_ws(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text("not yours\n", encoding="utf-8")
    path = tree.manifest_path(ws)
    manifest = json.load(open(path, encoding="utf-8"))
    manifest[field] = value
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(manifest, handle)
    for action in (lambda: tree.rollback(ws, force=True), lambda: tree.reindex(ws, day=DAY)):
        with pytest.raises(QmemError, match="not a manifest qmem wrote"):
            action()
    assert outside.read_text(encoding="utf-8") == "not yours\n"


def test_staging_link_is_never_followed(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, tree.staging_path(ws))
    tree.migrate(ws, day=DAY)
    assert list(outside.iterdir()) == []
    assert not os.path.lexists(tree.staging_path(ws))


# -- 11. tree and distill live together ------------------------------------------------------------

def test_distill_after_migrate_never_duplicates_and_rollback_needs_no_force(tmp_path):
    from datetime import date

    from qmem.memory import daily, distill

    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    today = date(2026, 2, 28)
    daily.remember(ws, "the staging bucket is eu-west-3", type_="K", day=today)
    daily.remember(ws, "rotate the deploy key", type_="!", day=today)
    distill.distill(ws, days=2, today=today)  # before the tree: memory/knowledge.md, stats in MEMORY.md
    assert "<!-- qmem:stats -->" in read(ws.memory_md)
    with_stats = read(ws.memory_md)
    tree.migrate(ws, day=DAY)
    root = read(ws.memory_md)
    assert root.index("<!-- qmem:stats -->") < root.index("## Domains")  # the stats block stays in the root
    assert "qmem:stats" not in leaves_text(ws)
    daily.remember(ws, "prefers tea in the afternoon", type_="P", day=today)
    report = distill.distill(ws, days=2, today=today)
    assert [a["entry"] for a in report.added] == ["- [P] prefers tea in the afternoon"]  # nothing twice
    everything = leaves_text(ws) + read(os.path.join(ws.memory_dir, "knowledge.md"))
    assert everything.count("the staging bucket is eu-west-3") == 1
    assert tree.reindex(ws, day=DAY).moved == []  # the stats block is qmem's: nothing to file
    result = tree.rollback(ws)  # distill edited no leaf of migrate's and the stats are qmem's: no --force
    moved = {m["from"]: m["to"] for m in result.moved}
    assert moved["memory/domains/identity/profile.md"] == "memory/profile.md"
    assert "prefers tea" in read(os.path.join(ws.memory_dir, "profile.md"))
    assert read(ws.memory_md) == with_stats and not os.path.exists(ws.domains)
    assert not [n for n in os.listdir(ws.memory_dir) if n.endswith("-distilled.md")]  # back under distill's own names


# -- 5. distill takes the writers' lock and re-reads under it ---------------------------------------

def test_distill_never_loses_a_line_appended_while_it_merges(tmp_path, monkeypatch):
    import threading
    import time
    from datetime import date

    from qmem.base.writes import append_locked
    from qmem.memory import daily, distill

    ws = make_ws(tmp_path, "# Memory\n")
    today = date(2026, 2, 28)
    daily.remember(ws, "first fact", type_="K", day=today)
    distill.distill(ws, days=1, today=today)
    daily.remember(ws, "second fact", type_="K", day=today)
    target = os.path.join(ws.memory_dir, "knowledge.md")
    real = distill._render_file
    threads = []

    def render_while_someone_appends(*args, **kwargs):
        if args[0] == target and not threads:  # another writer appends while distill merges the file
            threads.append(threading.Thread(target=append_locked, args=(target, "- appended by hand\n")))
            threads[0].start()
            time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(distill, "_render_file", render_while_someone_appends)
    report = distill.distill(ws, days=1, today=today)
    threads[0].join()
    text = read(target)
    assert "- appended by hand" in text
    assert [a["entry"] for a in report.added] == ["- [K] second fact"] and "second fact" in text


def test_distill_never_copies_an_expired_entry(tmp_path):
    from datetime import date

    from qmem.memory import distill

    ws = make_ws(tmp_path, "# Memory\n")
    today = date(2026, 2, 28)
    from qmem.base.writes import append_locked

    append_locked(ws.daily_log(today), "- [K] [P1|expire:2026-02-01] stale fact\n",  # remember refuses a past date
                  header="# 2026-02-28\n\n")
    report = distill.distill(ws, days=1, today=today)
    assert all("stale fact" not in a["entry"] for a in report.added) and report.expired == 1


# -- 6. rewrites keep every byte they do not mean to change -----------------------------------------

ODD = ["\r\n", "\n", "\r"]
LINES = ["- [K] keep\x85three", "- [K] [P2|expire:2020-01-01] old\u2028still old", "plain \x0c text \x1c here",
         "\ufeff# Title", "- [P0] forever", "## [P1|expire:2020-02-01] Old section", "  indented under it",
         "", "- [K] [P1|expire:2999-01-01] fresh", "```", "中文 \u2029 行"]


def janitor_case(draw_lines, endings, final):
    out = ""
    for k, line in enumerate(draw_lines):
        out += line + (endings[k % len(endings)] if k < len(draw_lines) - 1 or final else "")
    return out


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

odd_text = st.builds(janitor_case, st.lists(st.one_of(st.sampled_from(LINES), st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=12)), max_size=12),
    st.lists(st.sampled_from(ODD), min_size=1, max_size=3), st.booleans())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=odd_text)
def test_janitor_removes_only_the_moved_lines_byte_for_byte(tmp_path, text):
    from datetime import date

    from qmem.memory import janitor
    from qmem.memory.workspace import raw_lines

    folder = tmp_path / f"j{abs(hash(text))}"
    ws = make_ws(folder, "# Memory\n") if not folder.exists() else tree.Workspace(str(folder / "ws"))
    path = os.path.join(ws.memory_dir, "notes.md")
    with open(path, "wb") as handle:
        handle.write(text.encode("utf-8"))
    before = os.stat(path).st_ino
    report = janitor.janitor(ws, today=date(2026, 3, 1))
    after = open(path, "rb").read().decode("utf-8")
    raw = raw_lines(text)
    gone = {i for m in report.moved if m.source == "memory/notes.md" for i in range(m.line - 1, m.line - 1 + m.count)}
    assert after == "".join(line for i, line in enumerate(raw) if i not in gone)
    if not gone:
        assert os.stat(path).st_ino == before  # nothing to move: not even rewritten
    archive = read(os.path.join(ws.archive, "2026-03.md")) if gone else ""
    for i in gone:
        assert raw[i] in archive or raw[i] + "\n" in archive


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=odd_text)
def test_distill_stats_block_leaves_memory_md_bytes_alone(tmp_path, text):
    from qmem.memory import distill
    from qmem.memory.workspace import raw_lines

    new = distill._with_stats(text, "Distilled entries: memory/knowledge.md 1 (last 2026-02-28)")
    old_lines, new_lines = raw_lines(text), raw_lines(new)
    it = iter(new_lines)
    for k, line in enumerate(old_lines):  # every old line, in order, with its own ending
        last_unended = k == len(old_lines) - 1 and not line.endswith(("\n", "\r"))
        assert any(candidate == line or (last_unended and candidate.rstrip("\r\n") == line) for candidate in it)
    added = [line.rstrip("\r\n") for line in new_lines]
    for line in old_lines:
        if line.rstrip("\r\n") in added:
            added.remove(line.rstrip("\r\n"))
    assert [a for a in added if a] == [distill.STATS_START, "Distilled entries: memory/knowledge.md 1 (last 2026-02-28)",
                                       distill.STATS_END]
    assert distill._with_stats(new, "Distilled entries: memory/knowledge.md 1 (last 2026-02-28)") == new


def test_janitor_keeps_crlf_and_odd_separators(tmp_path):
    from datetime import date

    from qmem.memory import janitor

    ws = make_ws(tmp_path, "# Memory\r\n\r\n- [K] [P2|expire:2020-01-01] old\r\n- [K] keep\x85three\r\n- last")
    janitor.janitor(ws, today=date(2026, 3, 1))
    assert open(ws.memory_md, "rb").read() == "# Memory\r\n\r\n- [K] keep\x85three\r\n- last".encode("utf-8")


# -- 7. what is not a readable UTF-8 file is skipped with a warning; a FIFO is never opened ----------

def test_janitor_and_maintain_skip_unreadable_files_and_fifos(tmp_path):
    import subprocess
    import sys
    from datetime import date

    from qmem.memory import janitor

    ws = make_ws(tmp_path, "# Memory\n- [K] [P2|expire:2020-01-01] old\n")
    mem = ws.memory_dir
    with open(os.path.join(mem, "latin.md"), "wb") as handle:
        handle.write("- [K] [P2|expire:2020-01-01] caf\xe9\n".encode("latin-1"))
    with open(os.path.join(mem, "utf16.md"), "wb") as handle:
        handle.write("- note\n".encode("utf-16"))
    with open(os.path.join(mem, "binary.md"), "wb") as handle:
        handle.write(b"\x00\x01\x02- [K] [P2|expire:2020-01-01] x\n")
    os.mkfifo(os.path.join(mem, "x.md"))
    report = janitor.janitor(ws, today=date(2026, 3, 1))
    problems = "\n".join(report.problems)
    for name in ("latin.md", "utf16.md", "binary.md", "x.md"):
        assert f"memory/{name}:" in problems and "skipped" in problems
    assert [m.source for m in report.moved] == ["MEMORY.md"]  # the good file was still cleaned
    code = ("import sys; from qmem.memory import janitor; from qmem.memory.workspace import Workspace; "
            "from datetime import date; r = janitor.janitor(Workspace(sys.argv[1]), today=date(2026, 3, 2)); "
            "print(len(r.problems))")
    done = subprocess.run([sys.executable, "-c", code, ws.root], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and int(done.stdout) >= 4  # a second run does not hang on the FIFO either


# -- 8. every path written is a regular file inside the workspace ----------------------------------

def test_writers_refuse_links_leading_outside_and_boot_never_prints_them(tmp_path):
    from datetime import date

    from qmem.base.errors import UnsafePathError
    from qmem.memory import boot, daily, janitor, state

    ws = make_ws(tmp_path, "# Memory\n- [K] [P2|expire:2020-01-01] old\n")
    outside = tmp_path / "outside.md"
    outside.write_text("# not the agent's\nsecret outside\n", encoding="utf-8")
    today = date(2026, 3, 1)
    os.symlink(outside, ws.daily_log(today))
    with pytest.raises(UnsafePathError, match="memory/2026-03-01.md"):
        daily.remember(ws, "a fact", day=today)
    with pytest.raises(UnsafePathError):
        daily.flush(ws, "a fact\n", day=today)
    os.symlink(outside, ws.session_state)
    with pytest.raises(UnsafePathError):
        state.set_state(ws, "doing things")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, ws.archive)
    report = janitor.janitor(ws, today=today)
    assert any("refusing to write" in p for p in report.problems) and list(elsewhere.iterdir()) == []
    assert outside.read_text(encoding="utf-8") == "# not the agent's\nsecret outside\n"
    os.unlink(ws.memory_md)
    os.symlink(outside, ws.memory_md)
    result = boot.boot(ws, today=today)
    assert "secret outside" not in "".join(p.text for p in result.parts)
    assert any("MEMORY.md" in n and "outside" in n for n in result.notes)


# -- 9. agent input cannot forge or drop memory ----------------------------------------------------

def test_control_characters_are_stripped_and_a_ref_stays_one_word(tmp_path, cli, monkeypatch):
    from datetime import date

    from qmem.base.errors import BadInputError
    from qmem.memory import daily
    from qmem.engine.sync import read_sections
    from qmem.engine.scan import FileInfo

    ws = make_ws(tmp_path, "# Memory\n")
    today = date(2026, 3, 1)
    written = daily.remember(ws, "nul\x00 here\x1b[31m red\nsecond line", type_="K", day=today)
    assert written.entry == "- [K] nul here[31m red second line"
    path = ws.daily_log(today)
    assert b"\x00" not in open(path, "rb").read()
    info = FileInfo("memory/2026-03-01.md", path, os.path.getsize(path), 0)
    assert read_sections(info).sections  # the day's log stays indexable
    with pytest.raises(BadInputError, match="--ref"):
        daily.remember(ws, "fact", ref="x.md\n## Forged\n- [P0] forged", day=today)
    monkeypatch.setenv("QMEM_WORKSPACE", ws.root)
    forged = cli("remember", "fact", "--ref", "a.md\n## Forged", "--date", "2026-03-01")
    assert forged.code == 2 and "Forged" not in read(path)


def test_flush_keeps_the_good_lines_and_names_the_bad_ones(tmp_path, cli, monkeypatch):
    from datetime import date

    from qmem.memory import daily

    ws = make_ws(tmp_path, "# Memory\n")
    batch = ('- [K] first good note\n{"text": "second good note", "type": "K"}\n{not json\n'
             '{"type": "K"}\n- [Q] an unknown tag stays\n')
    report = daily.flush(ws, batch, day=date(2026, 3, 1))
    assert report.kept == ["- [K] first good note", "- [K] second good note", "- [Q] an unknown tag stays"]
    assert [n for n, _ in report.rejected] == [3, 4]
    monkeypatch.setenv("QMEM_WORKSPACE", ws.root)
    src = tmp_path / "batch.txt"
    src.write_text("- third good note\n{broken\n", encoding="utf-8")
    result = cli("flush", "--from", str(src), "--date", "2026-03-01", "--json")
    assert result.code == 0 and "line 2" in result.err
    assert json.loads(result.out)["rejected"][0]["line"] == 2 and "third good note" in read(ws.daily_log(date(2026, 3, 1)))


# -- 10. what was just remembered can be found at once ----------------------------------------------

def test_remember_then_search_finds_it_and_a_busy_index_is_said(cli, workspace, monkeypatch):
    from qmem.base import config
    from qmem.base.writes import FileLock
    from qmem.base.layout import lock_path
    from qmem.memory import daily
    from qmem.memory.workspace import Workspace

    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    assert cli("remember", "Pager alerts go through Opsgenie", "--type", "K").code == 0
    found = json.loads(cli("search", "opsgenie", "--json").out)
    assert found and found[0]["path"].startswith("memory/20")
    cfg = config.load()
    with FileLock(lock_path(cfg.data_dir), 1):  # another refresh holds the index
        result = cli("remember", "the VPN moved to WireGuard", "--type", "K")
    assert result.code == 0 and "another qmem refresh holds the index" in result.err
    ws = Workspace(str(workspace))
    assert "WireGuard" in "".join(open(p, encoding="utf-8").read() for _, p in ws.daily_logs())  # still saved
    assert daily.refresh_written(cfg, []) == ""


def test_mcp_remember_dedups_and_is_searchable(cli, workspace, monkeypatch):
    from qmem.faces.mcp import Memory

    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    memory = Memory()
    first = memory.memory_remember("The backup NAS is called Tardis", type="K")
    assert first["line"] > 0 and first["indexed"] == "indexed"
    again = memory.memory_remember("the backup NAS is called tardis!", type="K")
    assert again["line"] == 0 and "Tardis" in again["duplicate_of"]
    assert memory.memory_search("tardis")["results"][0]["path"] == first["path"]


# -- 12. archive and rescue copies stay out of search unless asked for ------------------------------

def test_archive_and_rescue_are_left_out_by_default_and_marked_expired_when_in(cli, workspace):
    from qmem.engine import catalog, search
    from qmem.base import config

    (workspace / "memory" / "archive").mkdir()
    (workspace / "memory" / "archive" / "2026-01.md").write_text(
        "# Archive\n\n## From memory/x.md\n<!-- qmem:moved 1 -->\n- [K] zebrafish were fed daily\n", encoding="utf-8")
    (workspace / "memory" / "rescue-20260101-000000").mkdir()
    (workspace / "memory" / "rescue-20260101-000000" / "MEMORY.md").write_text("- zebrafish rescue\n", encoding="utf-8")
    cfg = config.load()
    catalog.create(cfg, "main", str(workspace))
    assert search.search(config.load(), "zebrafish") == []
    catalog.create(config.load(), "all", str(workspace), exclude=[])
    hits = search.search(config.load(), "zebrafish", search.SearchOptions(collections=["all"]))
    archived = [h for h in hits if h.path.startswith("memory/archive/")]
    assert archived and all(h.expired and h.to_dict()["expired"] for h in archived)
    assert not any(h.expired for h in hits if "rescue" in h.path)


# -- 13. boot --days N means the last N daily logs ---------------------------------------------------

def test_boot_days_counts_logs_not_calendar_days(tmp_path):
    from datetime import date

    from qmem.memory import boot

    ws = make_ws(tmp_path, "# Memory\n")  # its only log is 2026-02-28
    with open(ws.daily_log(date(2026, 2, 1)), "w", encoding="utf-8") as handle:
        handle.write("# 2026-02-01\n- older\n")
    result = boot.boot(ws, days=1, today=date(2026, 3, 21))  # three weeks later
    assert [p.path for p in result.parts if p.kind == "daily"] == ["memory/2026-02-28.md"]
    result = boot.boot(ws, days=2, today=date(2026, 3, 21))
    assert [p.path for p in result.parts if p.kind == "daily"] == ["memory/2026-02-28.md", "memory/2026-02-01.md"]
    future = boot.boot(ws, days=2, today=date(2026, 2, 10))  # a log dated after "today" is not read
    assert [p.path for p in future.parts if p.kind == "daily"] == ["memory/2026-02-01.md"]


def test_maintain_from_cron_skips_what_it_cannot_read(cli, workspace, monkeypatch):
    mem = workspace / "memory"
    (mem / "latin.md").write_bytes("- [K] [P2|expire:2020-01-01] caf\xe9\n".encode("latin-1"))
    (mem / "2026-02-27.md").write_bytes((mem / "2026-02-27.md").read_bytes() + b"\xff\xfe broken\n")
    os.mkfifo(mem / "x.md")
    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    result = cli("maintain", "--today", "2026-02-28")
    assert result.code == 0, result
    for name in ("memory/latin.md", "memory/x.md", "memory/2026-02-27.md"):
        assert name in result.err
