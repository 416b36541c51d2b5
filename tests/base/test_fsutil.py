from __future__ import annotations

import multiprocessing
import os
import re
import time

import pytest

from qmem.base import fsutil, writes


def test_atomic_write_replaces_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "sub" / "f.txt"
    writes.atomic_write(str(target), "one")
    writes.atomic_write(str(target), "二")
    assert target.read_text(encoding="utf-8") == "二"
    assert os.listdir(target.parent) == ["f.txt"]


def _hold_lock(path, ready, seconds):
    lock = writes.FileLock(path, timeout=1)
    assert lock.acquire()
    ready.set()
    time.sleep(seconds)
    lock.release()


def test_file_lock_times_out_while_another_process_holds_it(tmp_path):
    path = str(tmp_path / "x.lock")
    ready = multiprocessing.Event()
    proc = multiprocessing.Process(target=_hold_lock, args=(path, ready, 1.5))
    proc.start()
    try:
        assert ready.wait(10)
        started = time.monotonic()
        assert not writes.FileLock(path, timeout=0.3).acquire()
        assert 0.25 <= time.monotonic() - started < 1.2
        lock = writes.FileLock(path, timeout=5)
        assert lock.acquire()  # released when the holder is done
        lock.release()
    finally:
        proc.join(10)


def test_lock_is_released_when_holder_is_killed(tmp_path):
    path = str(tmp_path / "x.lock")
    ready = multiprocessing.Event()
    proc = multiprocessing.Process(target=_hold_lock, args=(path, ready, 60))
    proc.start()
    assert ready.wait(10)
    proc.kill()
    proc.join(10)
    lock = writes.FileLock(path, timeout=2)
    assert lock.acquire()
    lock.release()


def _append_many(path, tag, count):
    for i in range(count):
        writes.append_locked(path, f"{tag}-{i:04d}-" + "x" * 200 + "\n")


def test_concurrent_appends_never_interleave(tmp_path):
    path = str(tmp_path / "log.md")
    procs = [multiprocessing.Process(target=_append_many, args=(path, f"p{k}", 200)) for k in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    lines = open(path, encoding="utf-8").read().splitlines()
    assert len(lines) == 800
    assert all(re.fullmatch(r"p\d-\d{4}-x{200}", line) for line in lines)


@pytest.mark.parametrize(
    ("glob", "matches", "misses"),
    [
        ("MEMORY.md", ["MEMORY.md"], ["memory.md", "a/MEMORY.md"]),
        ("memory/**/*.md", ["memory/a.md", "memory/x/y/b.md"], ["memory/a.txt", "other/a.md", "memory.md"]),
        ("**/*.md", ["a.md", "x/y/z.md"], ["a.mdx"]),
        ("memory/2026-*", ["memory/2026-02-28.md"], ["memory/2025-01-01.md", "memory/sub/2026-x"]),
        ("archive/**", ["archive/", "archive/a/b.md"], ["archived/a.md"]),
        ("file[12].md", ["file1.md", "file2.md"], ["file3.md"]),
        ("a+b (1).md", ["a+b (1).md"], ["aab (1).md"]),
        ("?.md", ["a.md"], ["ab.md", "/.md"]),
    ],
)
def test_glob_to_regex(glob, matches, misses):
    regex = re.compile(fsutil.glob_to_regex(glob))
    for path in matches:
        assert regex.fullmatch(path), path
    for path in misses:
        assert not regex.fullmatch(path), path


def test_resolve_inside_refuses_traversal_and_outside_symlinks(tmp_path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "ok.md").write_text("x")
    (tmp_path / "secret.md").write_text("s")
    (root / "link.md").symlink_to(tmp_path / "secret.md")
    assert fsutil.resolve_inside(str(root), "sub/ok.md") == str((root / "sub" / "ok.md").resolve())
    assert fsutil.resolve_inside(str(root), "../secret.md") is None
    assert fsutil.resolve_inside(str(root), "sub/../../secret.md") is None
    assert fsutil.resolve_inside(str(root), "link.md") is None
    assert fsutil.resolve_inside(str(root), "/etc/passwd") is None
    assert fsutil.is_inside("/a/b", "/a/b/c") and not fsutil.is_inside("/a/b", "/a/bc")
