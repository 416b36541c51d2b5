"""The Typer face: parse options, call one library function, render, exit with a code.

No logic lives here. `search` and `get` share their runners with the fast path
(`cli/fast.py`); keep their options in step with the tables there (a test checks).
"""

from __future__ import annotations

import inspect
import sys
from typing import Annotated, Optional

import typer

from ... import __version__
from . import collection_cmds, completion, doctor_cmd, memory_cmds, opensearch_cmds, tree_cmds, vector_cmds
from .common import GetArgs, emit, err, run_get
from .indexing import IndexArgs, run_index, warn_refresh
from .fast import SEARCH, search_command
from .options import CollectionsOpt, JsonOpt, QuietOpt, config_path, finish, load

app = typer.Typer(
    name="qmem",
    help="Local BM25 search and memory manager for agents whose memory is Markdown.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help and errors: greppable, no box drawing in agent logs
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(collection_cmds.collection_app, name="collection")
app.add_typer(tree_cmds.tree_app, name="tree")
app.add_typer(opensearch_cmds.opensearch_app, name="opensearch")


def _version(value: bool) -> None:
    if value:
        emit(f"qmem {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    config: Annotated[
        Optional[str],
        typer.Option("--config", metavar="FILE", help="Config file (default: $QMEM_CONFIG, else $XDG_CONFIG_HOME/qmem/collections.toml)."),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", "-V", is_eager=True, callback=_version, help="Print the version and exit.")
    ] = False,
) -> None:
    """Local BM25 search and memory manager for agents whose memory is Markdown."""
    ctx.obj = config


# -- index ----------------------------------------------------------------------------------

