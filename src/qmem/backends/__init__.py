"""Backends: where sections live. The config's [backend] table picks one; nothing outside
this package asks which.

`open_writer(cfg)` gives `sync` a refresh writer, `open_searcher(cfg)` gives searches, the
vector tier and the health checks a searcher; both are the local Tantivy index unless
`[backend] kind = "opensearch"`. The protocols are in `seam.py`, one package per engine
beside it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..base.config import Config
    from .seam import Searcher, Writer

__all__ = ["Searcher", "StoredFile", "Writer", "open_searcher", "open_writer"]


def __getattr__(name: str) -> object:
    """The protocols, imported on first use: a search imports none of them."""
    if name in ("Searcher", "StoredFile", "Writer"):
        from . import seam

        return getattr(seam, name)
    raise AttributeError(name)


def _cluster(cfg: Config) -> bool:
    return cfg.backend.get("kind") == "opensearch"


def open_writer(cfg: Config, timeout: float | None = None) -> Writer:
    """The writer of one refresh (a context manager holding this config's lock)."""
    timeout = cfg.lock_timeout if timeout is None else timeout
    if _cluster(cfg):
        from .opensearch.adapters import OpenSearchWriter

        return OpenSearchWriter(cfg, timeout)
    from .tantivy.refresh import TantivyWriter

    return TantivyWriter(cfg.data_dir, timeout)


def open_searcher(cfg: Config) -> Searcher:
    """A searcher of this config's index; it opens the index on first use, so creating one
    costs nothing (a face may keep it open: see `Searcher.reload`)."""
    if _cluster(cfg):
        from .opensearch.adapters import OpenSearchSearcher

        return OpenSearchSearcher(cfg)
    from .tantivy.searcher import TantivySearcher

    return TantivySearcher(cfg.data_dir)
