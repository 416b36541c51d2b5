"""A refresh done by worker processes (`qmem.engine.parallel`) gives exactly the one-process index:
same documents, same terms (so the same hits), same warnings, same counts, and a touched but
unchanged file is still only read and hashed."""

from __future__ import annotations

import os
import time

import pytest
import tantivy

from qmem.base import config
from qmem.backends.tantivy import index
from qmem.backends.tantivy.searcher import open_reader, stored_fields
from qmem.text.record import body_hash
from qmem.engine import parallel, search, sync

from ..helpers import index_snapshot

PAST = time.time() - 3600


def _write(root: str, files: int) -> list[str]:
    """Mixed English/Chinese daily logs and topic files, tags, deep headings, a fenced block."""
    paths = []
    for i in range(files):
        folder = os.path.join(root, "memory" if i % 3 else "topics")
        os.makedirs(folder, exist_ok=True)
        name = f"2026-01-{i % 28 + 1:02d}-{i}.md" if i % 3 else f"topic-{i}.md"
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"# Notes {i}\n\nPreamble about deploy wallet {i}.\n\n")
            handle.write(f"## [K] Windows PS5 编码地狱 {i}\n\n- [E][P1|expire:2030-01-0{i % 9 + 1}] rsync backups nightly\n")
            handle.write(f"- [P] 用户偏好 十进制 {i}\n\n### Deeper running heading\n\n```\n# not a heading {i}\n```\n")
            handle.write("Organizations organised the caching layer; naïve café ÉCOLE.\n")
        os.utime(path, (PAST, PAST))
        paths.append(path)
    for name, data in (("binary.md", b"# bin\x00ary\n"), ("latin1.md", "# caf\xe9\n".encode("latin-1"))):
        with open(os.path.join(root, name), "wb") as handle:
            handle.write(data)
    return paths


def _build(tmp_path, monkeypatch, name: str, root: str, workers: int):
    monkeypatch.setenv("QMEM_WORKERS", str(workers))
    monkeypatch.setenv("QMEM_CONFIG", str(tmp_path / name / "collections.toml"))
    monkeypatch.setenv("QMEM_DATA", str(tmp_path / name / "data"))
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", root, ["**/*.md"]))
    return cfg, sync.refresh(cfg)


def _terms(data_dir: str, field: str, words: list[str]) -> list[int]:
    searcher = open_reader(data_dir).searcher()
    return [searcher.doc_freq(field, w) for w in words]


def test_worker_processes_build_the_same_index_as_one_process(tmp_path, monkeypatch):
    root = str(tmp_path / "ws")
    _write(root, 70)
    one_cfg, one = _build(tmp_path, monkeypatch, "one", root, 0)
    many_cfg, many = _build(tmp_path, monkeypatch, "many", root, 2)
    assert index_snapshot(many_cfg.data_dir) == index_snapshot(one_cfg.data_dir)
    assert len(index_snapshot(many_cfg.data_dir)) > 200

    def counts(r):
        return [(c.files, c.added, c.changed, c.deleted, c.unchanged, c.sections) for c in r.collections]

    assert counts(many) == counts(one)
    assert sorted(many.collections[0].warnings) == sorted(one.collections[0].warnings)
    assert len(many.collections[0].warnings) == 2  # the binary and the non-UTF-8 file
    words = ["编", "地", "ps5", "window", "organ", "cafe", "naïv", "école", "heading", "deeper"]
    assert _terms(many_cfg.data_dir, "heading", words) == _terms(one_cfg.data_dir, "heading", words)
    assert _terms(many_cfg.data_dir, "body", words) == _terms(one_cfg.data_dir, "body", words)
    for query in ("Windows PS5 编码地狱", "deeper running heading", "rsync backups", "用户偏好"):
        # Tantivy's indexing threads order documents as they like: equal scores may swap places.
        expected = sorted((h.score, h.path, h.line_start, h.heading) for h in search.search(one_cfg, query, search.SearchOptions(limit=1000)))
        assert sorted((h.score, h.path, h.line_start, h.heading) for h in search.search(many_cfg, query, search.SearchOptions(limit=1000))) == expected
        assert expected


def test_a_full_refresh_by_workers_replaces_every_section_once(tmp_path, monkeypatch):
    """A full refresh deletes the collection and then only adds (no per-file delete): the
    index must hold each section once, as after the first build."""
    root = str(tmp_path / "ws")
    _write(root, 40)
    cfg, _ = _build(tmp_path, monkeypatch, "many", root, 2)
    first = index_snapshot(cfg.data_dir)
    report = sync.refresh(cfg, full=True)
    assert report.collections[0].full and report.collections[0].sections == len(first)
    assert index_snapshot(cfg.data_dir) == first
    assert open_reader(cfg.data_dir).searcher().num_docs == len(first)


@pytest.mark.parametrize("worker", ["/bin/false", "garbage"])
def test_a_worker_that_dies_or_talks_nonsense_leaves_the_work_to_the_main_process(tmp_path, monkeypatch, worker):
    root = str(tmp_path / "ws")
    _write(root, 50)
    one_cfg, one = _build(tmp_path, monkeypatch, "one", root, 0)
    if worker == "garbage":  # a worker whose output is not the protocol
        script = tmp_path / "fake_python"
        script.write_text("#!/bin/sh\nhead -c 100000 /dev/urandom\ncat > /dev/null\n")
        script.chmod(0o755)
        worker = str(script)
        # it blocks writing its 100 kB into a pipe nobody reads: the refresh must kill it (after
        # STOP_WAIT, 5 s each, which made this test ~10 s) and still finish the work itself
        monkeypatch.setattr(parallel, "STOP_WAIT", 0.2)
    monkeypatch.setattr(parallel.sys, "executable", worker)
    many_cfg, many = _build(tmp_path, monkeypatch, "many", root, 2)
    assert index_snapshot(many_cfg.data_dir) == index_snapshot(one_cfg.data_dir)
    assert [c.sections for c in many.collections] == [c.sections for c in one.collections]


def test_workers_are_not_multiprocessing_children_and_do_not_outlive_the_refresh(tmp_path, monkeypatch):
    """A library caller's unguarded script must not be re-run by the workers (multiprocessing's
    spawn and forkserver import the caller's main module in each worker)."""
    root = str(tmp_path / "ws")
    _write(root, 30)
    script = tmp_path / "caller.py"
    marker = tmp_path / "runs"
    script.write_text(
        "import os\n"
        f"open({str(marker)!r}, 'a').write('run\\n')\n"
        "from qmem.base import config; from qmem.engine import sync\n"
        "cfg = config.load()\n"
        f"config.add_collection(cfg, config.Collection('main', {root!r}, ['**/*.md']))\n"
        "report = sync.refresh(cfg)\n"
        "print(report.collections[0].sections)\n")
    env = {**os.environ, "QMEM_WORKERS": "2"}
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip()) > 60
    assert marker.read_text() == "run\n"  # once: the workers never ran the caller's script


