"""The vector and hybrid modes of engine/answer.py, and what long-lived faces keep between answers.

`pick` returns the search to run for `vector` or `hybrid`: vectors when the vector tier is
installed and the collections have vectors; else BM25, with a note saying why (one rule for
every face: a tool configured for qmd's `query` gets answers, and is told). Loaded only when a
request names one of these modes, or a face opens a Session.
"""

from __future__ import annotations

from ..base.errors import BadInputError
from . import search as search_mod

BM25_NOTE = "; answered with BM25 search"  # how Answer.note ends when vectors could not answer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..backends.seam import Searcher
    from ..base.config import Config
    from ..vector.models import Embedder
    from .hits import Hit


class Session:
    """What a long-lived face (the MCP server, `qmem eval`) keeps between answers: a searcher
    (a new one when the config names another data folder or backend) and the embedding
    model, both opened on first use."""

    __slots__ = ("searcher", "searcher_for", "model")

    def __init__(self) -> None:
        self.searcher: Searcher | None = None
        self.searcher_for: tuple[str, dict] | None = None
        self.model: Embedder | None = None

    def open_searcher(self, cfg: Config) -> Searcher:
        if self.searcher is None or self.searcher_for != (cfg.data_dir, cfg.backend):
            from ..backends import open_searcher

            self.searcher, self.searcher_for = open_searcher(cfg), (cfg.data_dir, dict(cfg.backend))
        return self.searcher


def pick(cfg: Config, text: str, options: search_mod.SearchOptions, mode: str, session: Session | None,
               searcher: Searcher | None) -> tuple[Callable[[], list[Hit]], str, str]:
    """The search to run for `mode`: vectors when the tier and the collections' vectors are
    there, else BM25 with a note saying why."""
    def bm25() -> list[Hit]:
        return search_mod.search(cfg, text, options, searcher)

    try:
        from .hybrid import hybrid, model_for, vsearch
    except ImportError as exc:  # the tier's extra (numpy) is not installed
        from ..base.install import install_hint

        return bm25, "bm25", f"the vector tier is not installed ({exc.name or exc}; {install_hint('vector')})" + BM25_NOTE
    try:
        model = session.model if session and session.model else model_for(cfg, options.collections)
    except BadInputError as exc:  # no vectors yet, or the model's own extra missing
        return bm25, "bm25", f"{exc}{BM25_NOTE}"
    if session:
        session.model = model
    fused = hybrid if mode == "hybrid" else vsearch

    def vectors() -> list[Hit]:
        nonlocal model
        try:
            return fused(cfg, text, options, model, searcher)
        except BadInputError:
            if session is None:
                raise
            model = session.model = model_for(cfg, options.collections)  # re-embedded with another model meanwhile
            return fused(cfg, text, options, model, searcher)

    return vectors, mode, ""
