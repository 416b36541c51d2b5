"""The MCP server: tools as functions, and a real round trip with the SDK's stdio client."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from ..conftest import PYTHON, subprocess_env

mcp = pytest.importorskip("mcp", reason="the MCP SDK is the optional extra qmem[mcp]")


@pytest.fixture
def indexed(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def test_mcp_tools_as_functions(indexed, monkeypatch):
    from qmem.faces.mcp import Memory

    monkeypatch.setenv("QMEM_WORKSPACE", str(indexed))
    memory = Memory()
    found = memory.memory_search("私钥 泄露", maxResults=2)
    assert found["results"][0]["citation"].startswith("MEMORY.md#L")
    assert memory.memory_get("MEMORY.md", **{"from": 1, "lines": 2})["nextFrom"] == 3
    assert memory.memory_boot(300)["tokens"] <= 300
    written = memory.memory_remember("the gate code changed", type="K", priority="P2")
    assert written["path"].startswith("memory/") and "[K] [P2|expire:" in written["entry"]
    assert memory.memory_status()["collections"][0]["name"] == "main"


async def _session_run(env: dict[str, str], refresher_cmd: list[str]) -> dict:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=PYTHON, args=["-m", "qmem", "mcp"], env=env)
    out: dict = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            out["tools"] = {t.name: t.input_schema for t in tools.tools}
            out["search"] = (await session.call_tool("memory_search", {"query": "USDC decimals", "maxResults": 3})).structured_content
            out["get"] = (await session.call_tool("memory_get", {"path": "MEMORY.md", "from": 2, "lines": 3})).structured_content
            refused = await session.call_tool("memory_get", {"path": "../../etc/passwd"})
            out["refused"] = (refused.is_error, refused.content[0].text)
            out["boot"] = (await session.call_tool("memory_boot", {"budget": 400})).structured_content
            out["remember"] = (await session.call_tool("memory_remember", {"text": "via mcp", "type": "E"})).structured_content
            out["status"] = (await session.call_tool("memory_status", {})).structured_content
            refresher = subprocess.Popen(refresher_cmd, env=env)
            failures = 0
            for _ in range(30):
                result = await session.call_tool("memory_search", {"query": "backup 备份"})
                failures += bool(result.is_error)
            refresher.wait(60)
            out["concurrent_failures"] = failures
    return out


REFRESH_LOOP = """
import time
from pathlib import Path
from qmem.base import config
from qmem.engine import sync
cfg = config.load()
root = Path(cfg.collections["main"].path)
for i in range(15):
    (root / "memory" / f"2026-04-{i + 1:02d}.md").write_text(f"# day\\n- [E] backup run {i} 备份\\n", encoding="utf-8")
    sync.refresh(cfg)
