from __future__ import annotations

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
