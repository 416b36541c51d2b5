"""`qmem mcp`: the memory as an MCP server (stdio by default, or HTTP on 127.0.0.1).

A face like the CLI: each tool parses its arguments, calls one library function and returns
its result. The index stays open between calls. Nothing but protocol messages goes to
stdout; the SDK's logs go to stderr. Needs the optional SDK (the extra `mcp`, see base/install.py).
"""

# No `from __future__ import annotations` here: the SDK reads the tool signatures at run time.

import functools
import inspect
import os
import sys
import types
import typing
from typing import TypedDict

from ..engine import catalog, retrieve
from ..base import config
from ..base.errors import BadInputError, failure
from ..memory import boot as boot_mod
from ..memory import daily
from ..memory.workspace import resolve
from .mcp_transport import (
    BearerAuth, HostGuard, allowed_origins, bind, check_http_exposure, is_loopback, surrogates_replaced_on_stdin,
)

INSTRUCTIONS = (
    "Long-term memory of this agent, kept as Markdown files. Call memory_boot once at session start. "
    "Before answering from memory, call memory_search, then memory_get on the best hit's path to read "
    "the exact lines. Save durable facts with memory_remember. Chinese, English and mixed text all work."
)


# memory_search's parameters (OpenClaw's names) → the SearchRequest field each fills. The tool's
# schema is generated from this table and SearchRequest's own types and defaults (`search_parameters`);
# what the wire chooses for itself is stated here. tests/faces/test_search_request.py checks both.
SEARCH_PARAMS = {"query": "query", "maxResults": "limit", "minScore": "min_score", "collection": "collections",
                 "type": "types", "since": "since", "until": "until", "mode": "mode"}
SEARCH_REQUIRED = {"query"}  # an agent always asks something (the request's default is "")
SEARCH_DEFAULTS = {"maxResults": 10}  # a count on the wire, not None (the config's limit)
MAX_RESULTS = 100


def search_parameters() -> list[inspect.Parameter]:
    """memory_search's parameters, made from SearchRequest: each field's type and default; a list
    field takes one value on the wire (`collection`, `type`); SEARCH_DEFAULTS and SEARCH_REQUIRED
    as stated."""
    from ..engine.answer import SearchRequest

    hints = typing.get_type_hints(SearchRequest.__init__)
    fields = inspect.signature(SearchRequest).parameters
    out = []
    for wire, field in SEARCH_PARAMS.items():
        kind = hints[field]
        default = fields[field].default
        members = typing.get_args(kind) if typing.get_origin(kind) in (typing.Union, types.UnionType) else (kind,)
        lists = [m for m in members if typing.get_origin(m) is list]
        if lists:
            kind = typing.Optional[typing.get_args(lists[0])[0]]
        if wire in SEARCH_DEFAULTS:
            default = SEARCH_DEFAULTS[wire]
            kind = next(m for m in members if m is not type(None))  # a value is always there
        if wire in SEARCH_REQUIRED:
            default = inspect.Parameter.empty
        out.append(inspect.Parameter(wire, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind))
    return out


class Memory:
    """What the tools share: the config (reloaded when its file changes) and a search session
    (a searcher kept open between calls, the embedding model once loaded)."""

    def __init__(self, config_file: str | None = None, workspace: str | None = None) -> None:
        from ..engine.modes import Session

        self.config_file = config_file
        self.workspace = workspace
        self.session = Session()

    def cfg(self) -> config.Config:
        return config.load(self.config_file, required=self.config_file is not None)

    def ws(self, cfg: config.Config):
        return resolve(self.workspace, cfg)

    # -- the tools, as plain functions (tested without a transport) ----------------------------
    def memory_search(self, query: str, maxResults: int = 10, minScore: float | None = None,
                      collection: str | None = None, type: str | None = None,
                      since: str | None = None, until: str | None = None, mode: str = "bm25") -> dict[str, object]:
        from ..engine.answer import SearchRequest, answer
        from .render import openclaw_results

        request = SearchRequest(query=query, limit=max(1, min(int(maxResults), MAX_RESULTS)), min_score=minScore,
                                collections=[collection] if collection else None, types=[type] if type else None,
                                since=since, until=until, mode=mode)
        found = answer(self.cfg(), request, session=self.session)
        results = openclaw_results(found.hits)
        for row, hit in zip(results, found.hits):
            row.update(heading=hit.heading, collection=hit.collection, expired=hit.expired)
        out: dict[str, object] = {"results": results}
        if found.note:
            out["note"] = found.note
        if found.warnings:  # e.g. a collection never indexed: the agent learns nothing was searched there
            out["warnings"] = found.warnings
        if not results and found.empty_reason:  # as `qmem search --format openclaw` says it
            out["empty_reason"] = found.empty_reason
        return out

    def memory_get(self, path: str, **kwargs: int | str | None) -> dict[str, object]:
        start, lines, collection = kwargs.get("from"), kwargs.get("lines"), kwargs.get("collection")
        if isinstance(start, str) or isinstance(lines, str):  # the signature below makes them ints
            raise BadInputError("from and lines are line numbers")
        return retrieve.window(self.cfg(), path, start, lines,
                               collections=[str(collection)] if collection else None)

    def memory_boot(self, budget: int = boot_mod.DEFAULT_BUDGET, scope: str = "main") -> dict[str, object]:
        from . import render

        if scope not in ("main", "shared"):
            raise BadInputError(f"unknown scope {scope!r}: use main or shared")
        cfg = self.cfg()
        ws = self.ws(cfg)
        ws.require_memory()
        result = boot_mod.boot(ws, budget=int(budget), scope=scope, memory_config=cfg.table("memory"),
                               tree_config=cfg.table("tree"))
        return {"text": render.boot_text(result), "tokens": result.tokens, "budget": result.budget,
                "parts": [{"kind": p.kind, "path": p.path, "tokens": p.tokens} for p in result.parts],
                "notes": result.notes}

    def memory_remember(self, text: str, type: str | None = None, priority: str | None = None,
                        ref: str | None = None) -> dict[str, object]:
        cfg = self.cfg()
        ws = self.ws(cfg)
        written = daily.remember(ws, text, type_=type, priority=priority, ref=ref)
        if written.line:
            written.indexed = daily.refresh_written(cfg, [os.path.join(ws.root, written.path)])
        return written.to_dict()

    def memory_forget(self, entry: str, all: bool = False) -> dict[str, object]:
        import os

        from ..memory import forget

        cfg = self.cfg()
        ws = self.ws(cfg)
        result = forget.forget(ws, entry, all_matches=bool(all))
        paths = {os.path.join(ws.root, f.path) for f in result.forgotten} | {os.path.join(ws.root, result.archive)}
        out = result.to_dict()
        out["indexed"] = daily.refresh_written(cfg, sorted(paths))
        return out

    def memory_status(self) -> dict[str, object]:
        return catalog.status(self.cfg()).to_dict()


