"""Helpers the benchmark scripts share."""

from __future__ import annotations

import json
import os
import statistics
import time


def write_results(out: str, name: str, text: str, data: object) -> None:
    """Print the Markdown table and keep it, with the raw numbers as JSON, under `out`."""
    print(text)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{name}.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2)


def median_ms(fn, runs: int = 30) -> float:
    """Median wall time of `fn()` in milliseconds, after one warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def generated_set(doc: str, prefix: str, generate, seed: int) -> tuple:  # generate(root, seed) -> cases
    """The command line of a generated-workspace benchmark (--out, --work, -k, --show, --seed), its
    workspace generated under --work (a temp folder by default) with a config and data folder
    beside it, and the questions written to questions.jsonl: (args, root, cases). `seed` is the
    benchmark's own (the set it reports); another --seed gives a twin of the same shape to tune
    on, so that the reported set stays a check."""
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    parser.add_argument("--work", default="")
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--show", action="store_true", help="print the questions qmem misses")
    parser.add_argument("--seed", type=int, default=seed, help=f"random seed of the generated set (default {seed})")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix=prefix)
    os.environ.setdefault("QMEM_CONFIG", os.path.join(work, "collections.toml"))
    os.environ.setdefault("QMEM_DATA", os.path.join(work, "data"))
    root = os.path.join(work, "ws")
    cases = generate(root, args.seed)
    with open(os.path.join(work, "questions.jsonl"), "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    return args, root, cases