"""


def test_mcp_round_trip_over_stdio(indexed):
    env = subprocess_env()
    env["QMEM_WORKSPACE"] = str(indexed)
    out = asyncio.run(_session_run(env, [PYTHON, "-c", REFRESH_LOOP]))
    assert set(out["tools"]) == {"memory_search", "memory_get", "memory_boot", "memory_remember", "memory_forget",
                                 "memory_status"}
    assert set(out["tools"]["memory_get"]["properties"]) == {"path", "from", "lines", "collection"}
    from qmem.faces.mcp import SEARCH_PARAMS

    search_schema = out["tools"]["memory_search"]  # what search_parameters() made of SearchRequest
    assert list(search_schema["properties"]) == list(SEARCH_PARAMS) and search_schema["required"] == ["query"]
    assert search_schema["properties"]["maxResults"] == {"default": 10, "title": "Maxresults", "type": "integer"}
    assert out["search"]["results"] and set(out["search"]["results"][0]) >= {
        "path", "startLine", "endLine", "score", "snippet", "source", "citation"}
    assert set(out["get"]) == {"text", "path", "from", "lines", "truncated", "nextFrom"} and out["get"]["from"] == 2
    assert out["refused"][0] and "refused" in out["refused"][1]
    assert out["boot"]["tokens"] <= 400 and "qmem boot" in out["boot"]["text"]
    assert out["remember"]["entry"] == "- [E] via mcp"
    assert out["status"]["collections"][0]["name"] == "main"
    assert out["concurrent_failures"] == 0


def test_mcp_without_the_sdk_says_which_extra_to_install(cli, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now raises ImportError
    result = cli("mcp")
    from qmem.base.install import install_hint

    assert result.code == 2 and install_hint("mcp") in result.err and "[mcp" in result.err


def test_mcp_search_says_why_nothing_was_found_and_what_was_not_searched(indexed, cli, tmp_path):
    """The MCP answer carries what the CLI prints on stderr: why a search found nothing (the
    same reason `--format openclaw` gives) and the collections that were never indexed."""
    import json

    from qmem.faces.mcp import Memory

    memory = Memory()
    empty = memory.memory_search("qzxvnowhere")
    openclaw = json.loads(cli("search", "qzxvnowhere", "--format", "openclaw").out)
    assert empty["results"] == [] and empty["empty_reason"] == openclaw["empty_reason"] != ""
    assert "empty_reason" not in memory.memory_search("rsync") and "warnings" not in memory.memory_search("rsync")
    (tmp_path / "later").mkdir()
    assert cli("collection", "create", "later", str(tmp_path / "later"), "--no-index").code == 0
    found = memory.memory_search("rsync")
    assert found["results"] and any("later" in w and "never indexed" in w for w in found["warnings"])


def test_mcp_search_modes_with_vectors(indexed, cli):
    from qmem.faces.mcp import Memory

    memory = Memory()
    bm25 = memory.memory_search("rsync")
    fallback = memory.memory_search("rsync", mode="vector")  # as the CLI and qmem-qmd answer it
    assert fallback["results"] == bm25["results"] and "note" not in bm25
    assert fallback["note"].startswith("no vectors yet: run qmem embed") and "answered with BM25" in fallback["note"]
    assert cli("embed", "--model", "fake").code == 0
    assert memory.memory_search("rsync resumes large copies", mode="vector")["results"]
    assert memory.memory_search("rsync resume", mode="hybrid")["results"][0]["path"] == "MEMORY.md"
    with pytest.raises(Exception, match="unknown mode"):
        memory.memory_search("rsync", mode="magic")


# -- HTTP: the URL on start, a busy port, the network only with a flag and a bearer token -------------

TOKEN = "s3cret-token-for-tests-0123456789"


def test_http_refusals_are_one_line_exit_2(cli, indexed, monkeypatch):
    import socket

    import uvicorn

    async def never(*args, **kwargs):
        raise AssertionError("the server started instead of refusing")

    monkeypatch.setattr(uvicorn.Server, "serve", never)
    monkeypatch.delenv("QMEM_MCP_TOKEN", raising=False)
    for argv, says in ((["--host", "0.0.0.0"], "--allow-remote"),  # no flag
                       (["--host", "0.0.0.0", "--allow-remote"], "needs a bearer token"),  # flag, no token
                       (["--host", "::", "--allow-remote", "--token", "short"], "too short"),
                       (["--host", "example.org", "--allow-remote"], "needs a bearer token")):
        result = cli("mcp", "--http", *argv)
        assert result.code == 2 and result.err.count("\n") == 1 and says in result.err, (argv, result)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        result = cli("mcp", "--http", "--port", str(busy.getsockname()[1]))
    finally:
        busy.close()
    assert result.code == 2 and result.err.count("\n") == 1 and "cannot listen on 127.0.0.1:" in result.err, result


def _post(url: str, token: str | None, extra: dict[str, str] | None = None, message: dict | None = None,
          method: str = "POST") -> int:
    import json
    import urllib.error
    import urllib.request

    body = json.dumps(message or {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).encode()
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream", **(extra or {})}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=body if method == "POST" else None, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_http_prints_its_url_and_checks_the_token_on_every_request(indexed):
    env = subprocess_env()
    env["QMEM_MCP_TOKEN"] = TOKEN
    proc = subprocess.Popen([PYTHON, "-m", "qmem", "mcp", "--http", "--host", "0.0.0.0", "--allow-remote", "--port", "0"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert line.startswith("qmem: MCP over HTTP at http://0.0.0.0:") and "/mcp" in line, line
        port = int(line.split("http://0.0.0.0:", 1)[1].split("/", 1)[0])
        url = f"http://127.0.0.1:{port}/mcp"
        assert _post(url, None) == 401
        assert _post(url, "wrong-token-wrong-token-wrong") == 401
        assert _post(url, TOKEN[:-1]) == 401
        assert _post(url, TOKEN) == 200
        assert _post(url, None) == 401  # every request, not only the first
    finally:
        proc.terminate()
        proc.communicate(timeout=30)



def _serve(host: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([PYTHON, "-m", "qmem", "mcp", "--http", "--host", host, "--port", "0"],
                            env=env or subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    if "MCP over HTTP at" not in line:
        proc.kill()
        rest = proc.communicate(timeout=30)[1]
        pytest.fail(f"the server did not start on {host}: {line}{rest}")
    return proc, int(line.rsplit(":", 1)[1].split("/", 1)[0])


@pytest.mark.parametrize("host", ["127.0.0.2", "127.8.8.8", "127.0.0.1", "0:0:0:0:0:0:0:1"])
def test_http_on_any_loopback_address_refuses_a_rebound_host_or_foreign_origin(indexed, host):
    """A DNS-rebinding page reaches the loopback server under its own name: its Host (and a
    browser's Origin) name the attacker's site. Nothing of it may reach a tool."""
    import socket

    if ":" in host:
        try:
            probe = socket.socket(socket.AF_INET6)
            probe.bind(("::1", 0))
            probe.close()
        except OSError:
            pytest.skip("no IPv6 loopback here")
    proc, port = _serve(host)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/mcp"
    evil = f"rebind.attacker.example:{port}"
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    try:
        assert _post(url, None) == 200  # its own clients still work
        assert _post(url, None, {"origin": f"http://{shown}:{port}"}) == 200
        assert _post(url, None, {"host": evil}) == 421
        assert _post(url, None, {"host": evil}, notification) == 421
        assert _post(url, None, {"host": evil}, method="GET") == 421
        assert _post(url, None, {"origin": f"http://{evil}"}) == 403
        assert _post(url, None, {"origin": "null"}) == 403
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


@pytest.mark.parametrize("token", [" " * 16, "\t" * 20, "a" * 32, "abababababababababab", "0123456701234567"])
def test_http_refuses_a_token_that_is_no_secret(cli, indexed, monkeypatch, token):
    import uvicorn

    async def never(*args, **kwargs):
        raise AssertionError("the server started with a guessable token")

    monkeypatch.setattr(uvicorn.Server, "serve", never)
    monkeypatch.setenv("QMEM_MCP_TOKEN", token)
    result = cli("mcp", "--http", "--host", "127.0.0.2", "--port", "0")
    assert result.code == 2 and result.err.count("\n") == 1 and "bearer token" in result.err, result
    assert "secrets.token_urlsafe" in result.err


# -- what a client sends that no memory can hold: each gets its own answer, the server lives on ----

def test_raw_json_rpc_lines_with_a_nul_a_lone_surrogate_or_a_loose_bool_each_get_an_answer(indexed):
    import json
    import threading

    env = subprocess_env()
    env["QMEM_WORKSPACE"] = str(indexed)
    proc = subprocess.Popen([PYTHON, "-m", "qmem", "mcp"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    answers: dict = {}
    done = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            message = json.loads(line)
            answers[message.get("id")] = message
            if len(answers) >= 5:
                done.set()

    threading.Thread(target=read, daemon=True).start()

    def call(ident: int, name: str, arguments: str) -> str:
        return ('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "%s", "arguments": %s}}'
                % (ident, name, arguments))

    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call(2, "memory_get", '{"path": "a\\u0000b"}'),
        call(3, "memory_search", '{"query": "\\ud800 usdc"}'),  # half a character: no UTF-8 text holds it
        call(4, "memory_forget", '{"entry": "usdc", "all": "yes"}'),
        call(5, "memory_search", '{"query": "usdc"}'),
    ]
    try:
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        assert done.wait(120), answers
    finally:
        proc.stdin.close()
        proc.wait(60)
    stderr = proc.stderr.read()
    text = {i: answers[i]["result"]["content"][0]["text"] for i in (2, 4)}
    assert answers[2]["result"]["isError"] and "path holds a NUL character" in text[2]
    assert answers[3]["result"]["structuredContent"]["results"]  # searched, the half character replaced
    assert answers[4]["result"]["isError"] and "valid boolean" in text[4]
    assert len(answers[5]["result"]["structuredContent"]["results"]) >= 3  # "yes" forgot nothing
    assert "Traceback" not in stderr and "UnexpectedToolError" not in stderr, stderr


def test_mcp_refuses_a_workspace_that_is_not_a_folder_at_once(cli, indexed, tmp_path):
    result = cli("mcp", "-w", str(tmp_path / "nonexistent"))
    assert result.code == 2 and result.err.count("\n") == 1 and "is not a folder" in result.err, result
