"""What every command face shares, without importing Typer: messages, colour, progress, and
the search/get runners that both the Typer commands and the start-up fast
path call, so the two can never drift apart in behaviour.
"""

from __future__ import annotations

import os
import sys
import time

from ...base.errors import BadInputError, brief

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from ...engine.answer import SearchRequest

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


def pick_format(json_: bool, files: bool, md: bool, fmt: str | None) -> str:
    chosen = [name for name, on in (("json", json_), ("files", files), ("md", md)) if on]
    if fmt:
        if fmt not in FORMATS:
            raise BadInputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        chosen.append(fmt)
    if len(set(chosen)) > 1:
        raise BadInputError("choose one output format: --json, --files, --md or --format")
    return chosen[0] if chosen else "text"


def run_search(config_path: str | None, request: SearchRequest, fmt: str, full: bool = False) -> int:
    """Answer a search request (engine/answer.py decides everything) and print it in `fmt`;
    what the answer says on the way (a rebuild, a mode it could not use, collections never
    indexed, why nothing was found) goes to stderr."""
    from ...base import config
    from ...engine.answer import answer

    cfg = config.load(config_path, required=config_path is not None)
    found = answer(cfg, request, say=err, progress=ProgressLine)
    warn([found.note] if found.note else [])
    warn(found.warnings)
    hits = found.hits
    text = request.query.strip()
    from .. import render

    if not hits and found.empty_reason and fmt in ("json", "openclaw", "text"):
        if fmt == "openclaw":
            emit(render.startup_json({"results": [], "empty_reason": found.empty_reason}))
            return 0
        err(f"no matches for {brief(text)}: {found.empty_reason}")
        if fmt == "text":
            return 0
    if fmt == "json":
        emit(render.hits_json(hits, full))
    elif fmt == "files":
        emit(render.hits_files(hits))
    elif fmt == "md":
        emit(render.hits_markdown(hits, full))
    elif fmt == "openclaw":
        emit(render.hits_openclaw(hits))
    elif hits:
        emit(render.hits_text(hits, use_color(), full, request.explain))
    else:
        err(f"no matches for {brief(text)}" if text else "no matching sections")
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
