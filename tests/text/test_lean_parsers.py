"""The search path parses without `re` (tests/faces/test_startup.py keeps `re` out of it); each
hand-written parser finds exactly what the regular expression it stands for finds, and the
ASCII road of `analysis.tokens` gives tantivy's own tokens."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from qmem.text import analysis, entries, query
from qmem.base import layout

# whitespace of several kinds (`\s` is str.isspace), decimal digits of two scripts and a digit
# that is not decimal (`\d` is str.isdecimal), the characters the patterns look for, CJK
PIECES = [" ", "\t", "\u3000", "\x1c", "\xa0", "-", "*", "+", "1", "23", "\u0663", "\xb2", ".", ")", "[", "]",
          ":", "：", '"', "a", "bc", "私钥", "\n", "_", "/", "x" * 24, "t" * 40, "é"]
lines = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
SLOW = settings(max_examples=300, deadline=None)


def quoted_by_regex(text: str) -> list[tuple[int, int, bool, str]]:
    return [(m.start(), m.end(), bool(m.group(1)), m.group(2))
            for m in re.finditer(r'(?:(?<=\s)|^)(-?)"([^"]*)"', text)]


@SLOW
@given(lines)
@example('"a b" -"c" x"d" -e "f')
@example('-"a"-"b" \u3000"c"')
def test_quoted_phrases(text):
    assert query.quoted(text) == quoted_by_regex(text)


@SLOW
@given(lines)
def test_entry_start(line):
    expected = bool(re.match(entries.ENTRY_START, line) or re.match(entries.SPEAKER, line))
    assert entries.starts_entry(line) == expected


@SLOW
@given(lines)
def test_line_lead(line):
    assert entries.lead_end(line) == re.match(entries.LEAD, line).end()


@pytest.mark.parametrize("line", [
    *(f"{' ' * k}- item" for k in range(6)), "123. x", "1234. x", "12) x", "\u0663. x", "\xb2. x", "-x", "1.x",
    *("n" * k + ": said" for k in (1, 23, 24, 25, 26)), "名字：你好", "a:b",
    *("- [" + "t" * k + "] [P1] bob: hi" for k in (0, 1, 39, 40, 41)), "  3) [K][x]\tuser：  text", "[a]b: c",
])
def test_boundaries(line):
    assert entries.starts_entry(line) == bool(re.match(entries.ENTRY_START, line) or re.match(entries.SPEAKER, line))
    assert entries.lead_end(line) == re.match(entries.LEAD, line).end()


@SLOW
@given(st.text(max_size=30) | lines)
def test_slug(name):
    assert layout.slug_of(name) == re.sub(r"[^A-Za-z0-9._-]+", "_", name)


# separators, stemmed and unstemmed words, digits, words just under and at the length limit
ASCII_PIECES = [" ", "\t", "\n", "\x1f", "-", "_", "'", ".", "deploying", "Wallets", "USDC", "18", "a1b2", "running",
                "caresses", "ponies", "x" * 255, "y" * 256, "C++", "it's"]
ascii_texts = st.lists(st.sampled_from(ASCII_PIECES) | st.text(alphabet=st.characters(max_codepoint=127), max_size=8),
                       max_size=20).map("".join)


@SLOW
@given(ascii_texts)
@example("x" * 255 + " b " + "c" * 256 + " d, Deploying")
def test_ascii_tokens_are_tantivys(text):
    mine = [(t.text, t.char_offset_from, t.char_offset_to, t.position) for t in analysis.tokens(text)]
    theirs = [(t.text, t.char_offset_from, t.char_offset_to, t.position) for t in analysis.analyzer().pre_tokenize(text).tokens]
    assert mine == theirs


@SLOW
@given(ascii_texts)
@example("x" * 255 + " b " + "c" * 256 + " d, Deploying")
def test_ascii_terms_are_tantivys(text):
    assert analysis.terms(text) == analysis.analyzer().analyze(text)


@given(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xef\xbb"])
       .flatmap(lambda head: st.binary(max_size=12).map(lambda rest: head + rest))
       | st.text(max_size=12).map(lambda t: ("\ufeff" + t).encode()))
def test_decode_text_is_utf_8_sig(data):
    from qmem.base.fsutil import decode_text

    try:
        expected = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        with pytest.raises(UnicodeDecodeError) as mine:
            decode_text(data)
        assert (mine.value.start, mine.value.end, mine.value.reason) == (exc.start, exc.end, exc.reason)
    else:
        assert decode_text(data) == expected
