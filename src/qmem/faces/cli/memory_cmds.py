"""The daily memory commands: boot, remember, flush, state, distill, janitor, maintain, protocol.

Each one resolves the workspace with `qmem.memory.workspace.resolve` (--workspace,
$QMEM_WORKSPACE, `[memory] workspace`, the collection holding the current folder, a MEMORY.md
here; else a one-line refusal), calls one function of qmem.memory and renders its result.
"""

from __future__ import annotations

import os
import sys
from datetime import date
from typing import Annotated, Optional

import typer

from ...base.errors import BadInputError
from .common import emit, warn
from .options import JsonOpt, QuietOpt, finish, load, table

WorkspaceOpt = Annotated[
    Optional[str],
    typer.Option("--workspace", "-w", metavar="DIR",
                 help="Folder holding MEMORY.md and memory/ (default: $QMEM_WORKSPACE, [memory] workspace, the collection holding the current folder, or here if it holds MEMORY.md)."),
]

LogDateOpt = Annotated[Optional[str], typer.Option("--date", metavar="DATE", help="Which daily log (default today).")]
TodayOpt = Annotated[Optional[str], typer.Option("--today", metavar="DATE", help="Pretend today is DATE (YYYY-MM-DD).")]


def _day(value: str | None, name: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise BadInputError(f"bad {name} {value!r}: use YYYY-MM-DD") from None


def _ws(cfg, explicit: str | None):
    from ...memory.workspace import resolve

    return resolve(explicit, cfg)


def boot_cmd(
    ctx: typer.Context,
    workspace: Annotated[Optional[str], typer.Argument(help="Workspace folder (default: see --workspace of other commands).")] = None,
    budget: Annotated[Optional[int], typer.Option("--budget", metavar="TOKENS", min=50, help="Token budget for everything printed (default: [memory] boot_budget, else 1500).")] = None,
    days: Annotated[int, typer.Option("--days", metavar="N", min=0, help="How many of the newest daily logs to include (the last N that exist, however old).")] = 2,
    scope: Annotated[str, typer.Option("--scope", metavar="SCOPE", help="main, or shared (group chats: private memory left out).")] = "main",
    today: TodayOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print what an agent reads at session start: L0, session state, recent daily logs."""
    def action() -> None:
        from .. import render
        from ...memory import boot

        if scope not in ("main", "shared"):
            raise BadInputError(f"unknown scope {scope!r}: use main or shared")
        cfg = load(ctx)
        ws = _ws(cfg, workspace)
        ws.require_memory()
        result = boot.boot(ws, budget=budget or boot.budget_of(table(cfg, "memory")), days=days, scope=scope, today=_day(today, "--today"),
                           memory_config=table(cfg, "memory"), tree_config=table(cfg, "tree"))
        emit(render.to_json(result.to_dict()) if as_json else render.boot_text(result))

    finish(action)


def remember_cmd(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="The fact, one line.")],
    type_: Annotated[Optional[str], typer.Option("--type", "-t", metavar="TYPE", help="P E K B S ! (or profile, event, knowledge, behaviour, skill, security).")] = None,
    priority: Annotated[Optional[str], typer.Option("--priority", "-p", metavar="P", help="P0 permanent, P1 (+90 days), P2 (+30 days).")] = None,
    expire: Annotated[Optional[str], typer.Option("--expire", metavar="DATE", help="Expiry date instead of the priority's default.")] = None,
    ref: Annotated[Optional[str], typer.Option("--ref", metavar="TARGET", help="Cross-reference, e.g. knowledge.md#bsc.")] = None,
    day: LogDateOpt = None,
    replace: Annotated[Optional[str], typer.Option("--replace", metavar="REF", help="Correct this entry instead (path:LINE@ID as remember printed it, or words of it); the old one goes to memory/archive/.")] = None,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Append one typed entry to today's memory/YYYY-MM-DD.md; prints its ref, path:LINE@ID.

    A fact already kept (today's or yesterday's log, a topic file) is not written twice: the
    output names where it is."""
    def action() -> None:
        from .. import render
        from ...memory import daily

        cfg = load(ctx)
        ws = _ws(cfg, workspace)
        if replace is not None:
            from ...memory import forget

            fixed = forget.replace(ws, replace, text, type_=type_, priority=priority, expire=expire, ref=ref)
            _refresh_quietly(cfg, ws, fixed)
            emit(render.to_json(fixed.to_dict()) if as_json else render.replace_text(fixed))
            return
        written = daily.remember(ws, text, type_=type_, priority=priority, expire=expire, ref=ref,
                                 day=_day(day, "--date"))
        if written.duplicate_at:  # nothing written: say where the same fact already is
            emit(render.to_json(written.to_dict()) if as_json else render.duplicate_text(written))
            return
        written.indexed = daily.refresh_written(cfg, [os.path.join(ws.root, written.path)])
        warn([written.indexed] if written.indexed.startswith("not") else [])
        emit(render.to_json(written.to_dict()) if as_json else f"{written.ref}  {written.entry}")

    finish(action)


def flush_cmd(
    ctx: typer.Context,
    source: Annotated[str, typer.Option("--from", metavar="FILE", help="Notes file, or - for stdin (default).")] = "-",
    day: LogDateOpt = None,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Save many notes at once before a context compaction; duplicates are dropped."""
    def action() -> None:
        from .. import render
        from ...memory import daily

        cfg = load(ctx)
        ws = _ws(cfg, workspace)  # before reading the notes: a refusal must not swallow them
        if source == "-":
            text = sys.stdin.read()
        else:
            try:
                with open(source, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError) as exc:
                raise BadInputError(f"{source}: cannot read: {exc}") from None
        report = daily.flush(ws, text, day=_day(day, "--date"))
        if report.kept:
            report.indexed = daily.refresh_written(cfg, [os.path.join(ws.root, report.path)])
        warn([f"line {n} of the batch not saved: {why}" for n, why in report.rejected]
              + ([report.indexed] if report.indexed.startswith("not") else []))
        emit(render.to_json(report.to_dict()) if as_json else render.flush_text(report))

    finish(action)


state_app = typer.Typer(help="SESSION-STATE.md, the working buffer of the current session.",
                        no_args_is_help=True, rich_markup_mode=None)


@state_app.command("show")
def state_show(ctx: typer.Context, workspace: WorkspaceOpt = None, as_json: JsonOpt = False) -> None:
    """Print the session buffer."""
    def action() -> None:
        from .. import render
        from ...memory import state

        ws = _ws(load(ctx), workspace)
        text = state.show(ws)
        emit(render.to_json({"path": ws.rel(ws.session_state), "text": text}) if as_json else (text or "(empty)"))

    finish(action)


@state_app.command("set")
def state_set(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The new buffer, or - to read it from stdin.")],
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Replace the session buffer; the previous one is kept in memory/archive/."""
    def action() -> None:
        from .. import render
        from ...memory import state

        ws = _ws(load(ctx), workspace)
        path, kept = state.set_state(ws, sys.stdin.read() if text == '-' else text)
        if as_json:
            emit(render.to_json({"path": path, "archived": kept}))
        else:
            emit(f"wrote {path}" + (f"; the previous buffer is in {kept}" if kept else ""))

    finish(action)


@state_app.command("append")
def state_append(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="Text to add at the end, or - to read it from stdin.")],
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Add to the session buffer instead of replacing it."""
    def action() -> None:
        from .. import render
        from ...memory import state

        ws = _ws(load(ctx), workspace)
        path, line = state.append(ws, sys.stdin.read() if text == '-' else text)
        emit(render.to_json({"path": path, "line": line}) if as_json else f"{path}:{line}")

    finish(action)


@state_app.command("clear")
def state_clear(ctx: typer.Context, workspace: WorkspaceOpt = None, as_json: JsonOpt = False) -> None:
    """Empty the session buffer; the old text is moved to memory/archive/."""
    def action() -> None:
        from .. import render
        from ...memory import state

        moved = state.clear(_ws(load(ctx), workspace))
        if as_json:
            emit(render.to_json({"archived": moved}))
        else:
            emit(f"cleared; the old buffer is in {moved}" if moved else "cleared (it was empty)")

    finish(action)


def forget_cmd(
    ctx: typer.Context,
    what: Annotated[str, typer.Argument(metavar="ENTRY", help="path:LINE@ID as remember printed it, or words of the entry.")],
    all_matches: Annotated[bool, typer.Option("--all", help="Forget every entry that matches, not just one.")] = False,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Move a remembered entry to memory/archive/ (never deleted) and refresh the index."""
    def action() -> None:
        from .. import render
        from ...memory import forget

        cfg = load(ctx)
        ws = _ws(cfg, workspace)
        result = forget.forget(ws, what, all_matches=all_matches)
        _refresh_quietly(cfg, ws, result)
        emit(render.to_json(result.to_dict()) if as_json else render.forget_text(result))

    finish(action)


def _refresh_quietly(cfg, ws, result) -> None:
    """Re-index the files forget/replace touched (never waits), so search sees the change at once."""
    from ...memory import daily

    paths = sorted({os.path.join(ws.root, f.path) for f in result.forgotten} | {os.path.join(ws.root, result.archive)})
    note = daily.refresh_written(cfg, paths)
    warn([note] if note.startswith("not") else [])


def distill_cmd(
    ctx: typer.Context,
    days: Annotated[int, typer.Option("--days", metavar="N", min=1, help="Daily logs to read.")] = 3,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")] = False,
    today: TodayOpt = None,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Copy typed entries of recent daily logs into topic files, merging duplicates."""
    def action() -> None:
        from .. import render
        from ...memory import distill

        cfg = load(ctx)
        report = distill.distill(_ws(cfg, workspace), days=days, today=_day(today, "--today"), dry_run=dry_run,
                                 memory_config=table(cfg, "memory"), config_file=cfg.file)
        warn(report.warnings)
        emit(render.to_json(report.to_dict()) if as_json else render.distill_text(report))

    finish(action)


def janitor_cmd(
    ctx: typer.Context,
    today: TodayOpt = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would move; write nothing.")] = False,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Move expired [P1|expire:…]/[P2|expire:…] entries and sections to memory/archive/."""
    def action() -> None:
        from .. import render
        from ...memory import janitor

        ws = _ws(load(ctx), workspace)
        report = janitor.janitor(ws, today=_day(today, "--today"), dry_run=dry_run)
        warn(report.problems)
        emit(render.to_json(report.to_dict()) if as_json else render.janitor_text(report))

    finish(action)


def maintain_cmd(
    ctx: typer.Context,
    today: TodayOpt = None,
    workspace: WorkspaceOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """For cron: janitor → distill → tree reindex (if a tree) → index refresh."""
    def action() -> None:
        from .. import render
        from ...memory import maintain

        cfg = load(ctx)
        report = maintain.maintain(_ws(cfg, workspace), cfg, today=_day(today, "--today"))
        warn(report.warnings)
        if as_json:
            emit(render.to_json(report.to_dict()))
        elif not quiet:
            emit(render.maintain_text(report))

    finish(action)


def protocol_cmd(
    ctx: typer.Context,
    skill: Annotated[bool, typer.Option("--skill", help="As a SKILL.md (OpenClaw / AgentSkills skill folder).")] = False,
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the memory protocol to paste into the agent's AGENTS.md (or a SKILL.md).

    Its commands name the workspace (-w DIR), so they work wherever the agent's shell runs."""
    def action() -> None:
        from .. import render
        from ...memory.protocol import protocol
        from ...memory.protocol import skill as skill_text

        root = _ws(load(ctx), workspace).root
        text = skill_text(root) if skill else protocol(root)
        emit(render.to_json({"text": text}) if as_json else text)

    finish(action)


def register(app: typer.Typer) -> None:
    app.command("boot")(boot_cmd)
    app.command("remember")(remember_cmd)
    app.command("forget")(forget_cmd)
    app.command("flush")(flush_cmd)
    app.add_typer(state_app, name="state")
    app.command("distill")(distill_cmd)
    app.command("janitor")(janitor_cmd)
    app.command("maintain")(maintain_cmd)
    app.command("protocol")(protocol_cmd)
