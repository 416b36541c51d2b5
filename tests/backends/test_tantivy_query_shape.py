"""The Tantivy query shape: one flat union of single-field clauses (what block-max WAND can
prune), scoring every section exactly as the earlier shape did (a clause per unit holding a
body clause and a boosted heading clause). The earlier shape is kept here as the oracle."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import tantivy

from qmem.backends.tantivy import searcher as searcher_mod
from qmem.engine import search as search_mod
from qmem.text.query import HEADING_WEIGHT

Q = tantivy.Query
SHOULD, MUST, MUST_NOT = tantivy.Occur.Should, tantivy.Occur.Must, tantivy.Occur.MustNot

WORDS = ["deploy", "wallet", "backup", "cron", "rsync", "token", "gateway", "latency", "cache", "server",
         "the", "what", "did", "user", "prefers", "key", "secret"]
HAN = "私钥钱包部署备份编码数据库网关缓存延迟的了是我们什么"


def nested_oracle(form, schema):
    """The shape before the flat union (a boolean clause per unit), for its scores."""
    def either(toks, boost):
        both = Q.boolean_query([(SHOULD, searcher_mod.unit_query(schema, "body", toks)),
                                (SHOULD, Q.boost_query(searcher_mod.unit_query(schema, "heading", toks), HEADING_WEIGHT))])
        return Q.boost_query(both, boost) if boost != 1.0 else both

    clauses = []
    if form.should:
        clauses.append((MUST, Q.boolean_query([(SHOULD, either(u.tokens, u.boost)) for u in form.should])))
    clauses.extend((MUST, either(u.tokens, u.boost)) for u in form.must)
    for toks in form.must_not:
        clauses += [(MUST_NOT, searcher_mod.unit_query(schema, f, toks)) for f in ("body", "heading")]
    if form.types:
        clauses.append((MUST, Q.const_score_query(Q.term_query(schema, "types", form.types[0]), 0.0)))
    return clauses[0][1] if len(clauses) == 1 else Q.boolean_query(clauses)


@pytest.fixture
def corpus_cfg(tmp_path: Path):
    """~600 sections of mixed English and Chinese, headings holding query words too."""
    from qmem.base import config
    from qmem.engine import catalog

    rng = random.Random(7)
    root = tmp_path / "corpus"
    (root / "memory").mkdir(parents=True)
    for f in range(60):
        lines = [f"# file {f} {rng.choice(WORDS)}", ""]
        for _ in range(10):
            zh = rng.random() < 0.3
            head = "".join(rng.choices(HAN, k=4)) if zh else " ".join(rng.choices(WORDS, k=2))
            lines += [f"## {head}", ""]
            for _ in range(rng.randint(1, 4)):
                body = "".join(rng.choices(HAN, k=rng.randint(6, 20))) if zh else " ".join(rng.choices(WORDS, k=rng.randint(4, 14)))
                lines.append(f"- [{rng.choice('PEKBS')}] {body}")
            lines.append("")
        (root / "memory" / f"2026-01-{f % 28 + 1:02d}-{f}.md").write_text("\n".join(lines), encoding="utf-8")
    catalog.create(config.load(), "c", str(root))
    return config.load()


QUERIES = [
    ("deploy wallet", {}),
    ("what did the user say about the backup key", {}),
    ("私钥钱包", {}),
    ("什么是数据库缓存", {}),
    ('"deploy wallet" gateway', {}),
    ('"deploy wallet" gateway', {"exact": True}),
    ("token cache -rsync", {}),
    ("secret key", {"types": ["K"]}),
    ("部署 deploy 延迟", {}),
]


@pytest.mark.parametrize("text,opts", QUERIES, ids=[q for q, _ in QUERIES])
def test_every_section_scores_as_with_a_clause_per_unit(corpus_cfg, text, opts):
    form = search_mod.build_form(text, search_mod.SearchOptions(**opts))
    index = searcher_mod.open_reader(corpus_cfg.data_dir)
    searcher = index.searcher()
    total = searcher.num_docs

    def scores(query):
        return {(a.segment_ord, a.doc): s for s, a in searcher.search(query, total, count=False).hits}

    new = scores(searcher_mod.compile_query(form, index.schema))
    old = scores(nested_oracle(form, index.schema))
    assert len(old) > 3
    assert new.keys() == old.keys()
    assert all(abs(new[k] - old[k]) <= 1e-5 * max(1.0, old[k]) for k in old)
    top = [k for _, k in sorted(((-s, k) for k, s in new.items()))][:10]
    assert top == [k for _, k in sorted(((-s, k) for k, s in old.items()))][:10] or _near_ties(old, top)


def _near_ties(old, top):
    """Equal up to float rounding: the top 10 differ only among scores within 1e-5."""
    ranked = sorted(old.values(), reverse=True)
    return sorted((round(old[k], 4) for k in top), reverse=True) == [round(s, 4) for s in ranked[:10]]


def test_ranked_words_compile_to_one_flat_union_of_term_clauses(corpus_cfg):
    """No boolean inside the union, no MUST around it: Tantivy prunes only a flat union of terms."""
    index = searcher_mod.open_reader(corpus_cfg.data_dir)
    form = search_mod.build_form("deploy wallet backup", search_mod.SearchOptions())
    shape = repr(searcher_mod.compile_query(form, index.schema))
    assert shape.count("BooleanQuery") == 1
    assert shape.count("(Should, ") == 6 and "Must" not in shape
    assert shape.count("TermQuery") == 6 and shape.count("boost=0.5") == 3


def test_search_hits_and_scores_unchanged_on_the_sample_workspace(cfg):
    """End to end through search(): the hits and scores of the flat shape are the oracle's."""
    original = searcher_mod.compile_query
    try:
        searcher_mod.compile_query = nested_oracle  # type: ignore[assignment]
        before = [(h.path, h.line_start, round(h.score, 4)) for h in search_mod.search(cfg, "wallet key 私钥")]
    finally:
        searcher_mod.compile_query = original  # type: ignore[assignment]
    after = [(h.path, h.line_start, round(h.score, 4)) for h in search_mod.search(cfg, "wallet key 私钥")]
    assert before and after == before
