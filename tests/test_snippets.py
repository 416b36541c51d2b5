from __future__ import annotations

from qmem.snippets import MAX_LINE_CHARS, make_snippet


def test_best_window_covers_most_query_units():
    body = "intro\nnothing\nalpha here\nbeta and alpha\ngamma\n"
    snip = make_snippet(body, 10, [("alpha",), ("beta",)], 2)
    assert snip.line == 12
    assert snip.lines == ["alpha here", "beta and alpha"]
    assert snip.spans == [[(0, 5)], [(0, 4), (9, 14)]]


def test_phrase_highlight_requires_adjacent_tokens():
    snip = make_snippet("私钥泄露\n私 钥", 1, [("私", "钥")], 1)
    assert snip.line == 1 and snip.spans == [[(0, 2)]]


def test_no_match_falls_back_to_first_text_line():
    snip = make_snippet("\n\nfirst\nsecond", 5, [("zzz",)], 2)
    assert snip.line == 7 and snip.lines == ["first", "second"]


def test_overlong_lines_are_clipped_around_the_match():
    line = "x " * 400 + "needle" + " y" * 400
    snip = make_snippet(line, 1, [("needl",)], 1)
    text = snip.lines[0]
    assert text.startswith("…") and text.endswith("…") and len(text) <= MAX_LINE_CHARS + 2
    (a, b), = snip.spans[0]
    assert text[a:b] == "needle"


def test_empty_body():
    assert make_snippet("", 3, [("a",)], 3).lines == []
