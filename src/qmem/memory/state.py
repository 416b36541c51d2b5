"""SESSION-STATE.md: the working buffer an agent keeps for the current session.

`set` and `clear` replace it under the lock appenders take, so nothing written meanwhile is
lost unseen; `clear` never deletes: the old buffer is moved to
memory/archive/session-state-<time>.md first. The buffer must be a regular file inside the
workspace (a link is refused), and what is not UTF-8 text is never overwritten.
"""

from __future__ import annotations

import os
import time

from ..errors import BadInputError
from ..fsutil import atomic_write, rewrite_locked
from .workspace import Workspace


def show(ws: Workspace) -> str:
    text, problem = ws.read(ws.session_state)
    if text is None:
        raise BadInputError(f"{ws.rel(ws.session_state)}: {problem}")
    return text


def set_state(ws: Workspace, text: str) -> str:
    """Replace the buffer (atomically, under its lock); returns its path relative to the workspace."""
    new = text if text.endswith("\n") or not text else text + "\n"
    _rewrite(ws, lambda old: new)
    return ws.rel(ws.session_state)


def clear(ws: Workspace) -> str | None:
    """Empty the buffer; the old text is archived. Returns where it went (None if it was empty)."""
    moved: list[str] = []

    def change(old: str) -> str:
        if old.strip():
            moved[:] = [_archive(ws, old)]
        return ""

    _rewrite(ws, change)
    return moved[0] if moved else None


def _rewrite(ws: Workspace, change: object) -> None:
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
    atomic_write(ws.check_write(target), old)
    return ws.rel(target)
