"""Back-pressure from a real OpenSearch cluster: 429 Too Many Requests (runs only when
QMEM_OPENSEARCH_URL names one; osmem-server never answers 429).

The cluster's own 429 comes from the block it puts on an index whose node's disk passed the
flood-stage watermark (`index.blocks.read_only_allow_delete`): every write to the index is
refused with `429 cluster_block_exception` — per item inside a bulk, and for the whole request
elsewhere — until the block is lifted. The tests set that block themselves (as the admin) so the
429s are real answers of the engine, on a schedule the test controls.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from qmem.backends.opensearch import backend as osb
from qmem.base.errors import EXIT_UNAVAILABLE, BackendUnavailableError
from qmem.text import query

from .test_opensearch_flows import expected_state, push, section_count

pytestmark = pytest.mark.skipif(not os.environ.get("QMEM_OPENSEARCH_URL"),
                                reason="no live cluster: set QMEM_OPENSEARCH_URL to run these")

BLOCK = "index.blocks.read_only_allow_delete"


def memory(root: Path, files: int) -> Path:
    (root / "memory").mkdir(parents=True)
    for n in range(files):
        (root / "memory" / f"n{n}.md").write_text(f"# Note {n}\n\nnarwhal {n}\n\n## More {n}\n\ntusk {n}\n",
                                                  encoding="utf-8")
    return root


def set_block(cluster, alias: str, on: bool) -> None:
    cluster.backend().client.indices.put_settings(index=alias, body={BLOCK: True if on else None})


def watch_bulk(backend: osb.OpenSearchBackend, on_first=None) -> list[int]:
    """Wrap the backend's bulk calls: every item status (or the whole request's status when the
    cluster refuses the request) is appended to the returned list."""
    from opensearchpy.exceptions import TransportError

    statuses: list[int] = []
    real = backend.client.bulk

    def observed(*args, **kwargs):
        if on_first is not None and not statuses:
            on_first()
        try:
            result = real(*args, **kwargs)
        except TransportError as exc:
            statuses.append(exc.status_code if isinstance(exc.status_code, int) else 0)
            raise
        statuses.extend(next(iter(item.values()))["status"] for item in result["items"])
        return result

    backend.client.bulk = observed
    return statuses


def test_a_429_that_clears_is_ridden_out_and_nothing_is_lost(cluster, tmp_path, monkeypatch):
    """The cluster refuses every write with 429 for about a second: the refresh backs off,
    retries what was refused, and ends with every file and section there, once."""
    monkeypatch.setattr(osb, "BULK_ACTIONS", 10)  # several bulks, so the block meets items mid-push
    root = memory(tmp_path / "ws", 30)
    backend = osb.OpenSearchBackend(cluster.settings(retries=6, backoff=0.2), sleep=time.sleep)
    backend.ensure_scope("team:busy")
    alias = backend.alias("team:busy")

    lift = threading.Timer(1.0, set_block, (cluster, alias, False))

    def block_for_a_second() -> None:
        set_block(cluster, alias, True)
        lift.start()

    statuses = watch_bulk(backend, on_first=block_for_a_second)
    try:
        push(backend, "team:busy", "main", root)
    finally:
        if lift.is_alive() or lift.finished.is_set():
            lift.join()
    assert 429 in statuses, statuses  # the cluster really pushed back
    assert statuses[-1] < 300
    check = cluster.backend()
    assert check.stored_hashes("team:busy", "main") == expected_state(root)
    assert section_count(check, "team:busy", "main") == 60
    assert len(check.search(query.parse("narwhal"), ["team:busy"], 100)) == 30


def test_a_429_that_does_not_clear_stops_the_refresh_and_the_next_one_converges(cluster, tmp_path):
    """While the block stays, the refresh gives up after its retries with a BackendUnavailableError
    and writes no file record whose sections are not all there; once the block is lifted the
    next refresh converges."""
    root = memory(tmp_path / "ws", 12)
    backend = osb.OpenSearchBackend(cluster.settings(retries=2, backoff=0.05), sleep=time.sleep)
    backend.ensure_scope("team:full")
    alias = backend.alias("team:full")
    push(backend, "team:full", "main", root)  # a first state, then an edit the cluster refuses
    for n in range(6):
        (root / "memory" / f"n{n}.md").write_text(f"# Note {n}\n\nbeluga {n}\n", encoding="utf-8")
    set_block(cluster, alias, True)
    try:
        statuses = watch_bulk(backend)
        with pytest.raises(BackendUnavailableError, match="429") as refused:
            push(backend, "team:full", "main", root)
        assert "run the refresh again" in str(refused.value) or "next refresh" in str(refused.value)
        assert set(statuses) <= {429}  # the collection's mark is the first write refused, then any bulk
    finally:
        set_block(cluster, alias, False)
    from qmem.backends.opensearch import client

    client._BREAKERS.clear()  # what follows is other processes: their circuit breakers start closed
    check = cluster.backend()
    held = check.stored_hashes("team:full", "main")
    before = expected_state(root)
    for path, stored in held.items():  # every record the cluster holds describes sections it holds
        body = {"query": osb.collection_query("team:full", "main", "section")}
        body["query"]["bool"]["filter"].append({"term": {"path": path}})
        assert check.client.count(index=alias, body=body)["count"] == stored.sections, path
    assert not any(held[p] == before[p] for p in held if "beluga" in (root / p).read_text())
    push(osb.OpenSearchBackend(cluster.settings(), sleep=time.sleep), "team:full", "main", root)
    assert cluster.backend().stored_hashes("team:full", "main") == before
    assert len(check.search(query.parse("beluga"), ["team:full"], 100)) == 6


def test_qmem_index_under_a_lasting_429_says_so_in_one_line(cluster, tmp_path, cli, monkeypatch):
    """Through the command line: exit 69 (EX_UNAVAILABLE) and one line that names the cluster;
    `qmem search` still answers from what the cluster holds (reads are not blocked)."""
    import json

    root = memory(tmp_path / "ws", 3)
    config_file = Path(os.environ["QMEM_CONFIG"])
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(cluster.backend_toml(retries=1) + '[scopes]\nown = "agent:carol"\n'
                           f'[collections.main]\npath = "{root}"\n', encoding="utf-8")
    monkeypatch.setattr(osb.OpenSearchBackend, "_pause", lambda self, *a: None)
    assert cli("index").code == 0
    alias = cluster.backend().alias("agent:carol")
    (root / "memory" / "n0.md").write_text("# Note 0\n\nbeluga\n", encoding="utf-8")
    set_block(cluster, alias, True)
    try:
        refused = cli("index")
        assert refused.code == EXIT_UNAVAILABLE, refused
        assert refused.err.count("\n") == 1 and cluster.url.split("//")[1] in refused.err, refused.err
        assert "429" in refused.err and ("run the refresh again" in refused.err or "next refresh" in refused.err)
        found = cli("search", "tusk", "--json")
        assert found.code == 0, found
        hits = json.loads(found.out)
        assert len(hits["results"] if isinstance(hits, dict) else hits) == 3
    finally:
        set_block(cluster, alias, False)
    assert cli("index").code == 0
    assert json.loads(cli("search", "beluga", "--json").out)
