"""qmem's scale ladder on the synthetic corpus: build, no-op refresh, touch-all refresh, cold
search, peak RSS and index size at each size (up to a million sections).

    python bench/scale.py --sizes 10000,300000,1000000 [--dir /tmp/qmem-scale] [--runs 10]
                          [--src after=src --src before=/old/checkout/src] [--query 'deploy wallet']

Each size gets its corpus (`bench/corpus.py`, fixed seed; ~10 sections a file) and one index
under --dir, built once by the first --src (kept, with its build figures, for the next run:
delete the folder to measure the build again). Every version then searches that same index
(the versions must share the schema), run as `qmem search QUERY -n 10 --json` in a fresh
process with PYTHONPATH pointing at its `src`:
  - build: wall, CPU (user+sys of the command and the worker processes it waits for) and peak
    RSS (the largest single process of the build, workers included);
  - index size on disk, beside the corpus's bytes;
  - no-op refresh (`qmem index -q`, nothing changed): median of 5;
  - touch-all refresh: every file's mtime moved, same bytes (a read and a hash each): once;
  - cold search: instructions counted by callgrind (independent of load) and the medians of
    --runs wall/CPU runs, all versions and `python -c pass` interleaved.
Run it niced on a shared machine (`nice -n 10`): the build uses every core. Writes scale.md /
scale.json to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cold_search import QUERY, compile_sources, instructions, timed  # noqa: E402
from common import write_results  # noqa: E402

QMEM = os.path.join(os.path.dirname(sys.executable), "qmem")


def environment(folder: str, size: int, src: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["QMEM_CONFIG"] = os.path.join(folder, f"idx-{size}", "collections.toml")
    env["QMEM_DATA"] = os.path.join(folder, f"idx-{size}", "data")
    env["PYTHONPATH"] = os.path.abspath(src)
    return env


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user+sys, waited-for children included), peak RSS in KiB."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{cmd} failed ({status}): {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def folder_bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def corpus_files(root: str) -> list[str]:
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if f.endswith(".md")]


def prepare(folder: str, size: int, env: dict[str, str]) -> dict[str, object]:
    """The corpus and index of one size, and the build's figures (measured once, then kept)."""
    corpus = os.path.join(folder, f"ws-{size}")
    if not os.path.exists(corpus + ".done"):
        subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), corpus, "--sections", str(size)],
                       check=True, stdout=subprocess.DEVNULL)
        open(corpus + ".done", "w").close()
    figures = os.path.join(folder, f"idx-{size}", "build.json")
    if os.path.exists(figures):
        with open(figures, encoding="utf-8") as handle:
            return json.load(handle)
    wall, cpu, rss = run([QMEM, "collection", "create", "c", corpus], env)
    files = corpus_files(corpus)
    build = {"files": len(files), "corpus_bytes": sum(os.path.getsize(f) for f in files),
             "build_wall_s": wall, "build_cpu_s": cpu, "build_peak_rss_mb": rss / 1024,
             "index_bytes": folder_bytes(env["QMEM_DATA"])}
    with open(figures, "w", encoding="utf-8") as handle:
        json.dump(build, handle)
    return build


def refreshes(folder: str, size: int, env: dict[str, str]) -> dict[str, float]:
    index = [QMEM, "index", "-q"]
    run(index, env)  # settle: the first no-op after a build may seal
    noop = [run(index, env) for _ in range(5)]
    stamp = time.time()
    for path in corpus_files(os.path.join(folder, f"ws-{size}")):
        os.utime(path, (stamp, stamp))
    touch = run(index, env)
    return {"noop_wall_ms": statistics.median(w for w, _, _ in noop) * 1000,
            "noop_cpu_ms": statistics.median(c for _, c, _ in noop) * 1000,
            "touch_all_wall_s": touch[0], "touch_all_cpu_s": touch[1], "touch_all_peak_rss_mb": touch[2] / 1024}


