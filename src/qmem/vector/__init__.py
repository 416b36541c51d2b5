"""The optional vector tier: offline embeddings beside the BM25 index, vector search, fusion.

Nothing here is imported by the default commands; the models come from optional extras."""

from ..base.errors import ExtraMissingError

try:
    import numpy  # noqa: F401 - every module of the tier needs it
except ImportError:
    from ..base.install import install_hint

    raise ExtraMissingError(f"the vector tier is not installed (no numpy): {install_hint('vector')} "
                            "(multilingual; or the extra vector-en: English, smaller)", name="numpy") from None
