"""A full disk loses nothing and says so in one line (exit 74), for every writer.

The real thing where the machine lets us mount a small tmpfs (root in a container usually
may); an injected short write / ENOSPC everywhere else, so the rollback is always tested."""

from __future__ import annotations

import errno
import hashlib
import os
import subprocess
import uuid

import pytest

from qmem.base import writes
from qmem.base.errors import EXIT_IOERR, DiskFullError

from ..conftest import PYTHON, subprocess_env

DAY = "2026-03-01"


# -- injected: os.write writes part, then the disk is full --------------------------------------

def _short_then_full(monkeypatch, keep: int = 100) -> None:
    """os.write writes `keep` bytes of the first call, then fails with ENOSPC."""
    real = os.write
    calls = {"n": 0}

    def write(fd, data):
        calls["n"] += 1
        if calls["n"] == 1:
            return real(fd, bytes(data[:keep]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writes.os, "write", write)


def test_append_short_write_is_rolled_back_and_typed(tmp_path, monkeypatch):
    log = tmp_path / "log.md"
    log.write_bytes(b"# log\n- kept\n")
    _short_then_full(monkeypatch)
    with pytest.raises(DiskFullError) as caught:
        writes.append_locked(str(log), "- " + "x" * 6000 + "\n")
    assert caught.value.exit_code == EXIT_IOERR
    assert "disk full" in str(caught.value)
    assert log.read_bytes() == b"# log\n- kept\n"  # nothing half-written


def test_a_short_write_that_the_disk_finishes_writes_every_byte(tmp_path, monkeypatch):
    """os.write may write less than asked without an error: the rest must follow."""
    real = os.write
    monkeypatch.setattr(writes.os, "write", lambda fd, data: real(fd, bytes(data[:1000])))
    log = tmp_path / "log.md"
    entry = "- " + "y" * 6000 + "\n"
    writes.append_locked(str(log), entry)
    writes.atomic_write(str(tmp_path / "f.md"), entry)
    assert log.read_text() == entry
    assert (tmp_path / "f.md").read_text() == entry


def test_atomic_write_on_a_full_disk_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    (tmp_path / "w").mkdir()
    target = tmp_path / "w" / "MEMORY.md"
    target.write_text("old\n")
    _short_then_full(monkeypatch)
    with pytest.raises(DiskFullError):
        writes.atomic_write(str(target), "new " * 3000)
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path / "w") == ["MEMORY.md"]


def test_remember_with_an_injected_full_disk_exits_74_in_one_line(tmp_path, monkeypatch, cli):
    ws = _workspace(tmp_path / "ws")
    before = _snapshot(ws)
    _short_then_full(monkeypatch)
    r = cli("remember", "z" * 6000, "-w", str(ws), "--date", DAY)
    assert r.code == EXIT_IOERR, r
    assert r.out == ""
    assert len(r.err.splitlines()) == 1 and "disk full" in r.err, r.err
    assert _snapshot(ws) == before


def test_an_engine_error_naming_a_full_disk_is_reported_as_one(monkeypatch, cli, cfg):
    """Tantivy reports ENOSPC as a ValueError whose text names the OS error."""
    from qmem.backends.tantivy import writer

    def commit(self):
        raise ValueError("An IO error occurred: 'No space left on device (os error 28)'")

    monkeypatch.setattr(writer.Writer, "commit", commit)
    r = cli("index", "--full")
    assert r.code == EXIT_IOERR, r
    assert len(r.err.splitlines()) == 1 and "disk full" in r.err


# -- the real thing: a small tmpfs --------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs mounted for this test (skipped where mounting is refused: the injected
    tests above cover the same code)."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()[:80]})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def _fill(disk, leave: int) -> None:
    """Fill the disk, then free `leave` bytes (tmpfs counts whole pages)."""
    filler = disk / f"filler-{uuid.uuid4().hex}"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass
    try:
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave))
    finally:
        os.close(fd)


