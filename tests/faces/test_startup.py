"""The commands agents call many times per task must not import what they do not use."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from ..conftest import PYTHON, ROOT, subprocess_env

HEAVY = ["typer", "click", "rich", "tomllib", "tomlkit", "orjson", "dataclasses", "inspect", "typing",
         "pathlib", "shutil", "tempfile", "argparse", "difflib", "subprocess", "threading", "logging", "random",
         "hashlib", "unicodedata", "numpy", "jieba", "bisect", "qmem.vector", "qmem.memory", "qmem.text.token_classes", "qmem.engine.sync"]
# What a plain search (no date in its words) does without: `re` with `enum`, `functools` and
# `collections` (~25M instructions of imports), `json` (~6M more), even its C part `_json`
# (jsontext escapes strings itself); `datetime` is the C module.
SEARCH_SPARES = ["re", "json", "_json", "enum", "functools", "collections"]
# What only indexing needs: a search reads the index, never Markdown structure, the file tree
# or the manifests (it only asks whether a collection has one).
INDEXING = ["qmem.text.markdown", "qmem.text.headings", "qmem.text.tags", "qmem.engine.scan",
            "qmem.engine.patterns", "qmem.engine.listing", "qmem.engine.manifest", "array"]
# A search opens the index with backends/tantivy/searcher.py: never the schema, the writer or the protocols.
WRITING = ["qmem.backends.tantivy.index", "qmem.backends.tantivy.writer", "qmem.backends.tantivy.refresh",
           "qmem.backends.seam"]

PROBE = """
import sys
from qmem.__main__ import main
try:
    main(sys.argv[1:])  # an explicit argv: main() returns instead of os._exit()
except SystemExit:
    pass
