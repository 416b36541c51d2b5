"""The optional vector tier: offline embeddings beside the BM25 index, vector search, fusion.

Nothing here is imported by the default commands; the models come from optional extras."""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec, PathFinder

from ..base.errors import ExtraMissingError


def find(name: str) -> ModuleSpec | None:
    """Where the top-level package `name` is installed, found without importing it (None when
    it is not, or when sys.modules blocks it). importlib.util.find_spec would cost a cold query
    ~17M instructions of imports; the path finder ~2M."""
    if name in sys.modules:
        module = sys.modules[name]
        return None if module is None else module.__spec__
    return PathFinder.find_spec(name)


# Every model and `embed` need numpy; a search finds it installed without importing it (numpy's
# import costs a cold `qmem query` more than the rest of it: see similarity.py).
if find("numpy") is None:
    from ..base.install import install_hint

    raise ExtraMissingError(f"the vector tier is not installed (no numpy): {install_hint('vector')} "
                            "(multilingual; or the extra vector-en: English, smaller)", name="numpy")
