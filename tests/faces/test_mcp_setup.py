"""Setting up an MCP client: `qmem mcp --print-config CLIENT` gives an entry that a real client
starts (the official SDK's stdio client, with a client's bare environment), the tools carry
MCP annotations, and `qmem mcp` run by hand says so and stops on the first Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import select
import shlex
import signal
import subprocess
import time

import pytest

from ..conftest import PYTHON, subprocess_env

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra qmem[mcp]")


@pytest.fixture
def indexed(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


async def _use(command: str, args: list[str], env: dict[str, str] | None) -> dict:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    out: dict = {}
    params = StdioServerParameters(command=command, args=args, env=env, cwd="/")  # a client's cwd is its own
    with open(os.devnull, "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                out["annotations"] = {t.name: t.annotations.model_dump(by_alias=True, exclude_none=True) for t in tools}
                out["search"] = (await session.call_tool("memory_search", {"query": "rsync", "maxResults": 1})).structured_content
                out["remember"] = (await session.call_tool("memory_remember", {"text": "set up from a printed config"})).structured_content
    return out


CLIENTS = ("cursor", "claude-desktop", "openclaw", "claude")


def _printed_entry(cli, indexed, client: str) -> dict:
    """The {command, args, env} a client takes from `qmem mcp --print-config CLIENT`."""
    printed = cli("mcp", "--print-config", client, "-w", str(indexed))
    assert printed.code == 0 and printed.err.count("\n") == 1, printed
    if client == "claude":
        words = shlex.split(printed.out)
        assert words[:3] == ["claude", "mcp", "add"] and "--" in words
        head = words[3:words.index("qmem")]
        env = dict(head[i + 1].split("=", 1) for i in range(0, len(head), 2) if head[i] == "-e")
        entry = {"command": words[words.index("--") + 1], "args": words[words.index("--") + 2:], "env": env}
    else:
        data = json.loads(printed.out)
        entry = (data["mcp"]["servers"] if client == "openclaw" else data["mcpServers"])["qmem"]
    assert os.path.isabs(entry["command"]) and os.path.isfile(entry["command"]), client
    assert str(indexed) in entry["args"] and entry["args"][entry["args"].index("--config") + 1].startswith("/")
    assert entry["env"] == {"QMEM_DATA": os.environ["QMEM_DATA"]}, client  # set here, so the entry carries it
    return entry


def test_every_printed_config_starts_a_server_a_real_client_uses_and_its_tools_carry_annotations(cli, indexed):
    """Each client's printed entry (JSON for three, a `claude mcp add` line for Claude Code) is
    started by the SDK's stdio client with a client's bare environment and used: every distinct
    entry once (today the four decode to one, so one server starts, not four), and the tools it
    lists carry the MCP annotations of their effect."""
    distinct = {json.dumps(entry, sort_keys=True): entry for entry in (_printed_entry(cli, indexed, c) for c in CLIENTS)}
    for entry in distinct.values():
        # A client passes only a few variables of its own (HOME, PATH…) plus the entry's env.
        bare = {"HOME": os.environ["HOME"], "PATH": "/usr/bin:/bin", **entry.get("env", {})}
        out = asyncio.run(_use(entry["command"], entry["args"], bare))
        assert out["search"]["results"][0]["path"] == "MEMORY.md"
        assert out["remember"]["line"] > 0 and out["remember"]["indexed"] == "indexed"
        notes = out["annotations"]
        for name in ("memory_search", "memory_get", "memory_boot", "memory_status"):
            assert notes[name] == {"readOnlyHint": True, "openWorldHint": False}, name
        assert notes["memory_remember"] == {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True,
                                            "openWorldHint": False}
        assert notes["memory_forget"] == {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
                                          "openWorldHint": False}


def test_print_config_refuses_an_unknown_client_and_a_missing_workspace(cli, indexed, tmp_path, monkeypatch):
    bad = cli("mcp", "--print-config", "vim", "-w", str(indexed))
    assert bad.code == 2 and "use claude, claude-desktop, cursor, openclaw" in bad.err
    monkeypatch.chdir(tmp_path)
    none = cli("mcp", "--print-config", "cursor")
    assert none.code == 2 and "no workspace" in none.err and none.out == ""


def _read_until(fd: int, want: bytes, seconds: float) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while want not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_by_hand_it_says_it_is_serving_and_the_first_ctrl_c_stops_it(indexed):
    """In a terminal, after one tool call (the SDK's stdin thread is then blocked in a read,
    which made the first Ctrl-C do nothing and the second wait for Enter)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([PYTHON, "-m", "qmem", "mcp", "-w", str(indexed)], stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=subprocess_env())
    os.close(slave)
    try:
        said = _read_until(proc.stderr.fileno(), b"Ctrl-C stops", 60)
        assert b"serving MCP over stdio" in said, said
        for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
                        {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "memory_status", "arguments": {}}}):
            os.write(master, json.dumps(message).encode() + b"\n")
        answered = _read_until(proc.stdout.fileno(), b'"id":2', 60)
        assert b'"id":2' in answered, answered
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
        assert proc.wait(20) == 130
        assert b"stopped" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
