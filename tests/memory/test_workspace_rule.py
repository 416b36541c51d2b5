"""One rule for where memory lives (memory/workspace.resolve), for every command and face:
--workspace, $QMEM_WORKSPACE, [memory] workspace, the collection holding the current folder,
a MEMORY.md here; otherwise a one-line refusal and nothing written."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from qmem.base import config
from qmem.base.errors import BadInputError
from qmem.memory import entries
from qmem.memory.workspace import resolve

from ..conftest import PYTHON, subprocess_env

WRITERS = [
    (["remember", "the deploy key rotates monthly", "--type", "K"], None),
    (["flush"], "[K] a note from a flush\n"),
    (["state", "set", "doing X"], None),
    (["state", "append", "then Y"], None),
    (["state", "clear"], None),
    (["forget", "deploy key"], None),
    (["boot"], None),
    (["distill"], None),
    (["janitor"], None),
    (["maintain"], None),
    (["protocol"], None),
    (["tree", "stats"], None),
]


def _tree(folder) -> list[str]:
    return sorted(os.path.relpath(os.path.join(d, n), folder) for d, ds, fs in os.walk(folder) for n in ds + fs)


@pytest.mark.parametrize("argv,stdin", WRITERS, ids=[" ".join(a[:2]) for a, _ in WRITERS])
def test_outside_any_workspace_every_memory_command_refuses_in_one_line(cli, workspace, tmp_path, monkeypatch,
                                                                       argv, stdin):
    """A shell in some folder (here: one holding notes, not a workspace): a one-line refusal
    that says how to name the workspace, exit 2, and no memory/ or SESSION-STATE.md there."""
    assert cli("collection", "create", "main", str(workspace)).code == 0
    here = _project(tmp_path)
    before = _tree(here)
    monkeypatch.chdir(here)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin or ""))
    result = cli(*argv)
    assert result.code == 2, result
    assert result.err.count("\n") == 1 and result.err.startswith("qmem: no workspace:"), result.err
    assert "-w DIR" in result.err and f"-w {workspace}" in result.err and "$QMEM_WORKSPACE" in result.err
    assert _tree(here) == before and result.out == ""


def test_remember_run_as_a_user_outside_a_workspace_refuses(cli, workspace, tmp_path):
    """The same, as a fresh `qmem` process in a terminal would run it."""
    assert cli("collection", "create", "main", str(workspace)).code == 0
    here = _project(tmp_path)
    child = subprocess.run([PYTHON, "-m", "qmem", "remember", "a fact"], cwd=here, env=subprocess_env(),
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 2 and child.stderr.count("\n") == 1 and "no workspace" in child.stderr, child
    assert _tree(here) == ["notes.md"]


def _project(tmp_path):
    here = tmp_path / "projects" / "site"
    here.mkdir(parents=True)
    (here / "notes.md").write_text("# notes\n", encoding="utf-8")
    return here


def test_inside_a_collection_the_collection_root_is_the_workspace(cli, workspace, monkeypatch):
    """`cd workspace/memory && qmem remember …` writes workspace/memory/DATE.md (it wrote
    memory/memory/DATE.md, which nothing indexes), and search finds it at once."""
    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.chdir(workspace / "memory")
    written = cli("remember", "the staging bucket is eu-west-3", "--type", "K", "--date", "2026-02-28")
    assert written.code == 0 and written.out.startswith("memory/2026-02-28.md:"), written
    assert not (workspace / "memory" / "memory").exists()
    assert "eu-west-3" in (workspace / "memory" / "2026-02-28.md").read_text(encoding="utf-8")
    assert json.loads(cli("search", "eu-west-3", "--json").out)[0]["path"] == "memory/2026-02-28.md"
    assert cli("state", "set", "migrating the bucket").code == 0
    assert (workspace / "SESSION-STATE.md").is_file() and not (workspace / "memory" / "SESSION-STATE.md").exists()


def test_the_order_of_the_rule(cli, workspace, tmp_path, monkeypatch):
    inner = workspace / "memory" / "team"
    inner.mkdir()
    other, configured, named = (tmp_path / n for n in ("other", "configured", "named"))
    for folder in (other, configured, named):
        folder.mkdir()
    assert cli("collection", "create", "main", str(workspace)).code == 0
    assert cli("collection", "create", "team", str(inner), "-p", "**/*.md").code == 0
    monkeypatch.chdir(inner)
    cfg = config.load()
    assert resolve(None, cfg).root == str(inner)  # the innermost collection holding the folder
    assert resolve(None, cfg).source == "collection team"
    monkeypatch.chdir(workspace)
    assert resolve(None, cfg).root == str(workspace)
    cfg.extra["memory"] = {"workspace": str(configured)}
    assert resolve(None, cfg).root == str(configured)
    monkeypatch.setenv("QMEM_WORKSPACE", str(other))
    assert resolve(None, cfg).root == str(other)
    assert resolve(str(named), cfg).root == str(named)
    with pytest.raises(BadInputError, match="is not a folder"):
        resolve(str(tmp_path / "typo"), cfg)
    monkeypatch.delenv("QMEM_WORKSPACE")
    cfg.extra.clear()
    loose = tmp_path / "loose"  # a workspace not indexed yet: its own MEMORY.md
    loose.mkdir()
    monkeypatch.chdir(loose)
    with pytest.raises(BadInputError, match="no workspace"):
        resolve(None, cfg)
    (loose / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    assert resolve(None, cfg).root == str(loose)


def test_remember_in_a_workspace_no_collection_holds_says_it_is_not_searchable(cli, workspace):
    written = cli("remember", "a fact", "-w", str(workspace))
    assert written.code == 0 and written.out.startswith("memory/")
    assert written.err.count("\n") == 1 and "not indexed: no collection holds" in written.err


def test_protocol_names_the_workspace(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    text = cli("protocol", "-w", str(workspace)).out
    assert f"qmem boot {workspace}" in text and f'qmem remember "<fact>" --type K -w {workspace}' in text
    assert f"qmem flush -w {workspace}" in text and "`qmem remember \"<fact>\" --type K`" not in text


# -- one dedupe rule for remember, CLI and MCP alike ----------------------------------------------

def test_remember_twice_writes_once_and_says_where_it_is(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    args = ("remember", "Pager alerts go through Opsgenie", "--type", "K", "--date", "2026-02-28", "-w", str(workspace))
    first = cli(*args)
    log = workspace / "memory" / "2026-02-28.md"
    before = log.read_bytes()
    again = cli(*args)
    assert again.code == 0 and log.read_bytes() == before
    where = first.out.split()[0]
    assert again.out.startswith(f"{where}  - Pager alerts go through Opsgenie") and "already kept" in again.out
    data = json.loads(cli(*args[:-2], "-w", str(workspace), "--json").out)
    assert data["line"] == 0 and data["duplicate_at"] == where


def test_the_mcp_tool_and_the_cli_share_the_rule(cli, workspace, monkeypatch):
    from qmem.faces.mcp import Memory

    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    kept = Memory().memory_remember("The backup NAS is called Tardis", type="K")
    again = cli("remember", "the backup NAS is called tardis!", "--type", "K", "--json")
    assert json.loads(again.out)["duplicate_at"] == kept["ref"]


@pytest.mark.parametrize("a,b,same", [
    ("BSC USDC has 18 decimals", "bsc usdc has 18 decimals!", True),
    ("the gateway at port 8080 in the Frankfurt datacenter answers health checks",
     "the gateway at port 9090 in the Frankfurt datacenter answers health checks", False),
    ("今天的第1条记录：部署和备份都正常", "今天的第2条记录：部署和备份都正常", False),
    ("today the nightly deploy and the backup both ran fine again", "today the nightly deploy and the backup both ran fine", True),
])
def test_a_changed_number_is_another_fact(a, b, same):
    assert entries.similar(a, b) is same
