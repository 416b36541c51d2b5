"""The OpenSearch backend's request flows: on the real cluster named by QMEM_OPENSEARCH_URL
(scripts/test-cluster starts one), else on osmem-server, an in-memory OpenSearch-compatible
server from PyPI (see conftest.py). A test that needs a fault the test server injects more
cheaply (a killed server process, scripted bulk answers) says so and uses it directly.

What osmem-server gets wrong (old Porter stemming at index time, no routing, index-wide
statistics, no refresh lag, no 429, any credentials) is shown on the real engine by
test_opensearch_live.py.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from qmem.text import query
from qmem.backends import StoredFile
from qmem.backends.opensearch import backend as osb
from qmem.backends.opensearch import client as client_mod
from qmem.backends.opensearch import mapping as osm
from qmem.backends.opensearch import reads as osr
from qmem.base.errors import EXIT_UNAVAILABLE, BackendError, BackendUnavailableError
from qmem.engine.scan import scan
from qmem.engine.sync import read_sections


pytest.importorskip("opensearchpy")


@pytest.fixture
def backend(cluster) -> osb.OpenSearchBackend:
    return cluster.backend()


def push(backend: osb.OpenSearchBackend, scope: str, collection: str, root: Path) -> dict[str, int]:
    """What a refresh does against any backend: diff the files' hashes with the stored ones."""
    files, _ = scan(str(root), ["**/*.md"], [])
    stored = backend.stored_hashes(scope, collection)
    counts = {"added": 0, "changed": 0, "deleted": 0, "unchanged": 0}
    for info in files:
        read = read_sections(info)
        old = stored.get(info.rel)
        if old is not None and old.digest == read.digest:
            counts["unchanged"] += 1
            continue
        backend.replace_file(scope, collection, info.rel, read.digest, read.sections)
        counts["changed" if old else "added"] += 1
    for rel in stored.keys() - {info.rel for info in files}:
        backend.delete_file(scope, collection, rel)
        counts["deleted"] += 1
    backend.commit()
    return counts


def expected_state(root: Path) -> dict[str, StoredFile]:
    files, _ = scan(str(root), ["**/*.md"], [])
    out = {}
    for info in files:
        read = read_sections(info)
        out[info.rel] = StoredFile(read.digest, len(read.sections))
    return out


def section_count(backend: osb.OpenSearchBackend, scope: str, collection: str) -> int:
    body = {"query": osb.collection_query(scope, collection, "section")}
    return backend.client.count(index=backend.alias(scope), body=body, ignore_unavailable=True)["count"]


def paths(backend: osb.OpenSearchBackend, text: str, scopes: list[str]) -> list[tuple[str, str]]:
    return [(doc["scope"][0], doc["path"][0]) for _, doc in backend.search(query.parse(text), scopes, 20)]


def test_each_scope_gets_an_index_behind_an_alias_with_a_strict_mapping(cluster, backend):
    backend.ensure_scope("agent:alice")
    client = backend.client
    alias = f"{cluster.index}-agent~alice"
    assert backend.alias("agent:alice") == alias
    concrete = f"{alias}+v{osb.SCHEMA_VERSION}"
    assert list(client.indices.get_alias(name=alias)) == [concrete]
    mapping = client.indices.get_mapping(index=alias)[concrete]["mappings"]
    assert mapping["dynamic"] == "strict" and mapping["_meta"] == {"qmem_schema": osb.SCHEMA_VERSION}
    assert mapping["properties"]["scope"] == {"type": "keyword"}
    terms = osb.terms_of("Running 私钥 ひらがな")  # qmem's terms: the cluster only splits them
    tokens = client.indices.analyze(index=alias, body={"analyzer": osb.ANALYZER, "text": terms})
    assert [t["token"] for t in tokens["tokens"]] == ["run", "私", "钥", "ひ", "ら", "が", "な"]
    with pytest.raises(Exception, match="strict"):  # an unknown field is refused, not mapped
        client.index(index=alias, body={"scope": "shared", "surprise": 1}, routing="k")
    cluster.backend().ensure_scope("agent:alice")  # a second machine: idempotent
    assert not cluster.backend().ensure_scope("agent:bob", create=False)  # nothing made for a read