def test_worker_refresh_of_touched_files_only_hashes_them(tmp_path, monkeypatch):
    root = str(tmp_path / "ws")
    paths = _write(root, 40)
    cfg, _ = _build(tmp_path, monkeypatch, "c", root, 2)
    before = index_snapshot(cfg.data_dir)
    for path in paths:
        os.utime(path, (PAST + 60, PAST + 60))
    with open(paths[5], "a", encoding="utf-8") as handle:
        handle.write("\n## Added later\n\nmigration 迁移 notes\n")
    os.utime(paths[5], (PAST + 90, PAST + 90))
    handed = []
    real = parallel.prepared
    monkeypatch.setattr(parallel, "prepared", lambda coll, items, workers, preparer: handed.append(items) or real(coll, items, workers, preparer))
    report = sync.refresh(cfg)
    c = report.collections[0]
    assert (c.added, c.changed, c.deleted, c.unchanged) == (0, 1, 0, 39)
    # hashed here; only the file whose bytes changed went to the workers (the two refused
    # files were never indexed, so they are read again too)
    assert [sorted(rel for rel, *_ in items) for items in handed] == [sorted(
        [os.path.relpath(paths[5], root), "binary.md", "latin1.md"])]
    after = index_snapshot(cfg.data_dir)
    assert len(after) == len(before) + 1
    assert [r[5] for r in after if r not in before] == ["Notes 5 › Added later"]


def test_stored_meta_round_trips_every_field():
    section = type("S", (), {"heading": "A › B", "body": "text", "anchor": "b", "types": ["!", "K"], "line_start": 3,
                                 "line_end": 9, "body_line": 4, "date": 20260131, "expires": 20300101, "priority": 1})()
    (_, _, types, date, expires, meta), = index.prepare("main", "notes/a.md", [section])
    doc = tantivy.Document()
    doc.add_bytes("meta", meta)
    fields = stored_fields(doc)
    assert fields == {"collection": ["main"], "path": ["notes/a.md"], "anchor": ["b"], "heading": ["A › B"],
                      "body_hash": [body_hash("text")], "types": ["!", "K"], "line_start": [3],
                      "line_end": [9], "body_line": [4], "date": [20260131], "expires": [20300101], "priority": [1]}
    assert (types, date, expires) == (["!", "K"], 20260131, 20300101)


