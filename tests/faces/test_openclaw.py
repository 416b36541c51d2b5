"""The routes that work with current OpenClaw (no qmd backend any more): the MCP server,
configured as docs/openclaw.md shows, and the protocol as a skill or in AGENTS.md."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import sys

import pytest

from qmem.memory.protocol import protocol

from ..conftest import ROOT, subprocess_env
from .test_help import _parse


def openclaw_guide() -> str:
    return (ROOT / "docs" / "openclaw.md").read_text(encoding="utf-8")


def test_skill_is_a_valid_skill_file(cli, workspace):
    text = cli("protocol", "--skill", "-w", str(workspace)).out
    head, body = text.split("\n---\n", 1)
    lines = head.splitlines()
    assert lines[0] == "---" and lines[1].startswith("name: ") and lines[2].startswith("description: ")
    name, description = lines[1][6:], lines[2][13:]
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", name)
    assert 0 < len(description) < 160 and ":" not in description  # one plain YAML line
    assert body.strip() == protocol(str(workspace)).strip()
    assert json.loads(cli("protocol", "--skill", "-w", str(workspace), "--json").out)["text"] == text.rstrip("\n") + "\n"


def test_every_command_the_protocol_teaches_parses(tmp_path):
    folder = str(tmp_path / "my workspace")  # a space: the folder is quoted for the shell
    commands = re.findall(r"`(qmem [^`]+)`", protocol(folder))
    assert len(commands) >= 8
    writers = [c for c in commands if c.split()[1] in ("boot", "remember", "state", "forget", "flush")]
    assert len(writers) >= 7 and all(shlex.quote(folder) in c for c in writers), writers
    for command in commands:
        example = re.sub(r"<[^>]+>", "x", command).replace('"x"', "x")
        cmd, args = _parse(example)
        assert not hasattr(cmd, "commands"), command
        cmd.make_context(cmd.name, list(args))


def test_the_guide_no_longer_offers_the_qmd_backend():
    section = openclaw_guide()
    assert 'memory.qmd.command = "qmem-qmd"' not in section and "removed its qmd memory backend" in section


async def _session(command: str, args: list[str], env: dict[str, str]) -> dict:
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    out: dict = {}
    params = StdioServerParameters(command=command, args=args, env=env)
    with open(os.devnull, "w", encoding="utf-8") as errlog:  # pytest's captured stderr has no file descriptor
        async with stdio_client(params, errlog=errlog) as (read, write):
            await _calls(read, write, out)
    return out


async def _calls(read, write, out: dict) -> None:
    from mcp import ClientSession

    async with ClientSession(read, write) as session:
        await session.initialize()
        out["tools"] = sorted(t.name for t in (await session.list_tools()).tools)
        out["boot"] = (await session.call_tool("memory_boot", {"budget": 400})).structured_content
        out["search"] = (await session.call_tool("memory_search", {"query": "rsync", "maxResults": 2})).structured_content


def test_the_guide_mcp_config_block_runs(cli, workspace):
    pytest.importorskip("mcp")
    block = re.search(r"```json\n(.*?)```", openclaw_guide(), re.S).group(1)
    server = json.loads(re.sub(r"^ {3}", "", block, flags=re.M))["mcp"]["servers"]["qmem"]
    assert os.path.isabs(server["command"]) and server["command"].endswith("/bin/qmem")  # a venv's qmem
    assert server["args"][:2] == ["mcp", "--workspace"] and os.path.isabs(server["args"][2])
    assert cli("collection", "create", "main", str(workspace)).code == 0
    venv_qmem = os.path.join(os.path.dirname(sys.executable), "qmem")  # this test's virtualenv
    args = [str(workspace) if a == server["args"][2] else a for a in server["args"]]
    out = asyncio.run(_session(venv_qmem, args, subprocess_env()))
    assert out["tools"] == ["memory_boot", "memory_forget", "memory_get", "memory_remember", "memory_search",
                            "memory_status"]
    assert "MEMORY.md" in out["boot"]["text"] and out["search"]["results"][0]["path"] == "MEMORY.md"
