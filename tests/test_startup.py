"""The commands agents call many times per task must not import what they do not use."""

from __future__ import annotations

import json
import subprocess

import pytest

from .conftest import PYTHON, subprocess_env

HEAVY = ["typer", "click", "rich", "tomllib", "tomlkit", "orjson", "dataclasses", "inspect", "typing",
         "pathlib", "shutil", "tempfile", "argparse", "difflib", "subprocess", "threading", "logging", "random",
         "hashlib", "unicodedata", "numpy", "jieba", "qmem.vector", "qmem.memory", "qmem.token_classes", "qmem.sync"]
# What only indexing needs: a search reads the index, never Markdown structure, the file tree
# or the manifests (it only asks whether a collection has one).
INDEXING = ["qmem.markdown", "qmem.scan", "qmem.manifest", "array"]

PROBE = """
import json, sys
from qmem.__main__ import main
try:
    main(json.loads(sys.argv[1]))  # an explicit argv: main() returns instead of os._exit()
except SystemExit:
    pass
sys.stderr.write("\\nLOADED=" + json.dumps(sorted(m for m in HEAVY if m in sys.modules)))
""".replace("HEAVY", json.dumps(HEAVY + INDEXING))


def loaded(args: list[str]) -> list[str]:
    proc = subprocess.run([PYTHON, "-c", PROBE, json.dumps(args)], capture_output=True, text=True, env=subprocess_env())
    marker = proc.stderr.rsplit("LOADED=", 1)
    assert len(marker) == 2, proc.stderr
    return json.loads(marker[1])


@pytest.fixture
def indexed(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    from qmem import config

    config.load()  # leaves the config cache in place, as any earlier command does


@pytest.mark.parametrize("args", [
    ["search", "私钥", "-n", "10", "--json"],
    ["search", "USDC decimals", "--type", "K", "--since", "2026-01-01"],
    ["search", "rsync", "--files"],
    ["get", "MEMORY.md#security"],
    ["get", "memory/2026-02-28.md:1:5", "--json"],
    ["--version"],
])
def test_agent_commands_stay_lean(indexed, args):
    allowed = INDEXING if args[0] == "get" else []  # `get` finds a heading's span in the file
    assert [m for m in loaded(args) if m not in allowed] == []


def test_help_uses_typer_but_not_the_engine(indexed):
    mods = loaded(["--help"])
    assert "typer" in mods


def test_a_timer_refresh_skips_typer(indexed):
    """`qmem index -q` runs every minute from cron: the fast path, no Typer, no vector tier."""
    assert [m for m in loaded(["index", "-q"]) if m not in INDEXING + ["qmem.sync"]] == []
