from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.text import analysis


def test_cjk_characters_are_single_tokens_and_latin_words_are_stemmed():
    assert analysis.terms("私钥泄露 Running PS5编码 Keys") == ["私", "钥", "泄", "露", "run", "ps5", "编", "码", "key"]


def test_kana_and_hangul_split_per_character():
    assert analysis.terms("ひらがな한국어") == ["ひ", "ら", "が", "な", "한", "국", "어"]


def test_punctuation_splits_words_and_long_identifiers_survive():
    address = "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d"  # 42 bytes: tantivy's default drops it
    assert analysis.terms(f"user's key: {address}") == ["user", "s", "key", address.lower()]


def test_token_offsets_are_character_offsets():
    toks = analysis.tokens("私钥 key")
    assert [(t.text, t.char_offset_from, t.char_offset_to) for t in toks] == [("私", 0, 1), ("钥", 1, 2), ("key", 3, 6)]


def test_is_cjk():
    assert analysis.is_cjk("中") and analysis.is_cjk("カ") and analysis.is_cjk("한")
    assert not analysis.is_cjk("a") and not analysis.is_cjk("，") and not analysis.is_cjk("中文")


def test_token_estimate_counts_cjk_per_character():
    assert analysis.estimate_tokens("") == 0
    assert analysis.estimate_tokens("中文测试") == 4
    assert analysis.estimate_tokens("abcdefgh") == 2
    assert 20 <= analysis.estimate_tokens("The quick brown fox jumps over the lazy dog. " * 2) <= 26


# -- the indexing fast path gives the same tokens --------------------------------------------

EDGE_CASES = [
    "", " ", "\t\n\r", "a", "A", "İstanbul İİ ıi", "ǅemal ǈ", "Ⓐⓑ ⒜", "e\u0301te cafe\u0301 a\u0308\u0308", "\u0301lead",
    "👍🏽 ok 👩‍👩‍👧 🚀rocket", "𝐀𝐁𝐂 𝒳 abc𝐀def", "x" * 300, "İ" * 127, "İ" * 128, "İ" * 130, "ab" + "é" * 200,
    "١٢٣ ٤ ² ½ Ⅻ 〇 々 ⺀ 〆", "user's don’t l'été rock'n'roll", "हिन्दी भाषा ਪੰਜਾਬੀ ไทยภาษา",
    "עִבְרִית العربية", "ﾊﾝｶｸ ｶﾀｶﾅ ㄱㄴㄷ ㅏ", "私钥泄露，钱包被盗 Running PS5编码 Keys",
    "ひらがなカタカナ한국어漢字abc123", "\U0002ebf0\U00031350\U0002a700 x", "🈀🈁", "C++ & Rust: error-refused",
    "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", "snake_case kebab-case CamelCase", "a\u200bb\u200dc",
    "ŒUVRE Straße ß ẞ ΣΑΣ. ΌΣΟΣ", "\u3000全角\u3000スペース", "tab\tsep|pipe/slash\\back", "a\x00b\x1cc\x85d",
]


def _old_stream(text: str) -> list[tuple[int, str]]:
    return [(t.position, t.text) for t in analysis.analyzer().pre_tokenize(text).tokens]


def _new_stream(text: str) -> list[tuple[int, str]]:
    return [(t.position, t.text) for t in analysis.terms_analyzer().pre_tokenize(analysis.index_terms(text)).tokens]


def _bilingual_corpus() -> list[str]:
    from ..conftest import SAMPLE, SHARED_DATA

    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.rglob("*.md"))]
    for name in ("cmrc2018-zh", "beir-scifact"):  # real Chinese and English prose, when present
        corpus = SHARED_DATA / name / "corpus.jsonl"
        if corpus.exists():
            with corpus.open(encoding="utf-8") as handle:
                texts += [line for _, line in zip(range(400), handle)]
    return texts


def test_token_classes_are_read_off_tantivys_regex():
    """Every code point: the ranges the fast path uses are exactly what the Rust regex matches."""
    from qmem.text import token_classes

    from ..reference.token_classes_oracle import derive

    single, run = derive(analysis.TOKEN_PATTERN)
    regenerate = "regenerate: python -m tests.reference.token_classes_oracle"
    assert single == token_classes.ranges(token_classes.SINGLE), regenerate
    assert run == token_classes.ranges(token_classes.RUN), regenerate


