"""Run every benchmark and write one results page; optionally refresh docs/performance.md's tables.

    pip install -e '.[bench]'
    python bench/run_all.py [--sizes 1000,10000,100000] [--update-docs]

Writes bench/results/{engine,bm25s,quality}.md, their JSON, pytest-benchmark.json and
bench/results/summary.md (the three tables with machine details). With --update-docs the
section of docs/performance.md between `<!-- bench:start -->` and `<!-- bench:end -->` is replaced by it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")


def step(*args: str) -> None:
    print("+", " ".join(args), file=sys.stderr)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, *args], check=True, env=env, cwd=ROOT)


def read(name: str) -> str:
    with open(os.path.join(RESULTS, name), encoding="utf-8") as handle:
        return handle.read().strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--bm25s-sections", type=int, default=100000)
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    parser.add_argument("--update-docs", action="store_true", help="replace the tables in docs/performance.md")
    parser.add_argument("--with-vector", action="store_true", help="also bench/vector.py (needs qmem[vector]; slow)")
    parser.add_argument("--side-by-side", type=int, metavar="FILES", default=0,
                        help="also bench/side_by_side.py on FILES files (20000 for docs/performance.md's side-by-side; qmd if on PATH)")
    parser.add_argument("--cold-search", action="append", default=[], metavar="LABEL=QMEM",
                        help="also bench/cold_search.py on 100k sections for this qmem (repeat: before=..., after=...)")
    parser.add_argument("--steps", default="engine,bm25s,quality,pytest",
                        help="which of engine,bm25s,quality,pytest to run (the others' last results are reused)")
    args = parser.parse_args()
    steps = set(args.steps.split(","))
    if "engine" in steps:
        step(os.path.join(HERE, "engine.py"), "--sizes", args.sizes, "--out", RESULTS)
    if "bm25s" in steps:
        step(os.path.join(HERE, "compare_bm25s.py"), "--sections", str(args.bm25s_sections), "--out", RESULTS)
    if "quality" in steps:
        step(os.path.join(HERE, "quality.py"), "--data", args.data, "--out", RESULTS)
    if "pytest" in steps:
        step("-m", "pytest", "-q", HERE, "--benchmark-json", os.path.join(RESULTS, "pytest-benchmark.json"))
    if args.with_vector:
        step(os.path.join(HERE, "vector.py"), "--data", args.data, "--out", RESULTS)
    if args.side_by_side:
        step(os.path.join(HERE, "side_by_side.py"), "--files", str(args.side_by_side), "--out", RESULTS)
    if args.cold_search:
        step(os.path.join(HERE, "cold_search.py"), "--runs", "30", "--out", RESULTS,
             *[arg for tool in args.cold_search for arg in ("--qmem", tool)])
    summary = "\n\n".join([
        "Engine, on the synthetic corpus (`bench/corpus.py`: daily logs and topic files, one file in five "
        "Chinese, typed entries, headings at four levels, ~10 sections a file):",
        read("engine.md"),
        "Beside [bm25s](https://github.com/xhluca/bm25s) on the same sections and tokens:",
        read("bm25s.md"),
        "Ranking quality, through `qmem eval` on the shared data sets:",
        read("quality.md"),
    ] + (["The optional vector tier (`bench/vector.py`):", read("vector.md")]
         if args.with_vector else [])  # a file left by an older run would pass stale numbers off as current
      + (["Step by step beside qmd (`bench/side_by_side.py`):", read("side_by_side.md")]
         if os.path.exists(os.path.join(RESULTS, "side_by_side.md")) else [])) + "\n"
    with open(os.path.join(RESULTS, "summary.md"), "w", encoding="utf-8") as handle:
        handle.write(summary)
    print(summary)
    if args.update_docs:
        page_path = os.path.join(ROOT, "docs", "performance.md")
        with open(page_path, encoding="utf-8") as handle:
            page = handle.read()
        start, end = "<!-- bench:start -->", "<!-- bench:end -->"
        head, rest = page.split(start, 1)
        _, tail = rest.split(end, 1)
        with open(page_path, "w", encoding="utf-8") as handle:
            handle.write(f"{head}{start}\n{summary}{end}{tail}")


if __name__ == "__main__":
    main()
