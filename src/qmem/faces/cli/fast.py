"""Start-up fast path: parse `qmem search` / `qmem get` / `qmem index` without importing Typer.

Importing Typer costs ~45 ms, more than the whole search. Search and get are what agents
call many times per task, `index -q` is what a timer calls every minute, so a small parser
handles their well-formed command lines and hands anything else (`--help`, a typo, a bad
value, `--watch`) to the Typer app, which owns the messages. `tests/faces/test_cli_fast.py` checks that the option tables below match
the Typer commands' options exactly.
"""

from __future__ import annotations

from .common import GetArgs, pick_format, run_get, run_search

# The `search` command's options in --help order: (flags, field, kind, metavar, help). `field`
# names a SearchRequest field (`mode=hybrid`: that field set to that value) or one of RENDER
# (how the answer is printed). The fast path's parser table below and Typer's `search`
# signature (cli/app.py) are both built from this one list; tests/faces/test_search_request.py
# checks it against SearchRequest's fields.
SEARCH: tuple[tuple[tuple[str, ...], str, str, str | None, str], ...] = (
    (("-c", "--collection"), "collections", "list", "NAME", "Limit to this collection (repeatable)."),
    (("-n", "--limit"), "limit", "int", "N", "Number of results (default 10)."),
    (("--json",), "json", "flag", None, "JSON array of hits."),
    (("--files",), "files", "flag", None, "One abs_path:line per hit."),
    (("--md",), "md", "flag", None, "Markdown to paste into a prompt."),
    (("--format",), "format", "str", "FORMAT",
     "text, json, files, md or openclaw ({results: [...]} as OpenClaw's memory_search returns)."),
    (("--full",), "full", "flag", None, "Whole sections instead of snippets."),
    (("--min-score",), "min_score", "float", "SCORE", "Drop hits scoring below this."),
    (("-t", "--type"), "types", "list", "TYPE",
     "Entry type: P E K B S ! or profile, event, knowledge, behaviour, skill, security (repeatable)."),
    (("--since",), "since", "str", "DATE", "Dated sections from this day: YYYY-MM-DD, today, yesterday, Nd."),
    (("--until",), "until", "str", "DATE", "Dated sections up to this day (inclusive)."),
    (("--path",), "path", "str", "GLOB", "Glob on the file path, e.g. \"memory/2026-*\"."),
    (("--refresh",), "refresh", "flag", None, "Refresh stale collections first (never waits for a busy index)."),
    (("--hybrid",), "mode=hybrid", "flag", None, "BM25 and vectors fused, like `qmem query` (needs qmem embed)."),
    (("--now",), "now", "str", "DATE", "The day relative dates count from (YYYY-MM-DD; default today)."),
    (("--when",), "when", "str", "TEXT",
     "Only sections of these days: \"last week\", \"yesterday\", \"5月2日\", \"上周\"."),
    (("--recency",), "recency", "float", "DAYS",
     "Favour recent dated sections (half-life in days); undated files are never demoted."),
    (("--explain",), "explain", "flag", None, "Per hit: matched units and weights, date prior, the window chosen."),
    (("--budget",), "budget", "int", "TOKENS", "As many hits as fit in this many LLM tokens."),
    (("--exact",), "exact", "flag", None, "Each \"quoted phrase\" must appear as written."),
)
RENDER = ("json", "files", "md", "format", "full")  # how a search is printed, not what it asks

# option → (attribute, kind); kinds: flag, str, int, float, list
SEARCH_OPTIONS: dict[str, tuple[str, str]] = {flag: (field, kind) for flags, field, kind, _, _ in SEARCH
                                              for flag in flags}