def cold_searches(sources: dict[str, str], folder: str, size: int, query: str, runs: int) -> dict[str, dict]:
    commands = {label: ([QMEM, "search", query, "-n", "10", "--json"], environment(folder, size, src))
                for label, src in sources.items()}
    commands["python -c pass"] = ([sys.executable, "-c", "pass"], environment(folder, size, HERE))
    for label, (cmd, env) in commands.items():
        if label in sources:
            compile_sources(sys.executable, env)
            run(cmd, env)  # the config cache, the page cache
    result = {label: {"instructions": instructions(cmd, env)} for label, (cmd, env) in commands.items()}
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(runs):
        for label, (cmd, env) in commands.items():
            samples[label].append(timed(cmd, env))
    for label, rows in samples.items():
        result[label]["wall_ms"] = statistics.median(w for w, _ in rows) * 1000
        result[label]["cpu_ms"] = statistics.median(c for _, c in rows) * 1000
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,300000,1000000")
    parser.add_argument("--dir", default="/tmp/qmem-scale")
    parser.add_argument("--src", action="append", default=[], metavar="LABEL=SRC")
    parser.add_argument("--query", default=QUERY)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-refresh", action="store_true", help="skip the refresh measurements")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    sources = dict(s.split("=", 1) for s in args.src) or {"qmem": os.path.join(HERE, "..", "src")}
    first = next(iter(sources.values()))
    rows = {}
    for size in [int(s) for s in args.sizes.split(",")]:
        env = environment(args.dir, size, first)
        row: dict[str, object] = {"build": prepare(args.dir, size, env)}
        if not args.no_refresh:
            row["refresh"] = refreshes(args.dir, size, env)
        row["search"] = cold_searches(sources, args.dir, size, args.query, args.runs)
        rows[size] = row
        print(f"{size}: {json.dumps(row)}", file=sys.stderr)
    data = {"query": args.query, "runs": args.runs, "load": os.getloadavg()[0], "sources": list(sources),
            "sizes": rows}
    write_results(args.out, "scale", table(data), data)


def table(data: dict) -> str:
    sizes = data["sizes"]
    head = "| metric | " + " | ".join(f"{int(s):,} sections" for s in sizes) + " |"
    lines = [f"Scale ladder (`bench/scale.py`), cold query {data['query']!r}; load average {data['load']:.1f} at the end:",
             "", head, "|---|" + "---|" * len(sizes)]

    def row(name: str, cell) -> None:
        cells = []
        for s in sizes.values():
            try:
                cells.append(cell(s))
            except KeyError:
                cells.append("-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    row("files / corpus", lambda s: f"{s['build']['files']:,} / {s['build']['corpus_bytes'] / 1e6:.0f} MB")
    row("full build wall (CPU)", lambda s: f"{s['build']['build_wall_s']:.1f} s ({s['build']['build_cpu_s']:.1f} s)")
    row("build peak RSS", lambda s: f"{s['build']['build_peak_rss_mb']:.0f} MB")
    row("index size (× corpus)", lambda s: f"{s['build']['index_bytes'] / 1e6:.0f} MB "
                                           f"({s['build']['index_bytes'] / s['build']['corpus_bytes']:.2f}×)")
    row("no-op refresh wall (CPU)", lambda s: f"{s['refresh']['noop_wall_ms']:.0f} ms ({s['refresh']['noop_cpu_ms']:.0f} ms)")
    row("touch-all refresh wall (CPU)", lambda s: f"{s['refresh']['touch_all_wall_s']:.1f} s "
                                                  f"({s['refresh']['touch_all_cpu_s']:.1f} s)")
    for label in data["sources"] + ["python -c pass"]:
        row(f"cold search, {label}: instructions", lambda s, k=label: f"{s['search'][k]['instructions'] / 1e6:.1f}M"
            if s["search"][k]["instructions"] else "-")
        row(f"cold search, {label}: wall (CPU)", lambda s, k=label: f"{s['search'][k]['wall_ms']:.1f} ms "
                                                                     f"({s['search'][k]['cpu_ms']:.1f} ms)")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
