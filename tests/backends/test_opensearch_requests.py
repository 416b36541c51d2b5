"""The OpenSearch backend's compiled request bodies, held against golden files.

A change to the analyzer, the mappings or the query compiler shows up here as a diff of
JSON a reviewer can read. Regenerate after an intended change with
`QMEM_UPDATE_GOLDEN=1 pytest tests/backends/test_opensearch_requests.py` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from qmem.text import query
from qmem.backends.opensearch import backend as osb
from qmem.engine.search import SearchOptions, build_form

GOLDEN = Path(__file__).parent / "golden" / "opensearch"

QUERIES = {
    "words": ("running foxes error: refused", SearchOptions(), ["agent:alice", "shared"]),
    "cjk_run": ("私钥被盗 wallet", SearchOptions(), ["agent:alice"]),
    "one_cjk_char": ("钥", SearchOptions(), ["shared"]),
    "phrase_and_exclusions": ('"bonsai tree" -wallet -"old notes"', SearchOptions(exact=True), ["team:infra"]),
    "quoted_title_in_a_question": ('what did I think of "bonsai tree"?', SearchOptions(), ["team:infra"]),
    "filters": ("deploy", SearchOptions(collections=["main", "team"], types=["K", "skill"], since="2026-01-01",
                                        until="2026-02-28", path="memory/**/*.md"),
                ["agent:alice", "team:infra", "shared"]),
    "filters_only": ("", SearchOptions(types=["!"]), ["agent:alice"]),
    "kana_hangul": ("カタカナ 한국어 ひらがな", SearchOptions(), ["agent:alice"]),
}


def _check(name: str, payload: object) -> None:
    text = json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    path = GOLDEN / f"{name}.json"
    if os.environ.get("QMEM_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path.name} changed; see the module docstring"


def test_scope_index_is_golden() -> None:
    _check("scope_index", osb.scope_index_body(1, 1, "qmem-agent~alice"))


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_compiled_search_is_golden(name: str) -> None:
    text, options, scopes = QUERIES[name]
    form = build_form(text, options)
    body = osb.search_request(form, scopes, 10)
    _check(f"search_{name}", {"indices": [osb.layout.alias("qmem", s) for s in sorted(set(scopes))], "body": body})


def test_nothing_to_match_sends_nothing() -> None:
    assert osb.search_request(query.parse(""), ["shared"], 10) is None
    assert osb.search_request(query.parse("anything"), [], 10) is None  # no scope sees nothing


def test_every_search_is_fenced_to_sections_of_its_scopes() -> None:
    for text, options, scopes in QUERIES.values():
        body = osb.search_request(build_form(text, options), scopes, 5)
        filters = body["query"]["bool"]["filter"]
        assert {"terms": {"scope": sorted(set(scopes))}} in filters and {"term": {"kind": "section"}} in filters
        assert body["_source"] == {"excludes": ["heading_terms", "body_terms"]}  # the text is read from the file


def test_hits_come_only_from_the_configs_own_collections() -> None:
    """Another scope's collection of the same name never shows its heading over a local file."""
    form = build_form("wallet", SearchOptions())
    body = osb.search_request(form, ["agent:alice", "team:infra"], 5, [("agent:alice", "memory"), ("agent:bob", "x")])
    pairs = body["query"]["bool"]["filter"][-1]
    assert pairs == {"bool": {"should": [{"bool": {"filter": [{"term": {"scope": "agent:alice"}},
                                                              {"terms": {"collection": ["memory"]}}]}}],
                              "minimum_should_match": 1}}
    assert osb.search_request(form, ["team:infra"], 5, [("agent:alice", "memory")]) is None


