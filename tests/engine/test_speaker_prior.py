"""Questions about one side's words: in a two-party log (user and assistant), the other side's
lines weigh less when a section is ranked, unless they ask (a question frames its answer)."""

from __future__ import annotations

from qmem.engine import search
from qmem.engine.search import SearchOptions
from qmem.faces.render import explain_rows
from qmem.text import entries, query, snippets
from tests.engine.test_search import _collection

# the user talks about a film a friend recommended; on the other day the assistant recommends one
ZH = {
    "memory/2024-03-01.md": "# 2024-03-01\n\n- [a0] 用户: 早上好。\n  - AI: 早上好！\n"
                            "- [a1] 用户: 朋友推荐了一部电影，说这部电影很好看，周末我去看了。\n"
                            "  - AI: 真不错，周末过得很充实。\n",
    "memory/2024-03-02.md": "# 2024-03-02\n\n- [b0] 用户: 晚上好。\n  - AI: 晚上好！\n"
                            "- [b1] 用户: 周末有点无聊，不知道做什么。\n"
                            "  - AI: 推荐你看一部电影《星海》。\n",
}
EN = {
    "memory/2024-05-01.md": "# 2024-05-01\n\nuser: Good morning.\nassistant: Good morning!\n"
                            "user: My sister recommended a hiking trail near the lake, the lake trail was lovely.\n"
                            "assistant: Glad you enjoyed the weekend.\n",
    "memory/2024-05-02.md": "# 2024-05-02\n\nuser: Good evening.\nassistant: Good evening!\n"
                            "user: I want to go outside this weekend.\n"
                            "assistant: I recommended the Pine Ridge hiking trail near the lake.\n",
}


def test_which_side_a_question_asks_about():
    side = query.speaker_side
    assert side("你给我推荐过哪一部电影？") == "assistant"
    assert side("关于如何放松，你给了我什么建议？") == "assistant"
    assert side("我曾经向你咨询过画画的方法，你给了我哪些建议？") == "assistant"  # the asked clause decides
    assert side("你曾经给我推荐过一本书，这本书的名字是？") == "assistant"  # no pronoun in the last clause
    assert side("我曾经和你分享过一部电影，它的名字是？") == "user"
    assert side("我提到过去了海边，你还记得我在那里看到了什么吗？") == "user"  # 你还记得 only addresses
    assert side("我的心情怎么样？") == "user"
    assert side("我们上周聊了哪些话题？") == ""  # both
    assert side("小王的猫叫什么名字？") == ""  # a person, not a side
    assert side("Can you remind me of the website you recommended for free lessons?") == "assistant"
    assert side("What was the 7th item in the list you provided?") == "assistant"
    assert side("What did you suggest for the drive?") == "assistant"
    assert side("I mentioned a trail last week, what was its name?") == "user"
    # a request for something new asks about no earlier reply
    assert side("Can you suggest some accessories for my camera?") == ""
    assert side("How many doctor's appointments did I go to in March?") == ""


def test_the_sides_of_a_log():
    lines = ["- [t1] 用户: 你好", "  - AI: 你好！", "**User:** hi", "assistant: hello", "more of the reply",
             "- [09:10] 小王: 我到了", "a note"]
    assert entries.sides(lines, entries.spans(lines)) == ["user", "assistant", "user", "assistant", "assistant",
                                                          "", ""]


def test_a_question_about_the_assistants_words_ranks_its_reply_day_first(tmp_path):
    cfg = _collection(tmp_path, ZH)
    plain = search.search(cfg, "有人推荐过哪一部电影？", SearchOptions())
    assert plain[0].date == "2024-03-01"  # more of the words, on the user's line
    hits = search.search(cfg, "你给我推荐过哪一部电影？", SearchOptions(explain=True))
    assert hits[0].date == "2024-03-02"
    assert hits[0].explain["speaker_prior"] == {"side": "assistant", "other_side": snippets.SIDE_OTHER}
    assert any("assistant's words: the user's lines ×0.5" in row for row in explain_rows(hits[0].explain))


def test_english_and_the_users_own_words(tmp_path):
    cfg = _collection(tmp_path, EN)
    assert search.search(cfg, "which hiking trail near the lake?", SearchOptions())[0].date == "2024-05-01"
    assert search.search(cfg, "Which hiking trail near the lake did you recommend?",
                         SearchOptions())[0].date == "2024-05-02"
    # the user's own words: the assistant's line weighs less
    assert search.search(cfg, "I mentioned a hiking trail near the lake, which one?",
                         SearchOptions())[0].date == "2024-05-01"


def test_a_line_that_asks_and_logs_without_sides_keep_their_weight(tmp_path):
    body = "- [c1] 用户: 你有推荐的电影吗？\n  - AI: 看《星海》吧。\n- [c2] 用户: 我也看了电影。\n  - AI: 电影不错。"
    units = [("电", "影")]
    sc = snippets.scorer(body, units, "assistant")
    assert sc.factors == [1.0, 1.0, snippets.SIDE_OTHER, 1.0]  # the user's line that asks counts whole
    assert snippets.scorer("- 周末看了电影\n- 电影很好看", units, "user").factors is None  # notes
    group = "- [09:10] 小王: 我看了电影\n- [09:11] 阿杰: 什么电影？"
    assert snippets.scorer(group, units, "assistant").factors is None  # people, not sides
    notes = _collection(tmp_path, {"notes.md": "# Films\n\n- 朋友推荐了一部电影\n- 周末看了\n"})
    hit = search.search(notes, "你给我推荐过哪一部电影？", SearchOptions(explain=True))[0]
    assert "speaker_prior" not in hit.explain  # --explain names the prior only where it applies


def test_hybrid_query_ranks_with_the_speaker_prior_below_bm25s_first_hits(tmp_path, monkeypatch):
    """`qmem query` fuses BM25's ranking with the vectors'. Its BM25 list is `qmem search`'s own
    order (entries, the speaker, date and first/last-time priors), not the index's raw BM25,
    so with no vectors to add it is search's answer even where BM25's kept first hits end
    (keep 0: every place is fused)."""
    from qmem.engine import hybrid
    from qmem.vector import models, store

    cfg = _collection(tmp_path, ZH)
    fake = models.Fake()
    store.embed(cfg, "m", fake)
    text = "你给我推荐过哪一部电影？"
    options = SearchOptions(limit=2)
    monkeypatch.setattr(hybrid, "ranked_vectors", lambda *a, **k: [])  # the vectors add nothing
    fused = hybrid.hybrid(cfg, text, options, fake, keep=0)
    assert [h.date for h in fused] == [h.date for h in search.search(cfg, text, options)] == ["2024-03-02",
                                                                                               "2024-03-01"]
    assert fused[0].ranks == {"bm25": 1, "vector": None}
