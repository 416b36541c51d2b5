"""Typer pieces every command module shares: common options, config loading, exit codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Optional

import typer

from .. import guarded

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
QUIET_HELP = "Print nothing unless something is wrong (--json still prints)."
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)]
CollectionsOpt = Annotated[
    Optional[list[str]], typer.Option("-c", "--collection", metavar="NAME", help="Limit to this collection (repeatable).")
]


def finish(action: Callable[[], int | None]) -> None:
    """Run the command body; a failure becomes one line on stderr and the exit code."""
    code = guarded(action)
    if code:
        raise typer.Exit(code)


def config_path(ctx: typer.Context) -> str | None:
    root = ctx.find_root()
    return root.obj if isinstance(root.obj, str) else None


def load(ctx: typer.Context, creates: bool = False):  # returns qmem.base.config.Config
    """The config; a `--config FILE` that does not exist is an error, except for the commands
    that write one (`creates`: collection create/add)."""
    from ...base import config

    path = config_path(ctx)
    return config.load(path, required=path is not None and not creates)


def table(cfg, name: str) -> dict:
    """A config table owned by the memory layer ([tree], [memory]), {} when absent."""
    return cfg.table(name)
