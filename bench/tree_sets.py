"""Judged sets of real MEMORY.md files, kept as manifests: where each file came from, never its text.

    python bench/tree_sets.py export SETDIR MANIFESTDIR   # a gathered set → a manifest to commit
    python bench/tree_sets.py check FETCHDIR MANIFESTDIR  # files fetched again → the same bytes?

Real agents' memory files are third parties' text, mostly without a licence, so the repository keeps
only a manifest: SOURCES.tsv (file, repo, path, commit, language, sha256, bytes) and reader.tsv, the
reader's table with each unit keyed by `xxh64:` + the hash of its heading (bench/tree_real.py
matches those keys) and without the judges' reasons, which quote the files. To measure on such a
set, fetch each `repo`/`path` at `commit` from the public code index into one folder under the
`file` name (an agent's read_file tool does this), run `check`, then
`python bench/tree_real.py --set FETCHDIR --judge MANIFESTDIR/reader.tsv` (check writes
FETCHDIR/SOURCES.tsv). A file whose bytes differ is reported and left out rather than
scored against a table written for other text.
"""

from __future__ import annotations

import csv
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from tree_real import UNIT_HASH, unit_key  # noqa: E402 - found through the sys.path line above

FIELDS = ["file", "repo", "path", "commit", "language", "sha256", "bytes"]


def _rows(path: str) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _write(path: str, header: list[str], rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def _sha256(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def export(set_dir: str, out_dir: str) -> str:
    """The manifest of a gathered set (SOURCES.tsv with repo/path/commit, reader.tsv) in out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    sources = []
    for row in _rows(os.path.join(set_dir, "SOURCES.tsv")):
        path = os.path.join(set_dir, row["file"])
        sources.append([row["file"], row["repo"], row["path"], row["commit"], row["language"],
                        _sha256(path), str(os.path.getsize(path))])
    _write(os.path.join(out_dir, "SOURCES.tsv"), FIELDS, sources)
    judged = []
    with open(os.path.join(set_dir, "reader.tsv"), encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or line.startswith("file\t") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t") + ["", ""]
            unit = cells[1] if cells[1].startswith(UNIT_HASH) else unit_key(cells[1])
            judged.append([cells[0], unit, cells[2], cells[3]])
    _write(os.path.join(out_dir, "reader.tsv"), ["file", "unit", "right", "acceptable"], judged)
    return f"{len(sources)} files, {len(judged)} judged units → {out_dir}"


def check(fetch_dir: str, manifest_dir: str) -> tuple[str, int]:
    """Compare fetched files with the manifest; write FETCHDIR/SOURCES.tsv for the files that match."""
    good, bad = [], []
    for row in _rows(os.path.join(manifest_dir, "SOURCES.tsv")):
        path = os.path.join(fetch_dir, row["file"])
        if not os.path.isfile(path):
            bad.append(f"missing: {row['file']} ({row['repo']} {row['path']} @ {row['commit'][:12]})")
        elif _sha256(path) != row["sha256"]:
            bad.append(f"different bytes: {row['file']} (expected {row['bytes']} bytes, sha256 {row['sha256'][:12]}…)")
        else:
            good.append([row["file"], row["language"]])
    _write(os.path.join(fetch_dir, "SOURCES.tsv"), ["file", "language"], good)
    lines = bad + [f"{len(good)} of {len(good) + len(bad)} files match; FETCHDIR/SOURCES.tsv lists them"]
    return "\n".join(lines), 0 if not bad else 1


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("export", "check"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if argv[0] == "export":
        print(export(argv[1], argv[2]))
        return 0
    text, code = check(argv[1], argv[2])
    print(text)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