GET_OPTIONS: dict[str, tuple[str, str]] = {
    "-c": ("collections", "list"),
    "--collection": ("collections", "list"),
    "--json": ("json", "flag"),
}
INDEX_OPTIONS: dict[str, tuple[str, str]] = {
    "--full": ("full", "flag"),
    "--wait": ("wait", "float"),
    "--quiet": ("quiet", "flag"),
    "-q": ("quiet", "flag"),
    "--watch": ("watch", "flag"),
    "--json": ("json", "flag"),
}
# `query` and `vsearch` (cli/vector_cmds.py): the search options they take, read the same way
VECTOR_OPTIONS: dict[str, tuple[str, str]] = {flag: SEARCH_OPTIONS[flag] for flag in
                                              ("-c", "--collection", "-n", "--limit", "--json", "--files", "--md")}
VECTOR_MODES = {"query": "mode=hybrid", "vsearch": "mode=vector"}
_CONVERT = {"int": int, "float": float, "str": str, "list": str}


class _Fallback(Exception):
    """The command line is not one the fast path is sure about; let Typer handle it."""


HELP = ("-h", "--help")
QUERY_COMMANDS = ("search", "vsearch", "query")


def is_dash_word(arg: str, table: dict[str, tuple[str, str]]) -> bool:
    """A query word starting with one '-' (`-backup`, the documented exclusion, or `'-backup cron'`
    quoted whole), not an option: anything but a known short option, `-n5` and `-h`.
    A short option glued to a word (`-cmain`) is therefore a query word: write `-c main`."""
    if not arg.startswith("-") or arg.startswith("--") or arg == "-" or arg in HELP or arg in table:
        return False
    spec = table.get(arg[:2])
    return not (spec is not None and spec[1] == "int" and arg[2:].isdigit())


def query_argv(argv: list[str]) -> list[str]:
    """`search`/`vsearch`/`query` arguments rearranged so click reads dash words as the query:
    options first, then `--` and the words in their order. Other command lines are unchanged."""
    _, rest = _global_config(argv)
    at = len(argv) - len(rest)
    if not rest or rest[0] not in QUERY_COMMANDS:
        return argv
    args = rest[1:]
    options: list[str] = []
    words: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            words.extend(args[i:])
            break
        if is_dash_word(arg, SEARCH_OPTIONS) or not arg.startswith("-") or arg == "-":
            words.append(arg)
            continue
        options.append(arg)
        spec = SEARCH_OPTIONS.get(arg)
        if spec is not None and spec[1] != "flag" and i < len(args):
            options.append(args[i])
            i += 1
    if not any(word.startswith("-") for word in words):
        return argv
    return argv[: at + 1] + options + ["--"] + words


def parse(argv: list[str], table: dict[str, tuple[str, str]],
          dash_words: bool = False) -> tuple[dict[str, object], list[str]]:
    """Options and positionals the way click reads them (interspersed, `--opt=value`, `-n5`, `--`);
    with `dash_words`, a word starting with '-' that is no option is a positional (see is_dash_word)."""
    values: dict[str, object] = {}
    positionals: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            positionals.extend(argv[i:])
            break
        if not arg.startswith("-") or arg == "-" or (dash_words and is_dash_word(arg, table)):
            positionals.append(arg)
            continue
        name, inline = arg, None
        if arg.startswith("--") and "=" in arg:
            name, inline = arg.split("=", 1)
        elif not arg.startswith("--") and len(arg) > 2:
            name, inline = arg[:2], arg[2:]
        spec = table.get(name)
        if spec is None:
            raise _Fallback(arg)
        attr, kind = spec
        if kind == "flag":
            if inline is not None:
                raise _Fallback(arg)
            values[attr] = True
            continue
        if inline is None:
            if i >= len(argv):
                raise _Fallback(arg)
            inline = argv[i]
            i += 1
        try:
            value = _CONVERT[kind](inline)
        except ValueError:
            raise _Fallback(arg) from None
        if kind == "list":
            listed = values.setdefault(attr, [])
            if isinstance(listed, list):  # always: only this line sets a list option
                listed.append(value)
        else:
            values[attr] = value
    return values, positionals


