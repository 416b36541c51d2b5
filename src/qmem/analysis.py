"""The one tokenizer qmem uses for indexing and for queries, and the shared token estimate.

Each Han, Kana or Hangul character is a token of its own (so a Chinese run is searchable
without a dictionary), every other run of letters, digits and marks is one word, then
lowercase and the English (Porter2) stemmer. OpenSearch's `pattern` tokenizer with the same
regex plus `lowercase` and `porter2` gives the same tokens, which keeps a scale-out path open.

Indexing bodies takes a cheaper road to the same tokens (`index_terms`): tantivy's regex
tokenizer costs ~0.6 µs per token and the stemmer ~0.4 µs, so Python's `re` splits the text
with the same character classes (`token_classes`), each distinct word is analyzed once and
remembered, and the body field gets the finished terms joined by spaces, which tantivy's
whitespace tokenizer reads back with the same positions. Tests compare the two token streams.
"""

from __future__ import annotations

from bisect import bisect_right

import tantivy

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import re

# The heading and body fields' analyzer: `index_terms` output split on spaces. A token this long is dropped
# (the stand-in for a word the full analyzer drops, so later positions keep their gap).
TERMS_TOKENIZER_NAME = "qmem_terms_v1"
TERM_LIMIT = 1024
_DROPPED = "_" * TERM_LIMIT
_TERM_CACHE_MAX = 1_000_000

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
_terms_analyzer: tantivy.TextAnalyzer | None = None
_word_analyzer: tantivy.TextAnalyzer | None = None
_batch_analyzer: tantivy.TextAnalyzer | None = None
_word_finders: tuple[dict[int, str] | None, re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None = None


def _filtered(tokenizer: tantivy.Tokenizer) -> tantivy.TextAnalyzer:
    return (
        tantivy.TextAnalyzerBuilder(tokenizer)
        .filter(tantivy.Filter.remove_long(256))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def analyzer() -> tantivy.TextAnalyzer:
    """The shared analyzer, built once per process (building compiles the regex)."""
    global _analyzer
    if _analyzer is None:
        _analyzer = _filtered(tantivy.Tokenizer.regex(TOKEN_PATTERN))
    return _analyzer


def terms_analyzer() -> tantivy.TextAnalyzer:
    """The body field's analyzer: splits `index_terms` output on spaces, nothing else."""
    global _terms_analyzer
    if _terms_analyzer is None:
        _terms_analyzer = (
            tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
            .filter(tantivy.Filter.remove_long(TERM_LIMIT))
            .build()
        )
    return _terms_analyzer


def register(index: tantivy.Index) -> None:
    """Attach the fields' tokenizer to an opened index: tantivy does not store it with the
    index. Only `index_terms` output is ever indexed, so the regex analyzer (compiling its
    pattern costs ~1.7M instructions) is never needed here."""
    index.register_tokenizer(TERMS_TOKENIZER_NAME, terms_analyzer())


class _TermCache(dict):  # type: ignore[type-arg]
    """word → its index term (or _DROPPED), analyzed the first time a word is met."""

    def __missing__(self, word: str) -> str:
        global _word_analyzer
        if _word_analyzer is None:  # `analyzer`'s filters on a word that is one token already:
            _word_analyzer = _filtered(tantivy.Tokenizer.raw())  # no regex to run
        found = _word_analyzer.analyze(word)
        term = found[0] if found else _DROPPED
        if len(self) >= _TERM_CACHE_MAX:
            self.clear()
        self[word] = term
        return term


_term_of = _TermCache()


def _compile_word_finders() -> tuple[dict[int, str] | None, re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(ASCII translation table or None, astral test, finder for BMP texts, finder for any text).

    An ASCII text needs no regex: `str.translate` blanks what is not a word character and
    `split` does the rest. `re` looks BMP classes up in a bitmap but tries astral ranges
    one by one for every character that misses it; most texts have no astral character."""
    global _word_finders
    import re  # not at the top: a search never splits text with it (~25M instructions of imports)

    from .token_classes import RUN, SINGLE, ranges

    def char_class(table: str, bmp_only: bool) -> str:
        parts = []
        for first, last in ranges(table):
            if bmp_only and first > 0xFFFF:
                continue
            last = min(last, 0xFFFF) if bmp_only else last
            parts.append(f"\\U{first:08x}" if first == last else f"\\U{first:08x}-\\U{last:08x}")
        return "[" + "".join(parts) + "]"

    def inside(code: int, table: str) -> bool:
        return any(first <= code <= last for first, last in ranges(table))

    ascii_table = None
    if not any(inside(c, SINGLE) for c in range(128)):
        ascii_table = str.maketrans({chr(c): chr(c) if inside(c, RUN) else " " for c in range(128)})
    _word_finders = (
        ascii_table,
        re.compile("[\\U00010000-\\U0010ffff]"),
        re.compile(f"{char_class(SINGLE, True)}|{char_class(RUN, True)}+"),
        re.compile(f"{char_class(SINGLE, False)}|{char_class(RUN, False)}+"),
    )
    return _word_finders


def index_terms(text: str) -> str:
    """`text`'s index terms joined by spaces: what `terms_analyzer` splits back into exactly
    the tokens (texts and positions) that `analyzer` makes of `text`."""
    ascii_table, astral, bmp, full = _word_finders or _compile_word_finders()
    if ascii_table is not None and text.isascii():
        words = text.translate(ascii_table).split()
    else:
        words = (full if astral.search(text) else bmp).findall(text)
    return " ".join(map(_term_of.__getitem__, words))


def tokens(text: str) -> list[tantivy.Token] | list[Token]:
    """Tokens with character offsets and positions, exactly as the index sees them.

    An ASCII text takes a shorter road to the same tokens: its words are the runs of ASCII
    letters and digits (no ASCII character is CJK), each analyzed once (`_term_of`). Tantivy's
    regex tokenizer costs ~6k instructions a token, more than the rest of a snippet's work."""
    if not text.isascii():
        return analyzer().pre_tokenize(text).tokens
    blanked = text.translate(_ASCII_BLANKS)
    words = blanked.split()
    _learn(words)
    found: list[Token] = []
    pos = 0
    for position, word in enumerate(words):
        start = blanked.find(word, pos)
        pos = start + len(word)
        term = _term_of[word]
        if term is not _DROPPED:
            found.append(Token(term, start, pos, position))
    return found


def _learn(words: list[str]) -> None:
    """Put the terms of the ASCII `words` not seen yet into `_term_of`, analyzed in one call:
    split on spaces, a word gives one term, or none when it is too long (checked here)."""
    global _batch_analyzer
    new = [w for w in dict.fromkeys(words) if w not in _term_of and len(w) < 256]
    if not new:
        return
    if _batch_analyzer is None:
        _batch_analyzer = _filtered(tantivy.Tokenizer.whitespace())
    terms = _batch_analyzer.analyze(" ".join(new))
    if len(terms) == len(new):  # else `_term_of` analyzes each word on its own
        _term_of.update(zip(new, terms))


class Token:
    """What tantivy's `Token` holds, for `tokens`' ASCII road."""

    __slots__ = ("text", "char_offset_from", "char_offset_to", "position")

    def __init__(self, text: str, char_offset_from: int, char_offset_to: int, position: int) -> None:
        self.text = text
        self.char_offset_from = char_offset_from
        self.char_offset_to = char_offset_to
        self.position = position


_ASCII_BLANKS = {code: " " for code in range(128) if not chr(code).isalnum()}


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

    Han (Chinese characters, kanji), kana and hangul: one token each (BPE tokenizers spend one
    to two on each). Everything else (Latin letters with or without accents, digits,
    punctuation, other scripts, emoji): one per four characters, whitespace at the ends of each
    run not counted. Close enough to real counts for English and CJK to budget a boot context;
    it under-counts text in Cyrillic, Thai, Arabic or emoji, which real tokenizers split finer.
    The one estimate used by the tree, boot, stats, the docs and the tests.
    """
    global _cjk_runs
    if _cjk_runs is None:
        import re

        chars = "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_BLOCKS)
        _cjk_runs = re.compile(f"([{chars}]+)|([^{chars}]+)")
    cjk = other = 0
    for han, rest in _cjk_runs.findall(text):
        cjk += len(han)
        other += len(rest.strip())
    return cjk + (other + 3) // 4
