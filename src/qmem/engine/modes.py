"""Search in a named mode (bm25, vector, hybrid) that always answers.

Tools configured for qmd call `query` (hybrid) or `vsearch` by default; a qmem without the
optional vector tier, or with collections not embedded yet, answers those with BM25 and says
why in a note, instead of refusing. `search.search` stays the lean BM25 path.
"""

from __future__ import annotations

from ..base.config import Config
from ..base.errors import BadInputError
from .search import Hit, SearchOptions, search

MODES = ("bm25", "vector", "hybrid")


class Answer:
    """The hits, the mode that produced them, and why it differs from the one asked (or "")."""

    __slots__ = ("hits", "mode", "note")

    def __init__(self, hits: list[Hit], mode: str, note: str = "") -> None:
        self.hits = hits
        self.mode = mode
        self.note = note


def search_mode(cfg: Config, text: str, options: SearchOptions, mode: str) -> Answer:
    """Run `mode`; when the vector tier is missing or has no vectors, BM25 with a note."""
    if mode not in MODES:
        raise BadInputError(f"unknown mode {mode!r}: use {', '.join(MODES)}")
    if mode == "bm25":
        return Answer(search(cfg, text, options), "bm25")
    try:
        from .hybrid import hybrid, model_for, vsearch
    except ImportError as exc:
        from ..base.install import install_hint

        why = f"the vector tier is not installed ({exc.name or exc}; {install_hint('vector')})"
        return Answer(search(cfg, text, options), "bm25", f"{why}; answered with BM25 search")
    try:
        model = model_for(cfg, options.collections)
        run = hybrid if mode == "hybrid" else vsearch
        return Answer(run(cfg, text, options, model), mode)
    except BadInputError as exc:
        return Answer(search(cfg, text, options), "bm25", f"{exc}; answered with BM25 search")
