"""`qmem mcp --print-config CLIENT`: a ready MCP client entry for this install.

An MCP client starts `qmem mcp` itself, with its own PATH (a GUI app's, a gateway's): a bare
`qmem` there fails to start ("Failed to connect") unless the virtual environment's `bin` is on
it. So the entry names this install's `qmem` by its absolute path, the config file and the
workspace by theirs, and `$QMEM_DATA` when it is set here (a client does not inherit a shell's
variables). Needs no MCP SDK: it only prints.
"""

from __future__ import annotations

import os
import shlex
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # the entry's type only: `qmem mcp --print-config` does not import typing
    from typing import NotRequired, TypedDict

    class ServerEntry(TypedDict):
        command: str
        args: list[str]
        env: NotRequired[dict[str, str]]

# client → (shape, where the entry goes: said on stderr, never mixed into the entry itself)
CLIENTS = {
    "claude": ("claude-code", "run this line once (Claude Code; add -s user for every project)"),
    "claude-desktop": ("mcpServers", "merge into claude_desktop_config.json (Settings → Developer → Edit Config)"),
    "cursor": ("mcpServers", "merge into ~/.cursor/mcp.json (or .cursor/mcp.json in a project)"),
    "openclaw": ("openclaw", "merge into ~/.openclaw/openclaw.json; then: openclaw mcp probe qmem"),
}


def qmem_command() -> list[str]:
    """This install's `qmem`, absolute: the script beside the interpreter (a venv's, pipx's or
    uv tool's `bin/qmem`), else the interpreter running the package."""
    beside = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "qmem")
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return [beside]
    return [os.path.abspath(sys.executable), "-m", "qmem"]


def server_entry(config_file: str, workspace: str) -> ServerEntry:
    """{command, args[, env]}: what every client's entry holds."""
    command = qmem_command()
    args = command[1:] + (["--config", config_file] if os.path.isfile(config_file) else [])
    entry: ServerEntry = {"command": command[0], "args": args + ["mcp", "--workspace", workspace]}
    if os.environ.get("QMEM_DATA"):
        entry["env"] = {"QMEM_DATA": os.path.abspath(os.path.expanduser(os.environ["QMEM_DATA"]))}
    return entry


def client_config(client: str, config_file: str, workspace: str) -> tuple[str, str]:
    """(the entry as the client takes it, where it goes). `client` is one of CLIENTS."""
    from .render import to_json as dumps  # the one JSON road (orjson): not a start-up command

    shape, where = CLIENTS[client]
    entry = server_entry(config_file, workspace)
    if shape == "claude-code":
        env = [f"-e {shlex.quote(f'{k}={v}')}" for k, v in entry.get("env", {}).items()]
        argv = [entry["command"], *entry["args"]]
        return " ".join(["claude mcp add", *env, "qmem --", *map(shlex.quote, argv)]), where
    if shape == "openclaw":
        return dumps({"mcp": {"servers": {"qmem": entry}}}), where
    return dumps({"mcpServers": {"qmem": entry}}), where
