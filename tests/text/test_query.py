from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.text import query


def tokens(units):
    return [(u.tokens, u.boost) for u in units]


def test_words_become_or_terms():
    form = query.parse("Wallet drained keys")
    assert tokens(form.should) == [(("wallet",), 1.0), (("drain",), 1.0), (("key",), 1.0)]
    assert form.must == [] and form.must_not == []


def test_cjk_run_becomes_bigrams_low_unigrams_and_a_boosted_whole_run():
    form = query.parse("私钥被盗")
    U = query.UNIGRAM_BOOST
    F = U * query.QUESTION_WEIGHT  # 被 alone is a function character
    assert tokens(form.should) == [
        (("私", "钥"), 1.0), (("钥", "被"), 1.0), (("被", "盗"), 1.0),
        (("私",), U), (("钥",), U), (("被",), F), (("盗",), U),
        (("私", "钥", "被", "盗"), query.WHOLE_RUN_BOOST),
    ]


def test_long_cjk_run_has_no_whole_run_phrase():
    form = query.parse("我上次去的那家餐厅叫什么来着")
    assert all(len(u.tokens) <= 2 for u in form.should)


def test_question_words_and_particles_weigh_little():
    weights = {u.tokens: u.boost for u in query.parse("what did she say about the adoption agency").should}
    assert weights[("what",)] == weights[("did",)] == query.QUESTION_WEIGHT
    assert weights[("adopt",)] == 1.0
    zh = {"".join(u.tokens): u.boost for u in query.parse("我上次去的那家餐厅叫什么来着").should}
    assert zh["什么"] < 1 and zh["来着"] < 1 and zh["么来"] < 1
    assert zh["餐厅"] == 1.0


def test_space_separated_cjk_words_are_separate_runs_and_one_char_is_a_term():
    form = query.parse("私钥 泄露 钱")
    U = query.UNIGRAM_BOOST
    assert tokens(form.should) == [(("私", "钥"), 1.0), (("私",), U), (("钥",), U), (("泄", "露"), 1.0),
                                   (("泄",), U), (("露",), U), (("钱",), 1.0)]


def test_mixed_text():
    form = query.parse("Windows编码")
    assert [u.tokens for u in form.should] == [("window",), ("编", "码"), ("编",), ("码",)]


def test_quoted_phrase_must_match_when_exact_and_minus_excludes():
    form = query.parse('"cron job" backup -nas -"seed phrase"', exact=True)
    assert [u.tokens for u in form.must] == [("cron", "job")]
    assert [u.tokens for u in form.should] == [("backup",)]
    assert sorted(form.must_not) == [("nas",), ("seed", "phrase")]


def test_quoted_phrase_in_free_text_is_a_boosted_unit_beside_its_words():
    form = query.parse('"cron job" backup -"seed phrase"')
    assert form.must == []
    assert tokens(form.should) == [(("cron", "job"), query.QUOTE_BOOST), (("cron",), 1.0), (("job",), 1.0),
                                   (("backup",), 1.0)]
    assert form.must_not == [("seed", "phrase")]


def test_hyphen_inside_a_word_is_not_an_exclusion():
    form = query.parse("well-known")
    assert [u.tokens for u in form.should] == [("well",), ("known",)]
    assert form.must_not == []


def test_duplicates_collapse_and_units_are_capped():
    assert len(query.parse("key key KEY keys").should) == 1
    long_text = " ".join(f"word{i}" for i in range(5000))
    assert len(query.parse(long_text).should) == query.MAX_UNITS


def test_parser_hostile_inputs_do_not_raise():
    for text in ['error: refused', "user's key", "C++", '"', '-x', 'AND', 'OR NOT', '*', '🚀🔑',
                 "a" * 10_000, "\x00\x01\x1b[31m", '""', '-', '--', '"unbalanced', 'title:foo', '(a OR b)',
                 "\\", "[K]", "{}", "^2", "~1"]:
        query.parse(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses(text):
    form = query.parse(text)
    for unit in form.should + form.must:
        assert unit.tokens and all(unit.tokens)
