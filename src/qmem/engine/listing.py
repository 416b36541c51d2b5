"""What a scan finds, and what it remembers of the last one: files as columns, known paths.

`Listing` is a scan's result (paths, sizes, mtimes, warnings, the glob verdicts); `FileInfo`
one file of it, made only when asked for; `Known` what an earlier scan with the same rules
found (a manifest keeps it), so the next one matches no glob for those paths. `scan` walks
the folders and fills them.
"""

from __future__ import annotations


class FileInfo:
    """One file a scan found: its path relative to the root, its absolute path, size and mtime."""

    __slots__ = ("rel", "abs", "size", "mtime_ns")

    def __init__(self, rel: str, abs: str, size: int, mtime_ns: int) -> None:
        self.rel = rel  # relative to the collection root, '/'-separated
        self.abs = abs
        self.size = size
        self.mtime_ns = mtime_ns


class Listing:
    """A scan's result as columns, sorted by path: `rels`, `sizes`, `mtimes` (one entry per
    file), the warnings, and the real root. FileInfo records are made only when asked for
    (`infos()`), so a refresh that finds nothing changed never builds 20,000 of them.
    `rejected` (paths the globs turned down, in the order met) and `folders` (folder → pruned
    by the excludes) are the glob verdicts, for the next scan's `Known`."""

    __slots__ = ("root", "rels", "sizes", "mtimes", "warnings", "rejected", "folders")

    def __init__(self, root: str, rels: list[str], sizes: list[int], mtimes: list[int], warnings: list[str],
                 rejected: list[str] | None = None, folders: dict[str, bool] | None = None) -> None:
        self.root, self.rels, self.sizes, self.mtimes, self.warnings = root, rels, sizes, mtimes, warnings
        self.rejected = rejected or []
        self.folders = folders or {}

    def __len__(self) -> int:
        return len(self.rels)

    def infos(self) -> list[FileInfo]:
        prefix = self.root if self.root.endswith("/") else self.root + "/"
        return [FileInfo(rel, prefix + rel, size, mtime) for rel, size, mtime in zip(self.rels, self.sizes, self.mtimes)]


# Joins `Known`'s paths, and a manifest's path and digest columns on disk (the manifest hands its
# stored paths to `Known` as they are): never in a path or a hex digest.
SEP = "\0"


class Known:
    """What an earlier scan of this root with the same patterns and excludes found (a
    manifest's): its paths, `\\0`-joined in path order (each passed the globs and the name
    check), the paths the globs rejected, and which folders the excludes pruned. Globs are a
    pure function of the path and the rules, so a scan needs no glob match (nor `re`) for
    any of these; only a path or folder it has never seen is matched."""

    __slots__ = ("_text", "rejected", "folders", "_set", "_mixed")

    def __init__(self, paths: str | list[str] = "", rejected: list[str] | None = None,
                 folders: dict[str, bool] | None = None) -> None:
        text = paths if isinstance(paths, str) else SEP.join(paths)
        self._text = SEP + text + SEP if text else ""
        self.rejected = set(rejected or ())
        self.folders = folders or {}
        self._set: set[str] | None = None
        self._mixed: set[str] | None = None

    def has_all(self, rels: list[str]) -> bool:
        """True when all these paths are known, found as one run: a folder whose files are
        those of the last scan costs one substring search (no path holds a NUL)."""
        return bool(rels) and self.has_run(SEP.join(rels))

    def has_run(self, joined: str) -> bool:
        """`has_all` of paths already joined by NULs."""
        return bool(self._text) and SEP + joined + SEP in self._text

    def plain(self, rel_dir: str) -> bool:
        """True when the last scan found this folder with no entry the globs rejected: its
        entries are worth a stat each (see `_lstat_folder`)."""
        if not self._text:
            return False
        if self._mixed is None:
            self._mixed = {rel.rpartition("/")[0] for rel in self.rejected}
        return rel_dir not in self._mixed

    def __contains__(self, rel: str) -> bool:
        if self._set is None:
            self._set = set(self._text.split(SEP)) - {""}
        return rel in self._set
