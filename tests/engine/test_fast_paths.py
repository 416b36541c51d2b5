"""The faster code paths give what the plain ones gave: headings found by one regex scan and
string rules instead of a regex per line, and a refresh that reads nothing it need not."""

from __future__ import annotations

import os
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.base import config
from qmem.text import markdown
from qmem.engine import search, sync
from qmem.backends.tantivy import writer

from ..helpers import index_snapshot

# The heading rule as one regex, as it was: the reference for the faster scan.
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def reference_headings(lines: list[str], start: int = 0) -> list[tuple[int, int, str]]:
    found, fence = [], ""
    for i in range(start, len(lines)):
        line = lines[i]
        fence_match = FENCE.match(line)
        if fence:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                if not line.strip().strip(fence[0]):
                    fence = ""
            continue
        if fence_match and not (fence_match.group(1)[0] == "`" and "`" in line[fence_match.end():]):
            fence = fence_match.group(1)  # CommonMark: a backtick fence's info string holds no backtick
            continue
        match = HEADING.match(line)
        if match:
            found.append((i, len(match.group(1)), (match.group(2) or "").strip()))
    return found


def found(lines: list[str], start: int = 0) -> list[tuple[int, int, str]]:
    return [(h.line, h.level, h.title) for h in markdown.headings(lines, start)]


_LINE = st.text(alphabet=" \t#`~a中\u3000\x0b", max_size=12)


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINE, max_size=12), st.integers(0, 4))
def test_headings_match_the_one_regex_rule(lines, start):
    assert found(lines, start) == reference_headings(lines, start)


def test_heading_edge_cases():
    lines = ["# a #", "## #", "### ##", "#### a ## b ##", "##### x\t#\t", "###### six", "####### seven", "#", "#\t",
             "   # three spaces", "    # four spaces", "#no", "# a#", "## \u3000b\u3000 ##", "```", "# in code", "````",
             "```", "~~~", "# still", "~~~~ x", "~~~~", "# out"]
    assert found(lines) == reference_headings(lines)
    assert found(lines)[:3] == [(0, 1, "a"), (1, 2, "#"), (2, 3, "##")]


def test_lines_carrying_their_own_breaks_keep_their_indexes():
    assert found(["text\n# b", "## c"]) == [(1, 2, "c")]


def _workspace(root, files: int) -> list[str]:
    paths = []
    for k in range(files):
        rel = f"memory/2026-03-{k + 1:02d}.md" if k % 2 else f"memory/topics/t{k}.md"
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"# Day {k}\n## Keys {k}\n- [K] wallet {k} 钱包 key\n## Notes\ntext {k}\n")
        paths.append(path)
    return paths


def _indexed(tmp_path, files: int) -> tuple[list[str], config.Config, float]:
    """A workspace of `files` files last modified an hour ago, indexed: (paths, config, that time)."""
    root = tmp_path / "ws"
    past = time.time() - 3600
    paths = _workspace(str(root), files)
    for path in paths:
        os.utime(path, (past, past))
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", str(root)))
    sync.refresh(cfg)
    return paths, cfg, past


def test_touched_but_unchanged_files_are_hashed_not_parsed_or_reindexed(tmp_path, monkeypatch):
    """A `git checkout`, a restore or an `rsync` without -t moves every mtime: each file then
    costs a read and a hash, nothing more, and the next refresh does not even read it."""
    root = tmp_path / "ws"
    paths = _workspace(str(root), 12)
    past = time.time() - 3600
    for path in paths:
        os.utime(path, (past, past))
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", str(root)))
    sync.refresh(cfg)
    before = index_snapshot(cfg.data_dir)
    for path in paths:  # touched, not changed, and out of the racy window
        os.utime(path, (past + 60, past + 60))
    parsed, replaced, reads = [], [], []
    real_parse, real_add, real_read = markdown.parse, writer.Writer.add_sections, sync.read_sections
    monkeypatch.setattr(markdown, "parse", lambda *a, **k: parsed.append(a) or real_parse(*a, **k))
    monkeypatch.setattr(writer.Writer, "add_sections", lambda *a: replaced.append(a[2]) or real_add(*a))
    monkeypatch.setattr(sync, "read_sections", lambda info, *a: reads.append(info.rel) or real_read(info, *a))
    report = sync.refresh(cfg)
    c = report.collections[0]
    assert (c.added, c.changed, c.deleted, c.unchanged) == (0, 0, 0, 12)
    assert len(reads) == 12 and parsed == [] and replaced == [] and not report.committed
    assert index_snapshot(cfg.data_dir) == before
    reads.clear()
    report = sync.refresh(cfg)  # the manifest took the new mtimes: nothing is read again
    assert reads == [] and report.collections[0].unchanged == 12
    with open(paths[3], "a", encoding="utf-8") as handle:  # a real change still counts
        handle.write("- [E] moved wallet 迁移\n")
    os.utime(paths[3], (past + 120, past + 120))
    report = sync.refresh(cfg)
    assert report.collections[0].changed == 1 and len(parsed) == 1 and len(replaced) == 1
    assert [h.path for h in search.search(cfg, "迁移")] == [os.path.relpath(paths[3], root)]


