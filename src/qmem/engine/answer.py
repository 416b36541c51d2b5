"""One search behind every face: a `SearchRequest` in, an `Answer` out.

The CLI (the start-up fast path and Typer), the MCP server, `qmem-qmd` and `qmem eval` parse
their own arguments into a SearchRequest, call `answer` and render what it returns; nothing
about a search is decided in a face. `answer`:
- validates the request (a query or a filter, the result count, --budget, --recency);
- picks the mode: `bm25`, or `vector` / `hybrid` when the vector tier is installed and the
  collections have vectors. Otherwise it answers with BM25 and `Answer.note` says why: one
  rule for every face (a tool configured for qmd's `query` gets answers, and is told);
- heals the index through typed errors: none yet (IndexMissingError) → build it; damaged
  (IndexCorruptError) → rebuild it from the Markdown, each said once through `say`. A first
  build running in another process is IndexBusyError at once (nothing is committed to search);
- names the collections never indexed and explains an empty answer (`Answer.empty_reason`).

Imported on every search, so it holds only what every search runs: the vector and hybrid modes
(`modes.py`, with the Session long-lived faces keep) and the healing (`healing.py`) load only
when a request needs them (a module costs a cold search ~0.4M instructions, about 0.5%).
"""

from __future__ import annotations

from ..base.errors import BadInputError, IndexCorruptError, IndexMissingError
from . import search as search_mod

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from ..base.config import Config
    from .healing import Progress, Say
    from .hits import Hit
    from .modes import Session

MODES = ("bm25", "vector", "hybrid")


class SearchRequest:
    """What a face asks for, field by field (keyword parameters: a misspelt one is a TypeError).

    `__slots__` is the one field list. The CLI's option table (cli/fast.py SEARCH, from which
    the fast path's parser and Typer's `search` options are built), the MCP tool's parameters
    (faces/mcp.py SEARCH_PARAMS: its schema takes these annotations and defaults) and the
    engine's `SearchOptions` name these fields;
    tests/faces/test_search_request.py fails when one drifts. `limit` None is the config's
    `[search] limit`; `snippet_lines` None its `snippet_lines` (0: no snippets, for scoring)."""

    __slots__ = ("query", "collections", "limit", "types", "since", "until", "path", "min_score", "now", "when",
                 "recency", "explain", "budget", "exact", "refresh", "mode", "snippet_lines")

    def __init__(self, *, query: str = "", collections: list[str] | None = None, limit: int | None = None,
                 types: list[str] | None = None, since: str | None = None, until: str | None = None,
                 path: str | None = None, min_score: float | None = None, now: str | None = None,
                 when: str | None = None, recency: float | None = None, explain: bool = False,
                 budget: int | None = None, exact: bool = False, refresh: bool = False, mode: str = "bm25",
                 snippet_lines: int | None = None) -> None:
        self.query = query
        self.collections = list(collections or [])
        self.limit = limit
        self.types = list(types or [])
        self.since = since  # YYYY-MM-DD, today, yesterday or Nd
        self.until = until
        self.path = path  # a glob on the path inside the collection
        self.min_score = min_score
        self.now = now  # the day relative dates count from (YYYY-MM-DD; default today)
        self.when = when  # "last week", "5月2日": only sections of these days
        self.recency = recency  # half-life in days of a prior for recent dated sections
        self.explain = explain
        self.budget = budget  # LLM tokens the hits may take (instead of a count)
        self.exact = exact  # each "quoted phrase" must appear (else it only ranks higher)
        self.refresh = refresh  # refresh stale collections first
        self.mode = mode  # bm25, vector or hybrid
        self.snippet_lines = snippet_lines


class Answer:
    """The hits, the mode that found them, why that is not the mode asked for ("" when it is),
    warnings for the person, and why nothing was found ("" when something was)."""

    __slots__ = ("hits", "mode", "note", "warnings", "empty_reason")

    def __init__(self, hits: list[Hit], mode: str, note: str = "", warnings: list[str] | None = None,
                 empty_reason: str = "") -> None:
        self.hits = hits
        self.mode = mode
        self.note = note
        self.warnings = warnings or []
        self.empty_reason = empty_reason


def answer(cfg: Config, request: SearchRequest, *, session: Session | None = None,
           say: Say | None = None, progress: Progress | None = None) -> Answer:
    """Search as `request` asks, healing the index on the way (see the module docstring).

    `say(line)` hears what is done before it is done (a rebuild, a refresh); `progress(label)`
    gives a progress callback (with `close()`) for a long build. Both may be None."""
    options = search_options(cfg, request)
    text = request.query.strip()
    if request.refresh:
        from .catalog import refresh_if_stale

        stale = refresh_if_stale(cfg, request.collections)
        if stale and say:
            say(stale)
    searcher = session.open_searcher(cfg) if session else None
    if request.mode == "bm25":
        def run() -> list[Hit]:
            return search_mod.search(cfg, text, options, searcher)

        mode, note = "bm25", ""
    else:
        from .modes import pick

        run, mode, note = pick(cfg, text, options, request.mode, session, searcher)
    try:
        hits = run()
    except IndexMissingError:
        from .healing import build_missing_index

        build_missing_index(cfg, say, progress)
        hits = run()
    except IndexCorruptError as exc:
        from .healing import rebuild_damaged_index

        rebuild_damaged_index(cfg, exc, say, progress)
        hits = run()
    if not hits:
        from ..base.layout import first_build_running

        if first_build_running(cfg.data_dir, list(cfg.collections)):  # nothing committed yet: say so
            from .healing import first_build_busy

            raise first_build_busy()
    warnings = [f"collection {name} was never indexed, nothing in it was searched: qmem index {name}"
                for name in search_mod.never_indexed(cfg, request.collections)]
    reason = search_mod.empty_reason(cfg, text, options, searcher) if not hits and text else ""
    return Answer(hits, mode, note, warnings, reason)


# What the ranked search takes as it is; `limit` and `snippet_lines` come from the config when None.
_PASSED = tuple(name for name in search_mod.SearchOptions.__slots__ if name not in ("limit", "snippet_lines"))


def search_options(cfg: Config, request: SearchRequest) -> search_mod.SearchOptions:
    """The request checked and completed from the config (BadInputError names what is wrong)."""
    if not cfg.collections:
        raise BadInputError("no collections yet: qmem collection create NAME PATH")
    if request.mode not in MODES:
        raise BadInputError(f"unknown mode {request.mode!r}: use {', '.join(MODES)}")
    options = search_mod.SearchOptions(**{name: getattr(request, name) for name in _PASSED})
    options.limit = request.limit if request.limit is not None else cfg.limit
    options.snippet_lines = cfg.snippet_lines if request.snippet_lines is None else request.snippet_lines
    if request.budget is not None and request.budget < 1:
        raise BadInputError("--budget must be at least 1 token")
    if request.recency is not None and not (0 < request.recency < 1e6):
        raise BadInputError("--recency is a half-life in days, above 0")
    if request.budget and request.limit is None:
        options.limit = max(options.limit, search_mod.BUDGET_POOL)  # the budget decides how many
    search_mod.check_limit(options.limit)
    if not request.query.strip() and not (request.types or request.since or request.until or request.path
                                          or request.when):
        raise BadInputError("give a query, or a filter (--type, --since, --until, --when, --path) to list sections")
    return options