@pytest.mark.parametrize("files, size, env, expected", [
    (10, 10 * 2**20, "", 0),  # too few files for a pool to pay
    (5000, 2**20, "", 0),  # too few bytes
    (5000, 10 * 2**20, "0", 0),  # turned off
    (10, 10, "3", 3),  # forced
])
def test_worker_count(monkeypatch, files, size, env, expected):
    monkeypatch.setenv("QMEM_WORKERS", env)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    infos = [sync.FileInfo(f"{i}.md", f"/x/{i}.md", size // files, 0) for i in range(files)]
    assert parallel.worker_count(infos) == expected


def test_many_files_on_several_cores_use_workers(monkeypatch):
    monkeypatch.delenv("QMEM_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    infos = [sync.FileInfo(f"{i}.md", f"/x/{i}.md", 4096, 0) for i in range(2000)]
    assert parallel.worker_count(infos) == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert parallel.worker_count(infos) == 0


def test_a_schema_change_rebuilds_the_index_but_keeps_the_vectors(cfg):
    """The BM25 index is a cache rebuilt from the Markdown; vectors cost minutes to embed
    and are keyed by section content, so an older schema's vectors move to the new folder."""
    from qmem.base.layout import SCHEMA_VERSION, version_dir

    old = os.path.join(cfg.data_dir, f"v{SCHEMA_VERSION - 1}")
    os.makedirs(os.path.join(old, "vectors", "main"))
    os.makedirs(os.path.join(old, "vectors", "gone"))
    os.makedirs(os.path.join(old, "tantivy"))
    with open(os.path.join(old, "vectors", "main", "rows.bin"), "wb") as handle:
        handle.write(b"embedded")
    os.makedirs(os.path.join(version_dir(cfg.data_dir), "vectors", "gone"))  # the current folder's own wins
    report = sync.refresh(cfg)
    assert report.rebuilt_from == [f"v{SCHEMA_VERSION - 1}"] and not os.path.exists(old)
    with open(os.path.join(version_dir(cfg.data_dir), "vectors", "main", "rows.bin"), "rb") as handle:
        assert handle.read() == b"embedded"


KILLED_MID_BUILD = """
import os, signal
from qmem.base import config
from qmem.backends.tantivy import index, writer
from qmem.engine import sync
calls = {"n": 0}
real = writer.Writer.add_prepared
def add(self, *a, **k):
    calls["n"] += 1
    if calls["n"] == 25:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(self, *a, **k)
writer.Writer.add_prepared = add
sync.refresh(config.load())
"""


def _workers_alive() -> list[str]:
    alive = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmd = handle.read().replace(b"\0", b" ")
        except OSError:
            continue
        if b"-m qmem.engine.parallel" in cmd:
            alive.append(pid)
    return alive


def test_kill_9_mid_parallel_build_leaves_no_workers_and_the_next_refresh_converges(tmp_path, monkeypatch):
    import subprocess
    import sys

    from ..conftest import subprocess_env

    root = str(tmp_path / "ws")
    _write(root, 60)
    cfg, _ = _build(tmp_path, monkeypatch, "c", root, 2)  # built once, then rebuilt by the killed run
    before_workers = set(_workers_alive())
    env = {**subprocess_env(), "QMEM_WORKERS": "2", "QMEM_CONFIG": os.environ["QMEM_CONFIG"],
           "QMEM_DATA": os.environ["QMEM_DATA"]}
    for path in _write(root, 60):  # every file changed again: the killed refresh replaces them all
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("\n- [K] rewritten by the killed refresh\n")
    proc = subprocess.run([sys.executable, "-c", KILLED_MID_BUILD], env=env, capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    deadline = time.monotonic() + 10
    while set(_workers_alive()) - before_workers and time.monotonic() < deadline:
        time.sleep(0.1)
    assert set(_workers_alive()) - before_workers == set()
    sync.refresh(cfg)
    fresh_cfg, _ = _build(tmp_path, monkeypatch, "fresh", root, 0)
    assert index_snapshot(cfg.data_dir) == index_snapshot(fresh_cfg.data_dir)
