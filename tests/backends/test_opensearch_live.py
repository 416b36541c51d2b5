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


def test_live_analyzer_matches_qmem(live):
    from qmem.text import analysis

    live.ensure_indices()
    text = "Running foxes 私钥泄露 カタカナ 한국어 café x1y2 snake_case"
    tokens = live.client.indices.analyze(index=live.settings.index, body={"analyzer": osb.ANALYZER, "text": text})
    assert [t["token"] for t in tokens["tokens"]] == analysis.terms(text)


def test_live_refresh_scopes_and_routing(live, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws)
    for scope in ("agent:alice", "agent:bob", "team:infra"):
        push(live, scope, "main", ws)
    assert live.stored_hashes("agent:alice", "main") == expected_state(ws)
    total = sum(f.sections for f in expected_state(ws).values())
    assert section_count(live, "agent:bob", "main") == total
    assert {s for s, _ in paths(live, "私钥被盗", ["agent:alice", "shared"])} == {"agent:alice"}
    # Routing: each scope's sections sit on exactly one of the three shards.
    for scope in ("agent:alice", "agent:bob", "team:infra"):
        page = live.client.search(index=live.settings.index, routing=scope, body={
            "query": {"term": {"scope": scope}}, "size": 100, "explain": True})
        shards = {hit["_shard"] for hit in page["hits"]["hits"]}
        assert len(page["hits"]["hits"]) == total and len(shards) == 1, (scope, shards)
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
