"""How engine/answer.py heals the index a search needs: a first build (none yet, or a schema
change), a rebuild of a damaged one, and the error for a first build running elsewhere. Loaded
only when a search meets one of these.
"""

from __future__ import annotations

from ..base.errors import IndexBusyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from ..base.config import Config

    class Bar(Protocol):
        """A progress display for a long build (the CLI's ProgressLine)."""

        def __call__(self, done: int, total: int, item: str) -> None: ...
        def close(self) -> None: ...

    Say = Callable[[str], object]  # hears one line (a rebuild, a refresh) before it is done
    Progress = Callable[[str], Bar]  # label -> a progress display


def first_build_busy() -> IndexBusyError:
    """Nothing is committed to search yet, and this process must not wait for the build."""
    return IndexBusyError("the first index build is running in another qmem process; search again when it ends")


def build_missing_index(cfg: Config, say: Say | None = None, progress: Progress | None = None) -> None:
    """First search after install or a schema change: build the index, say so first. When
    another process is already building it, IndexBusyError at once instead of waiting."""
    from ..base.layout import first_build_running, stale_versions
    from .sync import claim_data_dir, refresh

    if first_build_running(cfg.data_dir, list(cfg.collections)):
        raise first_build_busy()
    claim_data_dir(cfg)  # a data folder that cannot be used: one line, before any other
    old = stale_versions(cfg.data_dir)
    if say:
        say(f"the index format changed ({', '.join(old)} → current); rebuilding it once" if old
            else "no index yet; building it now (qmem index)")
    bar = progress("indexing") if progress else None
    timeout, cfg.lock_timeout = cfg.lock_timeout, min(cfg.lock_timeout, 0.2)
    try:
        report = refresh(cfg, progress=bar)
    except IndexBusyError:
        raise first_build_busy() from None  # another process started it a moment ago
    finally:
        cfg.lock_timeout = timeout
        if bar is not None:
            bar.close()
    if report.adopted_from and say:
        say(f"reused {', '.join(report.adopted)} from the shared folder of an older qmem "
            f"({report.adopted_from}, left in place)")


def rebuild_damaged_index(cfg: Config, problem: Exception, say: Say | None = None,
                          progress: Progress | None = None) -> None:
    """A search found the index unreadable: rebuild it from the Markdown files (a cache),
    whatever the refresh's cheap checks say (`damaged=`)."""
    from .sync import refresh

    if say:
        say(f"warning: {problem}; rebuilding it from the Markdown files")
    bar = progress("rebuilding") if progress else None
    try:
        refresh(cfg, progress=bar, damaged=str(problem))
    finally:
        if bar is not None:
            bar.close()