# MCP tool annotations (spec 2025-03-26+) per kind of effect. Searching may build or refresh
# the index, a cache of the files: still read-only for the user's memory.
class Hints(TypedDict, total=False):
    """The MCP ToolAnnotations a tool's effect sets."""

    read_only_hint: bool
    destructive_hint: bool
    idempotent_hint: bool


TOOL_EFFECTS: dict[str, Hints] = {
    "read": {"read_only_hint": True},
    # remember adds one line; the same fact again is not written twice (daily.remember)
    "append": {"read_only_hint": False, "destructive_hint": False, "idempotent_hint": True},
    # forget takes an entry out of the files an agent boots from (moved to memory/archive/)
    "remove": {"read_only_hint": False, "destructive_hint": True, "idempotent_hint": False},
}


def check_arguments(arguments: dict[str, object]) -> None:
    """Refuse text no file name or memory line can hold: a NUL, or a lone surrogate (not UTF-8)."""
    for name, value in arguments.items():
        if not isinstance(value, str):
            continue
        if "\x00" in value:
            raise BadInputError(f"{name} holds a NUL character")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInputError(f"{name} is not valid UTF-8 text (it holds a lone surrogate)") from None


def build(memory: Memory):  # mcp.server.mcpserver.MCPServer
    from typing import Annotated, Any

    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations
    from pydantic import Field

    from .. import __version__

    server = MCPServer(name="qmem", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")

    def tool(description: str, effect: str = "read"):
        """Register a tool whose failures reach the model as the one line the CLI would print
        (the faces' error ladder; Ctrl-C and a closed pipe still end the server), with the MCP
        annotations of its `effect` (TOOL_EFFECTS), so a client can run the read-only ones
        without asking and ask before the destructive one."""
        annotations = ToolAnnotations(**TOOL_EFFECTS[effect], open_world_hint=False)

        def wrap(fn):
            @functools.wraps(fn)
            def call(*args, **kwargs):
                try:
                    check_arguments(kwargs)
                    return fn(*args, **kwargs)
                except BaseException as exc:  # a Rust panic must not take the server down either
                    landed = None if isinstance(exc, (KeyboardInterrupt, BrokenPipeError)) else failure(exc)
                    if landed is None:
                        raise
                    raise ToolError(landed[0]) from None
            return server.tool(description=description, annotations=annotations, structured_output=True)(call)
        return wrap

    def memory_search(**wire: Any) -> dict[str, Any]:
        return memory.memory_search(**wire)

    # the schema the SDK builds from this signature is SearchRequest's fields under their wire names
    memory_search.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # as for memory_get below
        search_parameters(), return_annotation=dict[str, Any])
    tool((
        "Search long-term memory (BM25 over Markdown sections; Chinese, English and mixed text). "
        "Use before answering anything about the user, past work, decisions or facts. Returns "
        "{results: [{path, startLine, endLine, score, snippet, citation}]}; read more with memory_get. "
        "mode: bm25 (default), or vector / hybrid when `qmem embed` has run (finds paraphrases)."))(memory_search)

    def memory_get(path: str, lines: int | None = None, collection: str | None = None,
                   **wire: int | None) -> dict[str, Any]:
        # The wire name is `from` (a Python keyword): the schema comes from the signature below,
        # and the SDK hands the value back under its alias.
        return memory.memory_get(path, **{"from": wire.get("from"), "lines": lines, "collection": collection})

    # a function takes __signature__ at run time (the SDK reads it); mypy's FunctionType has none
    memory_get.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("path", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
        inspect.Parameter("from_", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Annotated[int | None, Field(alias="from")]),
        inspect.Parameter("lines", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=int | None),
        inspect.Parameter("collection", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None),
    ], return_annotation=dict[str, Any])
    tool((
        "Read memory text: `path` relative to the memory root, optionally `path#anchor` for a whole "
        "section; `from` (first line) and `lines` (default 120). Returns {text, path, from, lines, "
        "truncated, nextFrom}; when truncated, call again with from=nextFrom. `collection` picks one "
        "when the same path exists in several collections (a search hit names its collection)."))(memory_get)

    @tool((
        "Load session-start memory within a token budget: the memory index, the session buffer and "
        "the latest daily logs. Call once when a session starts; scope='shared' in group chats."))
    def memory_boot(budget: int = boot_mod.DEFAULT_BUDGET, scope: str = "main") -> dict[str, Any]:
        return memory.memory_boot(budget, scope)

    @tool((
        "Save one durable fact to today's daily log. type: P profile, E event, K knowledge, B behaviour, "
        "S skill, ! security; priority P0 (permanent), P1 (90 days), P2 (30 days); ref links a file#anchor. "
        "A fact already kept is not saved twice (duplicate_of and duplicate_at name it); once saved it is searchable at once. "
        "Never store secrets."), effect="append")
    def memory_remember(text: str, type: str | None = None, priority: str | None = None,
                        ref: str | None = None) -> dict[str, Any]:
        return memory.memory_remember(text, type, priority, ref)

    @tool((
        "Forget a remembered entry that is wrong or no longer wanted: it moves to memory/archive/ (never "
        "deleted) and leaves the files agents boot from. entry: the ref memory_remember returned (path:LINE@ID), "
        "'path:LINE words of it', or words of the entry; when several match, the error lists them (pick one, or set "
        "all=true)."), effect="remove")
    def memory_forget(entry: str, all: Annotated[bool, Field(strict=True)] = False) -> dict[str, Any]:
        return memory.memory_forget(entry, all)  # strict: "yes" or "false" is refused, never taken for true

    @tool("Index status per collection: files, sections, last refresh, stale files.")
    def memory_status() -> dict[str, Any]:
        return memory.memory_status()

    return server


