"""`qmem collection …`: the Typer face of the collection catalog (qmem.engine.catalog): create, add,
list, show, remove and rename collections."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import ProgressLine, emit
from .indexing import warn_refresh
from .options import JsonOpt, finish, load

collection_app = typer.Typer(
    help="Create, list, show, remove and rename collections (folders of Markdown files).",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def _create(ctx: typer.Context, name: str, path: str, patterns: list[str] | None, exclude: list[str] | None,
            description: str, no_index: bool, as_json: bool) -> None:
    def action() -> None:
        from ...engine import catalog
        from .. import render

        cfg = load(ctx, creates=True)
        progress = ProgressLine(f"indexing {name}")
        try:
            coll, report = catalog.create(cfg, name, path, patterns, exclude, description, not no_index, progress)
        finally:
            progress.close()
        if as_json:
            emit(render.to_json({"collection": coll.to_dict(), "refresh": report.to_dict() if report else None}))
            return
        emit(f"created collection {coll.name}: {coll.path} [{', '.join(coll.patterns)}]")
        if report:
            warn_refresh(report)
            emit(render.refresh_text(report))
        else:
            emit(f"not indexed yet: qmem index {coll.name}")

    finish(action)


PatternOpt = Annotated[
    Optional[list[str]],
    typer.Option("--pattern", "-p", metavar="GLOB", help="Glob of files to index, relative to PATH (repeatable). "
                 "Default: MEMORY.md and memory/**/*.md."),
]
ExcludeOpt = Annotated[Optional[list[str]], typer.Option("--exclude", "-x", metavar="GLOB", help="Glob to leave out (repeatable).")]
DescriptionOpt = Annotated[str, typer.Option("--description", "-d", metavar="TEXT", help="What this collection holds.")]
NoIndexOpt = Annotated[bool, typer.Option("--no-index", help="Only add to the config; index later.")]


@collection_app.command("create")
def collection_create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Collection name: letters, digits, '.', '_' or '-'.")],
    path: Annotated[str, typer.Argument(help="Root folder (stored absolute, ~ expanded).")],
    pattern: PatternOpt = None,
    exclude: ExcludeOpt = None,
    description: DescriptionOpt = "",
    no_index: NoIndexOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add a collection and index it at once."""
    _create(ctx, name, path, pattern, exclude, description, no_index, as_json)


@collection_app.command("add")
def collection_add(
    ctx: typer.Context,
    path: Annotated[str, typer.Argument(help="Root folder.")],
    name: Annotated[str, typer.Option("--name", metavar="NAME", help="Collection name.")],
    mask: Annotated[Optional[str], typer.Option("--mask", metavar="GLOB", help="Glob of files to index (qmd's spelling of --pattern).")] = None,
    pattern: PatternOpt = None,
    exclude: ExcludeOpt = None,
    description: DescriptionOpt = "",
    no_index: NoIndexOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Same as `create`, with qmd's argument order: PATH --name NAME --mask GLOB."""
    patterns = ([mask] if mask else []) + list(pattern or [])
    _create(ctx, name, path, patterns or None, exclude, description, no_index, as_json)


@collection_app.command("list")
def collection_list(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List collections with their roots, patterns and index counts."""
    def action() -> None:
        from ...engine import catalog
        from .. import render

        cfg = load(ctx)
        statuses = catalog.overview(cfg)
        emit(render.to_json([st.to_dict() for st in statuses]) if as_json else render.collections_text(statuses))

    finish(action)


@collection_app.command("show")
def collection_show(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Collection name.")],
    as_json: JsonOpt = False,
) -> None:
    """Show one collection: root, patterns, counts, last refresh, stale files."""
    def action() -> None:
        from ...engine import catalog
        from .. import render

        cfg = load(ctx)
        st = catalog.status(cfg, [name]).collections[0]
        emit(render.to_json(st.to_dict()) if as_json else render.collection_text(st))

    finish(action)


@collection_app.command("remove")
def collection_remove(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Collection name.")],
    as_json: JsonOpt = False,
) -> None:
    """Remove a collection from the config and the index. Its files are not touched."""
    def action() -> None:
        from ...engine import catalog
        from .. import render

        coll, report = catalog.remove(load(ctx), name)
        if as_json:
            emit(render.to_json({"removed": coll.to_dict(), "refresh": report.to_dict()}))
        else:
            emit(f"removed collection {coll.name}; its files in {coll.path} are untouched")

    finish(action)


@collection_app.command("rename")
def collection_rename(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(help="Current name.")],
    new: Annotated[str, typer.Argument(help="New name.")],
    as_json: JsonOpt = False,
) -> None:
    """Rename a collection (re-indexes it under the new name)."""
    def action() -> None:
        from ...engine import catalog
        from .. import render

        coll, report = catalog.rename(load(ctx), old, new)
        if as_json:
            emit(render.to_json({"collection": coll.to_dict(), "refresh": report.to_dict()}))
        else:
            emit(f"renamed collection {old} → {coll.name}")
            warn_refresh(report)

    finish(action)