sys.stderr.write("\\nLOADED=" + repr(sorted(m for m in HEAVY if m in sys.modules)))
""".replace("HEAVY", repr(HEAVY + INDEXING + WRITING + SEARCH_SPARES))  # the probe itself imports nothing (json would bring re)


def loaded(args: list[str]) -> list[str]:
    proc = subprocess.run([PYTHON, "-c", PROBE, *args], capture_output=True, text=True, env=subprocess_env())
    marker = proc.stderr.rsplit("LOADED=", 1)
    assert len(marker) == 2, proc.stderr
    return ast.literal_eval(marker[1])


@pytest.fixture
def indexed(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    from qmem.base import config

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
    allowed += SEARCH_SPARES if args[0] == "get" or "--since" in args else []  # Markdown, dates: `re`
    assert [m for m in loaded(args) if m not in allowed] == []


@pytest.mark.parametrize("args", [
    ["search", "私钥", "-n", "10", "--json"],
    ["search", "rsync", "--files"],
    ["search", "backup cron", "--md"],
    ["search", '"large copies" -wallet rsync', "-n", "3"],
    ["search", "nothingmatcheshere", "--json"],  # an empty answer says why, still without re
])
def test_a_plain_search_imports_no_re_or_json(indexed, args):
    assert [m for m in loaded(args) if m in SEARCH_SPARES] == []


def test_the_qmem_command_is_a_plain_script(indexed):
    """pip's wrapper for a `[project.scripts]` entry point imports `re` before qmem runs, so
    `qmem` is scripts/qmem (pip points its `#!python` at the environment's interpreter)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "qmem" not in project["project"]["scripts"]
    assert project["tool"]["setuptools"]["script-files"] == ["scripts/qmem"]
    proc = subprocess.run([PYTHON, "-X", "importtime", str(ROOT / "scripts" / "qmem"), "search", "rsync", "--json"],
                          capture_output=True, text=True, env=subprocess_env())
    assert proc.returncode == 0 and '"path": "MEMORY.md"' in proc.stdout
    imported = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "qmem.engine.search" in imported and not imported & set(SEARCH_SPARES)


def test_help_uses_typer_but_not_the_engine(indexed):
    mods = loaded(["--help"])
    assert "typer" in mods


ORJSON = ["orjson", "dataclasses", "inspect", "typing"]  # what `import orjson` brings (~93M instructions)


def test_a_timer_refresh_skips_typer(indexed):
    """`qmem index -q` runs every minute from cron: the fast path, no Typer, no vector tier.

    The first no-op after a change re-verifies the seal, reading Tantivy's meta.json and the
    segment footers through the one JSON road (orjson: 113.7M -> 162.4M instructions, once per
    change, after the changing refresh of ~440M that imports orjson itself); every later no-op
    imports no JSON library at all (54.8M)."""
    first = loaded(["index", "-q"])
    assert [m for m in first if m not in INDEXING + WRITING + SEARCH_SPARES + ["qmem.engine.sync"] + ORJSON] == []
    sealed = loaded(["index", "-q"])
    assert [m for m in sealed if m not in INDEXING + WRITING + SEARCH_SPARES + ["qmem.engine.sync"]] == []
    assert "json" not in sealed


def test_start_up_json_needs_no_json_library(indexed):
    """What the start-up path prints as JSON (a no-op `index --json`, `qmem-qmd search --json`: a
    cold process per query) comes from faces/render.startup_json: with orjson, `index --json` measured
    140.7M instructions instead of 58.5M."""
    loaded(["index", "-q"])
    assert not {"json", "orjson"} & set(loaded(["index", "--json"]))
    probe = PROBE.replace("from qmem.__main__ import main", "from qmem.faces.qmd import run as main")
    proc = subprocess.run([PYTHON, "-c", probe, "search", "rsync", "--json"], capture_output=True, text=True,
                          env=subprocess_env())
    assert '"file": "qmd://main/' in proc.stdout, proc.stderr
    assert not {"json", "orjson"} & set(ast.literal_eval(proc.stderr.rsplit("LOADED=", 1)[1]))


def test_a_read_only_command_takes_the_c_datetime(indexed):
    """Python 3.11's datetime.py builds its pure-Python classes only to replace them with
    `_datetime`'s; tantivy imports it on load, so `search` and `get` register the C module."""
    probe = PROBE.replace('sys.stderr.write("\\nLOADED="', 'sys.stderr.write("\\nLOADED=" + repr([sys.modules["datetime"].__name__]) + "#"')
    for args in (["search", "rsync", "--json"], ["get", "MEMORY.md#security"]):
        proc = subprocess.run([PYTHON, "-c", probe, *args], capture_output=True, text=True, env=subprocess_env())
        names = ast.literal_eval(proc.stderr.rsplit("LOADED=", 1)[1].split("#", 1)[0])
        assert names == (["datetime"] if sys.version_info >= (3, 12) else ["_datetime"])
    import datetime

    from qmem import __main__ as entry

    assert all(getattr(datetime, name) is getattr(sys.modules["_datetime"], name) for name in entry._DATETIME_NAMES)


def test_a_hybrid_query_skips_typer_and_numpy(indexed, cli):
    """Typer's import and numpy's (~340M instructions, more than the rest of a cold query) are
    not paid by a query: the fast path, and dot products on the mapped matrix by simsimd. Nor
    orjson's (~93M: the store's meta.json is read by jsonio.read_flat, its rows file is binary)
    or typing's (~41M with re and enum)."""
    pytest.importorskip("numpy", reason="the vector tier's extra is not installed")
    assert cli("embed", "--model", "fake").code == 0
    spared = {"typer", "click", "rich", "orjson", "typing", "dataclasses", "inspect"}
    try:
        import simsimd  # noqa: F401
        spared.add("numpy")
    except ImportError:
        pass
    for args in (["query", "rsync resume", "--json"], ["vsearch", "rsync", "-n", "3"],
                 ["search", "rsync", "--hybrid", "--path", "memory/*"]):
        assert not spared & set(loaded(args)), args
