"""Parity with Lucene itself: the OpenSearch template's analyzer and BM25 ranking, run by
Lucene 8's own classes (tests/reference/lucene/QmemLucene.java), against qmem's Tantivy side.

Needs a JDK and Debian's Lucene 8 jars (see tests/reference/lucene/runner.py: skipped on a developer
machine without them, a failure in CI, which installs them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qmem.text import analysis
from qmem.backends.opensearch import backend as osb

from ..conftest import SHARED_DATA
from ..reference.lucene import corpus
from ..reference.lucene.runner import compile_lucene

# Documented differences between tantivy (Rust) and Lucene (Java), token by token. The test
# checks each still behaves as written, so a fix on either side shows up.
TOKENIZER_DIFFERENCES = [
    # Rust lowercases İ (U+0130) to "i̇" (i + combining dot, Unicode's full mapping); Java's
    # Character.toLowerCase gives a plain "i".
    ("İstanbul", ["i\u0307stanbul"], ["istanbul"]),
    # tantivy drops tokens of 256 UTF-8 bytes or more, Lucene's length filter counts UTF-16
    # units (max 255): the same for ASCII, not for a 130-letter Cyrillic word (260 bytes).
    ("я" * 130, [], ["я" * 130]),
]
# Both stemmers are Snowball English (Porter2), of different revisions: Lucene's adds the
# R1 prefixes univers, emerg, organ, later, intern (…) and undoubles "added" → "ad";
# tantivy's rust-stemmers keeps the older rules.
STEMMER_DIFFERENCES = [
    ("organization", ["organiz"], ["organ"]),
    ("universal", ["universal"], ["univers"]),
    ("emergency", ["emergenc"], ["emerg"]),
    ("internal", ["internal"], ["intern"]),
    ("added", ["add"], ["ad"]),
]
# Of the distinct words in the corpus, the share both stemmers reduce alike.
MIN_STEM_AGREEMENT = 0.98


def data_dir() -> Path:
    for base in (os.environ.get("QMEM_EVAL_DATA"), SHARED_DATA, "/work/shared/data"):
        if base and (Path(base) / "beir-scifact" / "corpus.jsonl").exists():
            return Path(base)
    pytest.fail("shared data sets not found: set QMEM_EVAL_DATA to the folder holding beir-scifact")


@pytest.fixture(scope="module")
def lucene(tmp_path_factory):
    return compile_lucene(tmp_path_factory.mktemp("lucene-classes"))


def lucene_tokens(lucene, folder: Path, lines: list[str], stem: bool = True) -> list[list[str]]:
    src, out = folder / "lines.txt", folder / "tokens.txt"
    src.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    lucene.run("tokens", osb.TOKEN_PATTERN, str(osb.MAX_TOKEN_CHARS), "1" if stem else "0", str(src), str(out))
    return [row.split("\t") if row else [] for row in out.read_text(encoding="utf-8").split("\n")[:-1]]


def unstemmed(text: str) -> list[str]:
    """qmem's chain without its stemmer (the tokenizer and lowercase under test)."""
    import tantivy

    chain = (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(analysis.TOKEN_PATTERN))
             .filter(tantivy.Filter.remove_long(256)).filter(tantivy.Filter.lowercase()).build())
    return chain.analyze(text)


