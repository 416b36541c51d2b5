"""Issue 16, item 3: `qmem-qmd query` and `vsearch` answer (hybrid/vector with the vector tier,
else BM25 with one note on stderr); `--version` and `--help` say what each command does."""

from __future__ import annotations

import json
import sys

import pytest

from qmem.base.install import install_hint
from qmem.faces import qmd

from .test_integration import qmd as qmd_process


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = qmd.run(list(args))
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("command", ["query", "vsearch"])
def test_query_and_vsearch_answer_with_bm25_when_nothing_is_embedded(cfg, capsys, command):
    code, out, err = run(capsys, command, "USDC", "decimals", "--json", "-n", "3")
    _, bm25, _ = run(capsys, "search", "USDC", "decimals", "--json", "-n", "3")
    assert code == 0 and json.loads(out) == json.loads(bm25) and json.loads(out)
    assert err.count("\n") == 1 and "no vectors yet: run qmem embed" in err and "answered with BM25" in err


def test_query_without_the_vector_tier_installed(cfg, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "qmem.engine.hybrid", None)  # import fails as without numpy
    code, out, err = run(capsys, "query", "rsync")
    assert code == 0 and out.startswith("qmd://main/")
    assert err.count("\n") == 1 and "vector tier is not installed" in err and install_hint("vector") in err


def test_query_and_vsearch_use_vectors_when_embedded(cfg, capsys):
    from qmem.vector import models, store

    store.embed(cfg, "main", models.Fake())
    for command in ("query", "vsearch"):
        code, out, err = run(capsys, command, "rsync resume", "--json")
        assert code == 0 and err == "" and json.loads(out)


def test_version_and_help_describe_the_commands():
    version = qmd_process("--version")
    assert version.returncode == 0 and version.stdout.startswith("qmem-qmd ")
    text = qmd_process("--help").stdout
    for command in ("collection", "update", "status", "search", "vsearch", "query", "get", "embed"):
        line = next(row for row in text.splitlines() if row.strip().startswith(command))
        assert len(line.split()) > 1 or command == "collection", line  # a description beside the name
    assert "examples:" in text
    assert "QUERY" in qmd_process("query", "--help").stdout