def _global_config(argv: list[str]) -> tuple[str | None, list[str]]:
    """Strip a leading `--config PATH` / `--config=PATH` (the root option)."""
    if argv and argv[0].startswith("--config="):
        return argv[0].split("=", 1)[1], argv[1:]
    if len(argv) >= 2 and argv[0] == "--config":
        return argv[1], argv[2:]
    return None, argv


def read_only(argv: list[str]) -> bool:
    """True for a `search`, `query`, `vsearch` or `get` command line that writes nothing (no `--refresh`)."""
    _, argv = _global_config(argv)
    return bool(argv) and argv[0] in ("search", "get", *VECTOR_MODES) and not any(a.startswith("--refresh") for a in argv)


def try_fast(argv: list[str]) -> int | None:
    """Run `search`, `query`, `vsearch`, `get` or `index` when the command line is plainly
    valid; None means "use Typer"."""
    config_path, argv = _global_config(argv)
    if not argv or argv[0] not in ("search", "get", "index", "update", "query", "vsearch"):
        return None
    from .. import guarded

    if argv[0] in ("index", "update"):
        return _index(config_path, argv[1:])
    try:
        if argv[0] == "search":
            values, words = parse(argv[1:], SEARCH_OPTIONS, dash_words=True)
            return guarded(lambda: search_command(config_path, values, words))
        if argv[0] in VECTOR_MODES:
            # Typer's `query` prints the first of --json/--files/--md given and needs a word
            values, words = parse(argv[1:], VECTOR_OPTIONS, dash_words=True)
            if not words or sum(1 for flag in ("json", "files", "md") if values.get(flag)) > 1:
                return None
            values[VECTOR_MODES[argv[0]]] = True
            return guarded(lambda: search_command(config_path, values, words))
        values, words = parse(argv[1:], GET_OPTIONS)
        if len(words) != 1:
            return None
        get_args = GetArgs()
        get_args.config = config_path
        get_args.spec = words[0]
        collections = values.get("collections", [])
        get_args.collections = collections if isinstance(collections, list) else []
        get_args.json = bool(values.get("json"))
        return guarded(lambda: run_get(get_args))
    except _Fallback:
        return None


def _index(config_path: str | None, argv: list[str]) -> int | None:
    from .. import guarded
    from .indexing import IndexArgs, run_index

    try:
        values, names = parse(argv, INDEX_OPTIONS)
    except _Fallback:
        return None
    wait = values.get("wait")  # a float (its kind) or None
    if values.get("watch") or (isinstance(wait, float) and not 0 <= wait < float("inf")):
        return None
    args = IndexArgs()
    args.config = config_path
    args.names = names or None
    args.full = bool(values.get("full"))
    args.wait = wait if isinstance(wait, float) else None
    args.quiet = bool(values.get("quiet"))
    args.json = bool(values.get("json"))
    return guarded(lambda: run_index(args))


def search_command(config_path: str | None, values: dict[str, object], words: list[str]) -> int:
    """Run a parsed `search` command line (the fast path's or Typer's): `values` by SEARCH's
    field names, `words` the query."""
    from ...engine.answer import SearchRequest

    fields: dict[str, object] = {}
    render: dict[str, object] = {}
    for name, value in values.items():
        if value is None or value is False:
            continue
        field, _, const = name.partition("=")
        (render if field in RENDER else fields)[field] = const or value
    chosen = render.get("format")
    fmt = pick_format(bool(render.get("json")), bool(render.get("files")), bool(render.get("md")),
                      chosen if isinstance(chosen, str) else None)
    # `fields` holds SEARCH's field names (test_search_request keeps them SearchRequest's), each value
    # converted by its kind; mypy cannot match a dict's values to the keyword parameters
    request = SearchRequest(query=" ".join(words), **fields)  # type: ignore[arg-type]
    return run_search(config_path, request, fmt, bool(render.get("full")))
