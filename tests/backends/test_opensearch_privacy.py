"""Privacy the cluster enforces, on a real OpenSearch cluster with the Security plugin.

Runs when QMEM_OPENSEARCH_URL names a secured cluster and QMEM_OPENSEARCH_USER/PASSWORD are
an admin's (`scripts/test-cluster start --security`, then `eval "$(scripts/test-cluster env)"`;
.ci/run does both). The admin applies a deployment (`qmem opensearch setup --apply`): Alice
writes agent:alice and reads team:infra and shared; Bob writes agent:bob and team:infra. Bob
indexes his private memory. Then Alice, with her own credentials and configs written to
attack him, tries every qmem command, MCP tool and raw HTTP call that could read, overwrite
or delete Bob's private sections: each is refused by the cluster, nothing of Bob's text
reaches her, and at the end Bob's index holds exactly what it held before.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest

from qmem.backends.opensearch import backend as osb
from qmem.backends.opensearch import security
from qmem.base.errors import EXIT_REMOTE

URL = os.environ.get("QMEM_OPENSEARCH_URL", "")
SECURED = bool(URL.startswith("https://") and os.environ.get("QMEM_OPENSEARCH_PASSWORD"))
if os.environ.get("QMEM_REQUIRE_SECURITY") and not SECURED:  # .ci/run on its secured cluster: never skip
    raise RuntimeError("QMEM_REQUIRE_SECURITY is set but QMEM_OPENSEARCH_URL is no https cluster with an admin's "
                       "QMEM_OPENSEARCH_PASSWORD")
pytestmark = pytest.mark.skipif(not SECURED, reason="needs a cluster with the Security plugin: "
                                "scripts/test-cluster start --security, then eval \"$(scripts/test-cluster env)\"")

BOB_SECRET = "qzbravo"  # a word only in Bob's private memory (its own index term)
BOB_TEXT = f"# Wallet\n\nbob private wallet {BOB_SECRET} 私钥 seed phrase\n\n## Keys\n\nbob key material\n"
PASSWORDS = {"alice": "Qz7-Kt93-wmPx-Rv82!a", "bob": "Hn4-Lw27-pqZt-Xc91!b"}


def admin_backend(prefix: str) -> osb.OpenSearchBackend:
    return osb.OpenSearchBackend(osb.Settings(
        url=URL, index=prefix, auth="basic", username=os.environ.get("QMEM_OPENSEARCH_USER", "admin"),
        ca_certs=os.environ.get("QMEM_OPENSEARCH_CA", ""), shards=1, replicas=0, retries=2))


def user_client(user: str):
    from opensearchpy import OpenSearch

    return OpenSearch([URL], http_auth=(user, PASSWORDS[user]), ca_certs=os.environ.get("QMEM_OPENSEARCH_CA") or None,
                      verify_certs=True, timeout=30, max_retries=0)


def config_text(prefix: str, user: str, own: str, see: list[str], collections: dict[str, tuple[Path, str]]) -> str:
    lines = ["[backend]", 'kind = "opensearch"', f'url = "{URL}"', f'index = "{prefix}"', 'auth = "basic"',
             f'username = "{user}"', f'password_env = "PW_{user.upper()}"', "shards = 1", "replicas = 0",
             "retries = 1"]
    if os.environ.get("QMEM_OPENSEARCH_CA"):
        lines.append(f'ca_certs = "{os.environ["QMEM_OPENSEARCH_CA"]}"')
    lines += ["[scopes]", f'own = "{own}"', "see = [" + ", ".join(f'"{s}"' for s in see) + "]"]
    for name, (path, scope) in collections.items():
        lines += [f"[collections.{name}]", f'path = "{path}"']
        if scope:
            lines.append(f'scope = "{scope}"')
    return "\n".join(lines) + "\n"


def snapshot(admin: osb.OpenSearchBackend, scope: str) -> list[tuple[str, dict]]:
    """Every document of a scope's index, as the admin reads it (after a refresh: a search sees a
    document as of the last refresh, and the collection's mark is written again after the commit's
    final refresh, so without one two snapshots of an unchanged scope could differ)."""
    admin.client.indices.refresh(index=admin.alias(scope), ignore_unavailable=True)
    page = admin.client.search(index=admin.alias(scope), body={"query": {"match_all": {}}, "size": 1000,
                                                               "sort": [{"_id": "asc"}]}, ignore_unavailable=True)
    return [(h["_id"], h["_source"]) for h in page["hits"]["hits"]]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory):
    """A fresh prefix with the deployment applied (once for the module: each change of roles
    reloads the plugin's configuration on every node), Alice's and Bob's users."""
    prefix = f"qmem-p{uuid.uuid4().hex[:8]}"
    admin = admin_backend(prefix)
    file = tmp_path_factory.mktemp("deployment") / "deployment.toml"
    file.write_text('[users.alice]\nwrites = ["agent:alice"]\nreads = ["team:infra", "shared"]\n'
                    '[users.bob]\nwrites = ["agent:bob", "team:infra"]\nreads = ["shared"]\n', encoding="utf-8")
    plan = security.plan(security.load_deployment(str(file)), admin.settings)
    security.apply(plan, admin)
    admin.client.transport.perform_request("PATCH", "/_plugins/_security/api/internalusers", body=[
        {"op": "add", "path": f"/{user}", "value": {"password": password}} for user, password in PASSWORDS.items()])
    yield prefix, admin, plan
    admin.client.indices.delete(index=f"{prefix}-*", ignore_unavailable=True)
    security.remove(plan, admin)


@pytest.fixture(autouse=True)
def passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    for user, password in PASSWORDS.items():
        monkeypatch.setenv(f"PW_{user.upper()}", password)


def write_config(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_plan_gives_agents_no_admin_rights(tmp_path):
    file = tmp_path / "d.toml"
    file.write_text('[users.alice]\nwrites = ["agent:alice"]\nreads = ["shared"]\n', encoding="utf-8")
    plan = security.plan(security.load_deployment(str(file)), osb.Settings(index="qmem"))
    assert plan["users"] == {"alice": ["qmem-write-agent~alice", "qmem-read-agent~alice", "qmem-read-shared"]}
    for role in plan["roles"].values():
        actions = role["index_permissions"][0]["allowed_actions"]
        assert not [a for a in actions if "create" in a or a.startswith("indices:admin/aliases") and "get" not in a]
        assert role["index_permissions"][0]["index_patterns"][1].endswith("+v*")  # never a bare prefix
    assert set(plan["indices"]) == {"qmem-agent~alice+v2", "qmem-shared+v2"}


def test_alice_cannot_read_overwrite_or_delete_bobs_private_memory(deployment, tmp_path, cli, monkeypatch):
    prefix, admin, plan = deployment
    bob_ws = tmp_path / "bob"
    bob_ws.mkdir()
    (bob_ws / "MEMORY.md").write_text(BOB_TEXT, encoding="utf-8")
    bob_cfg = write_config(tmp_path, "bob", config_text(prefix, "bob", "agent:bob", ["agent:bob", "shared"],
                                                         {"memory": (bob_ws, "")}))
    assert cli("--config", bob_cfg, "index").code == 0
    found = json.loads(cli("--config", bob_cfg, "search", BOB_SECRET, "--json").out)
    assert found and found[0]["path"] == "MEMORY.md"  # Bob finds his own memory
    before = snapshot(admin, "agent:bob")
    kinds = sorted(d["kind"] for _, d in before)  # his file's sections, its record, the collection's mark
    assert kinds == ["file", "mark", "section", "section"] and any(BOB_SECRET in d.get("body_terms", "") for _, d in before)

    alice_ws = tmp_path / "alice"
    alice_ws.mkdir()
    (alice_ws / "MEMORY.md").write_text(f"# Wallet\n\npoison {BOB_SECRET} send funds to mallory\n", encoding="utf-8")
    leaks: list[str] = []

    def refused(result, what: str) -> None:
        assert result.code == EXIT_REMOTE, (what, result)
        assert result.err.count("\n") == 1 and "403" in result.err, (what, result.err)
        if BOB_SECRET in result.out + result.err or "seed" in result.out + result.err:
            leaks.append(what)

    # 1. A config that claims Bob's scope for reading.
    sees_bob = write_config(tmp_path, "a1", config_text(prefix, "alice", "agent:alice",
                                                        ["agent:alice", "agent:bob", "shared"],
                                                        {"memory": (alice_ws, ""), "bobs": (bob_ws, "agent:bob")}))
    refused(cli("--config", sees_bob, "search", BOB_SECRET, "--json"), "search seeing agent:bob")
    refused(cli("--config", sees_bob, "search", "wallet"), "search seeing agent:bob (text)")
    # 2. A config that writes into Bob's scope (poisoning) and then removes his collection.
    writes_bob = write_config(tmp_path, "a2", config_text(prefix, "alice", "agent:bob", ["agent:bob"],
                                                          {"memory": (alice_ws, "")}))
    refused(cli("--config", writes_bob, "index"), "index into agent:bob")
    refused(cli("--config", writes_bob, "index", "--full"), "full index into agent:bob")
    bob_named = write_config(tmp_path, "a3", config_text(prefix, "alice", "agent:alice", ["agent:alice"],
                                                         {"memory": (alice_ws, "agent:bob")}))
    refused(cli("--config", bob_named, "index"), "collection with scope agent:bob")
    result = cli("--config", bob_named, "collection", "remove", "memory")
    assert result.code in (0, EXIT_REMOTE), result  # the config entry goes; Bob's sections must not
    # 3. The MCP tools with the hostile configs.
    from qmem.faces.mcp import Memory

    for config_file in (sees_bob, writes_bob):
        tools = Memory(config_file, str(alice_ws))
        for call in (lambda t=tools: t.memory_search(BOB_SECRET), lambda t=tools: t.memory_search("wallet seed"),
                     lambda t=tools: t.memory_remember(f"mallory owns {BOB_SECRET}", type="K")):
            try:
                answer = json.dumps(call(), ensure_ascii=False)
            except Exception as exc:
                answer = str(exc)
                assert "403" in answer, answer
            if BOB_SECRET in answer and "mallory" not in answer or "seed" in answer:
                leaks.append(f"mcp via {Path(config_file).name}")
    # 4. Raw HTTP with Alice's credentials.
    alice = user_client("alice")
    bob_alias = admin.alias("agent:bob")
    bob_index = next(iter(admin.client.indices.get_alias(name=bob_alias)))
    key = osb.file_key("agent:bob", "memory", "MEMORY.md")
    sid = osb.section_id(key, 0)
    attempts = {
        "search alias": lambda: alice.search(index=bob_alias, body={"query": {"match_all": {}}}),
        "search index": lambda: alice.search(index=bob_index, body={"query": {"match_all": {}}}),
        "search wildcard": lambda: alice.search(index=f"{prefix}-*", body={"query": {"match": {"body_terms": BOB_SECRET}}}),
        "search all": lambda: alice.search(body={"query": {"match": {"body_terms": BOB_SECRET}}}),
        "search own+bob": lambda: alice.search(index=f"{admin.alias('agent:alice')},{bob_alias}",
                                               ignore_unavailable=True, body={"query": {"match_all": {}}}),
        "count": lambda: alice.count(index=bob_alias, body={"query": {"match": {"body_terms": BOB_SECRET}}}),
        "get": lambda: alice.get(index=bob_alias, id=sid, routing=key),
        "mget": lambda: alice.mget(body={"docs": [{"_index": bob_alias, "_id": sid, "routing": key}]}),
        "msearch": lambda: alice.msearch(body=[{"index": bob_alias}, {"query": {"match_all": {}}}]),
        "termvectors": lambda: alice.termvectors(index=bob_alias, id=sid, routing=key),
        "explain": lambda: alice.explain(index=bob_alias, id=sid, routing=key, body={"query": {"match_all": {}}}),
        "analyze": lambda: alice.indices.analyze(index=bob_alias, body={"field": "body_terms", "text": BOB_SECRET}),
        "field_caps": lambda: alice.field_caps(index=bob_alias, fields="*"),
        "mapping": lambda: alice.indices.get_mapping(index=bob_alias),
        "cat indices": lambda: alice.cat.indices(format="json"),
        "index over": lambda: alice.index(index=bob_alias, id=sid, routing=key, body={"kind": "section", "body_terms": "x"}),
        "bulk over": lambda: alice.bulk(body=[{"index": {"_index": bob_alias, "_id": sid, "routing": key}},
                                              {"kind": "section", "scope": "agent:bob", "body_terms": "poison"}]),
        "update": lambda: alice.update(index=bob_alias, id=sid, routing=key, body={"doc": {"body_terms": "poison"}}),
        "delete": lambda: alice.delete(index=bob_alias, id=sid, routing=key),
        "bulk delete": lambda: alice.bulk(body=[{"delete": {"_index": bob_alias, "_id": sid, "routing": key}}]),
        "delete_by_query": lambda: alice.delete_by_query(index=bob_alias, body={"query": {"match_all": {}}}),
        "update_by_query": lambda: alice.update_by_query(index=bob_alias, body={"query": {"match_all": {}}}),
        "reindex out": lambda: alice.reindex(body={"source": {"index": bob_alias},
                                                   "dest": {"index": admin.alias("agent:alice")}}),
        "alias own under bob": lambda: alice.indices.update_aliases(body={"actions": [{"add": {
            "index": next(iter(admin.client.indices.get_alias(name=admin.alias("agent:alice")))),
            "alias": bob_alias}}]}),
        "delete index": lambda: alice.indices.delete(index=bob_index),
        "close index": lambda: alice.indices.close(index=bob_index),
        "new index": lambda: alice.indices.create(index=f"{bob_alias}+v9"),
        "template": lambda: alice.indices.put_index_template(name=f"{prefix}-evil", body={
            "index_patterns": [f"{bob_alias}*"], "template": {"aliases": {admin.alias("agent:alice"): {}}}}),
        "write shared": lambda: alice.index(index=admin.alias("shared"), id="x", routing="x", body={"kind": "file"}),
    }
    from opensearchpy.exceptions import TransportError

    allowed = []
    for what, attempt in attempts.items():
        try:
            answer = attempt()
        except TransportError as exc:
            assert exc.status_code in (403, 404), (what, exc.status_code, exc.info)  # 404: a name nobody holds
            answer = exc.info
        else:
            items = answer.get("items") or answer.get("docs") or answer.get("responses")
            if not (items and all("error" in (next(iter(i.values())) if "index" in i or "delete" in i else i)
                                  for i in items)):
                allowed.append(what)
        if BOB_SECRET in json.dumps(answer, ensure_ascii=False, default=str):
            leaks.append(f"http {what}")
    assert allowed == [] and leaks == []
    assert snapshot(admin, "agent:bob") == before  # nothing of Bob's changed
    found = json.loads(cli("--config", bob_cfg, "search", BOB_SECRET, "--json").out)
    assert found and found[0]["path"] == "MEMORY.md" and "mallory" not in json.dumps(found)


def test_an_empty_answer_says_the_same_whatever_bob_wrote(deployment, tmp_path, cli):
    """No empty-result oracle: whatever Alice's config says she sees (Bob's scope too, with no
    collection of his to show a hit in), her answer for a word only Bob holds, and its reason,
    are the answer for a word nobody holds."""
    prefix, admin, plan = deployment
    bob_ws, alice_ws = tmp_path / "bob", tmp_path / "alice"
    for ws, text in ((bob_ws, BOB_TEXT), (alice_ws, "# Notes\n\nalice notes about gardening\n")):
        ws.mkdir()
        (ws / "MEMORY.md").write_text(text, encoding="utf-8")
    bob_cfg = write_config(tmp_path, "bob", config_text(prefix, "bob", "agent:bob", ["agent:bob"],
                                                         {"memory": (bob_ws, "")}))
    assert cli("--config", bob_cfg, "index").code == 0
    for n, see in enumerate((["agent:alice", "shared"], ["agent:alice", "agent:bob", "shared"])):
        alice_cfg = write_config(tmp_path, f"alice{n}", config_text(prefix, "alice", "agent:alice", see,
                                                                     {"memory": (alice_ws, "")}))
        indexed = cli("--config", alice_cfg, "index")
        assert indexed.code == 0, indexed.err
        answers = {}
        for word in (BOB_SECRET, "qzxvnowhere"):
            for fmt in ([], ["--json"]):
                result = cli("--config", alice_cfg, "search", word, *fmt)
                answers.setdefault(word, []).append((result.code, result.out.replace(word, "W"),
                                                     result.err.replace(word, "W")))
        assert answers[BOB_SECRET] == answers["qzxvnowhere"], see


def test_a_client_certificate_logs_in_as_its_user(deployment, tmp_path, cli):
    """auth = "cert": a certificate for CN=alice (signed by the cluster's CA; the cluster maps
    a certificate's CN to its user) writes and searches Alice's memory and is refused Bob's."""
    import subprocess

    prefix, admin, plan = deployment
    info = os.environ.get("QMEM_TEST_CLUSTER", "")
    ca = Path(json.loads(Path(info).read_text())["ca"]) if info else None
    if ca is None or not (ca.parent / "ca-key.pem").exists():
        pytest.skip("needs a scripts/test-cluster --security cluster (its CA key signs the certificate)")
    for args in (["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsa.pem", "-out", "alice.csr",
                  "-subj", "/O=qmem-test/CN=alice"],
                 ["pkcs8", "-topk8", "-nocrypt", "-in", "rsa.pem", "-out", "alice-key.pem"],
                 ["x509", "-req", "-in", "alice.csr", "-CA", str(ca), "-CAkey", str(ca.parent / "ca-key.pem"),
                  "-CAcreateserial", "-CAserial", "ca.srl", "-out", "alice.pem", "-days", "2"]):
        subprocess.run(["openssl", *args], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    ws = tmp_path / "alice"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("# Garden\n\nalice certified heron notes\n", encoding="utf-8")

    def config(see: list[str]) -> str:
        text = config_text(prefix, "alice", "agent:alice", see, {"memory": (ws, "")})
        text = text.replace('auth = "basic"', f'auth = "cert"\nclient_cert = "{tmp_path / "alice.pem"}"\n'
                                              f'client_key = "{tmp_path / "alice-key.pem"}"')
        return write_config(tmp_path, f"cert{len(see)}", text.replace('username = "alice"\n', "")
                            .replace('password_env = "PW_ALICE"\n', ""))

    own = config(["agent:alice", "shared"])
    assert cli("--config", own, "index").code == 0
    found = json.loads(cli("--config", own, "search", "certified heron", "--json").out)
    assert found and found[0]["path"] == "MEMORY.md"
    sees_bob = cli("--config", config(["agent:alice", "agent:bob", "shared"]), "search", "wallet")
    assert sees_bob.code == EXIT_REMOTE and "403" in sees_bob.err
