"""Agent integration: OpenClaw shapes, the qmd-compatible CLI, watch mode, search --refresh."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from qmem.base import config, layout
from qmem.engine import retrieve, search
from qmem.base.writes import FileLock

from ..conftest import PYTHON, subprocess_env

CITATION = r"^[^#]+#L\d+-L\d+$"


@pytest.fixture
def indexed(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def wait_for(predicate, timeout: float = 15.0, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


# -- OpenClaw shapes ------------------------------------------------------------------------------

def test_search_format_openclaw(cli, indexed):
    data = json.loads(cli("search", "私钥 泄露", "--format", "openclaw").out)
    assert list(data) == ["results"] and data["results"]
    first = data["results"][0]
    assert set(first) == {"path", "startLine", "endLine", "score", "snippet", "source", "citation"}
    assert first["source"] == "memory" and first["path"] == "MEMORY.md"
    assert first["citation"] == f"MEMORY.md#L{first['startLine']}-L{first['endLine']}"
    empty = json.loads(cli("search", "nothingmatches", "--format", "openclaw").out)
    assert empty["results"] == [] and "no word of the query" in empty["empty_reason"]
    assert json.loads(cli("search", "nothingmatches", "--json").out) == []  # the array shape stays


def test_memory_get_window_shape(indexed):
    cfg = config.load()
    part = retrieve.window(cfg, "MEMORY.md", 3, 4)
    assert set(part) == {"text", "path", "from", "lines", "truncated", "nextFrom"}
    assert (part["from"], part["lines"], part["truncated"], part["nextFrom"]) == (3, 4, True, 7)
    assert part["text"].splitlines()[-1].startswith("[… ") and "from=7" in part["text"]
    whole = retrieve.window(cfg, "MEMORY.md#security")
    assert whole["text"].startswith("## Security") and not whole["truncated"] and whole["nextFrom"] is None
    assert retrieve.window(cfg, "memory/2026-02-28.md")["lines"] == 9


# -- search --refresh -----------------------------------------------------------------------------

def test_search_refresh_picks_up_changes_and_never_blocks(cli, indexed):
    (indexed / "memory" / "2026-03-01.md").write_text("# 2026-03-01\n- [K] okapi sighting\n", encoding="utf-8")
    assert json.loads(cli("search", "okapi", "--json").out) == []
    fresh = cli("search", "okapi", "--json", "--refresh")
    assert fresh.code == 0 and "refreshed main first" in fresh.err
    assert json.loads(fresh.out)[0]["path"] == "memory/2026-03-01.md"
    (indexed / "memory" / "2026-03-02.md").write_text("# 2026-03-02\n- [K] quokka\n", encoding="utf-8")
    lock = FileLock(layout.lock_path(config.load().data_dir), timeout=1)
    assert lock.acquire()
    try:
        started = time.monotonic()
        busy = cli("search", "okapi", "--json", "--refresh")
        assert busy.code == 0 and "another refresh is running" in busy.err
        assert time.monotonic() - started < 5
    finally:
        lock.release()


# -- qmd-compatible CLI -----------------------------------------------------------------------------

def qmd(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    exe = os.path.join(os.path.dirname(sys.executable), "qmem-qmd")
    return subprocess.run([exe, *args], capture_output=True, text=True, env=subprocess_env(), input=stdin)


def test_qmd_contract_scripted_run(workspace):
    added = qmd("collection", "add", str(workspace), "--name", "mem", "--mask", "**/*.md")
    assert added.returncode == 0, added.stderr
    assert json.loads(qmd("collection", "list", "--json").stdout) == [
        {"name": "mem", "path": str(workspace), "pattern": "**/*.md", "source": "qmem"}]
    assert qmd("update").returncode == 0
    hits = json.loads(qmd("search", "USDC decimals", "--json", "-n", "3", "-c", "mem").stdout)
    assert 1 <= len(hits) <= 3
    for hit in hits:
        assert set(hit) == {"docid", "score", "file", "line", "title", "snippet"}
        assert hit["file"].startswith("qmd://mem/") and hit["docid"].startswith("#")
        assert hit["snippet"].startswith(f"@@ -{hit['line']},")
    assert qmd("search", "nothingmatcheshere").stdout.strip() == "No results found"
    assert qmd("search", "nothingmatcheshere", "--json").stdout.strip() == "[]"
    text = qmd("search", "rsync").stdout
    assert text.startswith("qmd://mem/MEMORY.md:") and "@@ -" in text
    assert "qmd://mem/" in qmd("search", "rsync", "--files").stdout
    assert qmd("get", "MEMORY.md:1").stdout.startswith("# Memory")
    embed = qmd("embed")
    assert embed.returncode == 0 and "qmem embed" in embed.stderr
    assert qmd("status").returncode == 0
    assert qmd("collection", "remove", "mem").returncode == 0
    assert json.loads(qmd("collection", "list", "--json").stdout) == []
    assert qmd("frobnicate").returncode == 2
    assert qmd("collection", "remove", "nope").returncode == 2


# -- watch mode -------------------------------------------------------------------------------------

def test_watch_mode_follows_create_edit_delete_rename_and_new_folders(indexed):
    env = subprocess_env()
    proc = subprocess.Popen([PYTHON, "-m", "qmem", "index", "--watch", "-q"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cfg = config.load()

    def paths(text: str) -> set[str]:
        try:
            return {h.path for h in search.search(cfg, text)}
        except Exception:
            return set()

    try:
        time.sleep(0.5)
        mem = indexed / "memory"
        (mem / "2026-03-01.md").write_text("# 2026-03-01\n- [K] axolotl facts\n", encoding="utf-8")
        assert wait_for(lambda: "memory/2026-03-01.md" in paths("axolotl"))
        tmp = mem / ".2026-03-01.md.swp"  # an editor's atomic save: write a temp file, rename it over
        tmp.write_text("# 2026-03-01\n- [K] narwhal facts\n", encoding="utf-8")
        os.replace(tmp, mem / "2026-03-01.md")
        assert wait_for(lambda: "memory/2026-03-01.md" in paths("narwhal"))
        assert wait_for(lambda: "memory/2026-03-01.md" not in paths("axolotl"))
        (mem / "2026-03-01.md").rename(mem / "renamed.md")
        assert wait_for(lambda: paths("narwhal") == {"memory/renamed.md"})
        (mem / "topics" / "deep").mkdir(parents=True)
        (mem / "topics" / "deep" / "pangolin.md").write_text("# P\npangolin scales\n", encoding="utf-8")
        assert wait_for(lambda: "memory/topics/deep/pangolin.md" in paths("pangolin"))
        (mem / "topics").rename(mem / "subjects")
        assert wait_for(lambda: paths("pangolin") == {"memory/subjects/deep/pangolin.md"})
        os.unlink(mem / "renamed.md")
        assert wait_for(lambda: paths("narwhal") == set())
    finally:
        proc.send_signal(2)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