def test_another_schema_version_is_refused_in_one_line(cluster, backend, monkeypatch):
    backend.ensure_scope("shared")
    monkeypatch.setattr(osm, "SCHEMA_VERSION", osm.SCHEMA_VERSION + 1)
    with pytest.raises(BackendError, match=f"qmem schema {osm.SCHEMA_VERSION - 1}, this qmem writes "
                                           f"{osm.SCHEMA_VERSION}: migrate it") as refused:
        cluster.backend().ensure_scope("shared")
    assert "\n" not in str(refused.value)


def test_refresh_is_incremental_and_leaves_no_orphans(backend, ws):
    first = push(backend, "agent:alice", "main", ws)
    assert first["added"] == len(expected_state(ws)) and first["changed"] == 0
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)
    total = sum(f.sections for f in expected_state(ws).values())
    assert section_count(backend, "agent:alice", "main") == total
    assert ("agent:alice", "memory/knowledge.md") in paths(backend, "生产库 PostgreSQL", ["agent:alice"])

    assert push(backend, "agent:alice", "main", ws) == {"added": 0, "changed": 0, "deleted": 0,
                                                        "unchanged": len(expected_state(ws))}
    # Shrink a file to one section, delete another, rename a third, add a fourth.
    (ws / "memory" / "knowledge.md").write_text("# Knowledge\n\nonly a zebra remains\n", encoding="utf-8")
    (ws / "memory" / "2026-02-27.md").unlink()
    (ws / "memory" / "2026-02-28.md").rename(ws / "memory" / "2026-03-01.md")
    (ws / "memory" / "new.md").write_text("# New\n\nnarwhal facts\n", encoding="utf-8")
    counts = push(backend, "agent:alice", "main", ws)
    assert counts == {"added": 2, "changed": 1, "deleted": 2, "unchanged": 1}
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)
    assert section_count(backend, "agent:alice", "main") == sum(f.sections for f in expected_state(ws).values())
    assert paths(backend, "zebra", ["agent:alice"]) == [("agent:alice", "memory/knowledge.md")]
    assert paths(backend, "生产库 PostgreSQL", ["agent:alice"]) == []  # the old text of knowledge.md is gone
    assert paths(backend, "narwhal", ["agent:alice"]) == [("agent:alice", "memory/new.md")]
    found = {p for _, p in paths(backend, "2026", ["agent:alice"])}
    assert "memory/2026-02-27.md" not in found and "memory/2026-02-28.md" not in found


def test_stored_hashes_page_through_many_files(backend, ws, monkeypatch):
    monkeypatch.setattr(osr, "HASH_PAGE", 2)  # four files: three pages, the last one short
    push(backend, "agent:alice", "main", ws)
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)
    monkeypatch.setattr(osr, "HASH_PAGE", 4)  # exactly one full page, then an empty one
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)


def test_hits_carry_what_a_local_hit_carries(backend, ws):
    push(backend, "shared", "main", ws)
    score, doc = backend.search(query.parse("私钥被盗"), ["shared"], 1)[0]
    assert score > 0
    for field in ("collection", "path", "anchor", "heading", "line_start", "line_end", "body_line",
                  "body_hash", "date", "types", "scope"):
        assert isinstance(doc[field], list), field
    assert "body" not in doc  # the text is read from the file: the cluster does not send it back
    lines = (ws / doc["path"][0]).read_text(encoding="utf-8").split("\n")
    body = "\n".join(lines[doc["body_line"][0] - 1:doc["line_end"][0]])
    assert osb.body_hash(body) == doc["body_hash"][0]  # the snippet check of search.build_hit


