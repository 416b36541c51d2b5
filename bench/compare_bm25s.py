"""qmem beside bm25s (a known BM25 library) on the same synthetic corpus and queries.

    pip install bm25s            # bench-only dependency (pip install '.[bench]')
    python bench/compare_bm25s.py --sections 100000 [--out bench/results]

Both get the same sections and the same tokens (qmem's analyzer: CJK characters, stemmed
words), so the comparison is of the engines, not of tokenizers. bm25s is given its tokens
ready-made; the time qmem spends parsing Markdown and tokenizing is inside its build time.
bm25s has no phrase queries: CJK runs are plain terms for it. Ratios are qmem / bm25s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
from common import median_ms, write_results  # noqa: E402

QUERIES = ["deploy", "wallet backup gateway latency", "私钥钱包部署", "migration cache", "数据库 备份", "agent memory search"]


def run(sections: int) -> dict[str, float]:
    import bm25s

    from qmem.text import analysis, markdown
    from qmem.base import config
    from qmem.engine import search, sync
    from qmem.base.layout import tantivy_dir

    tmp = tempfile.mkdtemp(prefix="qmem-vs-bm25s-")
    try:
        root = os.path.join(tmp, "ws")
        paths = corpus.generate(root, sections)
        os.environ["QMEM_CONFIG"] = os.path.join(tmp, "c.toml")
        os.environ["QMEM_DATA"] = os.path.join(tmp, "data")
        cfg = config.load()
        config.add_collection(cfg, config.Collection("bench", root))
        started = time.perf_counter()
        sync.refresh(cfg)
        qmem_build = time.perf_counter() - started

        started = time.perf_counter()
        docs = []
        for rel in paths:
            with open(os.path.join(root, rel), encoding="utf-8") as handle:
                for section in markdown.parse(handle.read()):
                    docs.append(analysis.terms(section.heading + "\n" + section.body))
        tokenize_s = time.perf_counter() - started
        retriever = bm25s.BM25(k1=1.2, b=0.75)
        started = time.perf_counter()
        retriever.index(docs, show_progress=False)
        bm25s_build = time.perf_counter() - started
        saved = os.path.join(tmp, "bm25s")
        started = time.perf_counter()
        retriever.save(saved, show_progress=False)
        bm25s_save = time.perf_counter() - started
        query_tokens = [analysis.terms(QUERIES[1])]
        cold_bm25s = (f"import bm25s; r = bm25s.BM25.load({saved!r}, show_progress=False); "
                      f"r.retrieve({query_tokens!r}, k=10, show_progress=False)")
        bm25s_cold = median_ms(lambda: subprocess.run([sys.executable, "-c", cold_bm25s], check=True), 10)
        exe = os.path.join(os.path.dirname(sys.executable), "qmem")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        qmem_cold = median_ms(lambda: subprocess.run([exe, "search", QUERIES[1], "-n", "10", "--json"], env=env,
                                                     stdout=subprocess.DEVNULL, check=True), 10)

        qmem_ms, qmem_bare_ms, bm25s_ms = [], [], []
        options = search.SearchOptions(limit=10)
        bare = search.SearchOptions(limit=10, snippet_lines=0)
        for text in QUERIES:
            tokens = [analysis.terms(text)]
            qmem_ms.append(median_ms(lambda text=text: search.search(cfg, text, options)))
            qmem_bare_ms.append(median_ms(lambda text=text: search.search(cfg, text, bare)))
            bm25s_ms.append(median_ms(lambda tokens=tokens: retriever.retrieve(tokens, k=10, show_progress=False)))
        index_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tantivy_dir(cfg.data_dir)) for f in fs)
        bm25s_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(saved) for f in fs)
        return {
            "sections": len(docs),
            "qmem_build_s": qmem_build,
            "bm25s_tokenize_s": tokenize_s,
            "bm25s_build_s": bm25s_build,
            "bm25s_save_s": bm25s_save,
            "bm25s_cold_ms": bm25s_cold,
            "qmem_cold_ms": qmem_cold,
            "qmem_search_ms": statistics.median(qmem_ms),
            "qmem_search_bare_ms": statistics.median(qmem_bare_ms),
            "bm25s_search_ms": statistics.median(bm25s_ms),
            "qmem_index_mb": index_bytes / 2**20,
            "bm25s_index_mb": bm25s_bytes / 2**20,
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def table(r: dict[str, float]) -> str:
    rows = [
        f"| {int(r['sections']):,} sections | qmem | bm25s | qmem / bm25s |",
        "|---|---|---|---|",
        f"| build from Markdown (qmem) vs tokenize + index (bm25s) | {r['qmem_build_s']:.2f} s | "
        f"{r['bm25s_tokenize_s'] + r['bm25s_build_s']:.2f} s ({r['bm25s_tokenize_s']:.2f} + {r['bm25s_build_s']:.2f}) | "
        f"{r['qmem_build_s'] / (r['bm25s_tokenize_s'] + r['bm25s_build_s']):.2f}× |",
        f"| on disk | {r['qmem_index_mb']:.1f} MB | {r['bm25s_index_mb']:.1f} MB | {r['qmem_index_mb'] / r['bm25s_index_mb']:.2f}× |",
        f"| one query in a fresh process (qmem: `qmem search --json`; bm25s: load + retrieve) | "
        f"{r['qmem_cold_ms']:.0f} ms | {r['bm25s_cold_ms']:.0f} ms | {r['qmem_cold_ms'] / r['bm25s_cold_ms']:.2f}× |",
        f"| search in-process, top 10 ids (median of {len(QUERIES)} queries; qmem reopens the index each call) | "
        f"{r['qmem_search_bare_ms']:.2f} ms | {r['bm25s_search_ms']:.2f} ms | {r['qmem_search_bare_ms'] / r['bm25s_search_ms']:.1f}× |",
        f"| search in-process with snippets read from the files (qmem only) | {r['qmem_search_ms']:.2f} ms | - | - |",
    ]
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=100000)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    result = run(args.sections)
    write_results(args.out, "bm25s", table(result), result)


if __name__ == "__main__":
    main()