def test_a_scope_index_name_is_one_to_one_and_cannot_prefix_another() -> None:
    from qmem.backends.opensearch import layout

    scopes = ["agent:alice", "agent:Alice", "agent.alice", "agent:al", "agent:al-v2", "team:infra", "shared"]
    names = {layout.alias("qmem", s) for s in scopes}
    assert len(names) == len(scopes)
    assert layout.alias("qmem", "team:Infra") == "qmem-team~^infra"
    for scope in scopes:  # a role's patterns match only its own scope's alias and versions
        alias, versions = layout.patterns("qmem", scope)
        others = [layout.concrete("qmem", s, 2) for s in scopes if s != scope] + list(names - {alias})
        import fnmatch

        assert not [o for o in others if fnmatch.fnmatchcase(o, versions) or o == alias]
        assert layout.version_of(layout.concrete("qmem", scope, 7)) == 7


def test_filters_never_score() -> None:
    """Filters sit in `filter` only; `must` holds only scoring units (or match_all)."""
    body = osb.search_request(build_form("deploy", QUERIES["filters"][1]), ["shared"], 10)
    must = json.dumps(body["query"]["bool"]["must"])
    for field in ("scope", "collection", "types", "date", "path"):
        assert f'"{field}"' not in must


@pytest.mark.parametrize("regex,lucene", [
    ("(?:.*/)?notes\\.md", "(.*/)?notes\\.md"),
    ("memory/(?:.*/)?[^/]*\\.md", "memory/(.*/)?[^/]*\\.md"),
    ('a"b<c>@&~#', 'a\\"b\\<c\\>\\@\\&\\~\\#'),
    ("x\\(?:y", "x\\(?:y"),  # an escaped paren is not a group
])
def test_path_regex_in_lucene_syntax(regex: str, lucene: str) -> None:
    assert osb.lucene_regex(regex) == lucene


def test_section_ids_are_deterministic_and_scoped() -> None:
    a = osb.file_key("agent:alice", "main", "MEMORY.md")
    assert a == osb.file_key("agent:alice", "main", "MEMORY.md")
    assert a != osb.file_key("agent:bob", "main", "MEMORY.md")  # same collection name, other agent
    assert osb.section_id(a, 3) == f"{a}-3"


def test_body_hash_round_trips_through_a_signed_long() -> None:
    from qmem.text.markdown import parse

    for text in ("# A\n\nplain\n", "# B\n\n私钥泄露\n", "# C\n\n" + "x" * 999 + "\n"):
        for s in parse(text, 0):
            doc = osb.section_doc("shared", "c", "p.md", "k", 0, s)
            assert -(1 << 63) <= doc["body_hash"] < (1 << 63)
            assert osb.stored_fields(doc)["body_hash"] == [osb.body_hash(s.body)]


# -- the [backend] and [scopes] tables ------------------------------------------------------

def _load(tmp_path, text: str):
    from qmem.base import config

    file = tmp_path / "qmem.toml"
    file.write_text(text, encoding="utf-8")
    return config.load(str(file))


def test_the_local_backend_is_the_default_and_needs_nothing(tmp_path):
    cfg = _load(tmp_path, "")
    assert cfg.backend == {"kind": "tantivy"}
    assert cfg.scope == "shared" and cfg.sees == ["shared"]


def test_opensearch_backend_config_round_trips_into_settings(tmp_path):
    cfg = _load(tmp_path, """
[backend]
kind = "opensearch"
url = "https://search.internal:9200"
index = "fleet-memory"
auth = "basic"
username = "qmem"
password_env = "FLEET_OS_PASSWORD"
shards = 6
replicas = 2
search_type = "query_then_fetch"

[scopes]
own = "agent:alice"
see = ["agent:alice", "team:infra", "shared"]

[collections.mine]
path = "/tmp/mine"

[collections.team]
path = "/tmp/team"
scope = "team:infra"
""")
    settings = osb.Settings.from_dict(cfg.backend)
    assert (settings.url, settings.index, settings.auth, settings.username, settings.password_env) == \
        ("https://search.internal:9200", "fleet-memory", "basic", "qmem", "FLEET_OS_PASSWORD")
    assert (settings.shards, settings.replicas, settings.search_type, settings.verify_tls) == \
        (6, 2, "query_then_fetch", True)  # TLS verification stays on unless turned off
    assert cfg.sees == ["agent:alice", "team:infra", "shared"]
    assert cfg.scope_of(cfg.collections["mine"]) == "agent:alice"
    assert cfg.scope_of(cfg.collections["team"]) == "team:infra"
    assert _load(tmp_path, '[scopes]\nown = "agent:bob"\n').sees == ["agent:bob", "shared"]


