"""The OpenSearch backend at scale, side by side with the local index, on one corpus.

    scripts/test-cluster start --nodes 3 --name scale --heap 512m --full-jit
    eval "$(scripts/test-cluster env --name scale)"
    nice -n 10 python bench/opensearch_scale.py [--sections 100000 --per-file 5] [--agents 8]

The corpus is bench/corpus.py's (fixed seed): 100,000 sections in 20,000 files by default.
For each backend (`local`, then `opensearch` on the cluster QMEM_OPENSEARCH_URL names, with
the credentials and CA the environment gives; indices of 3 shards and 1 replica) it measures:
  - first index (`qmem collection create`): wall, and the qmem process's CPU (the cluster's
    JVMs are not counted; they run on this machine too);
  - no-op refresh (`qmem index -q`, nothing changed): median wall of 3, and the HTTP requests
    it sends (counted in a run that wraps opensearch-py's transport); with --noop-ab N, N
    interleaved pairs with the change mark trusted and with every file record read;
  - cold search (`qmem search QUERY -n 10 --json`, a fresh process): median wall of --runs;
  - search latency with --agents concurrent agents: each a long-lived process (as the MCP
    server is) running --queries searches from a fixed list; p50 and p99 over all of them.
Writes opensearch_scale.md / .json to --out. A report, not a test: the figures depend on the
machine and on its load, which is recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import write_results  # noqa: E402
from scale import run  # noqa: E402

QMEM = os.path.join(os.path.dirname(sys.executable), "qmem")

# Run as `python opensearch_scale.py --count-requests ...`: `qmem ARGS` in-process, printing how
# many HTTP requests opensearch-py sent as the last line of stderr.
COUNTED = """
import sys
from opensearchpy import transport
sent = []
real = transport.Transport.perform_request
def record(self, method, url, *a, **k):
    sent.append((method, url.split("?")[0]))
    return real(self, method, url, *a, **k)
transport.Transport.perform_request = record
from qmem.__main__ import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    if exc.code not in (0, None):
        raise
print("requests", len(sent), file=sys.stderr)
"""

# `qmem index -q` in-process; with "full" the change mark is never trusted, so every file record
# is read (what a no-op refresh did before marks).
NOOP = """
import sys
from qmem.backends.opensearch import marks
if sys.argv[1] == "full":
    marks.TRUST_SECONDS = 0
from qmem.__main__ import main
try:
    main(["index", "-q"])
except SystemExit as exc:
    if exc.code not in (0, None):
        raise
"""

# One agent: a long-lived process searching through the MCP face's tool function.
AGENT = """
import json, sys, time
from qmem.faces.mcp import Memory
config, queries = sys.argv[1], json.loads(sys.argv[2])
tools = Memory(config, None)
tools.memory_search(queries[0])  # the client and its pool, as a running server has them
took = []
for text in queries:
    started = time.perf_counter()
    found = tools.memory_search(text)
    took.append(time.perf_counter() - started)
    assert "results" in found
