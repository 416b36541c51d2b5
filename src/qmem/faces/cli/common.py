"""What every command face shares, without importing Typer: messages, colour, progress, and
the search/get runners that both the Typer commands and the start-up fast
path call, so the two can never drift apart in behaviour.
"""

from __future__ import annotations

import os
import sys
import time

from ...base.errors import BadInputError, brief

FORMATS = ("text", "json", "files", "md", "openclaw")


def err(message: str) -> None:
    sys.stderr.write(f"qmem: {message}\n")


def warn(lines: list[str]) -> None:
    """One `qmem: warning: …` line on stderr per entry (the library returns warnings, the face prints them)."""
    for line in lines:
        sys.stderr.write(f"qmem: warning: {line}\n")


def use_color(stream: object = None) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def emit(text: str) -> None:
    if text:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


class ProgressLine:
    """A one-line progress display on a TTY stderr, shown only once work passes one second."""

    def __init__(self, label: str, delay: float = 1.0) -> None:
        self.label = label
        self.started = time.monotonic()
        self.delay = delay
        self.enabled = bool(getattr(sys.stderr, "isatty", lambda: False)())
        self.shown = False
        self.last = 0.0

    def __call__(self, done: int, total: int, item: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        self.shown = True
        width = 24
        filled = int(width * done / max(total, 1))
        eta = (now - self.started) / max(done, 1) * (total - done)
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} ~{eta:.0f}s ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


class SearchArgs:
    """A parsed `qmem search` command line."""

    __slots__ = ("config", "query", "collections", "limit", "fmt", "full", "min_score", "types", "since", "until", "path",
                 "refresh", "hybrid", "vector_only", "now", "when", "recency", "explain", "budget", "exact")

    def __init__(self) -> None:
        self.config: str | None = None
        self.query: list[str] = []
        self.collections: list[str] = []
        self.limit: int | None = None
        self.fmt = "text"
        self.full = False
        self.min_score: float | None = None
        self.types: list[str] = []
        self.since: str | None = None
        self.until: str | None = None
        self.path: str | None = None
        self.refresh = False
        self.hybrid = False
        self.vector_only = False
        self.now: str | None = None
        self.when: str | None = None
        self.recency: float | None = None
        self.explain = False
        self.budget: int | None = None
        self.exact = False


def pick_format(json_: bool, files: bool, md: bool, fmt: str | None) -> str:
    chosen = [name for name, on in (("json", json_), ("files", files), ("md", md)) if on]
    if fmt:
        if fmt not in FORMATS:
            raise BadInputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        chosen.append(fmt)
    if len(set(chosen)) > 1:
        raise BadInputError("choose one output format: --json, --files, --md or --format")
    return chosen[0] if chosen else "text"


def run_search(args: SearchArgs) -> int:
    from ...base import config
    from ...engine import search
    from ...base.errors import IndexCorruptError, IndexMissingError

    cfg = config.load(args.config, required=args.config is not None)
    if not cfg.collections:
        raise BadInputError("no collections yet: qmem collection create NAME PATH")
    text = " ".join(args.query).strip()
    options = search.SearchOptions(
        collections=args.collections,
        limit=args.limit if args.limit is not None else cfg.limit,
        types=args.types,
        since=args.since,
        until=args.until,
        path=args.path,
        min_score=args.min_score,
        snippet_lines=max(1, cfg.snippet_lines),  # --files reports the best line too
        now=args.now,
        when=args.when,
        recency=args.recency,
        explain=args.explain,
        budget=args.budget,
        exact=args.exact,
    )
    if args.budget is not None and args.budget < 1:
        raise BadInputError("--budget must be at least 1 token")
    if args.recency is not None and not (0 < args.recency < 1e6):
        raise BadInputError("--recency is a half-life in days, above 0")
    if args.budget and args.limit is None:
        options.limit = max(options.limit, search.BUDGET_POOL)  # the budget decides how many
    search.check_limit(options.limit)
    if not text and not (options.types or options.since or options.until or options.path or options.when):
        raise BadInputError("give a query, or a filter (--type, --since, --until, --when, --path) to list sections")
    if args.refresh:
        from ...engine.catalog import refresh_if_stale

        note = refresh_if_stale(cfg, args.collections)
        if note:
            err(note)
    def run() -> list:
        if args.hybrid or args.vector_only:
            return _vector_hits(cfg, text, options, args.hybrid)
        return search.search(cfg, text, options)

    try:
        hits = run()
    except IndexMissingError:
        build_missing_index(cfg)
        hits = run()
    except IndexCorruptError as exc:
        rebuild_damaged_index(cfg, exc)
        hits = run()
    if not hits:
        from ...base.layout import first_build_running

        if first_build_running(cfg.data_dir, list(cfg.collections)):  # nothing committed yet: say so
            raise _first_build_busy()
    for name in search.never_indexed(cfg, args.collections):
        err(f"warning: collection {name} was never indexed, nothing in it was searched: qmem index {name}")
    from .. import render

    if not hits and text and args.fmt in ("json", "openclaw", "text"):
        reason = search.empty_reason(cfg, text, options)
        if args.fmt == "openclaw":
            emit(render.to_json({"results": [], "empty_reason": reason}))
            return 0
        err(f"no matches for {brief(text)}: {reason}")
        if args.fmt == "text":
            return 0
    if args.fmt == "json":
        emit(render.hits_json(hits, args.full))
    elif args.fmt == "files":
        emit(render.hits_files(hits))
    elif args.fmt == "md":
        emit(render.hits_markdown(hits, args.full))
    elif args.fmt == "openclaw":
        emit(render.hits_openclaw(hits))
    elif hits:
        emit(render.hits_text(hits, use_color(), args.full, args.explain))
    else:
        err(f"no matches for {brief(text)}" if text else "no matching sections")
    return 0


