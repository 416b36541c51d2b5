"""The bonsai tree on real MEMORY.md files: budgets, boot cut, catch-alls, reads, secrets, time.

    python bench/tree_real.py [--data ../shared/data/memory-md-dev] [--held-out] [--sections FILE.tsv]
                              [--out bench/results]
    python bench/tree_real.py --set bench/data/tree-heldout-s2 --judge bench/data/tree-heldout-s2/reader.tsv

Each file is migrated in a fresh temporary workspace with the default settings (as `qmem tree
migrate --force` would). Reported per file and overall:
- root tokens and the budget it was built for (within budget: root ≤ budget);
- boot cut: 1 - root tokens / flat tokens (the median over files, and over 1–4k-token files);
- the largest catch-all: the share of sections filed in `general` or `archive` (pooled over files);
- the costliest root → branch → leaf read as a share of the flat file, and the most reads it takes;
- secret-bearing sections outside a private domain, and secret values found in any index or in
  the root's generated part;
- migrate's wall time.

The held-out files (per language, sorted by the sha256 of the file name: the first 3 English
and 2 Chinese) are skipped unless `--held-out` asks for them alone.
`--sections` writes every section's domain and cues as TSV (for judging by reading).
`--set DIR` measures every file DIR/SOURCES.tsv lists (a held-out set of its own, such as
bench/data/tree-heldout-s2: composed files whose reader's table was written before qmem ran on them).
`--judge READER.tsv` scores each section against a reader's table (written by the rule in
bench/data/tree-judging.md): RIGHT when qmem's domain is the reader's first choice,
ACCEPTABLE when it is one the reader accepts or a domain named after the section's own heading
(the rule's wording), else WRONG; reported per language, and again counting own-heading domains
as wrong (the stricter reading).

Archive is reported twice: all sections in `archive`, and those there for another reason than
being a dated log entry ("Session 2026-05-22 — …", an event on a past day). The issue's
≤ 8% is about catch-alls; a run of dated session logs shares what a domain should (they are the
record of finished days), so the second figure is the catch-all part of archive; both are shown.
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
UNIT_HASH = "xxh64:"  # a reader's table may key units by this hash of the heading (bench/tree_sets.py)


def unit_key(unit: str) -> str:
    """The hashed key of a unit's heading: a committed table names no third party's text."""
    import xxhash

    return UNIT_HASH + xxhash.xxh64_hexdigest(unit.strip().encode("utf-8"))


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
            if row["domain"] == "(root: pinned)":
                sections[-1][4] = "pinned"
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
            "n_archive_logs": sum(r["domain"] == "archive" and any("dated log entry" in w for w in r["why"])  # type: ignore[union-attr]
                                  for r in moved),
            "secret_sections": secret_sections, "secret_exposed": exposed, "secret_in_index": leaked,
            "warnings": len(result.warnings), "seconds": round(seconds, 3),
            "domains": {d: sum(r["domain"] == d for r in moved) for d in {str(r["domain"]) for r in moved}},
        }
        return row, sections
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _largest_share(rows: list[dict[str, object]]) -> str:
    """The largest domain of all, pooled (a catch-all shows up here whatever its name)."""
    counts: dict[str, int] = {}
    for r in rows:
        for name, n in r["domains"].items():  # type: ignore[union-attr]
            counts[name] = counts.get(name, 0) + n
    total = sum(counts.values()) or 1
    name, n = max(counts.items(), key=lambda kv: kv[1]) if counts else ("-", 0)
    return f"{name} {n / total:.1%}"


def summary(rows: list[dict[str, object]]) -> dict[str, object]:
    sections = sum(int(r["sections"]) for r in rows)  # type: ignore[arg-type]
    small = [float(r["cut"]) for r in rows if 1000 <= int(r["tokens"]) < 4000]  # type: ignore[arg-type]
    return {
        "files": len(rows),
        "within_budget": f"{sum(bool(r['fits']) for r in rows)}/{len(rows)}",
        "median_cut": round(statistics.median(float(r["cut"]) for r in rows), 4),  # type: ignore[arg-type]
        "median_cut_1_4k": round(statistics.median(small), 4) if small else None,
        **{f"share_{c}": round(sum(int(r[f"n_{c}"]) for r in rows) / sections, 4) for c in CATCH_ALLS},  # type: ignore[arg-type]
        "share_archive_not_dated_logs": round(sum(int(r["n_archive"]) - int(r["n_archive_logs"]) for r in rows)  # type: ignore[arg-type]
                                              / sections, 4),
        "largest_domain_share": _largest_share(rows),
        "worst_read": max(float(r["worst_read"]) for r in rows),  # type: ignore[arg-type]
        "max_reads": max(int(r["reads"]) for r in rows),  # type: ignore[arg-type]
        "secret_sections": sum(int(r["secret_sections"]) for r in rows),  # type: ignore[arg-type]
        "secret_exposed": sum(int(r["secret_exposed"]) for r in rows),  # type: ignore[arg-type]
        "secret_in_index": sum(int(r["secret_in_index"]) for r in rows),  # type: ignore[arg-type]
    }


def judge(sections: list[list[str]], reader_path: str) -> tuple[list[list[str]], str]:
    """Each section's verdict against the reader's table (rows: file stem, unit, right, acceptable,
    reason), and a per-language table of right / acceptable / wrong."""
    from qmem.memory.tree.domains import DEFAULT_DOMAINS, heading_domain

    reader: dict[tuple[str, str], tuple[set[str], set[str]]] = {}
    with open(reader_path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or line.startswith("file\t") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            reader[(cells[0], cells[1])] = (set(cells[2].split("|")), set(filter(None, cells[3].split("|"))))
    hashed = any(unit.startswith(UNIT_HASH) for _, unit in reader)
    out = [["file", "lang", "unit", "qmem", "right", "acceptable", "verdict", "strict", "qmem evidence"]]
    tally: dict[str, dict[str, int]] = {}
    for file, lang, _line, unit, domain, why, _tokens in sections:
        key = (os.path.splitext(file)[0], unit)
        if key not in reader and hashed:
            key = (key[0], unit_key(unit))
        if key not in reader:
            out.append([file, lang, unit, domain, "?", "?", "UNJUDGED", "UNJUDGED", why])
            continue
        right, acceptable = reader[key]
        # its own name, or the series its heading opens ("Session 3 …" → session); another section's name is not
        own = domain not in DEFAULT_DOMAINS and domain != "pinned" and (
            domain == heading_domain(unit) or ("a series" in why and heading_domain(unit).startswith(domain)))
        verdict = "RIGHT" if domain in right else "ACCEPTABLE" if domain in acceptable or own else "WRONG"
        strict = "WRONG" if own and domain not in right | acceptable else verdict
        out.append([file, lang, unit, domain, "|".join(sorted(right)), "|".join(sorted(acceptable)), verdict, strict, why])
        for group in (lang, "all"):
            counts = tally.setdefault(group, {})
            counts[verdict] = counts.get(verdict, 0) + 1
            counts["strict_" + strict] = counts.get("strict_" + strict, 0) + 1
    judged = {(os.path.splitext(r[0])[0], u) for r in out[1:] for u in (r[2], unit_key(r[2]))}
    missing = [k for k in reader if k not in judged]
    lines = ["| language | units | right | right or acceptable | wrong | wrong, own-heading counted wrong |", "|---|---|---|---|---|---|"]
    for group, c in sorted(tally.items(), key=lambda kv: kv[0] == "all"):
        n = c.get("RIGHT", 0) + c.get("ACCEPTABLE", 0) + c.get("WRONG", 0)
        lines.append(f"| {group} | {n} | {c.get('RIGHT', 0) / n:.1%} ({c.get('RIGHT', 0)}) | "
                     f"{(c.get('RIGHT', 0) + c.get('ACCEPTABLE', 0)) / n:.1%} | {c.get('WRONG', 0) / n:.1%} | "
                     f"{c.get('strict_WRONG', 0) / n:.1%} |")
    if missing:
        lines.append(f"\nreader's units qmem did not file on their own: {len(missing)} ({'; '.join(u for _, u in missing[:8])})")
    return out, "\n".join(lines) + "\n"


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
    parser.add_argument("--set", help="measure every file this folder's SOURCES.tsv lists")
    parser.add_argument("--judge", help="score the sections against this reader's table (TSV)")
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        args.data = "/work/shared/data/memory-md-dev"
    if args.set:
        args.data = args.set
        with open(os.path.join(args.set, "SOURCES.tsv"), encoding="utf-8") as handle:
            chosen = [(r["file"], r["language"]) for r in csv.DictReader(handle, delimiter="\t")]
    else:
        dev, held = split_files(args.data)
        chosen = held if args.held_out else dev
    rows, sections = [], []
    for name, lang in chosen:
        row, found = measure(os.path.join(args.data, name), lang)
        rows.append(row)
        sections += found
    which = f"set {os.path.basename(os.path.normpath(args.set))}" if args.set else "held out" if args.held_out else "dev"
    total = summary(rows)
    text = table(rows, total, which)
    os.makedirs(args.out, exist_ok=True)
    if args.judge:
        verdicts, scores = judge(sections, args.judge)
        text += "\n" + scores
        with open(os.path.join(args.out, f"tree_real_verdicts_{which.split()[-1]}.tsv"), "w", encoding="utf-8") as handle:
            handle.write("\n".join("\t".join(v) for v in verdicts) + "\n")
    name = f"tree_real_{which.split()[-1]}" if args.set else "tree_real_held_out" if args.held_out else "tree_real_dev"
    write_results(args.out, name, text, {"rows": rows, "summary": total})
    if args.sections:
        with open(args.sections, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t")
            writer.writerow(["file", "lang", "line", "section", "domain", "why", "tokens"])
            writer.writerows(sections)


if __name__ == "__main__":
    main()
