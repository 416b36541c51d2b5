"""Against a real OpenSearch cluster: runs only when QMEM_OPENSEARCH_URL is set, e.g.

    scripts/test-cluster start --nodes 3          # prints the URL as its last line
    QMEM_OPENSEARCH_URL=http://127.0.0.1:19201 python -m pytest tests -k live

Credentials, when the cluster wants them, come from QMEM_OPENSEARCH_USER and
QMEM_OPENSEARCH_PASSWORD, its CA from QMEM_OPENSEARCH_CA (`source <cluster>/cluster.env`
sets all of them for a `--security` test cluster). Each test works in indices of its own
and deletes them at the end (conftest.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from qmem.text import query
from qmem.backends.opensearch import backend as osb

from qmem.engine.scan import scan
from qmem.engine.sync import read_sections

from ..conftest import SAMPLE
from .test_opensearch_flows import expected_state, paths, push, section_count

URL = os.environ.get("QMEM_OPENSEARCH_URL")
pytestmark = pytest.mark.skipif(not URL, reason="no live cluster: set QMEM_OPENSEARCH_URL to run these")


@pytest.fixture
def live(cluster):
    """A backend on the real cluster: 3 shards, and a replica when there are nodes to hold it."""
    probe = cluster.backend()
    nodes = probe.client.cluster.health()["number_of_data_nodes"]
    return cluster.backend(shards=3, replicas=1 if nodes > 1 else 0)


def test_live_refresh_scopes_and_routing(live, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    for scope in ("agent:alice", "agent:bob", "team:infra"):
        push(live, scope, "main", ws)
    assert live.stored_hashes("agent:alice", "main") == expected_state(ws)
    total = sum(f.sections for f in expected_state(ws).values())
    assert section_count(live, "agent:bob", "main") == total
    assert {s for s, _ in paths(live, "私钥被盗", ["agent:alice", "shared"])} == {"agent:alice"}
    # Each scope in an index of its own; in it, every file's sections and record share a shard
    # (routed by the file's key), and a write without routing is refused.
    for scope in ("agent:alice", "agent:bob", "team:infra"):
        page = live.client.search(index=live.alias(scope), body={"query": {"match_all": {}}, "size": 100,
                                                                 "explain": True, "_source": ["key", "scope"]})
        hits = page["hits"]["hits"]
        assert {h["_source"]["scope"] for h in hits} == {scope}
        assert len(hits) == total + len(expected_state(ws)) + 1  # the sections, a record per file, the mark
        by_key: dict[str, set] = {}
        for h in hits:
            assert h["_routing"] == h["_source"]["key"]
            by_key.setdefault(h["_source"]["key"], set()).add(h["_shard"])
        assert all(len(shards) == 1 for shards in by_key.values())
        assert len({s for shards in by_key.values() for s in shards}) > 1  # the files spread over the shards
    with pytest.raises(Exception, match="routing_missing"):
        live.client.index(index=live.alias("agent:alice"), id="x", body={"kind": "section", "scope": "agent:alice"})
    (ws / "memory" / "knowledge.md").unlink()
    push(live, "agent:alice", "main", ws)
    assert "memory/knowledge.md" not in live.stored_hashes("agent:alice", "main")
    assert "memory/knowledge.md" in live.stored_hashes("agent:bob", "main")


def test_live_dfs_scores_match_across_search_types(live, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    push(live, "shared", "main", ws)
    form = query.parse("BSC USDC decimals")
    dfs = live.search(form, ["shared"], 10)
    assert dfs and all(score > 0 for score, _ in dfs)
    assert Path(ws / dfs[0][1]["path"][0]).exists()


MIXED = ("# Deploy keys\n\nDeploying the deploy keys today: news of the organization's keys, "
         "snake_case x1y2 café naïve.\n\n## 私钥\n\n私钥泄露，钱包被盗。カタカナとひらがな 한국어 문장 ２０２６年\n")


def test_indexed_terms_are_qmem_tokens_cjk_included(live, tmp_path):
    """`_termvectors` of indexed sections (what Lucene stored at index time) equal qmem's
    analysis.terms of each section's heading and body, term by term and count by count. qmem
    sends its own terms, so neither Lucene's stemmer nor the JDK's Unicode tables decide."""
    from collections import Counter

    from qmem.text import analysis, markdown

    root = tmp_path / "ws"
    root.mkdir()
    (root / "MEMORY.md").write_text(MIXED, encoding="utf-8")
    push(live, "shared", "main", root)
    jvm = next(iter(live.client.nodes.info(metric="jvm")["nodes"].values()))["jvm"]
    print(f"\nnode JVM {jvm['version']} ({jvm['vm_vendor']})")
    key = osb.file_key("shared", "main", "MEMORY.md")
    sections = markdown.parse(MIXED, 0)
    assert len(sections) == 2
    for ordinal, section in enumerate(sections):
        vectors = live.client.termvectors(index=live.alias("shared"), id=osb.section_id(key, ordinal), routing=key,
                                          fields="body_terms,heading_terms", positions=False, offsets=False)
        for field, text in (("body_terms", section.body), ("heading_terms", section.heading)):
            terms = vectors["term_vectors"].get(field, {}).get("terms", {})
            assert {t: v["term_freq"] for t, v in terms.items()} == dict(Counter(analysis.terms(text))), field
            assert terms  # neither field is empty here


def test_search_finds_what_the_local_index_finds(live, tmp_path):
    """The same files, searched on the real engine and on the local index: the same sections
    match (the test server missed deploy, key, today, news and every quoted Latin phrase)."""
    from qmem.base import config
    from qmem.engine import search, sync

    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    (ws / "memory" / "deploy.md").write_text(MIXED, encoding="utf-8")
    push(live, "shared", "main", ws)
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", str(ws), ["MEMORY.md", "memory/**/*.md"]))
    cfg = config.load()
    sync.refresh(cfg)
    for text in ("deploy", "keys", "today", "news", '"deploy keys"', '"USDC decimals"', "私钥被盗", "钥",
                 "カタカナ", "한국어", "organization", "BSC gas -wallet", '"bonsai tree"'):
        form = search.build_form(text, search.SearchOptions())
        local = {(d["path"][0], d["anchor"][0]) for _, d in search.ranked_docs(cfg, form, 50)}
        remote = {(d["path"][0], d["anchor"][0]) for _, d in live.search(form, ["shared"], 50)}
        assert remote == local, text
    assert live.search(query.parse('"deploy keys"'), ["shared"], 5)  # not empty either


def skewed(live, tmp_path, scope: str) -> tuple[Path, set[int]]:
    """Files placed so that `zeta` is common on shard 0 of the scope's index and rare on the
    others (each file's shard asked of the cluster: routing is by file key)."""
    root = tmp_path / "skew"
    (root / "memory").mkdir(parents=True)
    live.ensure_scope(scope)
    by_shard: dict[int, list[str]] = {}
    n = 0
    while sum(map(len, by_shard.values())) < 40:
        name = f"memory/n{n}.md"
        n += 1
        where = live.client.search_shards(index=live.alias(scope), routing=osb.file_key(scope, "main", name))
        shard = where["shards"][0][0]["shard"]
        if shard == 0 or len(by_shard.get(shard, [])) < 2:
            by_shard.setdefault(shard, []).append(name)
    for name in (n for names in by_shard.values() for n in names):
        (root / name).write_text(f"# {name}\n\nzeta notes and filler {name}\n", encoding="utf-8")
    (root / "memory" / "omega.md").write_text("# omega\n\nzeta omega together\n", encoding="utf-8")
    return root, set(by_shard)


def test_multi_shard_idf_dfs_scores_as_one_index(cluster, tmp_path):
    """With 3 shards and a skewed document frequency, query_then_fetch scores with each shard's
    own statistics; dfs_query_then_fetch (qmem's default) scores exactly as one shard does."""
    three = cluster.backend(shards=3)
    one = cluster.backend(shards=1)
    root, shards = skewed(three, tmp_path, "shared")
    assert shards == {0, 1, 2}
    push(three, "shared", "main", root)
    one.ensure_scope("team:one")
    # the same files in a one-shard index: the scope (and so each file's key) differs, the text does not
    push(one, "team:one", "main", root)
    form = query.parse("zeta omega")
    dfs = {d["path"][0]: s for s, d in three.search(form, ["shared"], 50)}
    single = {d["path"][0]: s for s, d in one.search(form, ["team:one"], 50)}
    three.settings.search_type = "query_then_fetch"
    qtf = {d["path"][0]: s for s, d in three.search(form, ["shared"], 50)}
    assert set(dfs) == set(single) == set(qtf) and len(dfs) == 41
    assert all(abs(dfs[p] - single[p]) < 1e-4 for p in dfs)
    assert max(abs(qtf[p] - dfs[p]) for p in dfs) > 0.05  # per-shard statistics do differ


def test_a_commit_is_searchable_when_it_returns_and_nothing_old_shows(cluster, tmp_path, monkeypatch):
    """refresh=wait_for on every request of the final records (several here, on 2 shards):
    another client sees every new section and record and none of a shrunk file's old ones
    the moment the commit returns (no forced refresh was sent)."""
    monkeypatch.setattr(osb, "BULK_ACTIONS", 4)
    monkeypatch.setattr(osb, "BULK_RECORDS", 4, raising=False)
    writer, reader = cluster.backend(shards=2), cluster.backend(shards=2)
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    for n in range(30):
        (root / "memory" / f"t{n}.md").write_text(f"# T{n}\n\nokapi {n}\n\n## More\n\nokapi more {n}\n", encoding="utf-8")
    push(writer, "agent:alice", "main", root)
    assert reader.stored_hashes("agent:alice", "main") == expected_state(root)
    assert section_count(reader, "agent:alice", "main") == 60
    assert len(reader.search(query.parse("okapi"), ["agent:alice"], 100)) == 60
    for n in range(30):
        (root / "memory" / f"t{n}.md").write_text(f"# T{n}\n\nquokka {n}\n", encoding="utf-8")
    push(writer, "agent:alice", "main", root)
    assert reader.search(query.parse("okapi"), ["agent:alice"], 100) == []
    assert len(reader.search(query.parse("quokka"), ["agent:alice"], 100)) == 30
    assert section_count(reader, "agent:alice", "main") == 30
    assert reader.stored_hashes("agent:alice", "main") == expected_state(root)
    writer.delete_collection("agent:alice", "main")  # gone for every reader when it returns
    assert reader.stored_hashes("agent:alice", "main") == {}
    assert section_count(reader, "agent:alice", "main") == 0


def test_more_results_than_the_result_window_allows(cluster, tmp_path):
    """`-n` above the window: capped at 10,000 (MAX_WINDOW), and at an index's own lower
    `index.max_result_window` when an admin set one, instead of a 400; reading every hash or
    section pages by that window."""
    backend = cluster.backend()
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    for n in range(60):
        (root / "memory" / f"w{n}.md").write_text(f"# W{n}\n\nwombat {n}\n", encoding="utf-8")
    push(backend, "shared", "main", root)
    assert len(backend.search(query.parse("wombat"), ["shared"], 100_000)) == 60
    backend.client.indices.put_settings(index=backend.alias("shared"), body={"index": {"max_result_window": 25}})
    assert len(backend.search(query.parse("wombat"), ["shared"], 100)) == 25
    # a refresh's full reads page by the lower window instead of failing (HASH_PAGE is 10,000)
    assert backend.stored_hashes("shared", "main") == expected_state(root)
    assert len(backend.sections("shared", "main")) == 60


# Share of SciFact test queries whose top 10 (as a set) is the same on the cluster and locally.
MIN_TOP10_AGREEMENT = 0.97


def test_scifact_ranks_on_the_cluster_as_on_the_local_index(live, tmp_path):
    """The 5,183 SciFact abstracts on the real engine (3 shards, dfs) and on the local index:
    the 300 test queries' top 10 agree (same terms on both sides; Lucene's and Tantivy's
    BM25 differ only in float rounding)."""
    from qmem.base import config
    from qmem.engine import evaluate, search, sync

    from ..conftest import SHARED_DATA

    data = next((Path(b) for b in (os.environ.get("QMEM_EVAL_DATA"), SHARED_DATA, "/work/shared/data")
                 if b and (Path(b) / "beir-scifact" / "corpus.jsonl").exists()), None)
    if data is None:
        pytest.fail("shared data sets not found: set QMEM_EVAL_DATA to the folder holding beir-scifact")
    root = tmp_path / "scifact"
    cases = evaluate.beir_workspace(str(data / "beir-scifact"), str(root), "test")
    cfg = config.load()
    config.add_collection(cfg, config.Collection("scifact", str(root), ["*.md"]))
    cfg = config.load()
    sync.refresh(cfg)
    files, _ = scan(str(root), ["*.md"], [])
    for info in files:
        read = read_sections(info)
        live.replace_file("shared", "scifact", info.rel, read.digest, read.sections)
    live.commit()
    forms = [search.build_form(case.query, search.SearchOptions()) for case in cases]
    ours = [[f"{d['path'][0]}#{d['anchor'][0]}" for _, d in search.ranked_docs(cfg, form, 10)] for form in forms]
    theirs = [[f"{d['path'][0]}#{d['anchor'][0]}" for _, d in live.search(form, ["shared"], 10)] for form in forms]
    assert len(ours) == len(theirs) == 300
    same_set = sum(set(a) == set(b) for a, b in zip(ours, theirs)) / len(ours)
    same_first = sum(a[:1] == b[:1] for a, b in zip(ours, theirs)) / len(ours)
    print(f"\nranking parity on SciFact ({len(ours)} queries, real OpenSearch): top-10 set {same_set:.1%}, "
          f"top-1 {same_first:.1%}")
    assert same_set >= MIN_TOP10_AGREEMENT


def test_another_scopes_private_writes_never_move_my_scores(cluster, tmp_path):
    """BM25 statistics stay inside the indices a search names (an index per scope): Alice's
    scores for her own word are the same, to the last bit, after Bob writes that word 30
    times into his private memory (one shared index with a scope filter: 0.806 -> 0.112)."""
    backend = cluster.backend(shards=1)
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for root in (alice, bob):
        (root / "memory").mkdir(parents=True)
    for n in range(6):
        body = "heron nesting notes" if n < 2 else f"garden notes {n}"
        (alice / "memory" / f"a{n}.md").write_text(f"# A{n}\n\n{body}\n", encoding="utf-8")
    push(backend, "agent:alice", "main", alice)
    push(backend, "shared", "main", alice)
    form = query.parse("heron notes")

    def scores() -> dict[tuple[str, str], float]:
        return {(d["scope"][0], d["path"][0]): s for s, d in backend.search(form, ["agent:alice", "shared"], 50)}

    before = scores()
    assert len(before) == 12
    for n in range(30):
        (bob / "memory" / f"b{n}.md").write_text(f"# B{n}\n\nheron heron heron {n}\n", encoding="utf-8")
    push(backend, "agent:bob", "main", bob)
    assert len(backend.search(form, ["agent:bob"], 50)) == 30  # Bob's words are there, in his index
    assert scores() == before


def test_a_node_killed_during_a_push(cluster, tmp_path, monkeypatch):
    """kill -9 of one of 3 nodes in the middle of a push: with replicas = 1 the push goes on
    (or stops in one line and the next refresh converges) and every section is there; an
    index with replicas = 0 that lost a shard answers no search as if it were complete."""
    import json
    import subprocess

    from qmem.base.errors import BackendUnavailableError

    from ..conftest import ROOT

    info_path = os.environ.get("QMEM_TEST_CLUSTER")
    info = json.loads(Path(info_path).read_text()) if info_path else {}
    if len(info.get("nodes", [])) < 3:
        pytest.skip("needs a 3-node scripts/test-cluster cluster (QMEM_TEST_CLUSTER)")
    script = [str(ROOT / "scripts" / "test-cluster")]
    env = dict(os.environ, QMEM_OPENSEARCH_CACHE=str(Path(info_path).parents[2]))  # HOME is the test's own
    monkeypatch.setattr(osb, "BULK_ACTIONS", 10)
    safe, fragile = cluster.backend(shards=3, replicas=1), cluster.backend(shards=3, replicas=0)
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    for n in range(40):
        (root / "memory" / f"k{n}.md").write_text(f"# K{n}\n\nokapi {n}\n", encoding="utf-8")
    safe.ensure_scope("team:safe")
    push(fragile, "team:fragile", "main", root)
    safe.client.transport.perform_request("GET", f"/_cluster/health/{safe.alias('team:safe')}", params={
        "wait_for_status": "green", "timeout": "120s", "request_timeout": 130})
    url_node = next(n["name"] for n in info["nodes"] if f":{n['http']}" in cluster.url)
    held = {row["node"] for row in safe.client.cat.shards(index=fragile.alias("team:fragile"), format="json")}
    victim = sorted(held - {url_node})[0]
    real_bulk, calls = safe.client.bulk, []

    def killing_bulk(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            subprocess.run([*script, "kill-node", victim, "--name", info["name"]], check=True, timeout=60, env=env)
        return real_bulk(*args, **kwargs)

    safe.client.bulk = killing_bulk
    try:
        try:
            push(safe, "team:safe", "main", root)
        except BackendUnavailableError:
            push(cluster.backend(shards=3, replicas=1), "team:safe", "main", root)  # the next refresh
        assert len(calls) > 3
        check = cluster.backend(shards=3, replicas=1)
        assert check.stored_hashes("team:safe", "main") == expected_state(root)
        assert len(check.search(query.parse("okapi"), ["team:safe"], 100)) == 40
        with pytest.raises(BackendUnavailableError, match="shards have no copy that answers"):
            check.search(query.parse("okapi"), ["team:fragile"], 100)
    finally:
        subprocess.run([*script, "start-node", victim, "--name", info["name"]], check=True, timeout=600,
                       capture_output=True, env=env)
