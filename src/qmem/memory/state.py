"""SESSION-STATE.md: the working buffer an agent keeps for the current session.

`set` and `clear` replace it under the lock appenders take, so nothing written meanwhile is
lost unseen; `set` and `clear` never delete: the old buffer is moved to
memory/archive/session-state-<time>.md first; `append` adds under the same lock. The buffer must be a regular file inside the
workspace (a link is refused), and what is not UTF-8 text is never overwritten.
"""

from __future__ import annotations

import os
import time

from ..base.errors import BadInputError
from ..base.writes import append_locked, atomic_write, rewrite_locked
from .workspace import Workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def show(ws: Workspace) -> str:
    text, problem = ws.read(ws.session_state)
    if text is None:
        raise BadInputError(f"{ws.rel(ws.session_state)}: {problem}")
    return text


def set_state(ws: Workspace, text: str) -> tuple[str, str | None]:
    """Replace the buffer (atomically, under its lock). Returns its path and where the previous
    buffer was archived (None when it was empty or the same), both relative to the workspace."""
    new = text if text.endswith("\n") or not text else text + "\n"
    kept: list[str] = []

    def change(old: str) -> str:
        if old.strip() and old != new:
            kept[:] = [_archive(ws, old)]
        return new

    _rewrite(ws, change)
    return ws.rel(ws.session_state), (kept[0] if kept else None)


def append(ws: Workspace, text: str) -> tuple[str, int]:
    """Add `text` at the end of the buffer; returns its path and the line where the text starts."""
    if not text.strip():
        raise BadInputError("nothing to append: the text is empty")
    line = append_locked(ws.check_write(ws.session_state), text if text.endswith("\n") else text + "\n")
    return ws.rel(ws.session_state), line


def clear(ws: Workspace) -> str | None:
    """Empty the buffer; the old text is archived. Returns where it went (None if it was empty)."""
    moved: list[str] = []

    def change(old: str) -> str:
        if old.strip():
            moved[:] = [_archive(ws, old)]
        return ""

    _rewrite(ws, change)
    return moved[0] if moved else None


def _rewrite(ws: Workspace, change: Callable[[str], str | None]) -> None:
    ws.check_write(ws.session_state)
    current, problem = ws.read(ws.session_state)
    if current is None:
        raise BadInputError(f"{ws.rel(ws.session_state)}: {problem}; move it away first, it was left as it is")
    try:
        rewrite_locked(ws.session_state, change)
    except UnicodeDecodeError:
        raise BadInputError(f"{ws.rel(ws.session_state)}: not UTF-8; move it away first, it was left as it is") from None


def _archive(ws: Workspace, old: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = os.path.join(ws.archive, f"session-state-{stamp}.md")
    n = 1
    while os.path.lexists(target):
        n += 1
        target = os.path.join(ws.archive, f"session-state-{stamp}-{n}.md")
    atomic_write(ws.check_write(target), old, like=ws.session_state)
    return ws.rel(target)
