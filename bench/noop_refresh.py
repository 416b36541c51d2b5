"""A no-op `qmem index -q` (nothing changed), versions side by side, runs interleaved.

    python bench/noop_refresh.py CORPUS [--runs 30] [--dir /tmp/qmem-noop]
                                 [--src after=src --src before=/old/checkout/src]

Each version (its `src` folder, run by this Python with PYTHONPATH) gets a config and data
folder of its own under --dir, one collection on CORPUS, a full build and two warm-up
refreshes (the first no-op after a build records what the next ones reuse). Then --runs
rounds: every version and `python -c pass` once per round, in alternating order, so that load
hits them alike. Prints the median and fastest wall time and the median CPU (user+sys of the
child) per version, and the load average. Bytecode is used as installed
(PYTHONDONTWRITEBYTECODE is dropped).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

LAUNCH = "import sys; from qmem.__main__ import main; sys.exit(main())"  # what scripts/qmem does


def environment(folder: str, label: str, src: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.path.abspath(src)
    env["QMEM_CONFIG"] = os.path.join(folder, label, "collections.toml")
    env["QMEM_DATA"] = os.path.join(folder, label, "data")
    return env


def qmem(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "-c", LAUNCH, *args], env=env, check=True, stdout=subprocess.DEVNULL)


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, child CPU seconds) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status:
        raise SystemExit(f"{argv} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--dir", default="/tmp/qmem-noop")
    parser.add_argument("--src", action="append", default=[], metavar="LABEL=SRC")
    args = parser.parse_args()
    sources = [s.split("=", 1) for s in args.src] or [["here", os.path.join(os.path.dirname(__file__), "..", "src")]]
    runs: dict[str, tuple[list[str], dict[str, str]]] = {"python -c pass": ([sys.executable, "-c", "pass"], dict(os.environ))}
    for label, src in sources:
        env = environment(args.dir, label, src)
        shutil.rmtree(os.path.join(args.dir, label), ignore_errors=True)
        qmem(env, "collection", "create", "bench", os.path.abspath(args.corpus), "--no-index")
        for _ in range(3):  # the build, then the first no-ops (they record what later ones reuse)
            qmem(env, "index", "-q")
        runs[label] = ([sys.executable, "-c", LAUNCH, "index", "-q"], env)
    load_before = os.getloadavg()
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
    order = list(runs)
    for round_ in range(args.runs):
        for label in order if round_ % 2 == 0 else order[::-1]:
            times[label].append(timed(*runs[label]))
    load_after = os.getloadavg()
    print(f"no-op `qmem index -q` on {args.corpus}, {args.runs} interleaved runs, "
          f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}, {os.cpu_count()} CPUs")
    print("| run | wall median (fastest) | CPU median |")
    print("|---|---|---|")
    for label, rows in times.items():
        walls, cpus = [w for w, _ in rows], [c for _, c in rows]
        print(f"| {label} | {statistics.median(walls) * 1000:.1f} ms ({min(walls) * 1000:.1f} ms) | "
              f"{statistics.median(cpus) * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
