"""`qmem tree …`: the Typer face of the bonsai tree (qmem.memory.tree.grow)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import emit, warn
from .memory_cmds import WorkspaceOpt, _ws
from .options import JsonOpt, finish, load, table

tree_app = typer.Typer(
    help="Restructure MEMORY.md into a domain tree an agent boots from in a few hundred tokens.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

WorkspaceArg = Annotated[Optional[str], typer.Argument(help="Folder holding MEMORY.md and memory/ (default: as --workspace of the memory commands).")]
BudgetOpt = Annotated[Optional[int], typer.Option("--root-budget", metavar="TOKENS", min=50, help="Token budget of the root index (default: 400, or 7% of a smaller MEMORY.md, at least 120). A budget too small for the domain names is refused.")]


def _tree(ctx: typer.Context, as_json: bool, operation) -> None:
    def action() -> None:
        from .. import render
        from ...memory.tree import grow as tree

        cfg = load(ctx)
        result = operation(tree, cfg)
        if result.changed:
            tree.refresh_collections(cfg, tree.Workspace(result.workspace), result)
        warn(result.warnings)
        emit(render.to_json(result.to_dict()) if as_json else render.tree_text(result))

    finish(action)


@tree_app.command("migrate")
def tree_migrate(
    ctx: typer.Context,
    workspace: WorkspaceArg = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Restructure even a MEMORY.md under --min-tokens.")] = False,
    min_tokens: Annotated[int, typer.Option("--min-tokens", metavar="TOKENS", min=0, help="Refuse smaller files.")] = 1000,
    root_budget: BudgetOpt = None,
    explain: Annotated[bool, typer.Option("--explain", help="Show each section's domain and the evidence that chose it, and the [tree] settings used.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Split MEMORY.md into memory/domains/<domain>/<leaf>.md with branch and root indexes."""
    _tree(ctx, as_json, lambda tree, cfg: tree.migrate(
        _ws(cfg, workspace), table(cfg, "tree"), dry_run=dry_run, force=force, min_tokens=min_tokens,
        root_budget=root_budget, config_file=cfg.file, explain=explain))


@tree_app.command("reindex")
def tree_reindex(
    ctx: typer.Context,
    workspace: WorkspaceArg = None,
    root_budget: BudgetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Regenerate the _index.md files and the root from the leaves on disk; never moves leaves.

    Sections appended to MEMORY.md since are moved into new leaves (named in the output)."""
    _tree(ctx, as_json, lambda tree, cfg: tree.reindex(_ws(cfg, workspace), root_budget=root_budget,
                                                       tree_config=table(cfg, "tree"), config_file=cfg.file))


@tree_app.command("rollback")
def tree_rollback(
    ctx: typer.Context,
    workspace: WorkspaceArg = None,
    force: Annotated[bool, typer.Option("--force", help="Roll back even if the root or leaves were edited or files added (they go to memory/rescue-*/).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Restore the original MEMORY.md byte for byte; remove only what migrate created."""
    _tree(ctx, as_json, lambda tree, cfg: tree.rollback(_ws(cfg, workspace), force=force))


@tree_app.command("move")
def tree_move(
    ctx: typer.Context,
    leaf: Annotated[str, typer.Argument(metavar="LEAF", help="A leaf's path (memory/domains/<domain>/<leaf>.md, or <domain>/<leaf>.md) or its section's heading.")],
    domain: Annotated[str, typer.Argument(metavar="DOMAIN", help="The domain to file it in: a known one, or a new one written as a slug (my-garden).")],
    workspace: WorkspaceOpt = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show where it would go; write nothing.")] = False,
    no_record: Annotated[bool, typer.Option("--no-record", help="Leave [tree.place] in the config as it is (a migrate after a rollback files the section by its cues again).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Move a leaf (a split section's folder with it) to another domain, reindex, and record it in [tree.place].

    Never deletes or overwrites: a name the domain holds gets -2. tree rollback still restores the original.
    The config gets [tree.place] "Heading" = "domain" (other lines kept) so a re-migrate files it there too."""
    def operation(_tree, cfg):
        from ...memory.tree import move

        return move.move(_ws(cfg, workspace), leaf, domain, dry_run=dry_run, tree_config=table(cfg, "tree"),
                         config_file=cfg.file, record=not no_record)

    _tree(ctx, as_json, operation)


@tree_app.command("review")
def tree_review(
    ctx: typer.Context,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the leaves whose placement was weak, their best alternatives and the tree move for each.

    Weak: no clear domain, heading words only, a vague heading, or a close call. Reads only."""
    def action() -> None:
        from .. import render
        from ...memory.tree import review

        cfg = load(ctx)
        result = review.review(_ws(cfg, workspace), table(cfg, "tree"), cfg.file)
        emit(render.to_json(result.to_dict()) if as_json else render.review_text(result))

    finish(action)


@tree_app.command("stats")
def tree_stats(ctx: typer.Context, workspace: WorkspaceArg = None, as_json: JsonOpt = False) -> None:
    """Boot tokens before → after, files and tokens per domain, the costliest read, leaves too big."""
    _tree(ctx, as_json, lambda tree, cfg: tree.stats(_ws(cfg, workspace), table(cfg, "tree")))
