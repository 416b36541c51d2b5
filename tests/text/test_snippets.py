from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.text import snippets
from qmem.text.snippets import MAX_LINE_CHARS, entry_weights, make_snippet


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


def test_a_nested_reply_belongs_to_its_message():
    """`- [id] user: question` with `  - AI: answer` under it is one entry: a snippet that
    matches the reply shows the message (and its id) too."""
    body = "\n".join(["- [d1t1] 用户: 你好", "  - AI: 你好啊", "- [d1t2] 用户: 推荐一个历史游戏",
                      "  - AI: 可以试试《文明》", "- [d1t3] 用户: 谢谢", "  - AI: 不客气"])
    snip = make_snippet(body, 1, [("文", "明")], 2, [1.0])
    assert snip.lines == ["- [d1t2] 用户: 推荐一个历史游戏", "  - AI: 可以试试《文明》"]


def test_the_reply_to_the_best_message_is_shown_with_it():
    """An exchange: the line after the best-matching message, from another speaker, comes along
    even when it shares no word with the query and other lines do."""
    body = "\n".join(["- [s1:t0] user: my sneakers need cleaning, how old are they?",
                      "- [s1:t1] assistant: you told me you have had them for 3 years",
                      "- [s1:t2] user: thanks",
                      "- [s1:t3] assistant: filler text about nothing",
                      "- [s1:t4] user: other sneakers talk"])
    snip = make_snippet(body, 1, [("sneaker",), ("old",)], 2, [1.0, 1.0])
    assert snip.lines[0].startswith("- [s1:t0]") and snip.lines[1].startswith("- [s1:t1]")


def test_a_question_in_a_shown_entry_brings_the_entry_that_answers_it():
    """The answer to "where will you go?" holds none of the query's words; the entries that do
    (the plans, the bookings) must not crowd it out of the snippet."""
    body = "\n".join(["- [d8t1] user: today I want to talk about my travel plan",
                      "  - AI: sounds fun. where will you go?",
                      "- [d8t2] user: Spain next month, Madrid and Granada",
                      "  - AI: wonderful, how long will you stay?",
                      "- [d8t3] user: two weeks, my travel plan is full of museums",
                      "  - AI: a rich plan",
                      "- [d8t4] user: I booked the flights for the travel plan",
                      "  - AI: well prepared"])
    snip = make_snippet(body, 1, [("travel",), ("plan",)], 8, [1.0, 1.0])
    assert any(line.startswith("- [d8t2]") for line in snip.lines)
    assert snip.lines[0].startswith("- [d8t1]")
    # without a question mark the next entry is not pulled in
    plain = make_snippet(body.replace("where will you go?", "tell me more."), 1, [("travel",), ("plan",)], 8, [1.0, 1.0])
    assert not any(line.startswith("- [d8t2]") for line in plain.lines)


def test_a_query_unit_that_is_a_message_speaker_counts_more_than_one_in_the_text():
    """In a log of many people's messages, a question that names a person asks about that person's
    own lines: the name as a speaker outweighs another message that shares the question's other
    words (the name is in every day of the log, so its weight alone is low)."""
    body = "\n".join(["- [09:00] 丽丽: 黄姐你新车什么牌子？",
                      "- [09:40] 阿珍: 今天好累啊",
                      "- [13:10] 小罗: 提了辆比亚迪的新车"])
    units, weights = [("小", "罗"), ("牌", "子"), ("车",)], [0.8, 1.0, 0.3]
    snip = make_snippet(body, 1, units, 1, weights)
    assert snip.lines == ["- [13:10] 小罗: 提了辆比亚迪的新车"]
    # the same name inside a message's text counts once
    said = body.replace("- [13:10] 小罗: 提了辆", "- [13:10] 阿珍: 小罗提了辆")
    assert make_snippet(said, 1, units, 1, weights).lines == ["- [09:00] 丽丽: 黄姐你新车什么牌子？"]


def test_a_group_log_snippet_shows_no_other_conversation_as_context():
    """In a group log, a question that names a person is about that person's lines: the other
    people's messages around them (that neither name nor are spoken by the person) are another
    conversation, not context, and are not shown; a question a shown message answers is."""
    body = "\n".join(["- [09:00] 丽丽: 今天好累啊，终于下班了",
                      "- [09:10] 阿珍: 你家猫叫啥来着？",
                      "- [09:20] 小罗: 叫团子，特别粘人",
                      "- [09:30] 黄姐: 晚上去哪儿吃饭",
                      "- [09:40] 阿强: 又下雨了，忘带伞"])
    units, weights = [("小", "罗"), ("猫",), ("了",)], [0.3, 1.0, 0.01]
    sc = snippets.scorer(body, units)
    assert snippets.named_units([sc]) == {0}
    snip = make_snippet(body, 1, units, 8, weights, sc)
    assert snip.lines == ["- [09:10] 阿珍: 你家猫叫啥来着？", "- [09:20] 小罗: 叫团子，特别粘人"]
    # in a log of two speakers (roles, not people) nobody is named: the lines around stay as context
    two = body.replace("丽丽", "阿珍").replace("黄姐", "阿珍").replace("阿强", "阿珍")
    sc = snippets.scorer(two, units)
    assert snippets.named_units([sc]) == set() and len(make_snippet(two, 1, units, 8, weights, sc).lines) == 5


def test_entry_weights_are_the_best_entry_score_and_zero_without_a_match():
    body = "- alpha beta\n- gamma\n"
    (both, n), (one, _) = entry_weights(body, [("alpha",), ("beta",)], [1.0, 1.0]), entry_weights(body, [("gamma",)], [1.0])
    assert both > one > 0 and n == 2
    assert entry_weights(body, [("zzz",)], [1.0]) == (0.0, 2)
    snip = make_snippet(body, 1, [("alpha",), ("beta",)], 8, [1.0, 1.0])
    assert (snip.weight, snip.entries) == (both, 2)


_TEXT = st.text(alphabet=st.sampled_from(list("私钥被盗钱包哈的 ab\n-：:，") + ["\u3400", "\U00020000"]), max_size=80)
_UNIT = st.lists(st.sampled_from(list("私钥被盗钱包哈的") + ["\u3400", "\U00020000"]), min_size=1, max_size=3).map(tuple)


@settings(max_examples=300, deadline=None)
@given(body=_TEXT, units=st.lists(_UNIT, min_size=1, max_size=5))
def test_cjk_units_are_marked_as_the_analyzer_would(body, units):
    """The substring road for CJK-only units marks what the analyzer's tokens mark."""
    lines = body.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    fast = ([{} for _ in lines], [[] for _ in lines])
    slow = ([{} for _ in lines], [[] for _ in lines])
    snippets._mark_cjk(body, lines, units, starts, *fast)
    snippets._mark_tokens(body, lines, units, starts, *slow)
    assert fast[0] == slow[0] and [sorted(s) for s in fast[1]] == [sorted(s) for s in slow[1]]