def test_filters_narrow_without_changing_scores(backend, ws):
    push(backend, "shared", "main", ws)
    plain = backend.search(query.parse("BSC gas"), ["shared"], 20)
    form = query.parse("BSC gas")
    form.collections = ["main"]
    form.path_regex = "(?:.*/)?knowledge\\.md"
    narrowed = backend.search(form, ["shared"], 20)
    assert narrowed and all(doc["path"] == ["memory/knowledge.md"] for _, doc in narrowed)
    before = {(d["path"][0], d["anchor"][0]): s for s, d in plain}
    for s, d in narrowed:
        assert s == pytest.approx(before[(d["path"][0], d["anchor"][0])])


def test_private_memory_never_crosses_agents(backend, tmp_path):
    """Alice's and Bob's collections share a name and paths; each sees only its own, the
    team's and the shared memory, whatever it searches for."""
    texts = {
        "agent:alice": "# Keys\n\nalice secret wallet 私钥 alpha\n",
        "agent:bob": "# Keys\n\nbob secret wallet 私钥 bravo\n",
        "team:infra": "# Deploy\n\nteam secret wallet runbook\n",
        "shared": "# Policy\n\nshared secret wallet policy\n",
    }
    for scope, text in texts.items():
        root = tmp_path / scope.replace(":", "_")
        root.mkdir()
        (root / "MEMORY.md").write_text(text, encoding="utf-8")
        push(backend, scope, "memory", root)
    sees = {
        "agent:alice": ["agent:alice", "team:infra", "shared"],
        "agent:bob": ["agent:bob", "shared"],
    }
    for agent, scopes in sees.items():
        for text in ("secret", "wallet 私钥", "alice", "bob", "alpha bravo runbook policy", "私"):
            found = {scope for scope, _ in paths(backend, text, scopes)}
            assert found <= set(scopes), (agent, text, found)
        assert {s for s, _ in paths(backend, "secret wallet", scopes)} == set(scopes)
    assert paths(backend, "alice", ["agent:bob", "shared"]) == []
    # Deleting Bob's collection leaves Alice's same-named one alone.
    backend.delete_collection("agent:bob", "memory")
    assert backend.stored_hashes("agent:bob", "memory") == {}
    assert paths(backend, "bravo", ["agent:bob"]) == []
    assert paths(backend, "alpha", ["agent:alice"]) == [("agent:alice", "MEMORY.md")]
    assert list(backend.stored_hashes("agent:alice", "memory")) == ["MEMORY.md"]


class Proxy:
    """A loopback TCP relay that can go down (refusing and cutting connections) and come back."""

    def __init__(self, upstream: str) -> None:
        scheme, rest = upstream.split("://", 1)
        host, port = rest.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.url = f"{scheme}://127.0.0.1:{self.server.getsockname()[1]}"  # TLS passes through
        self.up = True
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection(self.upstream)
            self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass

    def down(self) -> None:
        self.up = False
        for s in self.open:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass
        self.open.clear()

    def close(self) -> None:
        self.down()
        self.server.close()


def test_outage_mid_refresh_loses_nothing_and_the_next_refresh_converges(cluster, ws, monkeypatch):
    monkeypatch.setattr(osb, "BULK_ACTIONS", 3)  # several bulk requests per refresh
    for n in range(12):
        (ws / "memory" / f"topic-{n}.md").write_text(f"# Topic {n}\n\nokapi {n}\n\n## More\n\nokapi more {n}\n",
                                                      encoding="utf-8")
    proxy = Proxy(cluster.url)
    try:
        backend = cluster.backend(proxy.url)
        push(backend, "agent:alice", "main", ws)  # a first, complete refresh
        for n in range(12):  # every topic file changes: one section fewer, new words
            (ws / "memory" / f"topic-{n}.md").write_text(f"# Topic {n}\n\nquokka {n}\n", encoding="utf-8")
        real_bulk = backend.client.bulk
        calls = []

        def flaky_bulk(*args, **kwargs):
            calls.append(1)
            if len(calls) == 3:
                proxy.down()  # the cluster goes away between two bulk requests
            return real_bulk(*args, **kwargs)

        backend.client.bulk = flaky_bulk
        with pytest.raises(BackendUnavailableError, match="run the refresh again|next refresh") as failure:
            push(backend, "agent:alice", "main", ws)
        assert failure.value.exit_code == EXIT_UNAVAILABLE
        assert "\n" not in str(failure.value)
        proxy.up = True
        client_mod._BREAKERS.clear()  # the next refresh is a new process: its breaker is closed
        again = cluster.backend(proxy.url)
        # Hashes were not written for what did not finish: all twelve are redone.
        assert sum(1 for rel, f in again.stored_hashes("agent:alice", "main").items()
                   if rel.startswith("memory/topic-") and f.sections == 2) == 12
        push(again, "agent:alice", "main", ws)
        assert again.stored_hashes("agent:alice", "main") == expected_state(ws)
        assert section_count(again, "agent:alice", "main") == sum(f.sections for f in expected_state(ws).values())
        assert paths(again, "okapi", ["agent:alice"]) == []
        assert len(paths(again, "quokka", ["agent:alice"])) == 12
    finally:
        proxy.close()