def serve(config_file: str | None = None, workspace: str | None = None, http: bool = False,
          host: str = "127.0.0.1", port: int = 8765, allow_remote: bool = False, token: str | None = None,
          announce=None) -> None:  # announce(line): where the face prints the URL
    """Serve over stdio, or over streamable HTTP at http://HOST:PORT/mcp.

    A non-loopback HOST puts every memory tool on the network: it needs `allow_remote` and a
    bearer `token`, which every HTTP request must then carry (401 otherwise). A token given
    with a loopback HOST is enforced too. A port that cannot be bound is a BadInputError."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        from ..base.install import install_hint

        raise BadInputError(f"qmem mcp needs the MCP SDK: {install_hint('mcp')}") from None
    memory = Memory(config_file, workspace)
    cfg = memory.cfg()
    if workspace or os.environ.get("QMEM_WORKSPACE") or cfg.table("memory").get("workspace"):
        memory.ws(cfg)  # a named workspace that is not a folder: one line now, not an error on every call
    if not http:
        server = build(memory)
        if announce and sys.stdin.isatty():  # a person ran it: say what it is doing
            announce("serving MCP over stdio; an MCP client starts this itself "
                     "(qmem mcp --print-config claude|openclaw|cursor); Ctrl-C stops")
        _stop_on_interrupt(announce)
        with surrogates_replaced_on_stdin():
            server.run("stdio")
        return
    check_http_exposure(host, allow_remote, token)
    sock = bind(host, port)
    import uvicorn

    server = build(memory)
    app = server.streamable_http_app(host=host)
    bound = sock.getsockname()
    if is_loopback(host):  # a browser page must not reach it through a rebound DNS name
        app = HostGuard(app, *allowed_origins(host, bound[0], bound[1]))
    if token:
        app = BearerAuth(app, token)
    if announce:
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        announce(f"MCP over HTTP at http://{shown}:{bound[1]}/mcp" + (" (bearer token required)" if token else ""))
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).run(sockets=[sock])


def _stop_on_interrupt(announce) -> None:
    """The first Ctrl-C ends the stdio server at once. Left to the SDK, it is swallowed while
    the stdin reader thread blocks, and a second one still waits for Enter. Exiting here loses
    nothing: appends are one write, rewrites are atomic renames, the index survives kill -9."""
    import signal

    def stop(signum, frame) -> None:
        if announce:
            announce("stopped")
        os._exit(130)

    signal.signal(signal.SIGINT, stop)
