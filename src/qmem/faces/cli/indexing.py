"""`qmem index` (the fast path's and Typer's) and what other refreshing commands print of a
refresh. Apart from common.py so that a cold search does not load it."""

from __future__ import annotations

import sys

from ...base.errors import BadInputError
from .common import ProgressLine, emit


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
        emit(render.startup_json({**report.to_dict(), "embedded": [e.to_dict() for e in embedded]}
                                 if embedded else report.to_dict()))  # the fast path: no JSON library
    else:
        emit(render.refresh_text(report))
        for e in embedded:
            emit(f"{e.collection}: embedded {e.embedded} new sections ({e.reused} unchanged)")
    return 0