print(json.dumps(took))
"""


def backend_table(kind: str, index: str) -> str:
    if kind == "local":
        return ""
    lines = ["[backend]", 'kind = "opensearch"', f'url = "{os.environ["QMEM_OPENSEARCH_URL"]}"',
             f'index = "{index}"', "shards = 3", "replicas = 1"]
    if os.environ.get("QMEM_OPENSEARCH_PASSWORD"):
        lines += ['auth = "basic"', f'username = "{os.environ.get("QMEM_OPENSEARCH_USER", "admin")}"']
    if os.environ.get("QMEM_OPENSEARCH_CA"):
        lines.append(f'ca_certs = "{os.environ["QMEM_OPENSEARCH_CA"]}"')
    return "\n".join(lines) + '\n[scopes]\nown = "agent:bench"\n'


def environment(folder: str, kind: str, index: str) -> dict[str, str]:
    home = os.path.join(folder, kind)
    os.makedirs(home, exist_ok=True)
    config = os.path.join(home, "collections.toml")
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(backend_table(kind, index))
    env = dict(os.environ, QMEM_CONFIG=config, QMEM_DATA=os.path.join(home, "data"))
    env["PYTHONPATH"] = os.path.abspath(os.path.join(HERE, "..", "src"))
    return env


def queries(corpus: str, count: int, seed: int = 7) -> list[str]:
    """Two words of one line of a random file: every query matches something."""
    rng = random.Random(seed)
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(corpus) for f in names if f.endswith(".md"))
    out: list[str] = []
    while len(out) < count:
        with open(rng.choice(files), encoding="utf-8") as handle:
            lines = [line for line in handle.read().splitlines() if line and not line.startswith("#")]
        words = rng.choice(lines).split() if lines else []
        if len(words) >= 2:
            start = rng.randrange(len(words) - 1)
            out.append(" ".join(w.strip(".,;:`*-") for w in words[start:start + 2]))
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def agents(env: dict[str, str], texts: list[str], count: int) -> dict[str, float]:
    procs = [subprocess.Popen([sys.executable, "-c", AGENT, env["QMEM_CONFIG"], json.dumps(texts)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(count)]
    took: list[float] = []
    for proc in procs:
        out, err = proc.communicate(timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(f"an agent failed: {err[-2000:]}")
        took.extend(json.loads(out.strip().splitlines()[-1]))
    return {"searches": len(took), "p50_ms": percentile(took, 0.50) * 1000, "p99_ms": percentile(took, 0.99) * 1000}


def measure(kind: str, folder: str, corpus: str, texts: list[str], args: argparse.Namespace) -> dict:
    index = f"qmem-bench-{uuid.uuid4().hex[:8]}"
    env = environment(folder, kind, index)
    row: dict[str, object] = {}
    wall, cpu, _ = run([QMEM, "collection", "create", "c", corpus], env)
    row["first_index"] = {"wall_s": wall, "qmem_cpu_s": cpu}
    run([QMEM, "index", "-q"], env)  # settle
    noop = [run([QMEM, "index", "-q"], env) for _ in range(3)]
    row["noop_refresh"] = {"wall_ms": statistics.median(w for w, _, _ in noop) * 1000,
                           "cpu_ms": statistics.median(c for _, c, _ in noop) * 1000}
    if kind != "local":
        done = subprocess.run([sys.executable, "-c", COUNTED, "index", "-q"], env=env, capture_output=True,
                              text=True, check=True)
        row["noop_refresh"]["requests"] = int(done.stderr.strip().splitlines()[-1].split()[1])
        if args.noop_ab:  # interleaved: the mark trusted, and every record read
            ab: dict[str, list[float]] = {"mark": [], "full": []}
            for _ in range(args.noop_ab):
                for mode, times in ab.items():
                    times.append(run([sys.executable, "-c", NOOP, mode], env)[0])
            row["noop_refresh"]["mark_wall_ms"] = statistics.median(ab["mark"]) * 1000
            row["noop_refresh"]["full_read_wall_ms"] = statistics.median(ab["full"]) * 1000
    cold = [run([QMEM, "search", texts[i % len(texts)], "-n", "10", "--json"], env) for i in range(args.runs)]
    row["cold_search_wall_ms"] = statistics.median(w for w, _, _ in cold) * 1000
    row["agents"] = agents(env, texts, args.agents)
    if kind != "local":  # the cluster's indices go with the run
        from opensearchpy import OpenSearch

        auth = (os.environ.get("QMEM_OPENSEARCH_USER", "admin"), os.environ["QMEM_OPENSEARCH_PASSWORD"]) \
            if os.environ.get("QMEM_OPENSEARCH_PASSWORD") else None
        client = OpenSearch(os.environ["QMEM_OPENSEARCH_URL"], http_auth=auth,
                            ca_certs=os.environ.get("QMEM_OPENSEARCH_CA") or None)
        client.indices.delete(index=f"{index}-*", ignore_unavailable=True, expand_wildcards="all")
    return row


def table(data: dict) -> str:
    rows = data["backends"]
    kinds = list(rows)
    lines = [f"{data['files']:,} files, {data['sections']:,} sections; {data['agents']} agents × "
             f"{data['queries']} searches; load {data['load_before']:.1f} → {data['load_after']:.1f}", "",
             "| step | " + " | ".join(kinds) + " |", "|---|" + "---|" * len(kinds)]

    def line(label: str, cell) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(rows[k]) for k in kinds) + " |")

    line("first index, wall", lambda r: f"{r['first_index']['wall_s']:.0f} s")
    line("first index, qmem CPU", lambda r: f"{r['first_index']['qmem_cpu_s']:.0f} s")
    line("no-op refresh, wall", lambda r: f"{r['noop_refresh']['wall_ms']:.0f} ms")
    line("no-op refresh, requests", lambda r: str(r["noop_refresh"].get("requests", 0)))
    if any("mark_wall_ms" in r["noop_refresh"] for r in rows.values()):
        line("no-op, mark trusted / every record read (interleaved medians)",
             lambda r: (f"{r['noop_refresh']['mark_wall_ms']:.0f} / {r['noop_refresh']['full_read_wall_ms']:.0f} ms"
                        if "mark_wall_ms" in r["noop_refresh"] else "–"))
    line("cold search, wall (median)", lambda r: f"{r['cold_search_wall_ms']:.0f} ms")
    line(f"search p50 ({data['agents']} agents)", lambda r: f"{r['agents']['p50_ms']:.1f} ms")
    line(f"search p99 ({data['agents']} agents)", lambda r: f"{r['agents']['p99_ms']:.1f} ms")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=100_000)
    parser.add_argument("--per-file", type=int, default=5)
    parser.add_argument("--agents", type=int, default=8)
    parser.add_argument("--queries", type=int, default=50, help="searches per agent")
    parser.add_argument("--runs", type=int, default=10, help="cold searches")
    parser.add_argument("--noop-ab", type=int, default=0, metavar="N",
                        help="also N interleaved no-op refreshes with the change mark and reading every record")
    parser.add_argument("--dir", default="/tmp/qmem-os-scale")
    parser.add_argument("--backends", default="local,opensearch")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    if "opensearch" in args.backends and not os.environ.get("QMEM_OPENSEARCH_URL"):
        parser.error("set QMEM_OPENSEARCH_URL (eval \"$(scripts/test-cluster env --name NAME)\")")
    corpus = os.path.join(args.dir, "ws")
    if not os.path.exists(corpus + ".done"):
        shutil.rmtree(corpus, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), corpus, "--sections", str(args.sections),
                        "--per-file", str(args.per_file)], check=True, stdout=subprocess.DEVNULL)
        open(corpus + ".done", "w").close()
    files = sum(1 for _, _, names in os.walk(corpus) for f in names if f.endswith(".md"))
    texts = queries(corpus, args.queries)
    rows: dict[str, dict] = {}
    data: dict[str, object] = {"files": files, "sections": args.sections, "agents": args.agents,
                               "queries": args.queries, "load_before": os.getloadavg()[0], "backends": rows}
    for kind in args.backends.split(","):
        shutil.rmtree(os.path.join(args.dir, kind), ignore_errors=True)
        rows[kind] = measure(kind, args.dir, corpus, texts, args)
        print(f"{kind}: {json.dumps(rows[kind])}", file=sys.stderr)
    data["load_after"] = os.getloadavg()[0]
    write_results(args.out, "opensearch_scale", table(data), data)
    print(table(data))


if __name__ == "__main__":
    main()
