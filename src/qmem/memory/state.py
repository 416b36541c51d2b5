"""SESSION-STATE.md: the working buffer an agent keeps for the current session.

`clear` never deletes: the old buffer is moved to memory/archive/session-state-<time>.md.
"""

from __future__ import annotations

import os
import time

from ..fsutil import atomic_write
from .workspace import Workspace, read_text


def show(ws: Workspace) -> str:
    return read_text(ws.session_state)


def set_state(ws: Workspace, text: str) -> str:
    """Replace the buffer (atomically); returns its path relative to the workspace."""
    atomic_write(ws.session_state, text if text.endswith("\n") or not text else text + "\n")
    return ws.rel(ws.session_state)


def clear(ws: Workspace) -> str | None:
    """Empty the buffer; the old text is archived. Returns where it went (None if it was empty)."""
    old = read_text(ws.session_state)
    if not old.strip():
        if os.path.exists(ws.session_state):
            atomic_write(ws.session_state, "")
        return None
    target = os.path.join(ws.archive, f"session-state-{time.strftime('%Y%m%d-%H%M%S')}.md")
    n = 1
    while os.path.exists(target):
        n += 1
        target = os.path.join(ws.archive, f"session-state-{time.strftime('%Y%m%d-%H%M%S')}-{n}.md")
    atomic_write(target, old)
    atomic_write(ws.session_state, "")
    return ws.rel(target)
