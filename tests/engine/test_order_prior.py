"""Questions about the first or the last time: the earliest / latest of the days that match."""

from __future__ import annotations

from qmem.engine import search
from qmem.engine.search import SearchOptions
from qmem.text import query
from tests.engine.test_search import _collection

EN = {
    "memory/2024-03-02.md": "# 2024-03-02\n\n- Went to the science museum with Anna\n- Bought bread\n",
    # the day with the most museum words: plain BM25 ranks it first
    "memory/2024-04-10.md": "# 2024-04-10\n\n- Went to the science museum with Ben\n"
                            "- The museum cafe was closed, museum shop too\n",
    "memory/2024-05-20.md": "# 2024-05-20\n\n- Went to the science museum with Carl\n- Rain all day\n",
    # the latest day of all, but about something else
    "memory/2024-06-01.md": "# 2024-06-01\n\n- Went to the dentist with Dan\n",
}
ZH = {
    "memory/2024-03-02.md": "# 2024-03-02\n\n- 和小林去了科技博物馆\n- 买了面包\n",
    "memory/2024-04-10.md": "# 2024-04-10\n\n- 和小周去了科技博物馆\n- 博物馆的咖啡馆关门了，博物馆商店也关了\n",
    "memory/2024-05-20.md": "# 2024-05-20\n\n- 和小陈去了科技博物馆\n- 下了一天雨\n",
    "memory/2024-06-01.md": "# 2024-06-01\n\n- 和小李去看了牙医\n",
}


def test_ordinal_words():
    assert query.ordinal("Who was with me the first time I went to the museum?") == "first"
    assert query.ordinal("Where do I initially keep my old sneakers?") == "first"
    assert query.ordinal("你还记得我们第一次对话的时候聊了什么吗？") == "first"
    assert query.ordinal("How long since I last visited a museum?") == "last"
    assert query.ordinal("Where do I currently keep my old sneakers?") == "last"
    assert query.ordinal("上次我们聊了什么？") == "last"
    assert query.ordinal("我最近一次去博物馆是和谁？") == "last"
    # not ordinals: "recently", any earlier talk, a date, a span
    assert query.ordinal("我最近去了哪里旅游？") == ""
    assert query.ordinal("our previous conversation about music theory") == ""
    assert query.ordinal("what did I do last week?") == ""
    assert query.ordinal("in the first three months of collecting") == ""
    assert query.ordinal("the first time it was better than the last time") == ""


def test_the_last_time_is_the_latest_matching_day_not_the_likeliest(tmp_path):
    cfg = _collection(tmp_path, EN)
    plain = search.search(cfg, "who was with me at the science museum", SearchOptions())
    assert plain[0].date == "2024-04-10"  # BM25 alone
    hits = search.search(cfg, "Who was with me the last time I went to the science museum?",
                         SearchOptions(explain=True))
    assert hits[0].date == "2024-05-20"  # the dentist (06-01) matches too little to count
    assert hits[0].explain["order_prior"] == {"order": "last", "factor": 1.0 + search.ORDER_PRIOR}
    assert hits[0].score > hits[1].score
    first = search.search(cfg, "Who was with me the first time I went to the science museum?", SearchOptions())
    assert first[0].date == "2024-03-02"


def test_chinese_first_and_last_time(tmp_path):
    cfg = _collection(tmp_path, ZH)
    assert search.search(cfg, "我去科技博物馆是和谁？", SearchOptions())[0].date == "2024-04-10"
    assert search.search(cfg, "我第一次去科技博物馆是和谁？", SearchOptions())[0].date == "2024-03-02"
    assert search.search(cfg, "我上次去科技博物馆是和谁？", SearchOptions())[0].date == "2024-05-20"
    # bare 最近 ("recently") is no ordinal: the ranking is the plain one
    assert search.search(cfg, "我最近去科技博物馆是和谁？", SearchOptions())[0].date == "2024-04-10"


def test_undated_notes_are_untouched(tmp_path):
    cfg = _collection(tmp_path, {"notes/a.md": "# A\n\nthe museum and the museum cafe\n",
                                 "notes/b.md": "# B\n\nthe museum\n"})
    plain = search.search(cfg, "at the museum", SearchOptions())
    hits = search.search(cfg, "the last time at the museum", SearchOptions(explain=True))
    assert [h.path for h in hits] == [h.path for h in plain]
    assert all(h.explain["order_prior"]["factor"] == 1.0 for h in hits)


def test_explain_text_names_the_prior(tmp_path):
    from qmem.faces.render import explain_rows

    cfg = _collection(tmp_path, EN)
    hit = search.search(cfg, "the first time I went to the science museum", SearchOptions(explain=True))[0]
    assert f"first-time prior ×{1.0 + search.ORDER_PRIOR:g}" in explain_rows(hit.explain)
