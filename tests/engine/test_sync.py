from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from qmem.base import config, layout
from qmem.engine import manifest, reading, sync
from qmem.base.errors import IndexBusyError
from qmem.base.writes import FileLock

from ..helpers import index_snapshot


def write(path, text, age_s: float = 10.0):
    """Write a file and date it `age_s` seconds back (older than the racy window)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    past = time.time() - age_s
    os.utime(path, (past, past))


def counts(report, name="main"):
    c = next(c for c in report.collections if c.name == name)
    return (c.added, c.changed, c.deleted, c.unchanged)


@pytest.fixture
def setup(tmp_path):
    root = tmp_path / "ws"
    write(str(root / "MEMORY.md"), "# Memory\n## Keys\n- [!] never paste keys\n")
    write(str(root / "memory" / "2026-02-28.md"), "# 2026-02-28\n- [K] USDC has 18 decimals\n")
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", str(root)))
    return cfg, root


def test_first_refresh_adds_everything_then_noop_reads_nothing(setup, monkeypatch):
    cfg, root = setup
    report = sync.refresh(cfg)
    assert counts(report) == (2, 0, 0, 0)
    assert report.collections[0].sections == 2 and report.committed  # '# Memory' is a bare container
    reads = []
    real = sync.read_sections
    monkeypatch.setattr(sync, "read_sections", lambda info, *a: reads.append(info.rel) or real(info, *a))
    report = sync.refresh(cfg)
    assert counts(report) == (0, 0, 0, 2)
    assert reads == [] and not report.committed


def test_change_add_delete_and_rename(setup):
    cfg, root = setup
    sync.refresh(cfg)
    write(str(root / "MEMORY.md"), "# Memory\n## Keys\n- [!] never paste keys or seeds\n")
    write(str(root / "memory" / "2026-03-01.md"), "# 2026-03-01\n- [E] new day\n")
    os.unlink(root / "memory" / "2026-02-28.md")
    assert counts(sync.refresh(cfg)) == (1, 1, 1, 0)
    os.rename(root / "memory" / "2026-03-01.md", root / "memory" / "renamed.md")
    assert counts(sync.refresh(cfg)) == (1, 0, 1, 1)
    paths = {row[1] for row in index_snapshot(cfg.data_dir)}
    assert paths == {"MEMORY.md", "memory/renamed.md"}


def test_touched_but_identical_file_is_hashed_not_reindexed(setup):
    cfg, root = setup
    sync.refresh(cfg)
    os.utime(root / "MEMORY.md", None)
    report = sync.refresh(cfg)
    assert counts(report) == (0, 0, 0, 2) and not report.committed


def test_racy_file_is_rehashed_on_next_refresh(setup):
    cfg, root = setup
    sync.refresh(cfg)
    path = root / "MEMORY.md"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("# Memory\n## Keys\n- [!] edited just now\n")
    sync.refresh(cfg)
    assert manifest.load(cfg.data_dir, "main").files["MEMORY.md"][0] == -1  # size not trusted yet
    stat = os.stat(path)
    with open(path, "r+", encoding="utf-8") as handle:  # same size, same mtime, new text
        handle.write("# Memory\n## Keys\n- [!] EDITED just now\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    report = sync.refresh(cfg)
    assert counts(report)[1] == 1
    from qmem.text.record import body_hash

    assert body_hash("- [!] EDITED just now") in {row[6] for row in index_snapshot(cfg.data_dir)}


def test_bad_files_are_skipped_with_warnings_and_the_rest_indexes(setup, monkeypatch):
    cfg, root = setup
    (root / "memory" / "latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    (root / "memory" / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "memory" / "empty.md").write_bytes(b"")
    (root / "memory" / "huge.md").write_bytes(b"# big\n" + b"x" * 5000)
    monkeypatch.setattr(reading, "MAX_FILE_BYTES", 4096)
    report = sync.refresh(cfg)
    warnings = report.collections[0].warnings
    assert any(w.startswith("memory/latin1.md: not UTF-8") for w in warnings)
    assert any(w.startswith("memory/binary.md: binary") for w in warnings)
    assert any(w.startswith("memory/huge.md: larger than") for w in warnings)
    assert counts(report) == (3, 0, 0, 0)  # two good files and the empty one
    assert {row[1] for row in index_snapshot(cfg.data_dir)} == {"MEMORY.md", "memory/2026-02-28.md"}


def test_file_that_turns_bad_loses_its_sections(setup):
    cfg, root = setup
    sync.refresh(cfg)
    (root / "MEMORY.md").write_bytes(b"\xff\xfe\x00binary now")
    report = sync.refresh(cfg)
    assert counts(report)[2] == 1
    assert {row[1] for row in index_snapshot(cfg.data_dir)} == {"memory/2026-02-28.md"}


def test_full_rebuild_equals_incremental_history(setup):
    cfg, root = setup
    sync.refresh(cfg)
    write(str(root / "memory" / "x.md"), "# X\n## 编码\n内容\n")
    write(str(root / "MEMORY.md"), "# Memory v2\n")
    sync.refresh(cfg)
    incremental = index_snapshot(cfg.data_dir)
    report = sync.refresh(cfg, full=True)
    assert report.collections[0].full
    assert index_snapshot(cfg.data_dir) == incremental


def test_schema_version_change_rebuilds_and_removes_the_old_index(setup):
    cfg, root = setup
    old = os.path.join(cfg.data_dir, "v0")
    os.makedirs(os.path.join(old, "tantivy"))
    report = sync.refresh(cfg)
    assert report.rebuilt_from == ["v0"]
    assert not os.path.exists(old)
    assert layout.stale_versions(cfg.data_dir) == []


def test_collection_removed_from_config_is_purged(setup, tmp_path):
    cfg, root = setup
    other = tmp_path / "other"
    write(str(other / "MEMORY.md"), "# Other\nsome text\n")
    config.add_collection(cfg, config.Collection("other", str(other)))
    sync.refresh(cfg)
    assert {row[0] for row in index_snapshot(cfg.data_dir)} == {"main", "other"}
    config.remove_collection(cfg, "other")
    report = sync.refresh(config.load())
    assert report.purged == ["other"]
    assert {row[0] for row in index_snapshot(cfg.data_dir)} == {"main"}
    assert manifest.stored_collections(cfg.data_dir) == ["main"]


def test_two_collections_may_share_relative_paths(setup, tmp_path):
    cfg, root = setup
    other = tmp_path / "other"
    write(str(other / "MEMORY.md"), "# Other\nsome text\n")
    config.add_collection(cfg, config.Collection("other", str(other)))
    sync.refresh(cfg)
    os.unlink(other / "MEMORY.md")
    sync.refresh(cfg, ["other"])
    assert {(row[0], row[1]) for row in index_snapshot(cfg.data_dir)} >= {("main", "MEMORY.md")}
    assert ("other", "MEMORY.md") not in {(row[0], row[1]) for row in index_snapshot(cfg.data_dir)}


def test_missing_root_keeps_the_index(setup, tmp_path):
    cfg, root = setup
    sync.refresh(cfg)
    os.rename(root, tmp_path / "moved")
    report = sync.refresh(cfg)
    assert report.collections[0].skipped_root
    assert len(index_snapshot(cfg.data_dir)) == 2


def _hold(path, ready, seconds):
    lock = FileLock(path, timeout=1)
    lock.acquire()
    ready.set()
    time.sleep(seconds)


def test_busy_writer_waits_then_fails_with_a_clear_error(setup):
    cfg, root = setup
    sync.refresh(cfg)
    ready = multiprocessing.Event()
    proc = multiprocessing.Process(target=_hold, args=(layout.lock_path(cfg.data_dir), ready, 3))
    proc.start()
    try:
        assert ready.wait(10)
        cfg.lock_timeout = 0.3
        with pytest.raises(IndexBusyError, match="another qmem refresh holds the index") as info:
            sync.refresh(cfg)
        assert info.value.exit_code == 75
    finally:
        proc.kill()
        proc.join()


def test_file_names_that_are_not_utf8_or_hold_newlines_are_skipped_with_a_warning(setup, cli):
    cfg, root = setup
    folder = os.fsencode(root / "memory")
    for name in (b"bad\xff.md", b"new\nline.md", b"tab\tname.md"):
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(b"# odd name\n- [K] quokka\n")
    os.mkdir(os.path.join(folder, b"dir\xfe"))
    with open(os.path.join(folder, b"dir\xfe", b"inside.md"), "wb") as handle:
        handle.write(b"# inside\n- [K] quokka\n")
    report = sync.refresh(cfg)
    warnings = report.collections[0].warnings
    assert sorted(w.split(":")[0] for w in warnings) == [
        "memory/bad\\xff.md", "memory/dir\\xfe/", "memory/new\\nline.md", "memory/tab\\tname.md"]
    assert all(w.isprintable() for w in warnings)
    assert counts(report) == (2, 0, 0, 0)
    assert {row[1] for row in index_snapshot(cfg.data_dir)} == {"MEMORY.md", "memory/2026-02-28.md"}
    result = cli("index")
    assert result.code == 0 and "bad\\xff.md: file name is not valid UTF-8" in result.err
    assert cli("search", "USDC", "--json").code == 0
