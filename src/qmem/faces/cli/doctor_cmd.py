"""`qmem doctor`: the Typer face of qmem.faces.doctor (checks live there; this only renders)."""

from __future__ import annotations

import typer

from .common import emit
from .memory_cmds import WorkspaceOpt
from .options import JsonOpt, QuietOpt, config_path, finish



def doctor_cmd(
    ctx: typer.Context,
    workspace: WorkspaceOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Check config, roots, index, stale files, data folders, boot budget, vectors and leftovers."""
    def action() -> int:
        from .. import render
        from ..doctor import doctor

        report = doctor(config_path(ctx), workspace)
        if as_json:
            emit(render.to_json(report.to_dict()))
        else:
            emit(render.doctor_text(report, quiet))
        return 0 if report.ok else 1

    finish(action)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor_cmd)

