"""qmem beside qmd on one corpus, step by step, interleaved, in CPU seconds (user+sys).

    python bench/side_by_side.py [--files 20000] [--per-file 8] [--rounds 3] [--qmd PATH] [--out bench/results]

The corpus is bench/corpus.py's (bilingual daily logs and topic files; 20,000 files × 8
sections ≈ 69 MB). Each step runs qmem then qmd (when `--qmd` names a working qmd binary)
right after each other, so a change in machine load hits both alike; CPU time of the child
process (its threads and the worker processes it waits for) is what counts; wall time is
what a user waits (qmem's build spreads over the cores). Steps: full build,
no-op refresh, refresh after touching every file (same content), refresh after 1% changed,
cold `search -n 10 --json`. Prints a Markdown table with the ratios and keeps it, with the
raw numbers, in --out/side_by_side.{md,json}.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
from common import write_results  # noqa: E402


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one child process."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{cmd} failed ({status}): {proc.stderr.read().decode(errors='replace') if proc.stderr else ''}")
    return usage.ru_utime + usage.ru_stime, wall


class Tool:
    def __init__(self, name: str, tmp: str, root: str, qmd: str | None = None) -> None:
        self.name, self.root = name, root
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        home = os.path.join(tmp, name)
        os.makedirs(home, exist_ok=True)
        if qmd:
            self.env.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                            XDG_CACHE_HOME=os.path.join(home, ".cache"))
            self.bin = [qmd]  # its collection is added (= its full build) by `build`
        else:
            self.env.update(QMEM_CONFIG=os.path.join(home, "collections.toml"), QMEM_DATA=os.path.join(home, "data"))
            self.bin = [os.path.join(os.path.dirname(sys.executable), "qmem")]
            subprocess.run([*self.bin, "collection", "create", "bench", root, "--no-index"], env=self.env,
                           check=True, stdout=subprocess.DEVNULL)

    def build(self) -> list[str]:
        """The full build: qmd indexes a collection when it is added; qmem's was created empty."""
        return [*self.bin, "collection", "add", self.root, "--name", "bench"] if self.name == "qmd" else self.refresh()

    def refresh(self) -> list[str]:
        return [*self.bin, "update"] if self.name == "qmd" else [*self.bin, "index", "-q"]

    def search(self) -> list[str]:
        return [*self.bin, "search", "deploy wallet", "-n", "10", "--json"]


def touch_all(root: str, when: float) -> None:
    for folder, _, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (when, when))


def change_some(root: str, paths: list[str], share: float, round_no: int) -> None:
    for rel in paths[:: max(1, int(1 / share))]:
        with open(os.path.join(root, rel), "a", encoding="utf-8") as handle:
            handle.write(f"\n- [K] changed in round {round_no} 新的条目\n")


def bench(files: int, per_file: int, rounds: int, qmd: str | None) -> dict[str, object]:
    tmp = tempfile.mkdtemp(prefix="qmem-side-")
    try:
        root = os.path.join(tmp, "ws")
        paths = corpus.generate(root, files * per_file, per_file=per_file)
        hour_ago = time.time() - 3600
        touch_all(root, hour_ago)
        tools = [Tool("qmem", tmp, root)] + ([Tool("qmd", tmp, root, qmd)] if qmd else [])
        steps: dict[str, dict[str, list[tuple[float, float]]]] = {}

        def step(label: str, cmd_of, prepare=None, repeat: int = 1) -> None:
            if prepare:
                prepare()
            for tool in tools:
                for _ in range(repeat):
                    steps.setdefault(label, {}).setdefault(tool.name, []).append(run(cmd_of(tool), tool.env))

        step("full build", Tool.build)
        for k in range(rounds):
            step("no-op refresh", Tool.refresh, repeat=3)
            step("refresh after touching every file", Tool.refresh,
                 prepare=lambda k=k: touch_all(root, hour_ago + 60 * (k + 1)))
            step("refresh after 1% changed", Tool.refresh,
                 prepare=lambda k=k: (change_some(root, paths, 0.01, k), touch_all(root, hour_ago + 60 * (k + 1) + 30)))
            step("cold search -n 10 --json", Tool.search, repeat=5)
        return {"files": files, "sections": files * per_file,
                "corpus_mb": sum(os.path.getsize(os.path.join(root, p)) for p in paths) / 2**20,
                "steps": steps}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def table(data: dict[str, object], info: dict[str, str]) -> str:
    steps = data["steps"]
    tools = sorted({t for by_tool in steps.values() for t in by_tool}, key=lambda t: t != "qmem")
    pair = len(tools) > 1
    head = "| step | " + " | ".join(f"{t} CPU (wall)" for t in tools) + (" | qmem / qmd CPU | qmem / qmd wall |" if pair else " |")
    rows = [head, "|---|" + "---|" * (len(tools) + 2 * pair)]
    for label, by_tool in steps.items():
        cells, cpu, wall = [], {}, {}
        for t in tools:
            runs = by_tool.get(t, [])
            cpu[t] = statistics.median(c for c, _ in runs)
            wall[t] = statistics.median(w for _, w in runs)
            cells.append(f"{cpu[t]:.3f} s ({wall[t]:.3f} s)")
        ratio = ([f"{cpu['qmem'] / cpu[tools[1]]:.3f}" if cpu[tools[1]] else "-",
                  f"{wall['qmem'] / wall[tools[1]]:.3f}" if wall[tools[1]] else "-"] if pair else [])
        rows.append(f"| {label} | " + " | ".join(cells + ratio) + " |")
    meta = (f"{data['files']:,} files, {data['sections']:,} sections, {data['corpus_mb']:.0f} MB (bench/corpus.py). "
            f"Medians of child-process CPU time (user+sys); {info['machine']}, load average {info['load']} at the start.")
    return "\n".join(rows) + "\n\n" + meta + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20000)
    parser.add_argument("--per-file", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--qmd", default=shutil.which("qmd"), help="a working qmd binary (default: qmd on PATH)")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    if args.qmd and subprocess.run([args.qmd, "--help"], capture_output=True).returncode != 0:
        print(f"{args.qmd} does not run here; measuring qmem alone", file=sys.stderr)
        args.qmd = None
    info = {"machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform(terse=True)}",
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg())}
    data = bench(args.files, args.per_file, args.rounds, args.qmd)
    write_results(args.out, "side_by_side", table(data, info), {"machine": info, **data})


if __name__ == "__main__":
    main()
