"""MemoryBank Chinese dev (100 questions) in one process: evidence recall in the snippets an agent sees.

The same columns as shared/data/memorybank-zh-dev/score.py (which runs the CLI once per question
and is the number to report), computed through the library so a ranking or snippet change can
be tried in seconds. Pooled (all 15 users in one collection, searched without -c) by default;
`--per-user` gives each user a collection and searches it with -c.

usage: python bench/memorybank_dev.py WORKSPACES [--cache DIR] [-k 10] [--now 2023-05-07]
                                      [--users u01,u02] [--per-user] [-v]
WORKSPACES is what make_workspaces.py wrote (queries.jsonl + u01..u15). Without --now the search
counts dates from today, as `score.py --now none` does.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import defaultdict

from qmem.base import config
from qmem.engine import search, sync

ID = re.compile(r"\[(u\d{2}d\d+t\d+)\]")
TAGS = ("all", "date", "day", "yesno", "ai", "multi")


def _collection(cache: str, name: str, root: str, patterns: list[str]) -> config.Config:
    os.environ["QMEM_CONFIG"] = os.path.join(cache, "collections.toml")
    os.environ["QMEM_DATA"] = os.path.join(cache, "data")
    cfg = config.load()
    if name not in cfg.collections:
        config.add_collection(cfg, config.Collection(name, os.path.abspath(root), patterns))
        cfg = config.load()
    sync.refresh(cfg, [name])
    return cfg


def _where(root: str) -> dict[str, tuple[str, int]]:
    """Exchange id → (day file relative to WORKSPACES, line of its 用户 line)."""
    out = {}
    for user in sorted(os.listdir(root)):
        folder = os.path.join(root, user, "memory")
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                for n, line in enumerate(handle, 1):
                    m = ID.match(line[2:]) if line.startswith("- [") else None
                    if m:
                        out[m.group(1)] = (f"{user}/memory/{name}", n)
    return out


def run(root: str, cache: str, k: int = 10, now: str | None = None, users: list[str] | None = None,
        pooled: bool = True, verbose: bool = False) -> dict[str, dict[str, float]]:
    with open(os.path.join(root, "queries.jsonl"), encoding="utf-8") as handle:
        queries = [json.loads(line) for line in handle]
    queries = [q for q in queries if q["evidence"] and (not users or q["user"] in users)]
    where = _where(root)
    agg: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    sizes: list[int] = []
    for q in queries:
        if pooled:
            cfg = _collection(os.path.join(cache, "pooled"), "all", root, ["u*/memory/*.md"])
            names, prefix = None, ""
        else:
            cfg = _collection(os.path.join(cache, q["user"]), q["user"], os.path.join(root, q["user"]), ["memory/*.md"])
            names, prefix = [q["user"]], q["user"] + "/"
        hits = search.search(cfg, q["question"], search.SearchOptions(collections=names, limit=k, now=now,
                                                                      snippet_lines=cfg.snippet_lines))
        shown_ids: list[set[str]] = []
        shown_lines: set[tuple[str, int]] = set()
        for hit in hits:
            text = hit.snippet.text
            sizes.append(len(text))
            shown_ids.append(set(ID.findall(text)))
            shown_lines |= {(prefix + hit.path, n) for n in hit.snippet.numbers if n is not None}
        ids5 = set().union(*shown_ids[:5])
        ids_k = set().union(*shown_ids)
        ev, also = set(q["evidence"]), set(q.get("also", []))
        days = {where[e][0] for e in ev}
        row = {"any@5": float(bool(ev & ids5)), f"any@{k}": float(bool(ev & ids_k)),
               "all@5": float(ev <= ids5), f"all@{k}": float(ev <= ids_k),
               f"any+@{k}": float(bool((ev | also) & ids_k)),
               f"line@{k}": float(any((where[e][0], where[e][1] + i) in shown_lines for e in ev for i in (0, 1))),
               "day@1": float(bool(days & {prefix + h.path for h in hits[:1]})),
               "day@5": float(bool(days & {prefix + h.path for h in hits[:5]})),
               f"day@{k}": float(bool(days & {prefix + h.path for h in hits}))}
        if verbose and not ev <= ids_k:
            got = " | ".join(",".join(sorted(s)) or "-" for s in shown_ids)
            print(f"{q['qid']} missing {','.join(sorted(ev - ids_k))}: {q['question']}\n    shown: {got}")
        for group in ["all", *q.get("tags", [])]:
            for name, value in row.items():
                agg[group][name].append(value)
    out = {group: {"n": float(len(m["day@5"])), **{name: sum(v) / len(v) for name, v in m.items()}}
           for group, m in agg.items()}
    out["all"]["chars"] = sum(sizes) / max(1, len(sizes))
    return out


def main() -> None:
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)

    def option(name: str, default: str | None) -> str | None:
        return args[args.index(name) + 1] if name in args else default

    root = args[0]
    cache = option("--cache", os.path.join(root, ".qmem-cache")) or ""
    k = int(option("-k", "10") or 10)
    users = [u for u in (option("--users", "") or "").split(",") if u]
    result = run(root, cache, k, option("--now", None), users, "--per-user" not in args, "-v" in args)
    for group in sorted(result, key=lambda g: TAGS.index(g) if g in TAGS else len(TAGS)):
        print(f"{group:6s} " + "  ".join(f"{n} {v:.3f}" if n != "n" else f"n {v:.0f}" for n, v in result[group].items()))


if __name__ == "__main__":
    main()