def _workspace(root):
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- [K] a fact kept\n- [P1|expire:2020-01-01] expired long ago\n")
    (root / "memory" / f"{DAY}.md").write_text(f"# {DAY}\n\n- [K] first entry of the day\n")
    (root / "SESSION-STATE.md").write_text("working on the disk test\n")
    return root


def _snapshot(root) -> dict[str, str]:
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.startswith("filler-"):
                continue
            path = os.path.join(folder, name)
            out[os.path.relpath(path, root)] = hashlib.sha256(open(path, "rb").read()).hexdigest()
    return out


def _qmem(*args, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-m", "qmem", *args], input=stdin, capture_output=True, text=True,
                          env=subprocess_env(), timeout=120)


def test_remember_on_a_nearly_full_disk_writes_nothing_half(small_disk):
    """~4 KB free, a 6 KB entry: the write is short; the entry is all there or not at all."""
    ws = _workspace(small_disk / "ws")
    before = _snapshot(ws)
    _fill(small_disk, 0)  # the log's last page has ~4 KB unused: what the entry's first part fills
    done = _qmem("remember", "w" * 6000, "-w", str(ws), "--date", DAY)
    assert done.returncode == EXIT_IOERR, done
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "disk full" in done.stderr, done.stderr
    assert _snapshot(ws) == before


@pytest.mark.parametrize("args", [
    ("remember", "a fact that does not fit " * 200, "--date", DAY),
    ("flush", "--date", DAY),
    ("state", "append", "more notes for the buffer " * 300),
    ("state", "set", "a new buffer " * 400),
    ("forget", "a fact kept"),
    ("janitor", "--today", "2026-03-02"),
    ("distill", "--today", DAY),
])
def test_every_writer_on_a_full_disk_exits_74_and_changes_nothing(small_disk, args):
    ws = _workspace(small_disk / "ws")
    before = _snapshot(ws)
    _fill(small_disk, 0)
    done = _qmem(*args, "-w", str(ws), stdin="".join(f"- [K] fact number {i} of many\n" for i in range(400)))
    assert done.returncode == EXIT_IOERR, done
    assert len(done.stderr.splitlines()) == 1 and "disk full" in done.stderr, done.stderr
    assert "internal error" not in done.stderr
    assert _snapshot(ws) == before


@pytest.mark.parametrize("leave_kib", [0, 8, 64])
def test_index_on_a_full_disk_exits_74_and_the_next_refresh_converges(small_disk, tmp_path, leave_kib):
    """Full before the data folder is claimed (0), before the index is created (8), or when
    Tantivy commits (64): one line each time, and the next refresh builds what the first could not."""
    import random

    notes = tmp_path / "notes"
    notes.mkdir()
    rng = random.Random(7)
    for i in range(60):  # unique words: an index of ~200 KB, more than the disk has left
        words = " ".join(f"w{rng.getrandbits(40):x}" for _ in range(150))
        (notes / f"n{i}.md").write_text(f"# note {i}\n\napples and pears {words}\n")
    env = subprocess_env()
    env["QMEM_DATA"] = str(small_disk / "data")

    def qmem(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([PYTHON, "-m", "qmem", *args], capture_output=True, text=True, env=env, timeout=120)

    assert qmem("collection", "create", "main", str(notes), "-p", "*.md", "--no-index").returncode == 0
    _fill(small_disk, leave_kib * 1024)
    done = qmem("index")
    assert done.returncode == EXIT_IOERR, done
    assert len(done.stderr.splitlines()) == 1 and "disk full" in done.stderr, done.stderr
    for name in os.listdir(small_disk):
        if name.startswith("filler-"):
            os.unlink(small_disk / name)
    assert qmem("index").returncode == 0
    again = qmem("search", "pears", "-n", "300", "--files")
    assert again.returncode == 0, again
    assert len(again.stdout.splitlines()) == 60
