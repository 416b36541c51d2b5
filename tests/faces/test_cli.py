"""Every command and flag through the real entry point (fast path and Typer app)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qmem import __version__


@pytest.fixture
def indexed(cli, workspace):
    result = cli("collection", "create", "main", str(workspace))
    assert result.code == 0, result
    return workspace


def test_version_and_help(cli):
    assert cli("--version").out.strip() == f"qmem {__version__}"
    assert cli("-V").out.strip() == f"qmem {__version__}"
    top = cli("--help")
    assert top.code == 0
    for command in ("collection", "index", "update", "search", "get", "status"):
        assert command in top.out
    for command in (["collection"], ["collection", "create"], ["collection", "add"], ["collection", "list"],
                    ["collection", "show"], ["collection", "remove"], ["collection", "rename"], ["index"],
                    ["update"], ["search"], ["get"], ["status"]):
        result = cli(*command, "--help")
        assert result.code == 0 and "Usage: qmem" in result.out, command


def test_collection_create_indexes_at_once(cli, workspace):
    result = cli("collection", "create", "main", str(workspace))
    assert result.code == 0
    assert "created collection main" in result.out
    assert "4 files" in result.out and "4 added" in result.out


def test_collection_create_options_and_json(cli, workspace, tmp_path):
    (workspace / "archive").mkdir()
    (workspace / "archive" / "old.md").write_text("# Old\nancient text\n")
    result = cli("collection", "create", "notes", str(workspace), "--pattern", "**/*.md", "--exclude", "archive/**",
                 "--description", "all notes", "--json")
    data = json.loads(result.out)
    assert data["collection"]["patterns"] == ["**/*.md"]
    assert data["collection"]["exclude"] == ["archive/**"]
    assert data["collection"]["description"] == "all notes"
    assert data["refresh"]["collections"][0]["files"] == 4
    shown = json.loads(cli("collection", "show", "notes", "--json").out)
    assert shown["description"] == "all notes" and shown["stale"] == 0


def test_collection_create_no_index_and_tilde(cli, tmp_path):
    ws = tmp_path / "home" / "agent"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# M\nhello world\n")
    result = cli("collection", "create", "main", "~/agent", "--no-index")
    assert result.code == 0 and "not indexed yet" in result.out
    listed = json.loads(cli("collection", "list", "--json").out)
    assert listed[0]["root"] == str(ws) and listed[0]["last_refresh"] is None
    status = json.loads(cli("status", "--json").out)
    assert status["collections"][0]["stale"] == 1


def test_collection_add_qmd_spelling(cli, workspace):
    result = cli("collection", "add", str(workspace), "--name", "main", "--mask", "**/*.md", "--json")
    assert json.loads(result.out)["collection"]["patterns"] == ["**/*.md"]


def test_collection_errors(cli, workspace, tmp_path):
    assert cli("collection", "create", "main", str(tmp_path / "missing")).code == 2
    cli("collection", "create", "main", str(workspace))
    dup = cli("collection", "create", "main", str(workspace))
    assert dup.code == 2 and "already exists" in dup.err and dup.err.count("\n") == 1
    bad = cli("collection", "create", "bad/name", str(workspace))
    assert bad.code == 2 and "bad collection name" in bad.err
    assert cli("collection", "show", "nope").code == 2
    assert cli("collection", "remove", "nope").code == 2


def test_collection_list_show_rename_remove(cli, indexed):
    text = cli("collection", "list").out
    assert text.startswith("main") and "4 files" in text
    show = cli("collection", "show", "main").out
    assert "root:" in show and "stale:        0" in show
    renamed = cli("collection", "rename", "main", "work")
    assert renamed.code == 0 and "renamed collection main → work" in renamed.out
    hits = json.loads(cli("search", "USDC", "--json").out)
    assert hits and {h["collection"] for h in hits} == {"work"}
    removed = cli("collection", "remove", "work")
    assert removed.code == 0 and "untouched" in removed.out
    assert (indexed / "MEMORY.md").exists()
    assert json.loads(cli("collection", "list", "--json").out) == []
    assert "no collections yet" in cli("collection", "list").out


def test_remove_json(cli, indexed):
    data = json.loads(cli("collection", "remove", "main", "--json").out)
    assert data["removed"]["name"] == "main" and data["refresh"]["purged"] == ["main"]


def test_index_incremental_full_quiet_json_and_update_alias(cli, indexed):
    assert "0 added, 0 changed, 0 deleted, 4 unchanged" in cli("index").out
    (indexed / "memory" / "2026-03-01.md").write_text("# 2026-03-01\n- [E] new\n")
    data = json.loads(cli("update", "main", "--json").out)
    assert data["collections"][0]["added"] == 1
    assert "(full rebuild)" in cli("index", "--full").out
    quiet = cli("index", "-q")
    assert quiet.code == 0 and quiet.out == ""
    assert cli("index", "nope").code == 2
    assert cli("index", "--wait", "1").code == 0


def test_index_warnings_go_to_stderr(cli, indexed):
    (indexed / "memory" / "bad.md").write_bytes(b"\xff\xfe\xfa")
    result = cli("index")
    assert result.code == 0 and "warning: main: memory/bad.md: not UTF-8" in result.err


def test_search_text_output(cli, indexed):
    result = cli("search", "私钥", "被盗")
    assert result.code == 0
    first = result.out.splitlines()[0]
    assert first.startswith("MEMORY.md:") and "Memory › Security" in first and "[main]" in first
    assert "\x1b[" not in result.out  # no colour off a terminal


def test_search_colour_when_forced(cli, indexed, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[1;31m" in cli("search", "rsync").out
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in cli("search", "rsync").out


def test_search_json_files_md_full(cli, indexed):
    hits = json.loads(cli("search", "USDC decimals", "--json", "-n", "2").out)
    assert len(hits) == 2
    assert {"collection", "path", "abs_path", "anchor", "heading", "line_start", "line_end",
            "score", "snippet", "date", "types"} <= hits[0].keys()
    assert json.loads(cli("search", "nothingmatchesthis", "--json").out) == []
    files = cli("search", "USDC", "--files").out.splitlines()
    assert files and all(os.path.isabs(line.rsplit(":", 1)[0]) and line.rsplit(":", 1)[1].isdigit() for line in files)
    md = cli("search", "rsync", "--md").out
    assert md.startswith("### Memory › Skills › Rsync over SSH with resume") and "`MEMORY.md:" in md
    full = cli("search", "rsync", "--full").out
    assert "resumes large copies" in full
    assert "body" in json.loads(cli("search", "rsync", "--json", "--full").out)[0]
    assert json.loads(cli("search", "rsync", "--format", "json").out)[0]["path"] == "MEMORY.md"


def test_search_filters_on_the_command_line(cli, indexed):
    def found(*args):
        return {h["path"] for h in json.loads(cli("search", *args, "--json").out)}

    assert found("decimals", "--type", "K", "--since", "2026-02-28", "--until", "2026-02-28") == {"memory/2026-02-28.md"}
    assert found("decimals", "-t", "knowledge", "--path", "memory/*") == {"memory/2026-02-28.md", "memory/knowledge.md"}
    assert found("USDC", "-c", "main", "--min-score", "0") >= {"MEMORY.md"}
    assert found("USDC", "--min-score", "1000") == set()
    assert found("--type", "E") == {"memory/2026-02-27.md", "memory/2026-02-28.md"}


def test_search_usage_errors_are_one_line_exit_2(cli, indexed):
    for args in (["search", "x", "--since", "nope"], ["search", "x", "--type", "Z"], ["search", "x", "-c", "nope"],
                 ["search", "x", "--json", "--md"], ["search", "x", "--format", "xml"], ["search"],
                 ["search", "x", "-n", "0"]):
        result = cli(*args)
        assert result.code == 2, args
        assert result.err.startswith("qmem: ") and result.err.count("\n") == 1, args


def test_click_usage_errors_exit_2(cli, indexed):
    assert cli("search", "x", "--bogus").code == 2
    assert cli("search", "x", "-n", "abc").code == 2
    assert cli("nosuchcommand").code == 2


def test_search_without_collections_or_index(cli, workspace):
    result = cli("search", "x")
    assert result.code == 2 and "no collections yet" in result.err
    cli("collection", "create", "main", str(workspace), "--no-index")
    built = cli("search", "USDC", "--json")
    assert built.code == 0 and "no index yet; building it now" in built.err
    assert json.loads(built.out)


def test_get_section_window_json_and_errors(cli, indexed):
    out = cli("get", "MEMORY.md#windows-ps5-编码地狱").out
    assert out.splitlines()[0].startswith("MEMORY.md:11-") and "### [S] Windows PS5 编码地狱" in out
    window = cli("get", "memory/2026-02-28.md:3:2").out.splitlines()
    assert window[0] == "memory/2026-02-28.md:3-4" and window[1].strip().startswith("3")
    data = json.loads(cli("get", "MEMORY.md#security", "-c", "main", "--json").out)
    assert data["line_start"] == 19 and data["text"].startswith("## Security")
    refused = cli("get", "../../etc/passwd")
    assert refused.code == 2 and "refused" in refused.err
    missing = cli("get", "memory/knowlege.md")
    assert missing.code == 2 and "closest: memory/knowledge.md" in missing.err


def test_status_text_and_json(cli, indexed):
    text = cli("status").out
    assert "main" in text and "up to date" in text and "index:" in text
    (indexed / "MEMORY.md").write_text("# changed\n")
    data = json.loads(cli("status", "--json").out)
    coll = data["collections"][0]
    assert coll["files"] == 4 and coll["sections"] > 0 and coll["stale"] == 1 and coll["changed"] == 1
    assert data["index_bytes"] > 0 and coll["last_refresh"]
    assert "1 stale" in cli("status", "main").out


def test_config_option_and_bad_config(cli, workspace, tmp_path):
    other = tmp_path / "other.toml"
    assert cli("--config", str(other), "collection", "create", "x", str(workspace)).code == 0
    assert "x" in other.read_text()
    assert json.loads(cli("--config", str(other), "search", "USDC", "--json").out)
    assert json.loads(cli(f"--config={other}", "search", "USDC", "--json").out)
    bad = tmp_path / "bad.toml"
    bad.write_text("[collections.x]\npath = 1\n")
    result = cli("--config", str(bad), "status")
    assert result.code == 2 and str(bad) in result.err and "collections.x.path" in result.err


def test_busy_index_exit_code(cli, indexed):
    from qmem.base import config, layout
    from qmem.base.writes import FileLock

    lock = FileLock(layout.lock_path(config.load().data_dir), timeout=1)
    assert lock.acquire()
    try:
        result = cli("index", "--wait", "0.2")
        assert result.code == 75 and "another qmem refresh" in result.err
        assert cli("search", "USDC", "--json").code == 0  # searches never wait for a writer
    finally:
        lock.release()


def test_python_dash_m(indexed):
    import subprocess

    from ..conftest import PYTHON, subprocess_env

    out = subprocess.run([PYTHON, "-m", "qmem", "search", "USDC", "--files"], capture_output=True, text=True,
                         env=subprocess_env(), check=True).stdout
    assert "knowledge.md" in out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=120))
def test_any_query_on_the_command_line_gives_json_or_one_line_error(cli, indexed, text):
    result = cli("search", "--json", "--", text)
    if result.code == 0:
        assert isinstance(json.loads(result.out), list)
    else:
        assert result.code == 2 and result.err.startswith("qmem: ") and result.err.count("\n") == 1
