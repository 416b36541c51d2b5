from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qmem.base import config
from qmem.engine import search, sync
from qmem.base.errors import BadInputError, NotFoundError
from qmem.engine.search import SearchOptions


def paths(hits):
    return [h.path for h in hits]


def test_chinese_query_finds_overlapping_wording(cfg):
    hits = search.search(cfg, "私钥被盗")
    assert hits[0].path == "MEMORY.md" and hits[0].anchor == "security"
    line = hits[0].snippet.lines[0]
    marked = [line[a:b] for a, b in hits[0].snippet.spans[0]]
    assert "私钥" in marked and "被盗" in marked  # per-character highlights merged into runs


def test_english_query_with_stemming_and_breadcrumb(cfg):
    hit = search.search(cfg, "encoded utf8 powershell")[0]
    assert hit.heading == "Memory › Skills › Windows PS5 编码地狱"
    assert hit.anchor == "s-windows-ps5-编码地狱"
    assert hit.types == ["S"]
    assert hit.abs_path == os.path.join(cfg.collections["main"].path, "MEMORY.md")


def test_snippet_points_at_the_matching_line(cfg, workspace):
    hit = search.search(cfg, "rsync resume")[0]
    lines = (workspace / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert "rsync" in lines[hit.snippet.line - 1]
    assert hit.line_start <= hit.snippet.line <= hit.line_end


def test_one_character_cjk_query(cfg):
    assert "MEMORY.md" in paths(search.search(cfg, "钱"))


def test_mixed_chinese_english_query(cfg):
    hits = search.search(cfg, "Windows 乱码")
    assert hits[0].path == "memory/2026-02-27.md"


def test_filters_by_type_date_and_path(cfg):
    assert set(paths(search.search(cfg, "USDC decimals", SearchOptions(types=["K"])))) == {
        "MEMORY.md", "memory/2026-02-28.md", "memory/knowledge.md"}
    dated = search.search(cfg, "USDC decimals", SearchOptions(since="2026-02-28", until="2026-02-28"))
    assert set(paths(dated)) == {"memory/2026-02-28.md"}
    assert all(h.date == "2026-02-28" for h in dated)
    assert search.search(cfg, "PowerShell", SearchOptions(until="2026-02-27"))[0].path == "memory/2026-02-27.md"
    assert set(paths(search.search(cfg, "decimals", SearchOptions(path="memory/2026-*")))) == {"memory/2026-02-28.md"}
    assert set(paths(search.search(cfg, "decimals", SearchOptions(path="knowledge.md")))) == {"memory/knowledge.md"}
    security = search.search(cfg, "keys", SearchOptions(types=["security"]))
    assert security and all("!" in h.types for h in security)


def test_filter_only_query_lists_matching_sections(cfg):
    hits = search.search(cfg, "", SearchOptions(types=["E"], limit=50))
    assert {h.path for h in hits} == {"memory/2026-02-27.md", "memory/2026-02-28.md"}


def test_limit_is_applied_after_filters(cfg):
    hits = search.search(cfg, "the", SearchOptions(path="memory/**", limit=2))
    assert len(hits) == 2 and all(h.path.startswith("memory/") for h in hits)


def test_quoted_phrase_and_exclusion(cfg):
    assert paths(search.search(cfg, '"backup cron"', SearchOptions(exact=True))) == ["MEMORY.md"]
    assert search.search(cfg, '"cron backup"', SearchOptions(exact=True)) == []
    with_nas = paths(search.search(cfg, "backup"))
    without = paths(search.search(cfg, "backup -nas"))
    assert "memory/2026-02-28.md" in with_nas and without == []


def test_quoted_phrase_in_a_question_ranks_higher_but_does_not_filter(cfg):
    """A quoted title written a little differently must not make the answer vanish: without
    --exact a phrase is a boosted unit, its words still count."""
    assert search.search(cfg, '"cron backup"')  # the words match, the phrase does not
    first = search.search(cfg, 'backup "backup cron"')[0]
    assert first.path == "MEMORY.md"
    with_phrase = {h.path: h.score for h in search.search(cfg, 'backup "backup cron"')}
    words_only = {h.path: h.score for h in search.search(cfg, "backup backup cron")}
    assert with_phrase["MEMORY.md"] > words_only["MEMORY.md"]


def test_min_score_and_limit(cfg):
    hits = search.search(cfg, "USDC decimals BSC")
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    cut = hits[0].score - 0.001
    assert len(search.search(cfg, "USDC decimals BSC", SearchOptions(min_score=cut))) == 1
    assert len(search.search(cfg, "USDC decimals BSC", SearchOptions(limit=1))) == 1
    with pytest.raises(BadInputError):
        search.search(cfg, "x", SearchOptions(limit=0))


def test_bad_filter_values_are_clear_errors(cfg):
    with pytest.raises(BadInputError, match="bad date"):
        search.search(cfg, "x", SearchOptions(since="2026-13-01"))
    with pytest.raises(BadInputError, match="unknown entry type"):
        search.search(cfg, "x", SearchOptions(types=["Z"]))
    with pytest.raises(BadInputError, match="after"):
        search.search(cfg, "x", SearchOptions(since="2026-03-01", until="2026-01-01"))
    with pytest.raises(NotFoundError, match="no collection named"):
        search.search(cfg, "x", SearchOptions(collections=["nope"]))


def test_relative_dates():
    from datetime import date

    assert search.parse_day("7d", today=date(2026, 3, 8)) == 20260301
    assert search.parse_day("yesterday", today=date(2026, 3, 1)) == 20260228


def test_multi_collection_ranking_is_fair(tmp_path):
    text = "# Note\nThe deploy key rotation happens monthly.\n"
    for name in ("a", "b"):
        root = tmp_path / name
        root.mkdir()
        (root / "MEMORY.md").write_text(text, encoding="utf-8")
    cfg = config.load()
    config.add_collection(cfg, config.Collection("a", str(tmp_path / "a")))
    config.add_collection(cfg, config.Collection("b", str(tmp_path / "b")))
    sync.refresh(cfg)
    hits = search.search(cfg, "deploy key rotation")
    assert sorted(h.collection for h in hits) == ["a", "b"]
    assert hits[0].score == pytest.approx(hits[1].score)
    only_b = search.search(cfg, "deploy key rotation", SearchOptions(collections=["b"]))
    assert [h.collection for h in only_b] == ["b"]


def test_deleted_file_never_returned_after_refresh(cfg, workspace):
    assert "memory/knowledge.md" in paths(search.search(cfg, "PostgreSQL"))
    os.unlink(workspace / "memory" / "knowledge.md")
    sync.refresh(cfg)
    assert "memory/knowledge.md" not in paths(search.search(cfg, "PostgreSQL"))


def test_edited_file_shows_current_text_and_deleted_file_is_dropped_before_refresh(cfg, workspace):
    path = workspace / "memory" / "knowledge.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("## BSC", "## Intro\nnew intro line\n\n## BSC"), encoding="utf-8")
    hit = next(h for h in search.search(cfg, "BNB gas") if h.path == "memory/knowledge.md")
    assert hit.stale
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[hit.snippet.line - 1].startswith(hit.snippet.lines[0].rstrip("…")) and "BNB" in hit.snippet.text
    assert lines[hit.line_start - 1] == "## BSC"
    fresh = search.search(cfg, "PowerShell")[0]
    assert not fresh.stale
    os.unlink(workspace / "memory" / "2026-02-27.md")
    assert "memory/2026-02-27.md" not in paths(search.search(cfg, "PowerShell"))


def test_hit_json_shape(cfg):
    d = search.search(cfg, "USDC")[0].to_dict()
    for key in ("collection", "path", "abs_path", "anchor", "heading", "line_start", "line_end",
                "score", "snippet", "date", "types", "stale"):
        assert key in d
    assert "body" not in d and "body" in search.search(cfg, "USDC")[0].to_dict(full=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_any_query_returns_a_list(cfg, text):
    hits = search.search(cfg, text)
    assert isinstance(hits, list)


def test_filters_never_change_scores(cfg, workspace):
    """Issue 10 finding 9: --since, --type, --path and -c restrict, they never score."""
    import shutil

    from qmem.engine import catalog

    shutil.copytree(workspace, workspace.parent / "ws2")
    catalog.create(cfg, "other", str(workspace.parent / "ws2"))
    cfg = config.load()
    plain = {(h.collection, h.path, h.anchor, h.line_start): h.score
             for h in search.search(cfg, "USDC decimals keys PowerShell", SearchOptions(limit=50))}
    assert plain
    for options in (SearchOptions(since="2026-01-01"), SearchOptions(until="2026-12-31"), SearchOptions(types=["K"]),
                    SearchOptions(types=["S", "K"]), SearchOptions(path="memory/*"),
                    SearchOptions(collections=["main"]), SearchOptions(collections=["main", "other"])):
        options.limit = 50
        filtered = search.search(cfg, "USDC decimals keys PowerShell", options)
        assert filtered
        for h in filtered:
            assert h.score == pytest.approx(plain[(h.collection, h.path, h.anchor, h.line_start)], abs=1e-6)


def test_a_date_in_the_question_is_a_prior_never_a_filter(cfg):
    plain = search.search(cfg, "USDC decimals", SearchOptions(limit=20))
    dated = search.search(cfg, "USDC decimals on 2026-02-28", SearchOptions(limit=20, now="2026-03-05", explain=True))
    assert {h.path for h in plain} <= {h.path for h in dated}  # nothing filtered out
    assert dated[0].date == "2026-02-28" and dated[0].explain["date_prior"]["factor"] > 1
    assert search.search(cfg, "USDC", SearchOptions(when="2026-02-28", now="2026-03-05"))[0].date == "2026-02-28"
    with pytest.raises(BadInputError):
        search.search(cfg, "USDC", SearchOptions(when="whenever"))


def test_recency_never_demotes_undated_files(cfg):
    plain = {(h.path, h.line_start): h.score for h in search.search(cfg, "USDC decimals", SearchOptions(limit=20))}
    recent = search.search(cfg, "USDC decimals", SearchOptions(limit=20, recency=7, now="2027-01-01"))
    for h in recent:
        if h.date is None:
            assert h.score == pytest.approx(plain[(h.path, h.line_start)])
        else:
            assert h.score < plain[(h.path, h.line_start)]


def test_a_query_with_a_matching_unit_never_returns_nothing(cfg):
    # long Chinese questions whose bigrams miss still find the characters
    assert search.search(cfg, "我之前说的那个钱包余额到底是怎么回事来着")
    assert search.search(cfg, "what did I say about the wallet?")


def test_budget_returns_what_fits(cfg):
    hits = search.search(cfg, "USDC decimals keys", SearchOptions(limit=50, budget=60))
    from qmem.text.analysis import estimate_tokens
    assert hits and sum(estimate_tokens(h.snippet.text) + search.HIT_OVERHEAD_TOKENS for h in hits) <= 60


def _collection(tmp_path, files: dict[str, str]):
    from qmem.base import config
    from qmem.engine import catalog

    root = tmp_path / "mem"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    catalog.create(config.load(), "m", str(root), patterns=["**/*.md"])
    return config.load()


def test_a_date_without_a_year_means_the_latest_such_day_the_memory_holds(tmp_path):
    """Counted from today, "5月2日" is this year's, which the memory may not hold: the prior
    goes to the latest year that has the day, not nowhere."""
    cfg = _collection(tmp_path, {
        "memory/2023-05-02.md": "# 2023-05-02\n\n- 去公园散步，看到很多花\n",
        "memory/2023-05-03.md": "# 2023-05-03\n\n- 公园散步，花开得很好，拍了照片\n",
    })
    hits = search.search(cfg, "5月2日我在公园看到了什么", SearchOptions(explain=True, now="2026-12-01"))
    assert hits[0].date == "2023-05-02" and hits[0].explain["date_prior"]["ranges"] == ["20230502-20230502"]


def test_date_words_stay_in_the_query_when_no_section_holds_the_date(tmp_path):
    """A relative date counted from today names no day of an old memory: no prior, and its
    words are not silently dropped."""
    cfg = _collection(tmp_path, {
        "notes/a.md": "# A\n\nI finished the novel a week ago, great ending\n",
        "notes/b.md": "# B\n\nI finished the novel, great ending, on the train\n",
    })
    hits = search.search(cfg, "which novel did I finish a week ago", SearchOptions(explain=True, now="2026-12-01"))
    assert hits[0].path == "notes/a.md" and "date_prior" not in hits[0].explain
    assert {"week", "ago"} <= set(hits[0].explain["units"])


def test_a_function_word_never_outranks_the_keyword_in_a_tiny_collection(tmp_path):
    """`a` is in one note of three and `cat` in two: BM25's IDF alone prefers `a`."""
    cfg = _collection(tmp_path, {
        "x.md": "# X\n\na b\n", "y.md": "# Y\n\ncat food\n", "z.md": "# Z\n\ncat toy\n",
    })
    assert search.search(cfg, "a cat")[0].path in ("y.md", "z.md")


def test_a_section_whose_entry_answers_outranks_one_with_the_words_scattered(tmp_path):
    """Sections are re-ranked by their best entry: the words of the question together in one
    message beat the same words spread over a longer day."""
    scattered = "\n".join(["# 2026-03-01", ""] + [f"- 阿杰: {w}今天好累" for w in ("小王", "的猫", "叫什么", "名字")]
                           + ["- 阿杰: 小王说猫很可爱", "- 阿杰: 名字好难起"])
    together = "\n".join(["# 2026-03-02", ""] + ["- 小李: 今天加班", "- 小王: 我家的猫叫团子，名字是女儿起的",
                                                  "- 小李: 下雨了", "- 小李: 明天见", "- 小李: 周末有空吗", "- 小李: 晚安"])
    cfg = _collection(tmp_path, {"memory/2026-03-01.md": scattered, "memory/2026-03-02.md": together})
    hits = search.search(cfg, "小王的猫叫什么名字", SearchOptions(explain=True))
    assert hits[0].path == "memory/2026-03-02.md" and "团子" in hits[0].snippet.text
    assert hits[0].explain["entry"] > 0


def test_a_day_below_the_first_ten_by_bm25_whose_message_answers_is_re_ranked(tmp_path):
    """Fourteen days of a log repeat the question's words on messages of their own (a higher
    section BM25); a longer day holds them together in one message. Where the sections read are
    long logs the re-ranking by best entry reaches 20 sections deep, so that day is read and
    ranked first, not left 15th by BM25 alone."""
    files = {}
    for day in range(1, 15):
        lines = [f"# 2026-03-{day:02d}", ""] + [f"- 阿杰: 今天{w}好累" for w in ("小王", "的猫", "猫叫", "名字")] * 3
        files[f"memory/2026-03-{day:02d}.md"] = "\n".join(lines) + "\n"
    answer = [f"- 小李: 今天加班{k}" for k in range(20)] + ["- 小王: 我家的猫叫团子，名字是女儿起的"]
    files["memory/2026-04-01.md"] = "\n".join(["# 2026-04-01", "", *answer]) + "\n"
    cfg = _collection(tmp_path, files)
    hits = search.search(cfg, "小王的猫叫什么名字", SearchOptions(limit=3))
    assert hits[0].path == "memory/2026-04-01.md" and "团子" in hits[0].snippet.text


def test_short_sections_are_re_ranked_ten_deep(tmp_path, monkeypatch):
    """Notes of a few entries are ranked by BM25 about as their entries would be: a search of
    them reads and marks only the first ten for -n 5 (a cold search costs no extra reads)."""
    from qmem.text import snippets

    cfg = _collection(tmp_path, {f"notes/n{k:02d}.md": f"# N{k}\n\n- cat food {k}\n- dog\n" for k in range(30)})
    marked = []
    real = snippets.scorer
    monkeypatch.setattr(snippets, "scorer", lambda body, units, side="": marked.append(body) or real(body, units, side))
    assert len(search.search(cfg, "cat food", SearchOptions(limit=5))) == 5
    assert len(marked) == search.RERANK_DEPTH


def _group_log(tmp_path, days: int = 10):
    """Days of a group chat where everybody asks the question's common words and one person,
    named in every day's log once, answers on day 4 with none of them."""
    people = ["阿杰", "李姐", "老周", "小美", "阿强", "张姐"]
    places = ["超市", "公园", "医院", "公司", "银行", "学校"]
    files = {}
    for day in range(days):
        lines = [f"# 2026-03-{day + 1:02d}", ""]
        for k in range(24):
            lines.append(f"- {people[k % 6]}: 今天去了哪里？{places[(k + day) % 6]}人多吗")
            if k == 11:
                lines.append("- 小王: 西湖，人很多" if day == 3 else "- 小王: 晚安各位")
        files[f"memory/2026-03-{day + 1:02d}.md"] = "\n".join(lines) + "\n"
    return _collection(tmp_path, files), files["memory/2026-03-04.md"].split("\n").index("- 小王: 西湖，人很多") + 1


def test_a_snippet_points_at_the_named_persons_message_in_a_log_of_many(tmp_path):
    """The name is in every day (a section-level weight near 0) but in one message of each;
    the question's other words are in every message. Weighed by their rarity among entries
    too, the reported line is the named person's message, not a look-alike question."""
    cfg, line = _group_log(tmp_path)
    hits = search.search(cfg, "小王今天去了哪里？", SearchOptions(limit=10))
    day = next(h for h in hits if h.path == "memory/2026-03-04.md")
    assert day.line == line and "西湖" in day.snippet.text


def test_another_persons_look_alike_question_does_not_hide_the_named_persons_answer(tmp_path):
    """In a group log, `静静买了什么牌子的车？` is about 静静: another person's `小3你新车什么牌子？`
    holds the question's rarer words but not the person, and the answer (静静's own message)
    holds only the name and 车. An entry that names no one the question names counts less,
    so the day shows 静静's message, not the look-alike exchange."""
    chatter = ["- 小李: 今天好累", "- 静静: 晚安各位", "- 老周: 早上好", "- 小美: 又下雨了"]
    files = {}
    for day in range(1, 7):
        lines = [f"# 2026-03-0{day}", "", *chatter, f"- 阿芳: 小{day}你新车什么牌子？", f"- 小{day}: 丰田的，开着挺顺",
                 *chatter]
        if day == 3:
            lines.append("- 静静: 提了辆本田的新车，开着挺顺")
        files[f"memory/2026-03-0{day}.md"] = "\n".join(lines + chatter) + "\n"
    cfg = _collection(tmp_path, files)
    hits = search.search(cfg, "静静买了什么牌子的车？", SearchOptions(limit=3, snippet_lines=2))
    day = next(h for h in hits if h.path == "memory/2026-03-03.md")
    assert "本田" in day.snippet.text and day.line == 13


def test_a_two_party_log_names_no_one():
    """用户 and AI are roles, not people a question is about: in a log of two speakers no entry
    is weighed down for not holding the speaker the question happens to name."""
    from qmem.text import snippets

    body = "- 用户: 你好，AI\n  - AI: 你好\n- 用户: 推荐一部电影\n  - AI: 《肖申克的救赎》"
    sc = snippets.scorer(body, [("A", "I"), ("电", "影")])
    assert snippets.named_units([sc]) == set()
    group = snippets.scorer("- 小王: 晚安\n- 小李: 早\n- 阿杰: 小王你家猫叫啥", [("小", "王"), ("猫",)])
    assert snippets.named_units([group]) == {0}


def test_labelled_notes_are_no_group_log():
    """`- Key: …`, `- Note: …`, `- Tip: …` are labels, not people: in notes where plain items sit
    among them, a query word that is a label names no one, and no item is weighed down for
    lacking it (`the api token rotates every 30 days` may answer `api key rotation`)."""
    from qmem.text import snippets

    body = "- Key: kept in the vault\n- Note: ask ops first\n- Tip: use the cli\n- the api token rotates every 30 days"
    sc = snippets.scorer(body, [("key",), ("rotat",)])
    assert snippets.named_units([sc]) == set() and not sc.named


def test_entry_rarity_of_sections_of_one_entry_is_their_section_rarity():
    """A collection of one-paragraph sections (abstracts, passages): entry-level weights are the
    section-level ones, so SciFact-like ranking and snippets are unchanged."""
    from qmem.text import query as query_mod, snippets

    units = [query_mod.Unit(("cat",)), query_mod.Unit(("food",), 0.5)]
    scorers = [snippets.scorer(body, [u.tokens for u in units]) for body in ("cat food here", "a cat", "food")]
    counts = (40, [2, 5])
    form = query_mod.QueryForm()
    form.should = units
    weights = search.weights_of(form, counts)
    assert search.entry_rarity(counts, units, scorers) == pytest.approx(weights)
    assert search.show_weights(counts, units, scorers, weights) == pytest.approx(weights)


def test_show_weights_are_real_when_a_count_passes_the_total():
    """Deleted sections not merged away yet still count in a unit's document frequency, so a
    section-level weight can fall below 0 while a refresh commits: the snippet's weights stay
    real numbers (a complex one made every search of that moment fail)."""
    from qmem.text import query as query_mod, snippets

    units = [query_mod.Unit(("cat",)), query_mod.Unit(("dog",))]
    scorers = [snippets.scorer("- cat\n- dog\n- cat dog", [u.tokens for u in units])]
    out = search.show_weights((3, [5, 1]), units, scorers, [-0.2, 1.0])
    assert all(isinstance(w, float) and w >= 0 for w in out)