def index_cmd(
    ctx: typer.Context,
    names: Annotated[Optional[list[str]], typer.Argument(help="Collections to refresh (default: all).")] = None,
    full: Annotated[bool, typer.Option("--full", help="Rebuild from scratch instead of incrementally.")] = False,
    wait: Annotated[
        Optional[float],
        typer.Option("--wait", metavar="SECONDS", help="Seconds to wait for another refresh to finish (default: config, 30).", min=0),
    ] = None,
    quiet: QuietOpt = False,
    watch: Annotated[bool, typer.Option("--watch", help="Keep refreshing as files change (Ctrl-C stops).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Refresh the index: read new and changed files, drop deleted ones (incremental)."""
    def action() -> int:
        if watch:
            from ...base.errors import BadInputError

            cfg = load(ctx)
            if not cfg.collections:
                raise BadInputError(f"no collections to index in {cfg.file}: qmem collection create NAME PATH")
            if wait is not None:
                cfg.lock_timeout = wait
            _watch(cfg, names, quiet, as_json)
            return 0
        args = IndexArgs()
        args.config = config_path(ctx)
        args.names, args.full, args.wait, args.quiet, args.json = names, full, wait, quiet, as_json
        return run_index(args)

    finish(action)


def _watch(cfg, names: list[str] | None, quiet: bool, as_json: bool) -> None:
    from .. import render
    from ...engine.watch import watch

    def report(result) -> None:
        warn_refresh(result)
        if as_json:
            emit(render.to_json(result.to_dict()))
        elif not quiet:
            emit(render.refresh_text(result))
        sys.stdout.flush()

    if not quiet:
        sys.stderr.write("qmem: watching for changes (Ctrl-C stops)\n")
        sys.stderr.flush()
    import signal
    import threading

    stop = threading.Event()

    def on_interrupt(signum, frame) -> None:
        """The first Ctrl-C lets the running refresh finish and ends the watch; a second one interrupts."""
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    def busy(message: str) -> None:
        sys.stderr.write(f"qmem: {message}\n")

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:  # Ctrl-C is how a watch ends: exit 0, one line at most
        watch(cfg, names, on_refresh=report, on_busy=busy, stop=stop)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, previous)
    if not quiet:
        sys.stderr.write("qmem: stopped watching\n")


app.command("index")(index_cmd)
app.command("update", help="Alias of `qmem index` (qmd's name).")(index_cmd)


# -- search and get -------------------------------------------------------------------------

def search_cmd(ctx: typer.Context, query: Optional[list[str]] = None, **options: object) -> None:
    """Search the index (BM25; Chinese and mixed text welcome)."""
    values = {field: options[param] for param, field in _SEARCH_PARAMS.items()}
    finish(lambda: search_command(config_path(ctx), values, list(query or [])))


def _search_signature() -> tuple[inspect.Signature, dict[str, str]]:
    """`search`'s Typer signature, built from the one option table (cli/fast.py SEARCH), and
    each parameter's field there: a flag that sets a value (`mode=hybrid`) is named by it."""
    kinds: dict[str, object] = {"list": Optional[list[str]], "int": Optional[int], "float": Optional[float],
                                "str": Optional[str], "flag": bool}
    keyword = inspect.Parameter.KEYWORD_ONLY
    params = [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
        inspect.Parameter("query", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=Annotated[
            Optional[list[str]], typer.Argument(help="Words; a \"quoted phrase\" ranks higher (--exact: must match), -word must not match.")]),
    ]
    fields: dict[str, str] = {}
    for flags, field, kind, metavar, text in SEARCH:
        name = field.partition("=")[2] or field
        fields[name] = field
        params.append(inspect.Parameter(name, keyword, default=False if kind == "flag" else None,
                                        annotation=Annotated[kinds[kind], typer.Option(*flags, metavar=metavar, help=text)]))
    return inspect.Signature(params), fields


# a function takes __signature__ at run time (inspect, so Typer, reads it); mypy's FunctionType has none
search_cmd.__signature__, _SEARCH_PARAMS = _search_signature()  # type: ignore[attr-defined]
app.command("search")(search_cmd)


@app.command("get")
def get_cmd(
    ctx: typer.Context,
    spec: Annotated[str, typer.Argument(help="path#anchor, path:LINE[:COUNT] or path (relative to a collection root).")],
    collection: CollectionsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a section by anchor, or a window of lines, with line numbers."""
    args = GetArgs()
    args.config = config_path(ctx)
    args.spec = spec
    args.collections = list(collection or [])
    args.json = as_json
    finish(lambda: run_get(args))


@app.command("eval")
def eval_cmd(
    ctx: typer.Context,
    fixture: Annotated[str, typer.Argument(help='JSON lines: {"query": "...", "expected": ["path", "path#anchor", "path:LINE"]}.')],
    collection: CollectionsOpt = None,
    k: Annotated[int, typer.Option("-k", metavar="K", help="Rank cut-off for the metrics.", min=1)] = 10,
    mode: Annotated[str, typer.Option("--mode", metavar="MODE", help="bm25 (default), vector or hybrid (after qmem embed).")] = "bm25",
    as_json: JsonOpt = False,
) -> None:
    """Score search on a fixture: hit@1, hit@k, recall@k, MRR@k, nDCG@k, and the misses."""
    def action() -> None:
        from ...engine import evaluate
        from .. import render

        cfg = load(ctx)
        report = evaluate.evaluate(cfg, evaluate.load_fixture(fixture), list(collection or []), k, mode, say=err)
        emit(render.to_json(report.to_dict()) if as_json else render.eval_text(report))

    finish(action)


@app.command("status")
def status_cmd(
    ctx: typer.Context,
    names: Annotated[Optional[list[str]], typer.Argument(help="Collections (default: all).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Per collection: root, files, sections, index size, last refresh, stale files."""
    def action() -> None:
        from ...engine import catalog
        from .. import render

        cfg = load(ctx)
        st = catalog.status(cfg, names)
        vectors = _vector_status(cfg, [c.name for c in st.collections])
        if as_json:
            data = st.to_dict()
            rows = data["collections"]
            assert isinstance(rows, list)  # Status.to_dict: one dict per collection
            for row in rows:
                row["vectors"] = vectors.get(row["name"])
            emit(render.to_json(data))
        else:
            emit(render.status_text(st))
            for name, info in vectors.items():
                emit(f"{name}: {info['vectors']} vectors ({info['model']} on {info['device']}), "
                     f"{info['waiting']} sections waiting: qmem embed {name}")

    finish(action)


memory_cmds.register(app)
vector_cmds.register(app)
doctor_cmd.register(app)
completion.register(app)


@app.command("mcp")
def mcp_cmd(
    ctx: typer.Context,
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio.")] = False,
    host: Annotated[str, typer.Option("--host", metavar="ADDR", help="HTTP address (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="PORT", help="HTTP port (0: any free port).", min=0, max=65535)] = 8765,
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Allow a non-loopback --host (needs a bearer token).")] = False,
    token: Annotated[
        Optional[str],
        typer.Option("--token", metavar="TOKEN", envvar="QMEM_MCP_TOKEN", show_envvar=False,
                     help="Bearer token every HTTP request must carry (prefer $QMEM_MCP_TOKEN: argv is visible).")
    ] = None,
    workspace: memory_cmds.WorkspaceOpt = None,
    print_config: Annotated[
        Optional[str],
        typer.Option("--print-config", metavar="CLIENT",
                     help="Print a ready entry for claude (Claude Code), claude-desktop, cursor or openclaw, "
                          "with absolute paths, instead of serving."),
    ] = None,
) -> None:
    """Serve memory_search, memory_get, memory_boot, memory_remember, memory_forget, memory_status over MCP."""
    def action() -> None:
        if print_config is not None:
            _print_mcp_config(ctx, print_config, workspace)
            return
        from ..mcp import serve

        def announce(line: str) -> None:
            err(line)
            sys.stderr.flush()

        serve(config_path(ctx), workspace, http=http, host=host, port=port, allow_remote=allow_remote,
              token=token or None, announce=announce)

    finish(action)


def _print_mcp_config(ctx: typer.Context, client: str, workspace: str | None) -> None:
    """The entry on stdout (to pipe or paste), where it goes on stderr."""
    from ...base.errors import BadInputError
    from ...memory.workspace import resolve
    from ..mcp_config import CLIENTS, client_config

    if client not in CLIENTS:
        raise BadInputError(f"unknown client {client!r}: use {', '.join(CLIENTS)}")
    cfg = load(ctx)
    entry, where = client_config(client, cfg.file, resolve(workspace, cfg).root)
    emit(entry)
    err(where)


def _vector_status(cfg, names: list[str]) -> dict:
    """Vector counts for the collections that have a vector store (the optional tier)."""
    import os

    from ...base.layout import version_dir

    if not os.path.isdir(os.path.join(version_dir(cfg.data_dir), "vectors")):
        return {}
    from ...vector import store

    return {n: store.status(cfg, n) for n in names if os.path.isdir(store.store_dir(cfg.data_dir, n))}


def command():  # click.Command
    """The click command tree, with examples, argument names and -q added (cli/helptext.py)."""
    from .helptext import polish

    return polish(typer.main.get_command(app))


def run(argv: list[str]) -> None:
    """Run the Typer app. A usage error is one line on stderr and exit 2; `qmem` alone prints
    its help, a command group without a command one line naming its commands (exit 2, as
    click does); Ctrl-C exits 130."""
    from .fast import query_argv

    try:
        code = command()(args=query_argv(argv), prog_name="qmem", standalone_mode=False)
    except typer.Abort:
        err("interrupted")
        sys.exit(130)
    except Exception as exc:
        if not any(k.__name__ == "ClickException" for k in type(exc).__mro__):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":
            ctx = getattr(exc, "ctx", None)
            if ctx is None or ctx.parent is None:  # `qmem` alone: the help
                exc.show()  # type: ignore[attr-defined]  # a ClickException (found by name above)
            else:  # `qmem state`: one line naming what it takes
                names = ", ".join(ctx.command.list_commands(ctx))
                err(f"{ctx.command_path.split(' ', 1)[1]}: missing command ({names}) (see: {ctx.command_path} -h)")
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]  # as above
        err(usage_line(exc))
        sys.exit(exc.exit_code)  # type: ignore[attr-defined]  # as above
    sys.exit(code if isinstance(code, int) else 0)


def usage_line(exc: Exception) -> str:
    """click's usage error as one line, naming the command and where its help is."""
    message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]  # a click UsageError
    ctx = getattr(exc, "ctx", None)
    path = ctx.command_path if ctx is not None else "qmem"
    where = path.split(" ", 1)[1] + ": " if " " in path else ""
    return f"{where}{message} (see: {path} -h)"
