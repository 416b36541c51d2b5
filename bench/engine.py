"""Engine benchmarks on the synthetic corpus: build, refresh, search (in-process and cold).

    python bench/engine.py --sizes 1000,10000,100000 [--runs 30] [--out bench/results]

Each size gets a fresh corpus (bench/corpus.py, fixed seed), config and data folder under a
temp dir. Prints a Markdown table and writes it, with the raw numbers as JSON, to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402

QUERIES = {
    "single term": ("deploy", {}),
    "multi-term": ("wallet backup gateway latency", {}),
    "CJK run": ("私钥钱包部署", {}),
    "phrase": ('"deploy wallet"', {}),
    "filtered (type+date)": ("deploy wallet", {"types": ["K"], "since": "2020-06-01", "until": "2021-12-31"}),
}


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def dir_bytes(path: str) -> int:
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(folder, name))
    return total


def child_env(tmp: str) -> dict[str, str]:
    env = dict(os.environ)
    env["QMEM_CONFIG"] = os.path.join(tmp, "collections.toml")
    env["QMEM_DATA"] = os.path.join(tmp, "data")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # installed packages ship bytecode; measure that
    return env


def timed_child(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one child process."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{cmd} failed: {proc.stderr.read().decode() if proc.stderr else status}")
    return elapsed, usage.ru_maxrss * 1024


def bench_size(sections: int, runs: int) -> dict[str, object]:
    tmp = tempfile.mkdtemp(prefix=f"qmem-bench-{sections}-")
    try:
        root = os.path.join(tmp, "ws")
        paths = corpus.generate(root, sections)
        hour_ago = time.time() - 3600  # a workspace at rest, not files written a moment ago
        for rel in paths:
            os.utime(os.path.join(root, rel), (hour_ago, hour_ago))
        env = child_env(tmp)
        os.environ.update({"QMEM_CONFIG": env["QMEM_CONFIG"], "QMEM_DATA": env["QMEM_DATA"]})
        from qmem.base import config
        from qmem.engine import search, sync
        from qmem.base.layout import tantivy_dir

        cfg = config.load()
        config.add_collection(cfg, config.Collection("bench", root))
        build_s, build_rss = timed_child(
            [sys.executable, "-c", "from qmem.base import config; from qmem.engine import sync; sync.refresh(config.load())"], env)
        cfg = config.load()
        result: dict[str, object] = {
            "sections": sync.refresh(cfg).collections[0].sections,
            "files": len(paths),
            "corpus_bytes": dir_bytes(root),
            "index_bytes": dir_bytes(tantivy_dir(cfg.data_dir)),
            "build_s": build_s,
            "build_peak_rss_mb": build_rss / 2**20,
        }

        def refresh_s() -> float:
            started = time.perf_counter()
            sync.refresh(cfg)
            return time.perf_counter() - started

        result["noop_refresh_ms"] = median([refresh_s() for _ in range(7)]) * 1000
        cli_noop = [timed_child([sys.executable, "-m", "qmem", "index", "-q"], env)[0] for _ in range(7)]
        result["noop_refresh_cli_ms"] = median(cli_noop) * 1000
        rng = random.Random(1)
        memory_files = [p for p in paths if p.startswith("memory/")]
        changed, added, deleted = [], [], []
        for attempt in range(3):
            for rel in rng.sample(memory_files, 10):
                with open(os.path.join(root, rel), "a", encoding="utf-8") as handle:
                    handle.write(f"- [K] appended fact {attempt} {rng.random()}\n")
            changed.append(refresh_s())
            for k in range(10):
                with open(os.path.join(root, "memory", f"added-{attempt}-{k}.md"), "w", encoding="utf-8") as handle:
                    handle.write(f"# added {k}\n## note\n- [E] new entry {rng.random()} 新的条目\n")
            added.append(refresh_s())
            victims = rng.sample([p for p in memory_files if os.path.exists(os.path.join(root, p))], 10)
            for rel in victims:
                os.unlink(os.path.join(root, rel))
            deleted.append(refresh_s())
        result["refresh_10_changed_ms"] = median(changed) * 1000
        result["refresh_10_added_ms"] = median(added) * 1000
        result["refresh_10_deleted_ms"] = median(deleted) * 1000

        in_process = {}
        for label, (text, filters) in QUERIES.items():
            options = search.SearchOptions(limit=10, **filters)
            search.search(cfg, text, options)
            times = []
            for _ in range(max(runs, 20)):
                started = time.perf_counter()
                search.search(cfg, text, options)
                times.append(time.perf_counter() - started)
            in_process[label] = median(times) * 1000
        result["search_ms"] = in_process

        cold = []
        cmd = [os.path.join(os.path.dirname(sys.executable), "qmem"), "search", "deploy wallet", "-n", "10", "--json"]
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
        for _ in range(runs):
            cold.append(timed_child(cmd, env)[0])
        result["cold_search_median_ms"] = median(cold) * 1000
        result["cold_search_p95_ms"] = p95(cold) * 1000
        python_only = [timed_child([sys.executable, "-c", "pass"], env)[0] for _ in range(runs)]
        result["python_startup_ms"] = median(python_only) * 1000
        return result
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def machine() -> dict[str, str]:
    import tantivy  # noqa: F401
    from importlib.metadata import version

    return {
        "date": time.strftime("%Y-%m-%d"),
        "cpu_cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "tantivy": version("tantivy"),
        "qmem": version("qmem"),
        "platform": platform.platform(terse=True),
    }


def table(results: dict[int, dict[str, object]], info: dict[str, str]) -> str:
    sizes = sorted(results)
    head = "| metric | " + " | ".join(f"{s:,} sections" for s in sizes) + " |"
    rows = [head, "|---|" + "---|" * len(sizes)]

    def row(label: str, fn) -> None:
        rows.append(f"| {label} | " + " | ".join(fn(results[s]) for s in sizes) + " |")

    row("files / corpus size", lambda r: f"{r['files']:,} / {r['corpus_bytes'] / 2**20:.1f} MB")
    row("full build (fresh process)", lambda r: f"{r['build_s']:.2f} s")
    row("build peak RSS", lambda r: f"{r['build_peak_rss_mb']:.0f} MB")
    row("index size (× corpus)", lambda r: f"{r['index_bytes'] / 2**20:.1f} MB ({r['index_bytes'] / r['corpus_bytes']:.2f}×)")
    row("no-op refresh (library)", lambda r: f"{r['noop_refresh_ms']:.0f} ms")
    row("no-op refresh (`qmem index -q`)", lambda r: f"{r['noop_refresh_cli_ms']:.0f} ms")
    row("refresh, 10 files changed", lambda r: f"{r['refresh_10_changed_ms']:.0f} ms")
    row("refresh, 10 files added", lambda r: f"{r['refresh_10_added_ms']:.0f} ms")
    row("refresh, 10 files deleted", lambda r: f"{r['refresh_10_deleted_ms']:.0f} ms")
    for label in QUERIES:
        row(f"search in-process: {label}", lambda r, label=label: f"{r['search_ms'][label]:.1f} ms")
    row("cold `qmem search -n 10 --json` median / p95", lambda r: f"{r['cold_search_median_ms']:.1f} / {r['cold_search_p95_ms']:.1f} ms")
    row("(cold `python -c pass`, for scale)", lambda r: f"{r['python_startup_ms']:.1f} ms")
    meta = (f"Measured {info['date']} on {info['cpu_cores']} cores, Python {info['python']}, tantivy {info['tantivy']}, "
            f"qmem {info['qmem']} ({info['platform']}). Medians unless noted.")
    return "\n".join(rows) + "\n\n" + meta + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    results = {}
    for size in (int(s) for s in args.sizes.split(",")):
        print(f"benchmarking {size:,} sections…", file=sys.stderr)
        results[size] = bench_size(size, args.runs)
    info = machine()
    text = table(results, info)
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "engine.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    with open(os.path.join(args.out, f"engine-{info['date']}.json"), "w", encoding="utf-8") as handle:
        json.dump({"machine": info, "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
