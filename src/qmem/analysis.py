"""The one tokenizer qmem uses for indexing and for queries, and the shared token estimate.

Each Han, Kana or Hangul character is a token of its own (so a Chinese run is searchable
without a dictionary), every other run of letters, digits and marks is one word, then
lowercase and the English (Porter2) stemmer. OpenSearch's `pattern` tokenizer with the same
regex plus `lowercase` and `porter2` gives the same tokens, which keeps a scale-out path open.
"""

from __future__ import annotations

import re

import tantivy

TOKENIZER_NAME = "qmem_v1"

_CJK_CLASS = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
TOKEN_PATTERN = rf"[{_CJK_CLASS}]|[[\p{{L}}\p{{N}}\p{{M}}]--[{_CJK_CLASS}]]+"

# The same CJK set for Python's `re`, which has no \p{...} classes.
_CJK_RANGES = (
    "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f"
)
CJK_CHAR = re.compile(f"[{_CJK_RANGES}]")
_NON_CJK_RUN = re.compile(f"[^{_CJK_RANGES}]+")

_analyzer: tantivy.TextAnalyzer | None = None


def analyzer() -> tantivy.TextAnalyzer:
    """The shared analyzer, built once per process (building compiles the regex)."""
    global _analyzer
    if _analyzer is None:
        _analyzer = (
            tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(TOKEN_PATTERN))
            .filter(tantivy.Filter.remove_long(256))
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.stemmer("english"))
            .build()
        )
    return _analyzer


def register(index: tantivy.Index) -> None:
    """Attach the tokenizer to an opened index: tantivy does not store it with the index."""
    index.register_tokenizer(TOKENIZER_NAME, analyzer())


def tokens(text: str) -> list[tantivy.Token]:
    """Tokens with character offsets and positions, exactly as the index sees them."""
    return analyzer().pre_tokenize(text).tokens


def terms(text: str) -> list[str]:
    """Just the token texts."""
    return analyzer().analyze(text)


def is_cjk(token_text: str) -> bool:
    """True for a one-character CJK token."""
    return len(token_text) == 1 and CJK_CHAR.match(token_text) is not None


def estimate_tokens(text: str) -> int:
    """A cheap LLM-token estimate: one per CJK character, one per four other characters.

    Close enough to real BPE counts to budget a boot context; no tokenizer model needed.
    """
    cjk = len(CJK_CHAR.findall(text))
    other = sum(len(run.strip()) for run in _NON_CJK_RUN.findall(text))
    return cjk + (other + 3) // 4