def test_manifest_columns_round_trip_and_junk_reads_as_empty(tmp_path):
    from qmem.engine import manifest

    data_dir = str(tmp_path / "data")
    files = {"MEMORY.md": [120, 1_700_000_000_123_456_789, "00ff00ff00ff00ff", 3],
             "memory/2026-03-01.md": [-1, 5, "0123456789abcdef", 0], "记忆/笔记.md": [7, 8, "fedcba9876543210", 12]}
    manifest.save(data_dir, manifest.Manifest("main", "/ws", 1234.5, dict(files)))
    stored = manifest.load(data_dir, "main")
    assert (stored.root, stored.refreshed_at, stored.sections) == ("/ws", 1234.5, 15)
    paths, sizes, mtimes = list(files), [e[0] for e in files.values()], [e[1] for e in files.values()]
    assert stored.same_stats(paths, sizes, mtimes)
    assert not stored.same_stats(paths, sizes, [e[1] + 1 for e in files.values()])
    assert not stored.same_stats(paths[:2], sizes[:2], mtimes[:2])
    assert stored.files == files
    manifest.save(data_dir, manifest.Manifest("empty", "/ws", 1.0, {}))
    assert manifest.load(data_dir, "empty").files == {} and manifest.load(data_dir, "empty").root == "/ws"
    path = manifest.manifest_path(data_dir, "main")
    good = open(path, "rb").read()
    for junk in (b"", b"junk", good[: len(good) // 2], good[:-3], b'{"v": 1, "files": {}}'):
        with open(path, "wb") as handle:
            handle.write(junk)
        assert manifest.load(data_dir, "main").files == {}


def test_a_no_op_refresh_compares_columns_and_builds_no_per_file_entries(tmp_path, monkeypatch):
    from qmem.engine import manifest

    root = tmp_path / "ws"
    past = time.time() - 3600
    for path in _workspace(str(root), 6):
        os.utime(path, (past, past))
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", str(root)))
    sync.refresh(cfg)
    built = []
    real = manifest._Columns.digests
    monkeypatch.setattr(manifest._Columns, "digests", lambda self: built.append(1) or real(self))
    report = sync.refresh(cfg)
    c = report.collections[0]
    assert (c.files, c.unchanged, c.sections, built, report.committed) == (6, 6, 12, [], False)
    os.utime(root / "memory" / "topics" / "t0.md", (past + 5, past + 5))
    assert sync.refresh(cfg).collections[0].unchanged == 6 and built == [1]  # a touch: per-file diff


def test_after_a_change_the_next_no_op_refresh_compares_columns_again(tmp_path, monkeypatch):
    """The manifest is kept in path order whatever changed, so the refresh after a change
    is again a column comparison, not a per-file diff."""
    from qmem.engine import manifest

    paths, cfg, past = _indexed(tmp_path, 6)
    with open(paths[0], "a", encoding="utf-8") as handle:  # a refresh handles it after the unchanged ones
        handle.write("- [K] more\n")
    os.utime(paths[0], (past + 5, past + 5))
    assert sync.refresh(cfg).collections[0].changed == 1
    built = []
    real = manifest._Columns.digests
    monkeypatch.setattr(manifest._Columns, "digests", lambda self: built.append(1) or real(self))
    report = sync.refresh(cfg)
    assert (report.collections[0].unchanged, built, report.committed) == (6, [], False)


def test_manifest_keeps_the_rules_its_paths_passed(tmp_path):
    """The manifest records the (patterns, excludes) its paths were found with; its paths are
    known (no glob match, no name check) only to a scan of the same root with the same rules.
    A manifest without rules (older) or with junk there reads with rules unknown."""
    import marshal

    from qmem.engine import manifest

    data_dir = str(tmp_path / "data")
    rules = manifest.rules_of(["memory/**/*.md"], ["memory/archive/**"])
    files = {"memory/a.md": [1, 2, "00ff00ff00ff00ff", 1], "memory/b.md": [3, 4, "0123456789abcdef", 2]}
    manifest.save(data_dir, manifest.Manifest("main", "/ws", 1.0, dict(files), rules))
    stored = manifest.load(data_dir, "main")
    assert stored.rules == rules and stored.known_paths("/ws", rules) == ["memory/a.md", "memory/b.md"]
    assert stored.known_paths("/ws", manifest.rules_of(["memory/**/*.md"], [])) == []
    assert stored.known_paths("/elsewhere", rules) == []
    path = manifest.manifest_path(data_dir, "main")
    raw = marshal.loads(open(path, "rb").read())
    for junk in (None, ["memory/**/*.md"], (("a",), ("b", 3)), ("x", "y")):
        if junk is None:
            raw.pop("rules")
        else:
            raw["rules"] = junk
        with open(path, "wb") as handle:
            handle.write(marshal.dumps(raw))
        stored = manifest.load(data_dir, "main")
        assert stored.rules is None and stored.known_paths("/ws", rules) == [] and stored.files == files


def test_known_paths_never_outlive_a_change_of_patterns(tmp_path):
    """A path indexed under the old rules that the new excludes drop leaves the index, although
    the manifest lists it: known paths serve only a scan with the very same rules."""
    from qmem.engine import manifest, search

    _, cfg, _ = _indexed(tmp_path, 4)
    assert manifest.load(cfg.data_dir, "main").rules == manifest.rules_of(cfg.collections["main"].patterns,
                                                                         cfg.collections["main"].exclude)
    cfg.collections["main"].exclude.append("memory/topics/t0.md")  # a file, not a folder to prune
    report = sync.refresh(cfg)
    assert (report.collections[0].files, report.collections[0].deleted) == (3, 1)
    hits = search.search(cfg, "wallet")
    assert hits and all(h.path != "memory/topics/t0.md" for h in hits)
    assert manifest.load(cfg.data_dir, "main").rules[1][-1] == "memory/topics/t0.md"


def test_a_no_op_refresh_records_missing_rules_once(tmp_path, monkeypatch):
    """A manifest written before rules were kept: the first no-op refresh checks every path and
    records the rules (one manifest write); the next one writes nothing but the stamp."""
    from qmem.engine import manifest

    _, cfg, _ = _indexed(tmp_path, 4)
    stored = manifest.load(cfg.data_dir, "main")
    stored.rules = None
    manifest.save(cfg.data_dir, stored)
    saved = []
    real_save = manifest.save
    monkeypatch.setattr(manifest, "save", lambda d, m: saved.append(m.rules) or real_save(d, m))
    assert sync.refresh(cfg).collections[0].unchanged == 4
    assert saved == [manifest.rules_of(cfg.collections["main"].patterns, cfg.collections["main"].exclude)]
    assert sync.refresh(cfg).collections[0].unchanged == 4 and len(saved) == 1


def test_refresh_files_keeps_the_rules_only_when_its_paths_pass_them(tmp_path):
    """`remember` re-indexes single files through refresh_files: the manifest keeps its rules
    when those files were matched with the same rules, and forgets them otherwise."""
    from qmem.engine import manifest

    paths, cfg, _ = _indexed(tmp_path, 4)
    rules = manifest.load(cfg.data_dir, "main").rules
    with open(paths[1], "a", encoding="utf-8") as handle:
        handle.write("- [K] remembered\n")
    assert sync.refresh_files(cfg, [paths[1]]) == 1
    assert manifest.load(cfg.data_dir, "main").rules == rules
    cfg.collections["main"].exclude.append("memory/archive-2/**")
    with open(paths[1], "a", encoding="utf-8") as handle:
        handle.write("- [K] remembered again\n")
    assert sync.refresh_files(cfg, [paths[1]]) == 1
    assert manifest.load(cfg.data_dir, "main").rules is None
