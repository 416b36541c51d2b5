"""Find a collection's files: glob patterns, excludes, symlinks that stay inside the root.

Only `stat` is called here, never `read`: the refresh decides what to read, and `status`
counts stale files from this scan alone.
"""

from __future__ import annotations

import os
import re
from operator import attrgetter

from .fsutil import glob_to_regex, is_inside

# Folders no memory lives in; walking them only costs time.
SKIP_DIRS = {"node_modules", "__pycache__"}
_GLOB_CHARS = set("*?[")
GENERATED_INDEX = "/_index.md"
_by_name = attrgetter("name")
# Names the index cannot hold faithfully: bytes that are not UTF-8 (Python shows them as lone
# surrogates) and control or line-break characters, which would break line-based output.
_BAD_NAME = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029\ud800-\udfff]")


def bad_name(name: str) -> bool:
    return not (name.isascii() and name.isprintable()) and _BAD_NAME.search(name) is not None


def shown_name(rel: str) -> str:
    """A path as printable text: undecodable bytes as \\xNN, control characters escaped."""
    text = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return _BAD_NAME.sub(lambda m: ascii(m.group())[1:-1], text)


class FileInfo:
    __slots__ = ("rel", "abs", "size", "mtime_ns")

    def __init__(self, rel: str, abs: str, size: int, mtime_ns: int) -> None:
        self.rel = rel  # relative to the collection root, '/'-separated
        self.abs = abs
        self.size = size
        self.mtime_ns = mtime_ns


class Matcher:
    """Compiled include/exclude globs for paths relative to a root."""

    def __init__(self, patterns: list[str], exclude: list[str]) -> None:
        include = "|".join(f"(?:{glob_to_regex(p)})" for p in patterns)
        excluded = "|".join(f"(?:{glob_to_regex(p)})" for p in exclude)
        self.include = re.compile(include) if patterns else None
        self.exclude = re.compile(excluded) if exclude else None
        # One regex call per file: included and not excluded.
        self._wanted = re.compile(f"(?!(?:{excluded})\\Z)(?:{include})" if exclude else include) if patterns else None
        self.bases = _walk_bases(patterns)

    def wants(self, rel: str) -> bool:
        if self._wanted is None or not self._wanted.fullmatch(rel):
            return False
        # the bonsai tree's branch indexes repeat their leaves' first lines
        return not (rel.endswith(GENERATED_INDEX) and "domains/" in rel)

    def prunes(self, rel_dir: str) -> bool:
        """True when everything under `rel_dir` is excluded (`archive/**`)."""
        return bool(self.exclude and self.exclude.fullmatch(rel_dir + "/"))


def _walk_bases(patterns: list[str]) -> list[tuple[str, int | None]]:
    """Where to walk and how deep: `memory/**/*.md` walks `memory/` fully, `*.md` only the
    root's own files, and a literal `MEMORY.md` is one folder listing of the root."""
    depth_by_base: dict[str, int | None] = {}
    for pattern in patterns:
        parts = pattern.split("/")
        literal: list[str] = []
        for part in parts[:-1]:
            if _GLOB_CHARS & set(part):
                break
            literal.append(part)
        rest = parts[len(literal):]
        depth = None if any("**" in part for part in rest) else len(rest) - 1
        base = "/".join(literal)
        if base in depth_by_base:
            old = depth_by_base[base]
            depth = None if old is None or depth is None else max(old, depth)
        depth_by_base[base] = depth
    kept: list[tuple[str, int | None]] = []
    for base in sorted(depth_by_base, key=len):
        covered = any(
            d is None and (b == "" or base.startswith(b + "/")) for b, d in kept
        )
        if not covered:
            kept.append((base, depth_by_base[base]))
    return kept


def scan(root: str, patterns: list[str], exclude: list[str]) -> tuple[list[FileInfo], list[str]]:
    """All matching files under `root`, sorted by path, and warnings about what was skipped.

    Hidden folders and `SKIP_DIRS` are not entered. A symlink is followed only when its
    target stays inside the root; each real folder is visited once (under its real path
    when it has one), so link loops end and no file is indexed twice.
    """
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
                if not entry.is_dir():  # the common case first: a file, d_type says so (no syscall)
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
                            continue  # the same file through a symlink: indexed once, under its first path
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
                        linked.append((rel, sub_depth, True))  # real folders first: their paths win
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
