"""In-process timings with pytest-benchmark (statistics, comparisons between runs).

    python -m pytest bench/ --benchmark-json bench/results/pytest-benchmark.json
    QMEM_BENCH_SECTIONS=100000 python -m pytest bench/      # a bigger corpus
"""

from __future__ import annotations

import pytest

from qmem.engine import search, sync

CASES = {
    "single-term": ("deploy", {}),
    "multi-term": ("wallet backup gateway latency", {}),
    "cjk-run": ("私钥钱包部署", {}),
    "phrase": ('"deploy wallet"', {}),
    "filtered": ("deploy wallet", {"types": ["K"], "since": "2020-06-01", "until": "2021-12-31"}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_search(benchmark, bench_cfg, case):
    text, filters = CASES[case]
    options = search.SearchOptions(limit=10, **filters)
    hits = benchmark(search.search, bench_cfg, text, options)
    assert isinstance(hits, list)


def test_search_without_snippets(benchmark, bench_cfg):
    options = search.SearchOptions(limit=10, snippet_lines=0)
    assert benchmark(search.search, bench_cfg, "wallet backup gateway latency", options)


def test_noop_refresh(benchmark, bench_cfg):
    report = benchmark(sync.refresh, bench_cfg)
    assert not report.committed
