"""The optional vector tier: offline embeddings beside the BM25 index, vector search, fusion.

Nothing here is imported by the default commands; the models come from optional extras."""

from ..base.errors import ExtraMissingError

try:
    import numpy  # noqa: F401 - every module of the tier needs it
except ImportError:
    raise ExtraMissingError("the vector tier is not installed (no numpy): pip install 'qmem[vector]' "
                            "(multilingual) or 'qmem[vector-en]' (English, smaller)", name="numpy") from None
