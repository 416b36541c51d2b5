"""The one tokenizer qmem uses for indexing and for queries, and the shared token estimate.

Each Han, Kana or Hangul character is a token of its own (so a Chinese run is searchable
without a dictionary), every other run of letters, digits and marks is one word, then
lowercase and the English (Porter2) stemmer. OpenSearch's `pattern` tokenizer with the same
regex plus `lowercase` and `porter2` gives the same tokens, which keeps a scale-out path open.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import tantivy

TOKENIZER_NAME = "qmem_v1"

_CJK_CLASS = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
TOKEN_PATTERN = rf"[{_CJK_CLASS}]|[[\p{{L}}\p{{N}}\p{{M}}]--[{_CJK_CLASS}]]+"

# The same CJK set for Python, which has no \p{...} classes: (first, last) code points.
_CJK_BLOCKS = (
    (0x1100, 0x11FF), (0x3040, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF), (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F),
    (0x20000, 0x3134F),
)
_CJK_STARTS = [first for first, _ in _CJK_BLOCKS]
_cjk_runs: re.Pattern[str] | None = None  # compiled on first use: ~3 ms off every start-up

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
    if len(token_text) != 1:
        return False
    code = ord(token_text)
    block = bisect_right(_CJK_STARTS, code) - 1
    return block >= 0 and code <= _CJK_BLOCKS[block][1]


def estimate_tokens(text: str) -> int:
    """A cheap LLM-token estimate: one per CJK character, one per four other characters.

    Close enough to real BPE counts to budget a boot context; no tokenizer model needed.
    """
    global _cjk_runs
    if _cjk_runs is None:
        chars = "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_BLOCKS)
        _cjk_runs = re.compile(f"([{chars}]+)|([^{chars}]+)")
    cjk = other = 0
    for han, rest in _cjk_runs.findall(text):
        cjk += len(han)
        other += len(rest.strip())
    return cjk + (other + 3) // 4
