"""One search behind every face: a SearchRequest (one field list) and engine/answer.answer.

The CLI's option table (the fast path's parser and Typer's `search` options are built from it)
and the engine's options are checked against SearchRequest's fields, and the MCP tool's schema is
made from them;
every face (fast path, Typer, vsearch/query, MCP, qmem-qmd, eval) is shown to search through
`answer`, so the index is healed, the mode picked and an empty answer explained in one place.
"""

from __future__ import annotations

import inspect
import json
import shutil

import pytest

from qmem.engine import answer as answer_mod
from qmem.engine.answer import SearchRequest
from qmem.engine.search import SearchOptions
from qmem.faces.cli import fast

FIELDS = set(SearchRequest.__slots__)


def _cli_fields() -> set[str]:
    return {field.partition("=")[0] for _, field, _, _, _ in fast.SEARCH} - set(fast.RENDER)


def test_the_cli_option_table_is_the_request_field_list():
    # every request field a person can set has its option; nothing else but how to print
    assert _cli_fields() == FIELDS - {"query", "snippet_lines"}
    assert {field for _, field, _, _, _ in fast.SEARCH if "=" in field} == {"mode=hybrid"}


def test_typer_search_options_are_built_from_the_table():
    import typer.main

    from qmem.faces.cli.app import app

    command = typer.main.get_command(app).commands["search"]  # type: ignore[attr-defined]
    typer_flags = [tuple(p.opts) for p in command.params if p.param_type_name == "option"]
    assert typer_flags == [flags for flags, _, _, _, _ in fast.SEARCH]
    helps = {p.opts[-1]: p.help for p in command.params if p.param_type_name == "option"}
    assert all(helps[flags[-1]] == text for flags, _, _, _, text in fast.SEARCH)


def test_the_engine_options_and_the_mcp_tool_name_request_fields():
    from qmem.faces.mcp import SEARCH_PARAMS, Memory

    assert set(SearchOptions.__slots__) <= FIELDS  # what the ranked search takes, the request has
    assert set(SEARCH_PARAMS.values()) <= FIELDS
    tool = [name for name in inspect.signature(Memory.memory_search).parameters if name != "self"]
    assert tool == list(SEARCH_PARAMS)


def test_the_mcp_search_schema_is_made_from_the_request_fields(monkeypatch):
    """memory_search's parameters come from SearchRequest: its types and defaults under the wire
    names (a list field takes one value); a field added to the table appears in the schema
    with the request's own type, and a request field that changes type changes the tool."""
    pytest.importorskip("mcp", reason="the MCP SDK is the optional extra qmem[mcp]")
    from qmem.faces import mcp

    params = {p.name: p for p in mcp.search_parameters()}
    assert list(params) == list(mcp.SEARCH_PARAMS)
    assert params["query"].default is inspect.Parameter.empty and params["query"].annotation is str
    assert (params["maxResults"].annotation, params["maxResults"].default) == (int, 10)
    assert params["minScore"].annotation == (float | None) and params["minScore"].default is None
    assert params["collection"].annotation == (str | None) and params["type"].annotation == (str | None)
    assert params["mode"].default == SearchRequest().mode
    monkeypatch.setitem(mcp.SEARCH_PARAMS, "recency", "recency")
    added = {p.name: p for p in mcp.search_parameters()}["recency"]
    assert (added.annotation, added.default) == (float | None, None)
    monkeypatch.setattr(SearchRequest.__init__, "__annotations__",
                        {**SearchRequest.__init__.__annotations__, "since": "int | None"})
    assert {p.name: p for p in mcp.search_parameters()}["since"].annotation == (int | None)


def test_a_misspelt_request_field_is_refused():
    with pytest.raises(TypeError):
        SearchRequest(querry="rsync")  # type: ignore[call-arg]


@pytest.fixture
def asked(monkeypatch):
    """Every SearchRequest a face hands to answer(), in order."""
    requests: list[SearchRequest] = []
    real = answer_mod.answer

    def spy(cfg, request, **kwargs):
        requests.append(request)
        return real(cfg, request, **kwargs)

    monkeypatch.setattr(answer_mod, "answer", spy)
    return requests


