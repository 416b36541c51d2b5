"""Failures for real: concurrent searches during commits, kill -9 mid-refresh, hostile files."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from qmem.base import config, layout

from ..conftest import ROOT
from qmem.engine import search, sync

from ..conftest import PYTHON, subprocess_env
from ..helpers import index_snapshot

WORDS = ["deploy", "wallet", "backup", "cron", "rsync", "token", "gateway", "migration", "latency", "cache"]
CJK = ["私钥", "钱包", "部署", "备份", "编码", "数据库", "网关", "缓存", "延迟", "迁移"]


def make_corpus(root, files: int, seed: int = 7, sections: int = 6) -> None:
    rng = random.Random(seed)
    for i in range(files):
        folder = root / "memory"
        folder.mkdir(parents=True, exist_ok=True)
        parts = [f"# 2026-01-{i % 28 + 1:02d}"]
        for s in range(sections):
            parts.append(f"## {rng.choice(WORDS)} {rng.choice(CJK)} {s}")
            for _ in range(4):
                parts.append(f"- [{rng.choice('PEKBS!')}] {' '.join(rng.choices(WORDS, k=6))} {''.join(rng.choices(CJK, k=3))}")
        (folder / f"note-{i:04d}.md").write_text("\n".join(parts) + "\n", encoding="utf-8")


def mutate(root, rng: random.Random, count: int = 5) -> None:
    files = sorted((root / "memory").glob("*.md"))
    for path in rng.sample(files, min(count, len(files))):
        action = rng.random()
        if action < 0.6:
            path.write_text(path.read_text(encoding="utf-8") + f"- [K] {rng.choice(WORDS)} appended {rng.random()}\n",
                            encoding="utf-8")
        elif action < 0.8:
            path.unlink()
        else:
            path.rename(path.with_name(f"moved-{rng.randrange(10**6)}.md"))
    for k in range(2):
        (root / "memory" / f"new-{rng.randrange(10**6)}-{k}.md").write_text(
            f"# new\n- [E] {rng.choice(WORDS)} {rng.choice(CJK)}\n", encoding="utf-8")


def setup_collection(tmp_path, files: int):
    root = tmp_path / "ws"
    make_corpus(root, files)
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", str(root)))
    return config.load(), root


SEARCHER = """
import json, sys, time
from qmem.base import config
from qmem.engine import search
cfg = config.load()
queries = json.loads(sys.argv[1])
failures, done, nonempty = [], 0, 0
deadline = time.monotonic() + 120
for q in queries:
    try:
        hits = search.search(cfg, q, search.SearchOptions(limit=5))
        assert isinstance(hits, list)
        nonempty += bool(hits)
    except Exception as exc:
        failures.append(f"{q}: {type(exc).__name__}: {exc}")
    done += 1
print(json.dumps({"done": done, "failures": failures, "nonempty": nonempty}))
"""

REFRESHER = """
import json, random, sys, time
from pathlib import Path
from qmem.base import config
from qmem.engine import sync
sys.path.insert(0, sys.argv[2])
from tests.reliability.test_concurrency_and_kills import mutate
cfg = config.load()
root = Path(sys.argv[1])
rng = random.Random(1)
commits = 0
stop = Path(sys.argv[3])
while not stop.exists():
    mutate(root, rng, 5)
    report = sync.refresh(cfg)
    commits += report.committed
