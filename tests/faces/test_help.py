"""Issue 16, item 4: help pages end with real examples, arguments show as QUERY / NAME, `-q` and
`--json` mean the same everywhere, US and UK type names, relative `--expire`."""

from __future__ import annotations

import json
import shlex

import pytest

from qmem.faces.cli.app import command
from qmem.faces.cli.helptext import EXAMPLES, QUIET
from qmem.faces.cli.options import QUIET_HELP

SHELL = {"|", "||", "&&", ">", ">>", "<", ";"}


def walk(group, prefix=""):
    yield prefix, group
    for name, sub in getattr(group, "commands", {}).items():
        yield from walk(sub, f"{prefix} {name}".strip())


ALL = dict(walk(command()))
LEAVES = {path: cmd for path, cmd in ALL.items() if not hasattr(cmd, "commands")}


@pytest.mark.parametrize("path", sorted(ALL))
def test_every_help_ends_with_two_or_three_examples(cli, path):
    res = cli(*path.split(), "--help")
    assert res.code == 0
    tail = res.out.rstrip("\n").split("\n  Examples:\n")
    assert len(tail) == 2, f"qmem {path} --help has no examples"
    lines = tail[1].splitlines()
    assert 2 <= len(lines) <= 3 and all(line.startswith("    qmem ") for line in lines), lines


def _parse(example: str):
    words = shlex.split(example, comments=True)
    cut = next((i for i, w in enumerate(words) if w in SHELL), len(words))
    words = words[1:cut]
    cmd, ctx = ALL[""], None
    while words and hasattr(cmd, "commands") and words[0] in cmd.commands:
        ctx = cmd.make_context("qmem", [], resilient_parsing=True) if ctx is None else ctx
        cmd = cmd.commands[words.pop(0)]
    return cmd, words


@pytest.mark.parametrize("example", sorted({e for lines in EXAMPLES.values() for e in lines}))
def test_every_example_parses(example):
    assert example.startswith("qmem ")
    cmd, args = _parse(example)
    assert not hasattr(cmd, "commands"), f"{example}: names a group, not a command"
    cmd.make_context(cmd.name, list(args))  # raises on an unknown option, a bad value or a missing argument


def test_examples_cover_every_command_and_name_only_real_ones():
    assert set(EXAMPLES) == set(ALL)


@pytest.mark.parametrize("path", sorted(LEAVES))
def test_arguments_show_as_names_in_capitals(cli, path):
    usage = cli(*path.split(), "--help").out.splitlines()[0]
    assert "{" not in usage
    for param in LEAVES[path].params:
        if param.param_type_name == "argument":
            shown = param.make_metavar(None, usage=False).rstrip(".")
            assert shown.isupper() and shown in usage, (usage, shown)


def test_json_and_quiet_mean_the_same_everywhere():
    for path, cmd in LEAVES.items():
        opts = {opt: p for p in cmd.params for opt in p.opts}
        if path != "mcp":
            assert "--json" in opts, f"qmem {path} has no --json"
        if path in QUIET or "-q" in opts:
            assert "-q" in opts and "--quiet" in opts and opts["-q"].help == QUIET_HELP, path


def test_quiet_prints_nothing_but_json_and_errors_still_show(cli, workspace, monkeypatch):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    res = cli("collection", "create", "main", str(workspace), "-q")
    assert (res.code, res.out) == (0, "")
    res = cli("remember", "quiet note", "-q")
    assert (res.code, res.out) == (0, "") and "quiet note" in "".join(
        p.read_text(encoding="utf-8") for p in (workspace / "memory").glob("20*.md"))
    res = cli("remember", "json note", "-q", "--json")
    assert json.loads(res.out)["entry"] == "- json note"
    res = cli("forget", "no such entry anywhere", "-q")
    assert res.code == 2 and res.out == "" and "no remembered entry" in res.err
    assert cli("janitor", "-q").out == "" and cli("state", "set", "x", "-q").out == ""


@pytest.mark.parametrize("spelling", ["behavior", "behaviour", "Behaviours", "B"])
def test_us_and_uk_type_names(cli, workspace, monkeypatch, spelling):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    res = cli("remember", "answer in short sentences", "--type", spelling, "--date", "2026-02-28")
    assert res.code == 0 and "- [B] answer in short sentences" in res.out
    assert cli("collection", "create", "main", str(workspace)).code in (0, 2)
    assert "2026-02-28.md:" in cli("search", "short sentences", "-t", spelling, "--files").out
    bad = cli("remember", "x", "--type", "behaviorr")
    assert bad.code == 2 and "B (behaviour/behavior)" in bad.err


def test_expire_accepts_relative_forms_and_refuses_the_past(cli, workspace, monkeypatch):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    for value, expected in (("tomorrow", "2026-03-01"), ("30d", "2026-03-30"), ("2w", "2026-03-14"),
                            ("2026-06-01", "2026-06-01")):
        res = cli("remember", f"until {value}", "--expire", value, "--date", "2026-02-28")
        assert res.code == 0 and f"[P1|expire:{expected}] until {value}" in res.out, res
    res = cli("remember", "too late", "--expire", "2026-02-01", "--date", "2026-02-28")
    assert res.code == 2 and "in the past" in res.err
    assert cli("remember", "never", "--expire", "someday").code == 2
