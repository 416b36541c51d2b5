"""Backends: where sections live. The config's [backend] table picks one; nothing outside
this package asks which.

`open_writer(cfg)` gives `sync` a refresh writer, `open_searcher(cfg)` gives `search` a
searcher; both are the local Tantivy index unless `[backend] kind = "opensearch"`. The
interfaces are in `base.py`, one module per engine beside it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..base.config import Config
    from .seam import RefreshWriter, Searcher

__all__ = ["SHARED_SCOPE", "Backend", "RefreshWriter", "Searcher", "StoredFile", "open_searcher",
           "open_writer", "valid_scope"]


def __getattr__(name: str) -> object:
    """The interfaces and scope helpers, imported on first use: a search imports none of them."""
    if name in ("Backend", "RefreshWriter", "Searcher", "StoredFile"):
        from . import seam as base

        return getattr(base, name)
    if name == "valid_scope":
        from ..base.backend_config import valid_scope

        return valid_scope
    if name == "SHARED_SCOPE":
        from ..base.conventions import SHARED_SCOPE

        return SHARED_SCOPE
    raise AttributeError(name)


def open_writer(cfg: Config, timeout: float | None = None) -> RefreshWriter:
    """The writer of one refresh (a context manager holding this config's lock)."""
    timeout = cfg.lock_timeout if timeout is None else timeout
    if cfg.backend.get("kind") == "opensearch":
        from .opensearch.backend import OpenSearchWriter

        return OpenSearchWriter(cfg, timeout)
    from .tantivy.refresh import TantivyWriter

    return TantivyWriter(cfg.data_dir, timeout)


def open_searcher(cfg: Config, reader=None) -> Searcher:  # noqa: ANN001 - search.Reader
    if cfg.backend.get("kind") == "opensearch":
        from .opensearch.backend import OpenSearchSearcher

        return OpenSearchSearcher(cfg)
    from .tantivy.searcher import TantivySearcher

    return TantivySearcher(cfg.data_dir, reader)