def _vector_hits(cfg: object, text: str, options: object, hybrid: bool) -> list:
    """vsearch / query: the model the collections were embedded with, loaded on demand."""
    from ...engine import hybrid as hybrid_mod

    model = hybrid_mod.model_for(cfg, options.collections)  # type: ignore[arg-type, attr-defined]
    run = hybrid_mod.hybrid if hybrid else hybrid_mod.vsearch
    return run(cfg, text, options, model)  # type: ignore[arg-type]


def _first_build_busy() -> Exception:
    from ...base.errors import IndexBusyError

    return IndexBusyError("the first index build is running in another qmem process; search again when it ends")


def build_missing_index(cfg: object) -> None:
    """First search after install or a schema change: build the index, say so on stderr.
    When another process is already building it, say so at once instead of waiting for it."""
    from ...base.layout import first_build_running
    from ...base.layout import stale_versions
    from ...engine.sync import claim_data_dir, refresh

    if first_build_running(cfg.data_dir, list(cfg.collections)):  # type: ignore[attr-defined]
        raise _first_build_busy()
    claim_data_dir(cfg)  # type: ignore[arg-type]  # a data folder that cannot be used: one line, before any other
    old = stale_versions(cfg.data_dir)  # type: ignore[attr-defined]
    if old:
        err(f"the index format changed ({', '.join(old)} → current); rebuilding it once")
    else:
        err("no index yet; building it now (qmem index)")
    from ...base.errors import IndexBusyError

    progress = ProgressLine("indexing")
    timeout, cfg.lock_timeout = cfg.lock_timeout, min(cfg.lock_timeout, 0.2)  # type: ignore[attr-defined]
    try:
        report = refresh(cfg, progress=progress)  # type: ignore[arg-type]
    except IndexBusyError:
        raise _first_build_busy() from None  # another process started it a moment ago
    finally:
        cfg.lock_timeout = timeout  # type: ignore[attr-defined]
        progress.close()
    if report.adopted_from:
        err(f"reused {', '.join(report.adopted)} from the shared folder of an older qmem ({report.adopted_from}, left in place)")


def rebuild_damaged_index(cfg: object, problem: Exception) -> None:
    """A search found the index unreadable: rebuild it from the Markdown files (a cache),
    one warning line on stderr."""
    from ...engine.sync import refresh

    err(f"warning: {problem}; rebuilding it from the Markdown files")
    progress = ProgressLine("rebuilding")
    try:
        refresh(cfg, progress=progress, damaged=str(problem))  # type: ignore[arg-type]
    finally:
        progress.close()


class IndexArgs:
    """A parsed `qmem index` command line (without --watch)."""

    __slots__ = ("config", "names", "full", "wait", "quiet", "json")

    def __init__(self) -> None:
        self.config: str | None = None
        self.names: list[str] | None = None
        self.full = False
        self.wait: float | None = None
        self.quiet = False
        self.json = False


def warn_refresh(report) -> None:  # qmem.engine.sync.RefreshReport
    """What a refresh healed, adopted or skipped, on stderr."""
    if report.healed:
        sys.stderr.write(f"qmem: warning: the index was damaged ({report.healed}); rebuilt it from the Markdown files\n")
    if report.adopted_from:
        sys.stderr.write(f"qmem: reused {', '.join(report.adopted)} from the shared folder of an older qmem "
                         f"({report.adopted_from}, left in place)\n")
    for c in report.collections:
        for warning in c.warnings:
            sys.stderr.write(f"qmem: warning: {c.name}: {warning}\n")


def embed_after(cfg, names: list[str] | None) -> list:
    """Collections with `embed = true` get their new sections embedded after the refresh."""
    if not any(c.embed for c in cfg.select(names)):
        return []
    from ...vector import store

    return store.embed_enabled(cfg, names)


def run_index(args: IndexArgs) -> int:
    from ...base import config
    from ...engine import sync

    cfg = config.load(args.config, required=args.config is not None)
    if not cfg.collections:
        raise BadInputError(f"no collections to index in {cfg.file}: qmem collection create NAME PATH")
    if args.wait is not None:
        cfg.lock_timeout = args.wait
    progress = ProgressLine("indexing")
    try:
        report = sync.refresh(cfg, args.names, full=args.full, progress=None if args.quiet or args.json else progress)
    finally:
        progress.close()
    warn_refresh(report)
    embedded = embed_after(cfg, args.names)
    if args.quiet and not args.json:
        return 0
    from .. import render

    if args.json:
        emit(render.to_json({**report.to_dict(), "embedded": [e.to_dict() for e in embedded]}
                            if embedded else report.to_dict()))
    else:
        emit(render.refresh_text(report))
        for e in embedded:
            emit(f"{e.collection}: embedded {e.embedded} new sections ({e.reused} unchanged)")
    return 0


class GetArgs:
    __slots__ = ("config", "spec", "collections", "json")

    def __init__(self) -> None:
        self.config: str | None = None
        self.spec = ""
        self.collections: list[str] = []
        self.json = False


def run_get(args: GetArgs) -> int:
    from ...base import config
    from .. import render
    from ...engine import retrieve

    cfg = config.load(args.config, required=args.config is not None)
    excerpt = retrieve.get(cfg, args.spec, args.collections)
    emit(render.excerpt_json(excerpt) if args.json else render.excerpt_text(excerpt, use_color()))
    return 0
