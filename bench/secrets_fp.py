"""How often the secret detector fires on the shared data sets (nearly all of it is harmless text).

    python bench/secrets_fp.py [--data ../shared/data] [--show N] [--old-module PATH]

Counts the lines `qmem.memory.secrets.find` flags per data set (BEIR SciFact, CMRC2018, the
LongMemEval dev chats, the MemoryBank Chinese chats, the memory-md-dev files outside the tree's
held-out part), prints up to N of them to read, and, with `--old-module`, the count of another
version of secrets.py side by side (e.g. `git show main:src/qmem/memory/secrets.py > /tmp/old.py`).
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from tree_real import split_files  # noqa: E402 - found through the sys.path line above


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def texts(data: str) -> dict[str, list[str]]:
    """Per data set, its texts (documents, chat turns, files)."""
    out: dict[str, list[str]] = {}
    for name in ("beir-scifact", "cmrc2018-zh"):
        with open(os.path.join(data, name, "corpus.jsonl"), encoding="utf-8") as handle:
            out[name] = [f"{row.get('title', '')}\n{row.get('text', '')}" for row in map(json.loads, handle)]
    with gzip.open(os.path.join(data, "longmemeval-dev", "records.json.gz"), "rt", encoding="utf-8") as handle:
        out["longmemeval-dev"] = [turn.get("content", "") for record in json.load(handle)
                                  for session in record["haystack_sessions"] for turn in session]
    with gzip.open(os.path.join(data, "memorybank-zh-dev", "memory_bank_cn.json.gz"), "rt", encoding="utf-8") as handle:
        out["memorybank-zh-dev"] = _strings(json.load(handle))
    md = os.path.join(data, "memory-md-dev")
    dev, _ = split_files(md)
    out["memory-md-dev (dev part)"] = [open(os.path.join(md, name), encoding="utf-8").read() for name, _ in dev]
    return out


def load(path: str | None):
    if path is None:
        from qmem.memory import secrets
        return secrets
    spec = importlib.util.spec_from_file_location("old_secrets", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="/work/shared/data")
    parser.add_argument("--show", type=int, default=20)
    parser.add_argument("--old-module")
    args = parser.parse_args()
    new, old = load(None), load(args.old_module) if args.old_module else None
    for name, items in texts(args.data).items():
        lines = sum(text.count("\n") + 1 for text in items)
        flagged = []
        old_count = 0
        for text in items:
            rows = text.splitlines()
            flagged += [(rows[n - 1], kind) for n, kind in new.find(text)]
            if old:
                old_count += len(old.find(text))
        extra = f" (old: {old_count})" if old else ""
        print(f"{name}: {len(flagged)} of {lines} lines flagged{extra}")
        for line, kind in flagged[:args.show]:
            print(f"    {kind}: {line[:160]}")


if __name__ == "__main__":
    main()
