from __future__ import annotations

from qmem.text.snippets import MAX_LINE_CHARS, make_snippet


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


def test_window_follows_rare_units_not_common_ones():
    """A line holding the rare unit beats a line holding more common ones (weights = IDF)."""
    body = "- I did what I said\n- filler one\n- filler two\n- filler three\n- the adoption agency called"
    units = [("i",), ("did",), ("what",), ("adopt",)]
    snip = make_snippet(body, 1, units, 1, [0.1, 0.1, 0.1, 3.0])
    assert snip.best == 5 and snip.lines == ["- the adoption agency called"]


def test_two_strong_entries_far_apart_are_shown_with_a_gap():
    body = "\n".join(["- alpha beta"] + [f"- filler {i}" for i in range(20)] + ["- alpha gamma"])
    snip = make_snippet(body, 1, [("alpha",), ("beta",), ("gamma",)], 3, [1.0, 1.0, 1.0])
    assert "…" in snip.lines and snip.numbers[0] == 1 and snip.numbers[-1] in (22, 2)
    assert 22 in snip.numbers


def test_clipped_line_keeps_its_lead():
    line = "- [s3:t5] user: " + "words " * 100 + "needle here" + " tail" * 50
    snip = make_snippet(line, 1, [("needl",)], 1)
    assert snip.lines[0].startswith("- [s3:t5] user: …") and "needle" in snip.lines[0]