print(json.dumps({"commits": commits}))
"""


def test_searches_never_fail_while_refreshes_commit(tmp_path):
    cfg, root = setup_collection(tmp_path, 120)
    sync.refresh(cfg)
    env = subprocess_env()
    stop = tmp_path / "stop"
    repo = str(ROOT)
    refresher = subprocess.Popen([PYTHON, "-c", REFRESHER, str(root), repo, str(stop)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.3)
        rng = random.Random(3)
        queries = [f"{rng.choice(WORDS)} {rng.choice(CJK)}" for _ in range(70)]
        searchers = [subprocess.Popen([PYTHON, "-c", SEARCHER, json.dumps(queries)], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
        cli_failures = []
        for q in queries[:20]:  # the real entry point too, a fresh process each time
            proc = subprocess.run([PYTHON, "-m", "qmem", "search", q, "--json"], env=env, capture_output=True, text=True)
            if proc.returncode != 0 or not isinstance(json.loads(proc.stdout), list):
                cli_failures.append(proc.stderr)
        results = []
        for proc in searchers:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            results.append(json.loads(out))
    finally:
        stop.write_text("stop")
        out, err = refresher.communicate(timeout=300)
    assert refresher.returncode == 0, err
    commits = json.loads(out)["commits"]
    done = sum(r["done"] for r in results) + 20
    failures = [f for r in results for f in r["failures"]] + cli_failures
    assert done >= 200
    assert failures == []
    assert commits >= 3, "the refresher must really have committed while searches ran"
    assert sum(r["nonempty"] for r in results) > 100


KILLABLE = """
import os, signal, sys
from qmem.base import config
from qmem.engine import manifest, sync
from qmem.backends.tantivy import writer
point = sys.argv[1]
if point == "before-manifest":
    manifest.save = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
elif point == "mid-add":
    calls = {"n": 0}
    real = writer.Writer.add_sections
    def add(self, *a, **k):
        calls["n"] += 1
        if calls["n"] == 40:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(self, *a, **k)
    writer.Writer.add_sections = add
elif point == "before-commit":
    writer.Writer.commit = lambda self: os.kill(os.getpid(), signal.SIGKILL)