def test_a_killed_server_is_a_clear_error_with_its_own_exit_code(ws, monkeypatch):
    """On osmem-server: its process is killed here (node loss on the real cluster is a live test)."""
    osmem_server = pytest.importorskip("osmem_server")
    OsmemServer = osmem_server.OsmemServer

    server = OsmemServer.start(japanese=False)
    try:
        backend = osb.OpenSearchBackend(osb.Settings(url=server.url, shards=2, replicas=0, retries=1),
                                        sleep=lambda _s: None)
        push(backend, "shared", "main", ws)
        server.process.kill()
        server.process.wait()
        (ws / "MEMORY.md").write_text("# Changed\n\nnew text\n", encoding="utf-8")
        with pytest.raises(BackendUnavailableError) as failure:
            push(backend, "shared", "main", ws)
        assert failure.value.exit_code == EXIT_UNAVAILABLE == 69
        assert server.url in str(failure.value) and "after 2 tries" in str(failure.value)
    finally:
        server.close()


class StubClient:
    """Bulk answers scripted per call: which items fail, and with which status."""

    def __init__(self, failures: list[dict[int, int]]) -> None:
        self.failures = failures
        self.sent: list[list[dict]] = []
        self.params: list[dict] = []

    def bulk(self, body, **params):
        self.sent.append(body)
        self.params.append(params)
        metas = [line for line in body if set(line) & {"index", "delete"}]
        fail = self.failures.pop(0) if self.failures else {}
        items = []
        for n, meta in enumerate(metas):
            op = next(iter(meta))
            status = fail.get(n, 200)
            outcome = {"_id": meta[op]["_id"], "status": status}
            if status >= 300:
                outcome["error"] = {"type": "x", "reason": f"status {status}"}
            items.append({op: outcome})
        return {"errors": bool(fail), "items": items}


def _actions(n: int) -> list[tuple[dict, dict]]:
    return [({"index": {"_index": "qmem", "_id": f"id{i}"}}, {"scope": "shared"}) for i in range(n)]


def test_partial_bulk_failures_are_retried_never_dropped():
    stub = StubClient([{1: 429, 3: 503}, {0: 429}])
    pauses: list[float] = []
    backend = osb.OpenSearchBackend(osb.Settings(retries=3, backoff=0.5), client=stub, sleep=pauses.append,
                                    rand=lambda: 1.0)
    backend._bulk(_actions(5))
    resent = [[line["index"]["_id"] for line in body if "index" in line] for body in stub.sent]
    assert resent == [["id0", "id1", "id2", "id3", "id4"], ["id1", "id3"], ["id1"]]
    assert pauses == [0.5, 1.0]  # doubled each time (at the top of the jitter)


