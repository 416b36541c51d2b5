"""The bonsai tree on real MEMORY.md files: budgets, boot cut, catch-alls, reads, secrets, time.

    python bench/tree_real.py [--data ../shared/data/memory-md-dev] [--held-out] [--sections FILE.tsv]
                              [--out bench/results]

Each file is migrated in a fresh temporary workspace with the default settings (as `qmem tree
migrate --force` would). Reported per file and overall:
- root tokens and the budget it was built for (within budget: root ≤ budget);
- boot cut: 1 - root tokens / flat tokens (the median over files, and over 1–4k-token files);
- the largest catch-all: the share of sections filed in `general` or `archive` (pooled over files);
- the costliest root → branch → leaf read as a share of the flat file, and the most reads it takes;
- secret-bearing sections outside a private domain, and secret values found in any index or in
  the root's generated part;
- migrate's wall time.

The held-out files (rule in /work/coord/notes/tree.md: per language, sort by sha256 of the file
name, the first 3 English and 2 Chinese) are skipped unless `--held-out` asks for them alone.
`--sections` writes every section's domain and cues as TSV (for judging by reading).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import write_results  # noqa: E402 - found through the sys.path line above

HELD_OUT = {"en": 3, "zh": 2}
PRIVATE = {"accounts", "identity", "security", "private"}
CATCH_ALLS = ("general", "archive")


def split_files(data: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(dev, held_out): (file, language) rows by the fixed rule above."""
    with open(os.path.join(data, "SOURCES.tsv"), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    dev, held = [], []
    for lang in sorted({r["language"] for r in rows}):
        names = sorted((hashlib.sha256(r["file"].encode()).hexdigest(), r["file"]) for r in rows if r["language"] == lang)
        k = HELD_OUT.get(lang, 0)
        held += [(name, lang) for _, name in names[:k]]
        dev += [(name, lang) for _, name in names[k:]]
    return sorted(dev), sorted(held)


def measure(path: str, lang: str) -> tuple[dict[str, object], list[list[str]]]:
    from qmem.memory import secrets
    from qmem.memory.tree import grow as tree

    text = open(path, encoding="utf-8").read()
    tmp = tempfile.mkdtemp(prefix="qmem-tree-real-")
    try:
        root = os.path.join(tmp, "ws")
        os.makedirs(os.path.join(root, "memory"))
        with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        ws = tree.Workspace(root)
        started = time.perf_counter()
        result = tree.migrate(ws, force=True, day="2026-03-01", explain=True)
        seconds = time.perf_counter() - started
        budget = result.root_budget
        root_text = open(ws.memory_md, encoding="utf-8").read()
        manifest = tree.load_manifest(ws) or {}
        generated = root_text[manifest.get("core_chars", 0):]
        leaked = len(secrets.find(generated))
        reads = 1
        for folder, _, files in os.walk(ws.domains):
            for name in files:
                if name == tree.INDEX_NAME:
                    leaked += len(secrets.find(open(os.path.join(folder, name), encoding="utf-8").read()))
                elif name.endswith(".md"):
                    top = os.path.relpath(os.path.join(folder, name), ws.domains).split(os.sep)[0]
                    indexes = 1 if os.path.exists(os.path.join(ws.domains, top, tree.INDEX_NAME)) else 0
                    nested = sum(tree.INDEX_NAME in os.listdir(os.path.join(ws.domains, *parts))
                                 for parts in [os.path.relpath(folder, ws.domains).split(os.sep)[:k]
                                               for k in range(2, os.path.relpath(folder, ws.domains).count(os.sep) + 2)])
                    reads = max(reads, 1 + indexes + nested + 1)  # root, each index on the way, the leaf
        sections = []
        secret_sections = exposed = 0
        for row in result.sections:
            sections.append([os.path.basename(path), lang, str(row["line"]), str(row["section"]), str(row["domain"]),
                             "; ".join(row["why"]), str(row["tokens"])])  # type: ignore[arg-type]
            if row["secrets"]:
                secret_sections += 1
                exposed += row["domain"] not in PRIVATE
        moved = [r for r in result.sections if r["domain"] != "(root: pinned)"]
        n_sections = len(result.sections)
        row = {
            "file": os.path.basename(path), "lang": lang, "tokens": result.tokens_before,
            "root": result.tokens_after, "budget": budget, "fits": result.tokens_after <= budget,
            "cut": round(result.reduction, 4),
            "worst_read": round(int(result.worst_read["tokens"]) / result.tokens_before, 4),  # type: ignore[arg-type]
            "reads": reads, "sections": n_sections, "pinned": n_sections - len(moved),
            **{f"n_{c}": sum(r["domain"] == c for r in moved) for c in CATCH_ALLS},
            "secret_sections": secret_sections, "secret_exposed": exposed, "secret_in_index": leaked,
            "warnings": len(result.warnings), "seconds": round(seconds, 3),
        }
        return row, sections
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def summary(rows: list[dict[str, object]]) -> dict[str, object]:
    sections = sum(int(r["sections"]) for r in rows)  # type: ignore[arg-type]
    small = [float(r["cut"]) for r in rows if 1000 <= int(r["tokens"]) < 4000]  # type: ignore[arg-type]
    return {
        "files": len(rows),
        "within_budget": f"{sum(bool(r['fits']) for r in rows)}/{len(rows)}",
        "median_cut": round(statistics.median(float(r["cut"]) for r in rows), 4),  # type: ignore[arg-type]
        "median_cut_1_4k": round(statistics.median(small), 4) if small else None,
        **{f"share_{c}": round(sum(int(r[f"n_{c}"]) for r in rows) / sections, 4) for c in CATCH_ALLS},  # type: ignore[arg-type]
        "worst_read": max(float(r["worst_read"]) for r in rows),  # type: ignore[arg-type]
        "max_reads": max(int(r["reads"]) for r in rows),  # type: ignore[arg-type]
        "secret_sections": sum(int(r["secret_sections"]) for r in rows),  # type: ignore[arg-type]
        "secret_exposed": sum(int(r["secret_exposed"]) for r in rows),  # type: ignore[arg-type]
        "secret_in_index": sum(int(r["secret_in_index"]) for r in rows),  # type: ignore[arg-type]
    }


def table(rows: list[dict[str, object]], total: dict[str, object], which: str) -> str:
    out = [f"# bonsai tree on real MEMORY.md files ({which})", "",
           "| file | lang | tokens | root/budget | cut | worst read | reads | general | archive | pinned | secrets exposed | s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {str(r['file'])[:40]} | {r['lang']} | {r['tokens']} | {r['root']}/{r['budget']}"
                   f"{'' if r['fits'] else ' OVER'} | {float(r['cut']):.1%} | {float(r['worst_read']):.0%} | {r['reads']} | "  # type: ignore[arg-type]
                   f"{r['n_general']}/{r['sections']} | {r['n_archive']}/{r['sections']} | {r['pinned']} | "
                   f"{r['secret_exposed']}/{r['secret_sections']} (+{r['secret_in_index']} in indexes) | {r['seconds']} |")
    out += ["", "| measure | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in total.items()]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.join(HERE, "..", "..", "..", "shared", "data", "memory-md-dev"))
    parser.add_argument("--held-out", action="store_true", help="measure the held-out files (only at the end)")
    parser.add_argument("--sections", help="write every section's domain and cues to this TSV")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        args.data = "/work/shared/data/memory-md-dev"
    dev, held = split_files(args.data)
    chosen = held if args.held_out else dev
    rows, sections = [], []
    for name, lang in chosen:
        row, found = measure(os.path.join(args.data, name), lang)
        rows.append(row)
        sections += found
    which = "held out" if args.held_out else "dev"
    total = summary(rows)
    write_results(args.out, "tree_real_held_out" if args.held_out else "tree_real_dev", table(rows, total, which),
                  {"rows": rows, "summary": total})
    if args.sections:
        with open(args.sections, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t")
            writer.writerow(["file", "lang", "line", "section", "domain", "why", "tokens"])
            writer.writerows(sections)


if __name__ == "__main__":
    main()
