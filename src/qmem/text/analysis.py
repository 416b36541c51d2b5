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

from _bisect import bisect_right  # the C module: bisect.py only re-exports it (~0.35M instructions)

import tantivy

from ..base.conventions import HEADING_SEPARATOR

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import re

# The heading and body fields' analyzer: `index_terms` output split on spaces. A token this long is dropped
# (the stand-in for a word the full analyzer drops, so later positions keep their gap).
TERMS_TOKENIZER_NAME = "qmem_terms_v1"
TERM_LIMIT = 1024
_DROPPED = "_" * TERM_LIMIT
_TERM_CACHE_MAX = 1_000_000
_HEADING_CACHE_MAX = 100_000
# Below this length `_cjk_mixed`'s dozen calls cost more than `re` finding each token
# (timed on c20k CJK notes cut short: 40 characters 11.2 vs 9.3 µs, 80 characters 14.5 vs 16.3 µs).
_MIXED_MIN_CHARS = 64
# Stands between the parts of `_cjk_mixed`'s text (its own term); no text with it goes that road.
MARK = "\x00"

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


class _TermCache(dict):
    """word → its index term (or _DROPPED), analyzed the first time a word is met."""

    def __missing__(self, word: str) -> str:
        global _word_analyzer
        if _word_analyzer is None:  # `analyzer`'s filters on a word that is one token already:
            _word_analyzer = _filtered(tantivy.Tokenizer.raw())  # no regex to run
        found = _word_analyzer.analyze(word)
        term = found[0] if found else _DROPPED
        if len(self) >= _TERM_CACHE_MAX:
            self.clear()
            self[MARK] = MARK
        self[word] = term
        return term


_term_of = _TermCache({MARK: MARK})


class _WordFinders:
    """How `index_terms` finds a text's words; compiled on first use (`_word_finders`).

    An ASCII text needs no regex: `bytes.translate` (~3x cheaper than `str.translate`) blanks
    what is not a word character and lowercases (an ASCII word's term is its lowercase's, so
    the cache meets fewer spellings), and `split` does the rest. `re` looks BMP classes up in
    a bitmap but tries astral ranges one by one for every character that misses it; most
    texts have no astral character. Matching one CJK token at a time costs `re` ~50 ns a
    character, so a long BMP text goes the `_cjk_mixed` road when it can (see there)."""

    def __init__(self) -> None:
        import re  # not at the top: a search never splits text with it (~25M instructions of imports)

        from .token_classes import RUN, SINGLE, ranges

        single, run = ranges(SINGLE), ranges(RUN)

        def char_class(rs: list[tuple[int, int]], bmp_only: bool) -> str:
            parts = []
            for first, last in rs:
                if bmp_only and first > 0xFFFF:
                    continue
                last = min(last, 0xFFFF) if bmp_only else last
                parts.append(f"\\U{first:08x}" if first == last else f"\\U{first:08x}-\\U{last:08x}")
            return "[" + "".join(parts) + "]"

        def inside(code: int, rs: list[tuple[int, int]]) -> bool:
            return any(first <= code <= last for first, last in rs)

        self.ascii: bytes | None = None  # blank non-word ASCII, lowercase letters (None: ASCII CJK?)
        self.marked: bytes | None = None  # the same, but MARK stays itself
        if not any(inside(c, single) for c in range(128)):
            table = bytearray(range(256))
            for c in range(128):
                table[c] = ord(chr(c).lower()) if inside(c, run) else 32
            self.ascii = bytes(table)
            table[ord(MARK)] = ord(MARK)
            self.marked = bytes(table)
        self.astral = re.compile("[\\U00010000-\\U0010ffff]")
        self.bmp = re.compile(f"{char_class(single, True)}|{char_class(run, True)}+")
        self.full = re.compile(f"{char_class(single, False)}|{char_class(run, False)}+")
        # For `_cjk_mixed` (BMP texts only): runs of non-ASCII characters that are in no token
        # (CJK punctuation, curly quotes, dashes, symbols), and runs of CJK.
        self.blanks = re.compile("[^\\x00-\\x7f" + char_class(single + run, True)[1:] + "+")
        self.cjk_runs = re.compile(f"({char_class(single, True)}+)")