sync.refresh(config.load())
"""


def run_killable(point: str) -> int:
    return subprocess.run([PYTHON, "-c", KILLABLE, point], env=subprocess_env(), capture_output=True).returncode


def fresh_build(cfg, tmp_path, name: str) -> list[tuple]:
    other = config.load()
    other.data_dir = str(tmp_path / name)
    sync.refresh(other, full=True)
    return index_snapshot(other.data_dir)


def test_kill_9_at_exact_points_then_converge(tmp_path):
    cfg, root = setup_collection(tmp_path, 80)
    assert run_killable("mid-add") == -signal.SIGKILL  # the very first build dies half-way
    rng = random.Random(11)
    for point in ("before-commit", "before-manifest", "mid-add", "none"):
        mutate(root, rng, 6)
        code = run_killable(point)
        assert code == (0 if point == "none" else -signal.SIGKILL)
        assert isinstance(search.search(cfg, "wallet 私钥"), list)  # the index still opens
    mutate(root, rng, 6)
    assert run_killable("before-manifest") == -signal.SIGKILL
    sync.refresh(cfg)
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")


def _binary(path) -> None:
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00 now binary")


FOLLOW_UPS = {
    "delete": lambda path: path.unlink(),
    "rename": lambda path: path.rename(path.with_name("renamed.md")),
    "binary": _binary,
}


@pytest.mark.parametrize("follow_up", sorted(FOLLOW_UPS))
def test_kill_between_commit_and_manifest_then_the_added_file_changes(tmp_path, follow_up):
    cfg, root = setup_collection(tmp_path, 6)
    sync.refresh(cfg)
    added = root / "memory" / "added-by-the-killed-refresh.md"
    added.write_text("# added\n## zebra\n- [K] zebra quokka\n", encoding="utf-8")
    assert run_killable("before-manifest") == -signal.SIGKILL  # committed, manifest not saved
    FOLLOW_UPS[follow_up](added)
    sync.refresh(cfg)
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")
    assert {h.path for h in search.search(cfg, "quokka")} == ({"memory/renamed.md"} if follow_up == "rename" else set())


def test_kill_between_commit_and_manifest_then_a_deleted_file_comes_back(tmp_path):
    cfg, root = setup_collection(tmp_path, 6)
    sync.refresh(cfg)
    path = root / "memory" / "note-0001.md"
    saved, stat = path.read_bytes(), path.stat()
    path.unlink()
    assert run_killable("before-manifest") == -signal.SIGKILL  # the deletion is committed
    path.write_bytes(saved)  # back exactly as the stale manifest remembers it
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    sync.refresh(cfg)
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")


def test_kill_after_the_first_commit_then_the_collection_is_removed(tmp_path):
    cfg, root = setup_collection(tmp_path, 6)
    assert run_killable("before-manifest") == -signal.SIGKILL  # first build: no manifest at all
    config.remove_collection(cfg, "main")
    other = tmp_path / "other"
    make_corpus(other, 2, seed=3)
    config.add_collection(cfg, config.Collection("other", str(other)))
    sync.refresh(config.load())
    assert {row[0] for row in index_snapshot(cfg.data_dir)} == {"other"}


def test_kill_9_at_random_moments_then_converge(tmp_path):
    cfg, root = setup_collection(tmp_path, 400)
    rng = random.Random(5)
    env = subprocess_env()
    code = "from qmem.base import config; from qmem.engine import sync; sync.refresh(config.load(), full=%s)"
    for attempt in range(8):
        if attempt % 2:
            mutate(root, rng, 10)
        proc = subprocess.Popen([PYTHON, "-c", code % (attempt % 3 == 0)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 1.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        hits = search.search(cfg, "backup 备份") if os.path.exists(os.path.join(layout.tantivy_dir(cfg.data_dir), "meta.json")) else []
        assert isinstance(hits, list)
    sync.refresh(cfg)
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")


def test_hostile_workspace_indexes_what_it_can(cli, tmp_path):
    root = tmp_path / "ws"
    mem = root / "memory"
    mem.mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n- [K] the good file mentions zebra\n", encoding="utf-8")
    (mem / "latin1.md").write_bytes("# caf\xe9\n".encode("latin-1"))
    (mem / "binary.md").write_bytes(bytes(range(256)))
    (mem / "empty.md").write_bytes(b"")
    (mem / "only-newlines.md").write_text("\n\n\n")
    (mem / "huge-line.md").write_text("# long\n" + "word " * 200_000 + "zebra\n")
    (mem / "deep.md").write_text("".join(f"{'#' * (i % 6 + 1)} h{i}\ntext {i}\n" for i in range(3000)))
    (mem / "fences.md").write_text("# a\n```\nunclosed fence\n# not heading\n")
    os.symlink(root, mem / "loop")
    os.symlink("/etc", mem / "etc-link")
    os.symlink(tmp_path / "nowhere.md", mem / "dangling.md")
    result = cli("collection", "create", "main", str(root))
    assert result.code == 0, result
    assert "latin1.md: not UTF-8" in result.err and "binary.md: binary" in result.err
    assert "etc-link/: symlink points outside" in result.err
    hits = json.loads(cli("search", "zebra", "--json").out)
    assert {h["path"] for h in hits} == {"MEMORY.md", "memory/huge-line.md"}
    assert json.loads(cli("search", "unclosed", "--json").out)[0]["path"] == "memory/fences.md"
    assert cli("get", "memory/loop/MEMORY.md").code in (0, 2)  # inside the root either way; never a traceback


@pytest.mark.skipif(sys.platform != "linux", reason="uses /proc to check open files")
def test_searches_leave_no_open_files_behind(cfg):
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        search.search(cfg, "USDC 私钥")
    assert len(os.listdir("/proc/self/fd")) <= before + 2


def test_index_and_manifests_that_disagree_are_rebuilt(tmp_path):
    """Sections the manifests do not know of (a crash of an older qmem, a hand-edited data
    folder) are found by counting and the index rebuilt: the result equals a fresh build."""
    from qmem.text import markdown
    from qmem.backends.tantivy import writer

    cfg, root = setup_collection(tmp_path, 6)
    sync.refresh(cfg)
    with writer.Writer(cfg.data_dir, 1) as w:  # a ghost file: in the index, in no manifest, on no disk
        w.add_sections("main", "memory/ghost.md", markdown.parse("# ghost\n- [K] wallet quokka\n"))
        w.commit()
    report = sync.refresh(cfg)
    assert "manifests list" in report.healed
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")
    assert not sync.refresh(cfg).healed  # and it stays healed


def leave_a_killed_commits_delete_file(cfg, root) -> None:
    """What kill -9 inside Tantivy's commit can leave, without timing luck: a refresh whose
    commit wrote a segment's `<segment>.<opstamp>.del`, then its meta.json and manifest put
    back to what they were before it (as if it died before writing them)."""
    kept = {path: open(path, "rb").read() for path in (
        os.path.join(layout.tantivy_dir(cfg.data_dir), "meta.json"), layout.manifest_path(cfg.data_dir, "main"))}
    note = root / "memory" / "note-0002.md"
    note.write_text(note.read_text(encoding="utf-8") + "- [K] the quokka moved to the wallet\n", encoding="utf-8")
    sync.refresh(cfg)
    assert any(name.endswith(".del") for name in os.listdir(layout.tantivy_dir(cfg.data_dir)))
    for path, data in kept.items():
        with open(path, "wb") as handle:
            handle.write(data)


def test_a_commit_killed_after_writing_its_delete_file_does_not_block_the_next(tmp_path):
    """kill -9 inside Tantivy's commit, after it wrote a segment's `<segment>.<opstamp>.del`
    but before meta.json, leaves that file behind. The next refresh repeats the same
    operations from the same meta.json, so its commit names the same file, and it failed
    with FileAlreadyExists (every refresh after it too)."""
    cfg, root = setup_collection(tmp_path, 6)
    sync.refresh(cfg)
    leave_a_killed_commits_delete_file(cfg, root)
    assert not sync.refresh(cfg).healed  # the leftover is collected, nothing is rebuilt
    assert [h.path for h in search.search(cfg, "quokka")] == ["memory/note-0002.md"]
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")


def test_a_file_in_the_way_of_a_commit_that_cannot_be_collected_means_a_rebuild(tmp_path, monkeypatch):
    """The same leftover, when Tantivy cannot collect it (its list of files lost with it):
    the commit's FileAlreadyExists is damage, and the refresh rebuilds the index (a cache)."""
    from qmem.backends.tantivy import writer

    cfg, root = setup_collection(tmp_path, 6)
    sync.refresh(cfg)
    leave_a_killed_commits_delete_file(cfg, root)
    monkeypatch.setattr(writer, "_collect_orphans", lambda _writer: None)
    report = sync.refresh(cfg)
    assert "FileAlreadyExists" in report.healed
    assert [h.path for h in search.search(cfg, "quokka")] == ["memory/note-0002.md"]
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")


def test_a_remember_after_a_killed_refresh_keeps_its_intent(tmp_path, cli):
    """A refresh killed between its commit and its manifest leaves an intent; a `remember`
    (which re-indexes only its own file) must leave that intent for the next refresh, which
    then converges without a rebuild."""
    cfg, root = setup_collection(tmp_path, 6)
    sync.refresh(cfg)
    added = root / "memory" / "added-by-the-killed-refresh.md"
    added.write_text("# added\n## zebra\n- [K] zebra quokka\n", encoding="utf-8")
    assert run_killable("before-manifest") == -signal.SIGKILL  # committed, manifest not saved
    written = cli("remember", "the okapi fact", "-w", str(root), "--date", "2026-01-03")
    assert written.code == 0 and written.err == "", written
    added.unlink()  # what the killed refresh added is gone before the next refresh
    report = sync.refresh(cfg)
    assert report.healed == ""  # converged from the intent, not by a rebuild one refresh late
    assert index_snapshot(cfg.data_dir) == fresh_build(cfg, tmp_path, "fresh")
    assert not search.search(cfg, "quokka") and search.search(cfg, "okapi")