@pytest.mark.parametrize("text,message", [
    ('[backend]\nkind = "opensearch"\nurl = "http://x:9200"\npassword = "hunter2"\n', "secrets never go in the config"),
    ('[backend]\nkind = "opensearch"\nurl = "http://u:p@x:9200"\n', "without credentials"),
    ('[backend]\nkind = "opensearch"\n', "needs the cluster's url"),
    ('[backend]\nkind = "elastic"\n', "one of tantivy, opensearch"),
    ('[backend]\nkind = "opensearch"\nurl = "http://x:9200"\nauth = "basic"\n', "needs a username"),
    ('[backend]\nkind = "opensearch"\nurl = "http://x:9200"\nauth = "basic"\nusername = "u"\n', "over plain http"),
    ('[backend]\nkind = "opensearch"\nurl = "https://x:9200"\nauth = "cert"\nclient_cert = "c.pem"\n',
     "needs client_cert and client_key"),
    ('[backend]\nkind = "opensearch"\nurl = "https://x:9200"\nsearch_retries = 9\n', "backend.search_retries"),
    ('[backend]\nkind = "opensearch"\nurl = "http://x:9200"\nshards = 0\n', "backend.shards"),
    ('[backend]\nkind = "opensearch"\nurl = "http://x:9200"\nverify_tls = "no"\n', "backend.verify_tls"),
    ('[backend]\nkind = "opensearch"\nurl = "http://x:9200"\nindex = "Bad Name"\n', "backend.index"),
    ('[backend]\nurl = "http://x:9200"\n', "only the opensearch backend takes settings"),
    ('[scopes]\nown = "agent alice"\n', "scopes.own"),
    ('[scopes]\nown = "agent:alice"\nsee = ["shared"]\n', "must include the config's own scope"),
    ('[collections.x]\npath = "/tmp"\nscope = ""\n', "collections.x.scope"),
])
def test_bad_backend_or_scope_config_is_one_clear_line(tmp_path, text, message):
    from qmem.base.errors import ConfigError

    with pytest.raises(ConfigError, match=message) as failure:
        _load(tmp_path, text)
    assert "\n" not in str(failure.value)
    assert "hunter2" not in str(failure.value)


def test_basic_auth_over_plain_http_is_only_for_this_machine(tmp_path):
    for host in ("127.0.0.1", "localhost", "[::1]"):
        cfg = _load(tmp_path, f'[backend]\nkind = "opensearch"\nurl = "http://{host}:9200"\nauth = "basic"\n'
                              'username = "u"\n')
        assert cfg.backend["auth"] == "basic"


def test_the_example_backend_and_scopes_tables_are_valid(tmp_path):
    """Uncommented, the example config's [scopes] and [backend] tables load as documented."""
    from ..conftest import ROOT

    lines = (ROOT / "collections.example.toml").read_text(encoding="utf-8").split("\n")
    start = next(n for n, line in enumerate(lines) if line.startswith("# [scopes]"))
    block = [line[2:] for line in lines[start:] if line.startswith("# ") and not line.startswith("#  ")]
    block = [line for line in block if line.startswith("[") or "=" in line]
    cfg = _load(tmp_path, "\n".join(block) + "\n")
    assert cfg.backend["kind"] == "opensearch" and cfg.backend["verify_tls"] is True
    assert cfg.scope == "agent:alice" and cfg.sees == ["agent:alice", "team:infra", "shared"]
    assert osb.Settings.from_dict(cfg.backend).search_type == "dfs_query_then_fetch"
