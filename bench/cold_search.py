"""Cold `qmem search QUERY -n 10 --json`: a fresh process each time, as agents call it.

    python bench/cold_search.py [--sections 100000] [--runs 20] [--dir /tmp/qmem-cold]
                                [--qmem after=.venv/bin/qmem --qmem before=/other/venv/bin/qmem]

Builds the synthetic corpus (bench/corpus.py) once under --dir and, for each `qmem` command
given (default: the one beside this Python), a config and index of its own (kept for the next
run); then for each command:
  - instructions of one search counted by callgrind (`valgrind` on PATH; they do not depend
    on the machine's load), beside `python -c pass`;
  - wall and CPU (user+sys) milliseconds, medians of --runs runs, all commands and
    `python -c pass` interleaved so that load hits them alike;
  - the modules the search imports beyond `python -c pass` (`-X importtime`).
Bytecode is measured as installed (PYTHONDONTWRITEBYTECODE is dropped and the sources
compiled first). Writes cold_search.md / .json to --out.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import write_results  # noqa: E402

QUERY = "deploy wallet"  # bench/engine.py's cold query: two of the corpus's commonest words


def environment(folder: str, label: str) -> dict[str, str]:
    """Each tool its own config and data folder: two versions may keep different index schemas."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["QMEM_CONFIG"] = os.path.join(folder, label, "collections.toml")
    env["QMEM_DATA"] = os.path.join(folder, label, "data")
    return env


def prepare(folder: str, sections: int, label: str, qmem: str, env: dict[str, str]) -> None:
    """The corpus under `folder`, a config and index for `label`, unless an earlier run left them."""
    corpus = os.path.join(folder, f"ws-{sections}")
    if not os.path.exists(corpus + ".done"):
        shutil.rmtree(corpus, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), corpus, "--sections", str(sections)],
                       check=True, stdout=subprocess.DEVNULL)
        open(corpus + ".done", "w").close()
    done = os.path.join(folder, label, f"ready-{sections}-{os.path.realpath(qmem).replace('/', '_')}")
    if os.path.exists(done):
        return
    shutil.rmtree(os.path.join(folder, label), ignore_errors=True)
    subprocess.run([qmem, "collection", "create", "c", corpus], env=env, check=True, stdout=subprocess.DEVNULL)
    open(done, "w").close()


def python_of(script: str) -> str:
    with open(script, "rb") as handle:
        first = handle.readline().decode().strip()
    return first[2:].split()[0] if first.startswith("#!") else sys.executable


def compile_sources(python: str, env: dict[str, str]) -> None:
    """Write the bytecode an installed package ships (an editable install has none yet)."""
    code = ("import compileall, importlib.util, os; spec = importlib.util.find_spec('qmem'); "
            "compileall.compile_dir(os.path.dirname(spec.origin), quiet=1)")
    subprocess.run([python, "-c", code], env=env, check=True)


def instructions(cmd: list[str], env: dict[str, str]) -> int | None:
    if not shutil.which("valgrind"):
        return None
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    return int(found.group(1)) if found else None


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user+sys) seconds of one child process."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{cmd} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime


def imported(cmd: list[str], python: str, env: dict[str, str]) -> list[str]:
    """Modules a command imports that `python -c pass` does not."""
    def names(args: list[str]) -> set[str]:
        err = subprocess.run([python, "-X", "importtime", *args], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True).stderr
        return {line.rsplit("|", 1)[1].strip() for line in err.splitlines() if line.startswith("import time:")}
    return sorted(names(cmd[1:] if cmd[0] == python else cmd) - names(["-c", "pass"]) - {"imported package"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--dir", default="/tmp/qmem-cold")
    parser.add_argument("--query", default=QUERY)
    parser.add_argument("--qmem", action="append", default=[], metavar="LABEL=PATH",
                        help="a qmem command to measure (repeat to compare; default: this Python's)")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    tools = dict(item.split("=", 1) for item in args.qmem) or {
        "qmem": os.path.join(os.path.dirname(sys.executable), "qmem")}
    envs = {label: environment(args.dir, label) for label in tools}
    for label, script in tools.items():
        prepare(args.dir, args.sections, label, script, envs[label])
        compile_sources(python_of(script), envs[label])
        subprocess.run([script, "search", args.query, "-n", "10", "--json"], env=envs[label], check=True,
                       stdout=subprocess.DEVNULL)  # the config cache, the page cache
    commands = {label: [script, "search", args.query, "-n", "10", "--json"] for label, script in tools.items()}
    commands["python -c pass"] = [sys.executable, "-c", "pass"]
    envs["python -c pass"] = environment(args.dir, "python")
    result: dict[str, dict[str, object]] = {}
    for label, cmd in commands.items():
        python = python_of(cmd[0]) if label in tools else sys.executable
        result[label] = {"instructions": instructions(cmd, envs[label]),
                         "imports": imported(cmd, python, envs[label]) if label in tools else []}
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(args.runs):
        for label, cmd in commands.items():
            samples[label].append(timed(cmd, envs[label]))
    for label, rows in samples.items():
        result[label]["wall_ms"] = statistics.median(w for w, _ in rows) * 1000
        result[label]["wall_min_ms"] = min(w for w, _ in rows) * 1000  # the least disturbed run
        result[label]["cpu_ms"] = statistics.median(c for _, c in rows) * 1000
    data = {"sections": args.sections, "query": args.query, "runs": args.runs, "load": os.getloadavg()[0],
            "tools": list(tools), "results": result}
    write_results(args.out, "cold_search", table(data), data)


def table(data: dict) -> str:
    """The Markdown table of one run (instructions, wall, CPU) and each tool's extra imports."""
    lines = [f"Cold `qmem search {data['query']!r} -n 10 --json` on {data['sections']:,} sections "
             f"(medians of {data['runs']} interleaved runs; load average {data['load']:.1f}):", "",
             "| command | instructions (callgrind) | wall (fastest run) | CPU (user+sys) |", "|---|---|---|---|"]
    for label, row in data["results"].items():
        count = f"{row['instructions'] / 1e6:.1f}M" if row["instructions"] else "-"
        fastest = f" ({row['wall_min_ms']:.1f} ms)" if "wall_min_ms" in row else ""
        lines.append(f"| {label} | {count} | {row['wall_ms']:.1f} ms{fastest} | {row['cpu_ms']:.1f} ms |")
    for label in data["tools"]:
        lines += ["", f"{label} imports beyond `python -c pass`: " + (", ".join(data["results"][label]["imports"]) or "none")]
    return "\n".join(lines) + "\n"

if __name__ == "__main__":
    main()