def test_template_analyzer_gives_qmem_tokens_line_by_line(lucene, tmp_path):
    lines = corpus.build(data_dir(), lines=1200)
    assert len(lines) >= 1000
    words = lucene_tokens(lucene, tmp_path, lines, stem=False)
    stems = lucene_tokens(lucene, tmp_path, lines)
    assert len(words) == len(stems) == len(lines)
    # Tokenizer, length filter and lowercase: identical on every line.
    differing = [(n, line, unstemmed(line), toks)
                 for n, (line, toks) in enumerate(zip(lines, words), 1) if unstemmed(line) != toks]
    assert differing == [], "first difference (line, text, qmem, lucene): %r" % (differing[0],)
    # The stemmer: the same word on both sides, compared stem by stem.
    same_lines = 0
    verdict: dict[str, bool] = {}
    for line, ours_words, theirs in zip(lines, words, stems):
        ours = analysis.terms(line)
        assert len(ours) == len(theirs) == len(ours_words)
        same_lines += ours == theirs
        for word, a, b in zip(ours_words, ours, theirs):
            verdict[word] = verdict.get(word, True) and a == b
    agreement = sum(verdict.values()) / len(verdict)
    print(f"\nanalyzer parity over {len(lines)} lines, {sum(map(len, words))} tokens: tokenizer+lowercase "
          f"{len(lines)}/{len(lines)} lines; with the stemmer {same_lines}/{len(lines)} lines, "
          f"{sum(verdict.values())}/{len(verdict)} distinct words ({agreement:.2%})")
    assert agreement >= MIN_STEM_AGREEMENT, sorted(w for w, ok in verdict.items() if not ok)[:40]


def test_known_differences_are_as_documented(lucene, tmp_path):
    cases = TOKENIZER_DIFFERENCES + STEMMER_DIFFERENCES
    theirs = lucene_tokens(lucene, tmp_path, [text for text, _, _ in cases])
    for (text, ours, lucene_expected), got in zip(cases, theirs):
        assert analysis.terms(text) == ours, text
        assert got == lucene_expected, text


# Share of SciFact test queries whose top 10 (as a set) is the same in Lucene and in qmem.
MIN_TOP10_AGREEMENT = 0.95


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


@pytest.mark.slow  # a run over the SciFact data set (~90 s)
def test_lucene_bm25_ranks_scifact_like_qmem(lucene, tmp_path):
    """The same sections, indexed by Lucene with the template's analyzer, answer the 300
    test queries compiled by the OpenSearch compiler with (nearly) qmem's top 10."""
    import json

    from qmem.base import config
    from qmem.engine import evaluate, search, sync
    from qmem.text import markdown

    root = tmp_path / "scifact"
    cases = evaluate.beir_workspace(str(data_dir() / "beir-scifact"), str(root), "test")
    cfg = config.load()
    config.add_collection(cfg, config.Collection("scifact", str(root), ["*.md"]))
    sync.refresh(cfg)
    with open(tmp_path / "sections.tsv", "w", encoding="utf-8") as out:
        for path in sorted(root.iterdir()):
            for s in markdown.parse(path.read_text(encoding="utf-8"), 0):
                out.write(f"{path.name}:{s.line_start}\t{_escape(s.heading)}\t{_escape(s.body)}\tshared\n")
    forms = [search.build_form(case.query, search.SearchOptions()) for case in cases]
    with open(tmp_path / "queries.jsonl", "w", encoding="utf-8") as out:
        for form in forms:
            out.write(json.dumps(osb.compile_query(form, ["shared"]), ensure_ascii=False) + "\n")
    lucene.run("rank", osb.TOKEN_PATTERN, str(osb.MAX_TOKEN_CHARS), str(tmp_path / "sections.tsv"),
               str(tmp_path / "queries.jsonl"), "10", str(tmp_path / "ranked.tsv"))
    theirs = [[pair.split(" ")[0] for pair in row.split("\t") if pair]
              for row in (tmp_path / "ranked.tsv").read_text(encoding="utf-8").split("\n")[:-1]]
    ours = [[f"{doc['path'][0]}:{doc['line_start'][0]}" for _, doc in search.ranked_docs(cfg, form, 10)]
            for form in forms]
    assert len(theirs) == len(ours) == len(cases) == 300
    same_set = sum(set(a) == set(b) for a, b in zip(ours, theirs)) / len(ours)
    same_order = sum(a == b for a, b in zip(ours, theirs)) / len(ours)
    same_first = sum(a[:1] == b[:1] for a, b in zip(ours, theirs)) / len(ours)
    print(f"\nranking parity on SciFact ({len(ours)} queries): top-10 set {same_set:.1%}, "
          f"top-10 order {same_order:.1%}, top-1 {same_first:.1%}")
    assert same_set >= MIN_TOP10_AGREEMENT
