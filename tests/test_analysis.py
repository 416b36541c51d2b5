from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem import analysis


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
    from .conftest import SAMPLE, SHARED_DATA

    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.rglob("*.md"))]
    for name in ("cmrc2018-zh", "beir-scifact"):  # real Chinese and English prose, when present
        corpus = SHARED_DATA / name / "corpus.jsonl"
        if corpus.exists():
            with corpus.open(encoding="utf-8") as handle:
                texts += [line for _, line in zip(range(400), handle)]
    return texts


def test_token_classes_are_read_off_tantivys_regex():
    """Every code point: the ranges the fast path uses are exactly what the Rust regex matches."""
    from qmem import token_classes

    single, run = token_classes.derive(analysis.TOKEN_PATTERN)
    assert single == token_classes.ranges(token_classes.SINGLE), "regenerate: token_classes.write(TOKEN_PATTERN)"
    assert run == token_classes.ranges(token_classes.RUN), "regenerate: token_classes.write(TOKEN_PATTERN)"


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