def test_every_face_searches_through_answer(cfg, cli, capsys, asked, tmp_path):
    from typer.testing import CliRunner

    from qmem.engine import evaluate
    from qmem.faces import qmd
    from qmem.faces.cli.app import app
    from qmem.faces.mcp import Memory

    assert json.loads(cli("search", "rsync", "-n", "2", "--exact", "--json").out)  # the fast path
    assert CliRunner().invoke(app, ["search", "rsync", "--since", "2020-01-01", "-t", "K"]).exit_code == 0  # Typer
    assert cli("vsearch", "rsync").code == 0 and cli("query", "rsync", "-n", "3").code == 0
    assert Memory().memory_search("rsync", maxResults=4, collection="main")["results"]
    capsys.readouterr()
    assert qmd.run(["query", "rsync", "-n", "2"]) == 0
    evaluate.evaluate(cfg, [evaluate.Case("rsync", ["MEMORY.md"], 1)], k=5)
    got = [(r.query, r.mode, r.limit, r.collections, r.types, r.since, r.exact) for r in asked]
    assert got == [
        ("rsync", "bm25", 2, [], [], None, True),
        ("rsync", "bm25", None, [], ["K"], "2020-01-01", False),
        ("rsync", "vector", None, [], [], None, False),
        ("rsync", "hybrid", 3, [], [], None, False),
        ("rsync", "bm25", 4, ["main"], [], None, False),
        ("rsync", "hybrid", 2, [], [], None, False),
        ("rsync", "bm25", 5, [], [], None, False),
    ]


def test_qmem_qmd_and_eval_build_a_missing_index_as_the_cli_does(cfg, capsys, tmp_path):
    """Before, only the CLI and MCP's BM25 mode healed: qmem-qmd and eval said 'no index'."""
    from qmem.engine import evaluate
    from qmem.faces import qmd

    shutil.rmtree(cfg.data_dir)
    capsys.readouterr()
    assert qmd.run(["search", "rsync", "-n", "1"]) == 0
    out = capsys.readouterr()
    assert "qmem-qmd: no index yet; building it now" in out.err and out.out.startswith("qmd://main/")
    shutil.rmtree(cfg.data_dir)
    said: list[str] = []
    report = evaluate.evaluate(cfg, [evaluate.Case("rsync resume", ["MEMORY.md"], 1)], k=3, say=said.append)
    assert report.hit_at_k == 1.0 and said == ["no index yet; building it now (qmem index)"]


def test_mcp_vector_modes_heal_a_missing_index_too(cfg):
    """Before, MCP healed only in bm25 mode; vector and hybrid raised instead."""
    from qmem.faces.mcp import Memory

    shutil.rmtree(cfg.data_dir)
    found = Memory().memory_search("rsync", mode="hybrid")
    assert found["results"] and "answered with BM25" in str(found["note"])


def test_eval_refuses_a_mode_it_cannot_run_instead_of_scoring_bm25(cfg):
    from qmem.base.errors import BadInputError
    from qmem.engine import evaluate

    with pytest.raises(BadInputError, match="cannot evaluate --mode vector: no vectors yet"):
        evaluate.evaluate(cfg, [evaluate.Case("rsync", ["MEMORY.md"], 1)], mode="vector")


def test_eval_fixture_with_an_empty_query_is_refused_by_line(cfg, tmp_path):
    from qmem.base.errors import BadInputError
    from qmem.engine import evaluate

    fixture = tmp_path / "f.jsonl"
    fixture.write_text('{"query": "rsync", "expected": ["MEMORY.md"]}\n{"query": "  ", "expected": ["a.md"]}\n',
                       encoding="utf-8")
    with pytest.raises(BadInputError, match=r"f\.jsonl:2: query must be text"):
        evaluate.load_fixture(str(fixture))


def test_request_checks_are_the_same_for_every_face(cfg):
    from qmem.base.errors import BadInputError

    for bad, says in ((SearchRequest(query="x", mode="magic"), "unknown mode"),
                      (SearchRequest(query="x", budget=0), "--budget must be at least 1"),
                      (SearchRequest(query="x", recency=0), "--recency is a half-life"),
                      (SearchRequest(query="  "), "give a query, or a filter")):
        with pytest.raises(BadInputError, match=says):
            answer_mod.answer(cfg, bad)