_word_finders: _WordFinders | None = None


def index_terms(text: str) -> str:
    """`text`'s index terms joined by spaces: what `terms_analyzer` splits back into exactly
    the tokens (texts and positions) that `analyzer` makes of `text`."""
    global _word_finders
    finders = _word_finders or (_word_finders := _WordFinders())
    if text.isascii() and finders.ascii is not None:
        words = text.encode().translate(finders.ascii).decode().split()
    elif finders.astral.search(text):
        words = finders.full.findall(text)
    else:
        terms = _cjk_mixed(text, finders) if len(text) >= _MIXED_MIN_CHARS else None
        if terms is not None:
            return terms
        words = finders.bmp.findall(text)
    return " ".join(map(_term_of.__getitem__, words))


def _cjk_mixed(text: str, finders: _WordFinders) -> str | None:
    """`index_terms` of a BMP text whose words, CJK aside, are ASCII (Chinese, Japanese or
    Korean prose with English words, code, dates; English with curly quotes or dashes);
    None for any other text.

    The text is cut at its CJK runs. A CJK character is a token of its own and its own term
    (a test checks every one), so the runs' terms are their characters spaced out, for all
    runs at once (`str.replace("", " ")` puts a space between any two characters). What lies
    between the runs, its non-token characters blanked, is ASCII: joined by MARK it takes
    the ASCII road in one go, and MARK cuts the terms apart again. No Python call per token:
    ~17 µs for a 390-character Chinese note against ~30 µs when `re` finds its tokens."""
    if finders.marked is None or MARK in text:
        return None
    parts = finders.cjk_runs.split(text)  # [other, run, other, ..., run, other]
    others = finders.blanks.sub(" ", f" {MARK} ".join(parts[0::2]))
    if not others.isascii():  # a word with a non-ASCII letter (café, Ελλάδα)
        return None
    words = others.encode().translate(finders.marked).decode().split()
    parts[0::2] = map(str.strip, " ".join(map(_term_of.__getitem__, words)).split(MARK))
    if len(parts) > 1:
        parts[1::2] = map(str.strip, MARK.join(parts[1::2]).replace("", " ").split(MARK))
    return " ".join(filter(None, parts))


_heading_cache: dict[str, str] = {}


def heading_terms(heading: str) -> str:
    """`index_terms(heading)`, made of its parent's terms and its last part's. A heading is a
    breadcrumb ("Skills › Windows › PS5 编码"): every section of a file repeats its parents'
    parts, and the parent is most often the heading of a section just met, so it is
    remembered. The separator holds no token character (a test checks), so no token spans
    it: the terms of "A › B" are A's terms, then B's, in the same positions. Each part on
    its own is most often ASCII, a cheap road the whole heading (the separator is not
    ASCII) does not take: ~0.6x the instructions of `index_terms(heading)` on c20k."""
    cache = _heading_cache
    terms = cache.get(heading)
    if terms is None:
        parent, separator, last = heading.rpartition(HEADING_SEPARATOR)
        terms = index_terms(last)
        if separator:
            head = cache.get(parent)
            if head is None:
                head = cache[parent] = " ".join(filter(None, map(index_terms, parent.split(HEADING_SEPARATOR))))
            terms = f"{head} {terms}" if head and terms else head or terms
        if len(cache) >= _HEADING_CACHE_MAX:
            cache.clear()
        cache[heading] = terms
    return terms


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
    """Just the token texts. An ASCII text takes `tokens`' road: a search whose query is
    ASCII then never builds the regex analyzer (~0.5 ms in a fresh process)."""
    if not text.isascii():
        return analyzer().analyze(text)
    return [token.text for token in tokens(text)]


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
    if text.isascii():  # no CJK: one run of other characters
        return (len(text.strip()) + 3) // 4
    if _cjk_runs is None:
        import re

        chars = "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_BLOCKS)
        _cjk_runs = re.compile(f"[{chars}]+")
    others = _cjk_runs.split(text)  # the runs of other characters (and "" between CJK runs)
    cjk = len(text) - sum(map(len, others))
    return cjk + (sum(map(len, map(str.strip, others))) + 3) // 4
