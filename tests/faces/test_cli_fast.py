"""The Typer-free fast path must accept exactly what the Typer commands accept."""

from __future__ import annotations

import json
import re

import pytest
import typer

from qmem.faces.cli import app as app_mod
from qmem.faces.cli import fast


def typer_options(name: str) -> dict[str, tuple[str, bool]]:
    """option string → (kind, multiple) for the Typer command `name`."""
    group = typer.main.get_command(app_mod.app)
    command = group.commands[name]  # type: ignore[attr-defined]
    out = {}
    for param in command.params:
        if param.param_type_name != "option" or param.name == "help":
            continue
        for opt in param.opts:
            out[opt] = ("flag" if param.is_flag else "value", bool(param.multiple))
    return out


@pytest.mark.parametrize(("name", "table"), [
    ("search", fast.SEARCH_OPTIONS), ("get", fast.GET_OPTIONS), ("index", fast.INDEX_OPTIONS), ("update", fast.INDEX_OPTIONS),
    ("query", fast.VECTOR_OPTIONS), ("vsearch", fast.VECTOR_OPTIONS),
])
def test_fast_tables_match_typer(name, table):
    expected = typer_options(name)
    actual = {opt: ("flag" if kind == "flag" else "value", kind == "list") for opt, (_, kind) in table.items()}
    assert actual == expected


def test_parser_reads_click_forms():
    values, words = fast.parse(["私钥", "-n5", "--type=K", "-t", "S", "--json", "泄露", "--", "-x"], fast.SEARCH_OPTIONS)
    assert words == ["私钥", "泄露", "-x"]
    assert values == {"limit": 5, "types": ["K", "S"], "json": True}


@pytest.mark.parametrize("argv", [
    ["search", "--help"], ["search", "x", "--bogus"], ["search", "x", "-n"], ["search", "x", "-n", "abc"],
    ["search", "x", "--json=1"], ["get"], ["get", "a", "b"], ["status"], ["--config"],
    ["index", "--watch"], ["index", "--wait", "-1"], ["index", "--wait", "nan"], ["index", "--help"], ["update", "-x"],
    ["query"], ["query", "--help"], ["query", "x", "--type", "K"], ["vsearch", "x", "--json", "--md"], ["vsearch", "-n", "3"],
])
def test_unsure_command_lines_fall_back_to_typer(argv):
    assert fast.try_fast(argv) is None


@pytest.mark.parametrize("argv", [
    ["search", "USDC decimals", "--json", "-n", "3", "-t", "K"],
    ["search", "私钥", "被盗", "--md"],
    ["search", "rsync", "--files"],
    ["search", "decimals", "--since", "2026-02-01", "--path", "memory/*", "--full"],
    ["get", "MEMORY.md#security", "--json"],
    ["get", "memory/2026-02-28.md:2:3"],
])
def test_fast_path_and_typer_print_the_same(cli, capsys, workspace, argv):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    if "--json" in argv:
        json.loads(fast_and_typer_output(capsys, argv))
    else:
        fast_and_typer_output(capsys, argv)


def fast_and_typer_output(capsys, argv: list[str]) -> str:
    """What the fast path prints for `argv`, checked equal to what the Typer app prints."""
    capsys.readouterr()
    fast_code = fast.try_fast(argv)
    fast_out = capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        app_mod.run(argv)
    typer_out = capsys.readouterr().out
    assert fast_code == 0 and (info.value.code or 0) == 0
    assert fast_out == typer_out and fast_out
    return fast_out


@pytest.mark.parametrize("argv", [["index"], ["index", "--json"], ["update", "main", "--wait", "5"], ["index", "-q"]])
def test_fast_index_and_typer_index_print_the_same(cli, capsys, workspace, argv):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    assert cli("index", "-q").code == 0  # both runs below are no-op refreshes
    capsys.readouterr()
    fast_code = fast.try_fast(argv)
    fast_out = capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        app_mod.run(argv)
    typer_out = capsys.readouterr().out
    assert fast_code == 0 and (info.value.code or 0) == 0

    def steady(out: str) -> str:  # the time taken differs
        if "--json" in argv:
            return json.dumps({k: v for k, v in json.loads(out).items() if k != "seconds"})
        return re.sub(r"done in [0-9.]+s", "done in Xs", out)

    assert steady(fast_out) == steady(typer_out)
    assert bool(fast_out) == ("-q" not in argv)


@pytest.mark.parametrize("argv", [
    ["query", "rsync resume", "--json", "-n", "3"],
    ["query", "rsync", "-c", "main", "--md"],
    ["query", "-backup", "rsync", "--files"],
    ["vsearch", "rsync resumes large copies", "--json"],
    ["vsearch", "私钥", "--limit", "2"],
])
def test_fast_query_and_typer_query_print_the_same(cli, capsys, workspace, argv):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    assert cli("embed", "--model", "fake").code == 0
    out = fast_and_typer_output(capsys, argv)
    if "--json" in argv:
        assert json.loads(out)[0]["path"]
