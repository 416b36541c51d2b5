"""Ranking quality on the shared data sets, through the `qmem eval` command itself.

    python bench/quality.py [--data ../shared/data] [--out bench/results]

BEIR SciFact: nDCG@10 and Recall@100 (published BM25 nDCG@10: 0.665 BEIR, 0.679 Anserini).
CMRC2018-zh: nDCG@10 and MRR@10 (a good BM25 reaches ~0.98).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import write_results  # noqa: E402
SETS = [  # name, qrels split, k for the second run, published reference
    ("beir-scifact", "test", 100, "nDCG@10 0.665 (BEIR), 0.679 (Anserini), 0.68-0.69 (bm25s)"),
    ("cmrc2018-zh", "dev", 10, "nDCG@10 ~0.98 (jieba words or character bigrams)"),
]


def qmem(env: dict[str, str], *args: str) -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "qmem")
    return subprocess.run([exe, *args], env=env, capture_output=True, text=True, check=True).stdout


def run(data: str) -> dict[str, dict[str, float]]:
    from qmem.engine import evaluate

    results = {}
    for name, split, k2, _ in SETS:
        tmp = tempfile.mkdtemp(prefix=f"qmem-quality-{name}-")
        try:
            env = dict(os.environ, QMEM_CONFIG=os.path.join(tmp, "c.toml"), QMEM_DATA=os.path.join(tmp, "data"))
            root = os.path.join(tmp, "docs")
            cases = evaluate.beir_workspace(os.path.join(data, name), root, split)
            fixture = os.path.join(tmp, "fixture.jsonl")
            evaluate.write_fixture(fixture, cases)
            qmem(env, "collection", "create", name, root, "--pattern", "*.md", "--json")
            at10 = json.loads(qmem(env, "eval", fixture, "-k", "10", "--json"))["metrics"]
            at_k2 = json.loads(qmem(env, "eval", fixture, "-k", str(k2), "--json"))["metrics"]
            results[name] = {"queries": len(cases), **at10, f"recall@{k2}": at_k2[f"recall@{k2}"]}
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return results


def table(results: dict[str, dict[str, float]]) -> str:
    rows = ["| data set | queries | nDCG@10 | MRR@10 | Recall@10 | Recall@100 | published BM25 |",
            "|---|---|---|---|---|---|---|"]
    for name, _, _, reference in SETS:
        r = results[name]
        r100 = f"{r['recall@100']:.3f}" if "recall@100" in r else "-"
        rows.append(f"| {name} | {r['queries']:,} | **{r['ndcg@10']:.3f}** | {r['mrr@10']:.3f} | "
                    f"{r['recall@10']:.3f} | {r100} | {reference} |")
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(HERE, "..", "..", "shared", "data"))
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    results = run(args.data)
    write_results(args.out, "quality", table(results), results)


if __name__ == "__main__":
    main()