def test_index_terms_give_the_analyzers_tokens_on_edge_cases():
    for text in EDGE_CASES:
        assert _new_stream(text) == _old_stream(text), repr(text)


def test_index_terms_give_the_analyzers_tokens_on_a_bilingual_corpus():
    texts = _bilingual_corpus()
    assert len(texts) >= 3
    for text in texts:
        assert _new_stream(text) == _old_stream(text)
    for text in texts:  # the second time every word comes from the cache
        assert _new_stream(text) == _old_stream(text)


_ALPHABET = st.one_of(
    st.sampled_from(list("aZ9 \t\n'’-_.,:;!?#[]()") + ["İ", "ı", "ß", "é", "\u0301", "\u0308", "中", "文", "カ", "ひ", "한",
                                                     "ｶ", "〇", "々", "٣", "²", "👍", "\U0001f3fd", "\u200d", "𝐀", "\U00020000", "\u3000"]),
    st.characters(blacklist_categories=("Cs",)),
)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_index_terms_give_the_analyzers_tokens_on_any_text(text):
    assert _new_stream(text) == _old_stream(text)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["x", "İ", "é", "中", "👍"]), min_size=120, max_size=300).map("".join))
def test_long_words_are_dropped_alike_and_keep_their_position_gap(word):
    text = f"before {word} after 后"
    assert _new_stream(text) == _old_stream(text)


# -- the cheaper roads of index_terms (CJK mixed with ASCII, breadcrumb headings) -------------------


def test_every_cjk_character_is_its_own_term():
    """What `_cjk_mixed` relies on: a CJK run's terms are its characters, spaced out."""
    from qmem.text import token_classes

    chars = [chr(c) for first, last in token_classes.ranges(token_classes.SINGLE) for c in range(first, last + 1)]
    assert len(chars) > 90_000
    assert analysis.analyzer().analyze(" ".join(chars)) == chars


def _regex_road(text: str) -> str:
    finders = analysis._word_finders
    words = (finders.full if finders.astral.search(text) else finders.bmp).findall(text)
    return " ".join(map(analysis._term_of.__getitem__, words))


_CJK_ASCII = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x01, max_codepoint=0x7F),
        st.sampled_from(list("中文钱包被盗私钥ひらがなカタカナ한국어ｶﾀ々〇，。：；！？（）《》、“”‘’—…\u3000·\u00a0«»")),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    ),
    max_size=120,
)


@settings(max_examples=300, deadline=None)
@given(_CJK_ASCII)
def test_cjk_mixed_road_gives_the_regex_roads_terms(text):
    analysis.index_terms("")  # compiles the finders
    terms = analysis._cjk_mixed(text, analysis._word_finders)
    assert terms is not None  # the road is taken: CJK, ASCII and non-token characters only
    assert terms == _regex_road(text)
    assert _new_stream(text) == _old_stream(text)


def test_cjk_mixed_road_declines_what_it_cannot_do():
    analysis.index_terms("")
    finders = analysis._word_finders
    for text in ("café 中文", "Ελλάδα，中", "a\x00中", "ǅemal 中"):
        assert analysis._cjk_mixed(text, finders) is None, text
        assert _new_stream(text) == _old_stream(text)
    assert analysis._cjk_mixed("私钥泄露，钱包被盗 Running PS5编码 Keys’s — ok", finders) == "私 钥 泄 露 钱 包 被 盗 run ps5 编 码 key s ok"


def test_the_heading_separator_holds_no_token_character():
    from qmem.base.conventions import HEADING_SEPARATOR

    assert analysis.terms(f"a{HEADING_SEPARATOR}b") == ["a", "b"]
    assert all(analysis.terms(f"x{c}y") == ["x", "y"] for c in HEADING_SEPARATOR)


_PART = st.one_of(st.text(alphabet=_ALPHABET, max_size=12), st.sampled_from(["", " ", "›", "x" * 300, "A › B"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PART, min_size=1, max_size=5), min_size=1, max_size=4))
def test_heading_terms_equal_index_terms(files):
    """Breadcrumbs of a few files, met in order as a build meets them (parents remembered)."""
    from qmem.base.conventions import HEADING_SEPARATOR

    analysis._heading_cache.clear()
    for parts in files:
        for depth in range(1, len(parts) + 1):
            heading = HEADING_SEPARATOR.join(parts[:depth])
            assert analysis.heading_terms(heading) == analysis.index_terms(heading), repr(heading)
    analysis._heading_cache.clear()