def test_items_refused_for_good_raise_and_exhausted_retries_say_so():
    backend = osb.OpenSearchBackend(osb.Settings(), client=StubClient([{2: 400}]), sleep=lambda _s: None)
    with pytest.raises(BackendError, match="refused a index of id2: 400"):
        backend._bulk(_actions(4))
    always = StubClient([{0: 503}] * 10)
    backend = osb.OpenSearchBackend(osb.Settings(retries=2), client=always, sleep=lambda _s: None)
    with pytest.raises(BackendUnavailableError, match="1 bulk item"):
        backend._bulk(_actions(2))
    assert len(always.sent) == 3


def test_every_request_of_a_searchable_commit_waits_for_its_refresh(monkeypatch):
    """refresh=wait_for waits only for the shards its request wrote to: a commit whose final
    records take several requests puts it on each (it was on the last one only)."""
    monkeypatch.setattr(osb, "BULK_ACTIONS", 2)
    stub = StubClient([])
    backend = osb.OpenSearchBackend(osb.Settings(), client=stub, sleep=lambda _s: None)
    backend._bulk_all(_actions(5), refresh=True)
    assert [len([line for line in body if "index" in line]) for body in stub.sent] == [2, 2, 1]
    assert [p.get("refresh") for p in stub.params] == ["wait_for"] * 3
    backend._bulk_all(_actions(3))
    assert [p.get("refresh") for p in stub.params[3:]] == [None, None]


def test_credentials_come_from_the_environment(monkeypatch):
    from qmem.base.errors import ConfigError

    monkeypatch.delenv("QMEM_OPENSEARCH_PASSWORD", raising=False)
    with pytest.raises(ConfigError, match=r"\$QMEM_OPENSEARCH_PASSWORD"):
        osb.make_client(osb.Settings(auth="basic", username="qmem"))
    monkeypatch.setenv("QMEM_OPENSEARCH_PASSWORD", "s3cret")
    client = osb.make_client(osb.Settings(auth="basic", username="qmem"))
    assert client.transport.get_connection().headers["authorization"] == "Basic cW1lbTpzM2NyZXQ="  # qmem:s3cret
    monkeypatch.setenv("MY_KEY", "k3y")
    client = osb.make_client(osb.Settings(auth="api_key", api_key_env="MY_KEY"))
    assert client.transport.get_connection().headers["authorization"] == "ApiKey k3y"
    monkeypatch.delenv("MY_KEY")
    with pytest.raises(ConfigError, match=r"\$MY_KEY"):
        osb.make_client(osb.Settings(auth="api_key", api_key_env="MY_KEY"))


def test_the_cli_indexes_and_searches_through_the_cluster(cluster, ws, tmp_path, cli, monkeypatch):
    """`qmem collection create`, `index` and `search` with `[backend] kind = "opensearch"`:
    nothing local is built, the cluster holds the sections and the hashes, and a cluster
    outage is one line with exit 69."""
    import json
    import os

    from qmem.base.layout import tantivy_dir

    config_file = Path(os.environ["QMEM_CONFIG"])
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(cluster.backend_toml(retries=1) + '[scopes]\nown = "agent:alice"\n', encoding="utf-8")
    monkeypatch.setattr(osb.OpenSearchBackend, "_pause", lambda self, *a: None)
    assert cli("collection", "create", "main", str(ws)).code == 0
    found = cli("search", "私钥被盗", "--json")
    assert found.code == 0, found
    hits = json.loads(found.out)
    hits = hits["results"] if isinstance(hits, dict) else hits
    assert hits[0]["path"] == "MEMORY.md" and "私钥泄露" in hits[0]["snippet"]
    from qmem.base import config

    cfg = config.load()
    assert not os.path.exists(tantivy_dir(cfg.data_dir))  # nothing local was built
    backend = cluster.backend()
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)
    (ws / "memory" / "new.md").write_text("# New\n\nnarwhal facts\n", encoding="utf-8")
    assert cli("index").code == 0
    assert json.loads(cli("search", "narwhal", "--json").out)
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)
    config_file.write_text(cluster.backend_toml("http://127.0.0.1:9", retries=1) + '[scopes]\nown = "agent:alice"\n'
                           '[collections.main]\npath = "' + str(ws) + '"\n', encoding="utf-8")
    (ws / "memory" / "new.md").write_text("# New\n\nnarwhal facts, edited\n", encoding="utf-8")
    down = cli("index")
    assert down.code == EXIT_UNAVAILABLE, down
    assert down.err.count("\n") == 1 and "127.0.0.1:9" in down.err


