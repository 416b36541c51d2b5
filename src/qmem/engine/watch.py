"""`qmem index --watch`: keep collections fresh while files change.

watchfiles (inotify / FSEvents / polling underneath) reports changes in batches, debounced;
each batch refreshes the collections whose root holds a changed path. Editors' atomic saves
(write a temp file, rename it over the original) and folder renames arrive as ordinary
changes; new sub-folders are watched because the whole root is watched recursively.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from ..base.config import Config
from ..base.errors import IndexBusyError
from ..base.fsutil import is_inside
from .sync import RefreshReport, refresh

DEBOUNCE_MS = 1000


def watch(
    cfg: Config,
    names: list[str] | None = None,
    *,
    debounce_ms: int = DEBOUNCE_MS,
    on_refresh: Callable[[RefreshReport], None] | None = None,
    on_busy: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Refresh once, then after every batch of changes, until `stop` is set. Ctrl-C raises
    KeyboardInterrupt to the caller (the face decides what stopping means)."""
    import watchfiles

    selected = cfg.select(names)
    roots = {c.name: os.path.realpath(c.path) for c in selected if os.path.isdir(c.path)}
    if not roots:
        return

    def run(targets: list[str]) -> None:
        try:
            report = refresh(cfg, targets)
        except IndexBusyError as exc:
            if on_busy:
                on_busy(str(exc))
            return
        if on_refresh:
            on_refresh(report)

    run(sorted(roots))
    for changes in watchfiles.watch(*roots.values(), debounce=debounce_ms, step=50, stop_event=stop,
                                    raise_interrupt=True):
        touched = sorted({name for _, path in changes for name, root in roots.items()
                          if is_inside(root, os.path.realpath(path)) or is_inside(root, path)})
        if touched:
            run(touched)
