"""A private memory file stays private: every rewrite keeps its mode (and owner), and new
files made from its text (archive, backup, leaves, indexes) get the same mode.

Checked on the mode bits, and, where the tests run as root, by reading each file as a
second user (nobody): what was 0600 must stay unreadable to them."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile

import pytest

from ..conftest import ROOT

SECRET = "db password is hunter2-very-secret"
FLAT = ROOT / "examples" / "flat-memory"
OTHER_UID = 65534  # nobody


@pytest.fixture
def open_folder():
    """A workspace parent every user may enter (pytest's tmp folders are 0700: a second user
    could read nothing there whatever the file modes)."""
    folder = tempfile.mkdtemp(prefix="qmem-modes-")
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ws(folder: str, memory: str) -> str:
    root = os.path.join(folder, "ws")
    os.makedirs(os.path.join(root, "memory"))
    os.chmod(root, 0o755)
    os.chmod(os.path.join(root, "memory"), 0o755)
    path = os.path.join(root, "MEMORY.md")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(memory)
    os.chmod(path, 0o600)
    return root


def _mode(path: str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _other_can_read(path: str) -> bool:
    done = subprocess.run(["cat", path], user=OTHER_UID, capture_output=True)
    return done.returncode == 0


def _files(root: str) -> list[str]:
    return sorted(os.path.join(d, n) for d, _, names in os.walk(root) for n in names)


def _assert_private(root: str, paths: list[str]) -> None:
    for path in paths:
        assert _mode(path) == 0o600, (os.path.relpath(path, root), oct(_mode(path)))
    if os.geteuid() == 0:
        control = os.path.join(root, "public.md")
        with open(control, "w") as handle:
            handle.write("anyone may read this\n")
        os.chmod(control, 0o644)
        assert _other_can_read(control)  # the second user reaches the folder at all
        for path in paths:
            assert not _other_can_read(path), os.path.relpath(path, root)
        os.unlink(control)


MEMORY = f"""# Memory

## Accounts
- [!] {SECRET}
- [K] [P1|expire:2020-01-01] an expired fact about the staging server
- [K] the deploy script lives in ops/deploy.sh

## Notes
- [K] a note to correct later
"""


def _with_secret_files(root: str) -> list[str]:
    return [p for p in _files(root) if SECRET in open(p, encoding="utf-8", errors="replace").read()]


@pytest.mark.parametrize("args", [
    ("janitor", "--today", "2026-03-02"),
    ("forget", "an expired fact about the staging server"),
    ("remember", "a corrected note", "--replace", "a note to correct later"),
    ("forget", SECRET),
])
def test_memory_writers_keep_a_private_memory_md_private(open_folder, cli, args):
    root = _ws(open_folder, MEMORY)
    r = cli(*args, "-w", root)
    assert r.code == 0, r
    touched = [p for p in _files(root) if "archive" in p] + [os.path.join(root, "MEMORY.md")]
    assert len(touched) >= 2, touched  # the archive was made
    _assert_private(root, touched)


def test_distill_keeps_memory_md_private_and_topic_files_take_the_logs_mode(open_folder, cli):
    root = _ws(open_folder, MEMORY)
    log = os.path.join(root, "memory", "2026-03-01.md")
    with open(log, "w") as handle:
        handle.write(f"# 2026-03-01\n\n- [!] {SECRET} (the log copy)\n")
    os.chmod(log, 0o600)
    r = cli("distill", "--today", "2026-03-01", "-w", root)
    assert r.code == 0, r
    topic = os.path.join(root, "memory", "security.md")
    assert SECRET in open(topic).read()
    _assert_private(root, [topic, log, os.path.join(root, "MEMORY.md")])


def test_state_set_keeps_the_buffer_and_its_archive_private(open_folder, cli):
    root = _ws(open_folder, MEMORY)
    buffer = os.path.join(root, "SESSION-STATE.md")
    with open(buffer, "w") as handle:
        handle.write(f"working: {SECRET}\n")
    os.chmod(buffer, 0o600)
    assert cli("state", "set", "a new buffer", "-w", root).code == 0
    archived = [p for p in _files(root) if "session-state-" in p]
    assert len(archived) == 1
    _assert_private(root, [buffer] + archived)


def test_remember_makes_a_new_log_with_the_workspace_mode(open_folder, cli):
    root = _ws(open_folder, MEMORY)
    r = cli("remember", "the vault is in room 3", "-w", root, "--date", "2026-03-01")
    assert r.code == 0, r
    _assert_private(root, [os.path.join(root, "memory", "2026-03-01.md")])


def test_tree_migrate_reindex_rollback_keep_every_file_private(open_folder, cli):
    text = (FLAT / "MEMORY.md").read_text(encoding="utf-8") + f"\n## Secrets\n- [!] {SECRET}\n"
    root = _ws(open_folder, text)
    assert cli("tree", "migrate", root).code == 0
    made = _files(root)
    assert any(p.endswith(".bak") for p in made) and any("domains" in p for p in made)
    _assert_private(root, made)
    with open(os.path.join(root, "MEMORY.md"), "a") as handle:
        handle.write("\n## Added later\n- a new section for reindex to file\n")
    assert cli("tree", "reindex", root).code == 0
    _assert_private(root, _files(root))
    assert cli("tree", "rollback", root, "--force").code == 0
    _assert_private(root, _files(root))
    assert _with_secret_files(root)  # the text is still there, just not shown to others


def test_a_rewrite_keeps_the_owner_of_the_file_it_replaces(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can make a file another user owns")
    from qmem.base.writes import atomic_write, rewrite_locked

    path = tmp_path / "MEMORY.md"
    path.write_text("old\n")
    os.chown(path, 1234, 1234)
    os.chmod(path, 0o640)
    atomic_write(str(path), "new\n")
    rewrite_locked(str(path), lambda text: text + "more\n")
    st = os.stat(path)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (1234, 1234, 0o640)