def machine_config(cluster, tmp_path: Path, name: str, root: Path, own: str = "agent:alice") -> str:
    """A config of its own (so its own data folder: another machine) on the same cluster."""
    path = tmp_path / f"{name}.toml"
    path.write_text(cluster.backend_toml(retries=1) + f'[scopes]\nown = "{own}"\n[collections.main]\npath = "{root}"\n',
                    encoding="utf-8")
    return str(path)


def test_a_first_refresh_on_another_machine_compares_and_never_wipes(cluster, ws, tmp_path, cli, requests_sent):
    """Another machine (no manifest of its own) with the same files: its first refresh reads
    and hashes them and finds nothing to send; the collection is never deleted meanwhile."""
    assert cli("--config", machine_config(cluster, tmp_path, "one", ws), "index").code == 0
    held = cluster.backend().stored_hashes("agent:alice", "main")
    requests_sent.clear()
    second = cli("--config", machine_config(cluster, tmp_path, "two", ws), "index", "--json")
    assert second.code == 0, second
    assert not [r for r in requests_sent if r[1].endswith(("_delete_by_query", "_bulk"))], requests_sent
    assert cluster.backend().stored_hashes("agent:alice", "main") == held == expected_state(ws)
    full = cli("--config", machine_config(cluster, tmp_path, "two", ws), "index", "--full")
    assert full.code == 0, full  # --full sends every file again, still without deleting first
    assert not [r for r in requests_sent if r[1].endswith("_delete_by_query")]
    assert cluster.backend().stored_hashes("agent:alice", "main") == expected_state(ws)


def test_two_folders_in_one_scope_and_collection_never_delete_each_others_files(cluster, tmp_path, cli):
    x, y = tmp_path / "x", tmp_path / "y"
    for root, names in ((x, ["a.md", "both.md"]), (y, ["b.md", "both.md"])):
        (root / "memory").mkdir(parents=True)
        for name in names:
            (root / "memory" / name).write_text(f"# {name}\n\n{root.name} wrote {name}\n", encoding="utf-8")
    one, two = machine_config(cluster, tmp_path, "one", x), machine_config(cluster, tmp_path, "two", y)
    seen: set[str] = set()
    for config_file in (one, two, one, two):
        assert cli("--config", config_file, "index").code == 0
        held = set(cluster.backend().stored_hashes("agent:alice", "main"))
        assert seen <= held, seen - held  # a refresh never drops a file the other folder wrote
        seen = held
    assert seen == {"memory/a.md", "memory/b.md", "memory/both.md"}
    (x / "memory" / "a.md").unlink()  # its own folder's file: the one that wrote it deletes it
    assert cli("--config", one, "index").code == 0
    assert set(cluster.backend().stored_hashes("agent:alice", "main")) == {"memory/b.md", "memory/both.md"}


def test_the_mcp_server_keeps_one_client_for_every_search(cluster, ws, tmp_path, monkeypatch):
    """A long-lived face builds the client (and its connection pool) once, not per call."""
    from qmem.faces.mcp import Memory

    config_file = tmp_path / "mcp.toml"
    config_file.write_text(cluster.backend_toml() + '[scopes]\nown = "agent:alice"\n'
                           f'[collections.main]\npath = "{ws}"\n', encoding="utf-8")
    push(cluster.backend(), "agent:alice", "main", ws)
    made = []
    real = client_mod.make_client
    monkeypatch.setattr(client_mod, "make_client", lambda settings: made.append(settings.url) or real(settings))
    tools = Memory(str(config_file), str(ws))
    answers = [tools.memory_search(text) for text in ("私钥被盗", "BSC gas", "qzxvnowhere")]
    assert answers[0]["results"] and not answers[2]["results"]
    assert made == [cluster.url]
