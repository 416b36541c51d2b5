"""The folder-at-a-time scan (scan_columns) returns exactly what the entry-by-entry scan of
qmem 0.1 returned (kept below as the reference), with and without the manifest's known
paths, on random trees full of traps: symlinks in and out of the root, loops, FIFOs,
hidden and skipped folders, bad names, `-` names that sort before `/`, overlapping walks."""

from __future__ import annotations

import os
import random

import pytest

from qmem.base.fsutil import is_inside
from qmem.engine.scan import SKIP_DIRS, FileInfo, Known, Matcher, _by_name, bad_name, scan, scan_columns, shown_name


def reference_scan(root: str, patterns: list[str], exclude: list[str]) -> tuple[list[FileInfo], list[str]]:
    """qmem 0.1's scan, verbatim but for names."""
    matcher = Matcher(patterns, exclude)
    real_root = os.path.realpath(root)
    files: dict[str, FileInfo] = {}
    warnings: list[str] = []
    visited: set[str] = set()
    if not os.path.isdir(real_root):
        return [], [f"{root}: collection root is missing or not a folder"]

    def walk(rel_dir: str, depth: int | None, via_link: bool = False) -> None:
        abs_dir = os.path.join(real_root, rel_dir) if rel_dir else real_root
        real_dir = os.path.realpath(abs_dir)
        if real_dir in visited:
            return
        visited.add(real_dir)
        try:
            entries = sorted(os.scandir(abs_dir), key=_by_name)
        except OSError as exc:
            if rel_dir:
                warnings.append(f"{rel_dir}/: cannot list: {exc.strerror}")
            return
        prefix = f"{rel_dir}/" if rel_dir else ""
        wants = matcher.wants
        for entry in entries:
            rel = prefix + entry.name
            try:
                if not entry.is_dir():
                    if not wants(rel):
                        continue
                    if bad_name(entry.name):
                        warnings.append(f"{shown_name(rel)}: file name is not valid UTF-8 or holds a control character, skipped")
                        continue
                    is_link = entry.is_symlink()
                    if is_link and not is_inside(real_root, os.path.realpath(entry.path)):
                        warnings.append(f"{rel}: symlink points outside the collection root, skipped")
                        continue
                    st = entry.stat()
                    if entry.is_file():
                        real = os.path.realpath(entry.path) if (via_link or is_link) else entry.path
                        if real in real_files:
                            continue
                        real_files.add(real)
                        files[rel] = FileInfo(rel, entry.path, st.st_size, st.st_mtime_ns)
                    continue
                is_link = entry.is_symlink()
                if depth == 0 or entry.name.startswith(".") or entry.name in SKIP_DIRS or matcher.prunes(rel):
                    continue
                if bad_name(entry.name):
                    warnings.append(f"{shown_name(rel)}/: folder name is not valid UTF-8 or holds a control character, skipped")
                    continue
                sub_depth = None if depth is None else depth - 1
                if is_link:
                    if not is_inside(real_root, os.path.realpath(entry.path)):
                        warnings.append(f"{rel}/: symlink points outside the collection root, skipped")
                    else:
                        linked.append((rel, sub_depth, True))
                    continue
                walk(rel, sub_depth, via_link)
            except OSError as exc:
                if wants(rel):
                    warnings.append(f"{rel}: cannot stat: {exc.strerror}")

    linked: list[tuple[str, int | None, bool]] = []
    real_files: set[str] = set()
    for base, depth in matcher.bases:
        visited.clear()
        target = os.path.join(real_root, base)
        if os.path.isdir(target) and is_inside(real_root, os.path.realpath(target)):
            walk(base, depth)
        while linked:
            walk(*linked.pop(0))
    return [files[k] for k in sorted(files)], warnings


FILE_NAMES = ["a.md", "b.md", "a-b.md", "topics.md", "topics-x.md", "z.md", "_index.md", "MEMORY.md",
              "notes.txt", "x\x01.md", "é.md", "a b.md", "2026-01-01.md"]
DIR_NAMES = ["a", "b", "topics", "domains", "memory", "archive", ".hidden", "node_modules", "bad\x02dir"]
RULES = [
    (["**/*.md"], []),
    (["MEMORY.md", "memory/**/*.md"], ["memory/archive/**"]),
    (["*.md", "a/*/*.md", "a/b/**/*.md"], []),  # overlapping walks
    (["**"], ["**/z.md", "topics/**"]),
    (["a/**", "memory/*.md"], ["a/b/**"]),
]


def make_tree(rng: random.Random, root: str, outside: str) -> None:
    folders = [""]
    for _ in range(rng.randint(1, 7)):
        parent = rng.choice(folders)
        rel = os.path.join(parent, rng.choice(DIR_NAMES))
        if parent.count("/") < 2 and not os.path.lexists(os.path.join(root, rel)):
            os.makedirs(os.path.join(root, rel))
            folders.append(rel)
    for _ in range(rng.randint(0, 25)):
        path = os.path.join(root, rng.choice(folders), rng.choice(FILE_NAMES))
        if not os.path.lexists(path):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("x" * rng.randint(0, 50))
    plain = [os.path.join(d, n) for d in folders for n in os.listdir(os.path.join(root, d))
             if os.path.isfile(os.path.join(root, d, n))]
    for _ in range(rng.randint(0, 6)):
        at = os.path.join(root, rng.choice(folders), rng.choice(["l1.md", "l2.md", "link", "loop", "zz.md", "a0"]))
        if os.path.lexists(at):
            continue
        kind = rng.randrange(6)
        if kind == 0 and plain:
            os.symlink(os.path.join(root, rng.choice(plain)), at)  # a file inside
        elif kind == 1:
            os.symlink(os.path.join(root, rng.choice(folders)), at)  # a folder inside (maybe a loop)
        elif kind == 2:
            os.symlink(outside, at)  # a folder outside
        elif kind == 3:
            os.symlink(os.path.join(outside, "secret.md"), at)  # a file outside
        elif kind == 4:
            os.symlink(os.path.join(root, "missing.md"), at)  # broken
        else:
            os.mkfifo(at)


def flat(files: list[FileInfo]) -> list[tuple[str, str, int, int]]:
    return [(f.rel, os.path.normpath(f.abs), f.size, f.mtime_ns) for f in files]


@pytest.mark.parametrize("seed", range(40))
def test_scan_columns_matches_the_reference_scan(tmp_path, seed):
    rng = random.Random(seed)
    root, outside = tmp_path / "root", tmp_path / "outside"
    os.makedirs(root)
    os.makedirs(outside)
    (outside / "secret.md").write_text("s")
    make_tree(rng, str(root), str(outside))
    for patterns, exclude in RULES:
        want_files, want_warnings = reference_scan(str(root), patterns, exclude)
        got_files, got_warnings = scan(str(root), patterns, exclude)
        assert (flat(got_files), got_warnings) == (flat(want_files), want_warnings)
        rels = [f.rel for f in want_files]
        first = scan_columns(str(root), patterns, exclude)
        # the manifest's paths, or some of them; with the glob verdicts of the last scan
        for known in (rels, rels[::2], rels[1:], Known(rels, first.rejected, first.folders),
                      Known(rels[1:], first.rejected[1:], dict(list(first.folders.items())[1:]))):
            listing = scan_columns(str(root), patterns, exclude, known)
            assert (flat(listing.infos()), listing.warnings) == (flat(want_files), want_warnings)
            assert (set(listing.rejected), listing.folders) == (set(first.rejected), first.folders)
