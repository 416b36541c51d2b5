"""Find a collection's files: glob patterns, excludes, symlinks that stay inside the root.

Only `stat` is called here, never `read`: the refresh decides what to read, and `status`
counts stale files from this scan alone. This module walks the folders; which paths the
globs take is `patterns`', what a scan returns and remembers `listing`'s (their names are
re-exported here, where callers have always found them).
"""

from __future__ import annotations

import gc
import os
from itertools import compress, islice
from operator import attrgetter, eq
from stat import S_ISDIR, S_ISLNK, S_ISREG

from ..base.fsutil import is_inside
from .listing import SEP, FileInfo, Known, Listing
from .patterns import GENERATED_INDEX, Matcher  # noqa: F401 - re-exported for callers of this module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# Folders no memory lives in; walking them only costs time.
SKIP_DIRS = {"node_modules", "__pycache__"}
_by_name = attrgetter("name")
_is_dir = os.DirEntry.is_dir
_is_file = os.DirEntry.is_file
_is_symlink = os.DirEntry.is_symlink
_st_mode = attrgetter("st_mode")
_st_size = attrgetter("st_size")
_st_mtime_ns = attrgetter("st_mtime_ns")
# Names the index cannot hold faithfully: bytes that are not UTF-8 (Python shows them as lone
# surrogates) and control or line-break characters, which would break line-based output.
BAD_NAME = r"[\x00-\x1f\x7f\x85\u2028\u2029\ud800-\udfff]"
_bad_name_re = None  # BAD_NAME compiled on first use: `re` costs a no-op refresh ~5 ms


def _bad_name():  # re.Pattern
    global _bad_name_re
    if _bad_name_re is None:
        import re

        _bad_name_re = re.compile(BAD_NAME)
    return _bad_name_re


def bad_name(name: str) -> bool:
    return not (name.isascii() and name.isprintable()) and _bad_name().search(name) is not None


def shown_name(rel: str) -> str:
    """A path as printable text: undecodable bytes as \\xNN, control characters escaped."""
    text = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return _bad_name().sub(lambda m: ascii(m.group())[1:-1], text)


def scan(root: str, patterns: list[str], exclude: list[str]) -> tuple[list[FileInfo], list[str]]:
    """All matching files under `root`, sorted by path, and warnings about what was skipped
    (see `scan_columns`)."""
    listing = scan_columns(root, patterns, exclude)
    return listing.infos(), listing.warnings


# List a folder through an open descriptor and stat its files relative to it (`fstatat`: no
# path walk from the root for each file); by path where the platform cannot.
_BY_FD = os.scandir in os.supports_fd and os.stat in os.supports_dir_fd


def _stat_names(fd: int | None, dir_prefix: str, names: list[str]) -> tuple[list, bool]:
    """Stat the named files of one folder (open as `fd`, or None: by path), in order:
    (results, whether any failed), an OSError in place of a file that vanished or cannot be
    stat'ed."""
    stat = os.stat
    try:
        if fd is None:
            return [stat(dir_prefix + name) for name in names], False
        return [stat(name, dir_fd=fd) for name in names], False
    except OSError:
        results: list[os.stat_result | OSError] = []
        for name in names:
            try:
                results.append(stat(dir_prefix + name) if fd is None else stat(name, dir_fd=fd))
            except OSError as exc:
                results.append(exc)
        return results, True



def scan_columns(root: str, patterns: list[str], exclude: list[str], known: Known | list[str] | None = None) -> Listing:
    """All matching files under `root`, as columns sorted by path, and warnings about what
    was skipped.

    Hidden folders and `SKIP_DIRS` are not entered. A symlink is followed only when its
    target stays inside the root; each real folder is visited once (under its real path
    when it has one), so link loops end and no file is indexed twice. Each folder is listed
    once (`scandir`: entry types come from the listing, no syscall) and each plain file is
    stat'ed once, by name relative to the open folder, the files of a folder together; a
    folder that `known` found plain (no path rejected) is listed by name and each entry
    lstat'ed, which costs less than building a DirEntry for each.
    `known`: what an earlier scan of this root with the same patterns and excludes found (a
    manifest's `Known`, or just its paths); none of it needs a glob match or name check, so
    a folder whose files are all known costs its listing and one stat per file.
    """
    matcher = Matcher(patterns, exclude)
    real_root = os.path.realpath(root)
    if not os.path.isdir(real_root):
        return Listing(real_root, [], [], [], [f"{root}: collection root is missing or not a folder"])
    # ~20,000 short-lived stat results and no reference cycles: collecting only costs time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _scan(matcher, real_root, known if isinstance(known, Known) else Known(known or []))
    finally:
        if collecting:
            gc.enable()


def _lstat_folder(fd: int) -> tuple[list[str], list[os.stat_result], list[int], set[int]] | None:
    """The names of an open folder in order, their `lstat` results, modes and set of modes: one call per
    entry, for a folder whose entries are (nearly) all files to index anyway; None when an
    entry is a symlink or cannot be stat'ed (the caller then lists the folder entry by entry)."""
    try:
        names = sorted(os.listdir(fd))
        lstat = os.lstat
        stats = [lstat(name, dir_fd=fd) for name in names]
    except OSError:
        return None
    modes = list(map(_st_mode, stats))
    kinds = set(modes)
    if any(map(S_ISLNK, kinds)):
        return None
    return names, stats, modes, kinds


def _dir_or_warn(entry: os.DirEntry, prefix: str, warnings: list[str], descends: bool) -> bool:
    """`entry.is_dir()`, or False when it is a link that cannot be followed (a loop), with a
    warning when the walk would have entered a folder of that name."""
    try:
        return entry.is_dir()
    except OSError as exc:
        if descends and not entry.name.startswith(".") and entry.name not in SKIP_DIRS:
            warnings.append(f"{shown_name(prefix + entry.name)}: {exc.strerror}, skipped")
        return False


def _scan(matcher: Matcher, real_root: str, known: Known) -> Listing:
    rels: list[str] = []
    sizes: list[int] = []
    mtimes: list[int] = []
    warnings: list[str] = []
    rejected: list[str] = []  # paths the globs turned down
    folders: dict[str, bool] = {}  # folder → pruned by the excludes
    visited: set[str] = set()
    # A file is indexed once, under its first path. `claimed` holds the real paths taken;
    # plain files (no symlink on the way) go in only once a symlinked one must be checked.
    claimed: set[str] = set()
    plain: list[tuple[str, list[str]]] = []  # (folder path + "/", names) not yet in `claimed`
    wants = matcher.wants
    known_rejected, known_folders = known.rejected, known.folders

    def claim_plain() -> None:
        for dir_prefix, names in plain:
            claimed.update(map(dir_prefix.__add__, names))
        plain.clear()

    def turned_down(rel: str, name: str, before_warning: Callable[[], None] | None = None) -> bool:
        """True when a file no earlier scan took is refused: by the globs (kept in `rejected`)
        or for its name (with a warning, once `before_warning` has run)."""
        if rel in known_rejected or not wants(rel):
            rejected.append(rel)
            return True
        if bad_name(name):
            if before_warning is not None:
                before_warning()
            warnings.append(f"{shown_name(rel)}: file name is not valid UTF-8 or holds a control character, skipped")
            return True
        return False

    def walk(rel_dir: str, depth: int | None, via_link: bool = False) -> None:
        abs_dir = os.path.join(real_root, rel_dir) if rel_dir else real_root
        real_dir = os.path.realpath(abs_dir)
        if real_dir in visited:
            return
        visited.add(real_dir)
        try:
            fd = os.open(abs_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _BY_FD else None
        except OSError as exc:
            if rel_dir:
                warnings.append(f"{rel_dir}/: cannot list: {exc.strerror}")
            return
        try:
            # A folder the last scan found plain: listed by name, every entry lstat'ed (no
            # DirEntry objects). Else, or when it now holds a symlink: entry by entry.
            listed = None if via_link or fd is None or not known.plain(rel_dir) else _lstat_folder(fd)
            entries: list[os.DirEntry] = []
            if listed is None:
                try:
                    entries = sorted(os.scandir(abs_dir if fd is None else fd), key=_by_name)
                except OSError as exc:
                    if rel_dir:
                        warnings.append(f"{rel_dir}/: cannot list: {exc.strerror}")
                    return
            prefix = f"{rel_dir}/" if rel_dir else ""
            dir_prefix = abs_dir if abs_dir.endswith("/") else abs_dir + "/"
            batch: list[str] = []  # names of plain files met since the last flush, in order
            batch_rels: list[str] = []

            def flush() -> None:
                """Stat and record the plain files in `batch` (one fstatat each)."""
                if not batch:
                    return
                results, failed = _stat_names(fd, dir_prefix, batch)
                if claimed or failed:
                    names: list[str] = []
                    for name, rel, st in zip(batch, batch_rels, results):
                        if isinstance(st, OSError):
                            warnings.append(f"{rel}: cannot stat: {st.strerror}")
                        elif dir_prefix + name not in claimed:
                            names.append(name)
                            rels.append(rel)
                            sizes.append(st.st_size)
                            mtimes.append(st.st_mtime_ns)
                    plain.append((dir_prefix, names))
                else:
                    plain.append((dir_prefix, batch[:]))
                    rels.extend(batch_rels)
                    sizes.extend(map(_st_size, results))
                    mtimes.extend(map(_st_mtime_ns, results))
                batch.clear()
                batch_rels.clear()

            def files(run: list[os.DirEntry]) -> None:
                """A run of entries that are not folders, in name order."""
                names = list(map(_by_name, run))
                run_rels = list(map(prefix.__add__, names))
                if (not via_link and known.has_all(run_rels)
                        and not any(map(_is_symlink, run)) and all(map(_is_file, run))):
                    batch.extend(names)  # all indexed last time under these rules: wanted, well named
                    batch_rels.extend(run_rels)
                    return
                for entry, name, rel in zip(run, names, run_rels):
                    try:
                        if rel not in known and turned_down(rel, name, flush):
                            continue
                        is_link = entry.is_symlink()
                        if not (via_link or is_link):
                            if entry.is_file():
                                batch.append(name)
                                batch_rels.append(rel)
                            continue
                        flush()
                        path = dir_prefix + name
                        if is_link and not is_inside(real_root, os.path.realpath(path)):
                            warnings.append(f"{rel}: symlink points outside the collection root, skipped")
                            continue
                        st = os.stat(path)
                        if entry.is_file():
                            real = os.path.realpath(path)
                            claim_plain()
                            if real in claimed:
                                continue  # the same file through a symlink: indexed once, under its first path
                            claimed.add(real)
                            rels.append(rel)
                            sizes.append(st.st_size)
                            mtimes.append(st.st_mtime_ns)
                    except OSError as exc:
                        flush()
                        warnings.append(f"{rel}: cannot stat: {exc.strerror}")

            def record(names: list[str], run_rels: list[str], stats: list[os.stat_result]) -> None:
                """Record plain files already stat'ed (one run of `plain_files`)."""
                if claimed:
                    kept = [i for i, name in enumerate(names) if dir_prefix + name not in claimed]
                    names, run_rels = [names[i] for i in kept], [run_rels[i] for i in kept]
                    stats = [stats[i] for i in kept]
                plain.append((dir_prefix, names))
                rels.extend(run_rels)
                sizes.extend(map(_st_size, stats))
                mtimes.extend(map(_st_mtime_ns, stats))

            def plain_files(names: list[str], stats: list[os.stat_result], modes: list[int], only_files: bool) -> None:
                """`files` for a run of lstat'ed entries that are neither folders nor symlinks
                (`only_files`: the folder holds nothing else but folders)."""
                joined = prefix + (SEP + prefix).join(names)
                if only_files and known.has_run(joined):
                    record(names, joined.split(SEP), stats)  # all indexed last time under these rules
                    return
                kept_names: list[str] = []
                kept_rels: list[str] = []
                kept_stats: list[os.stat_result] = []
                for name, st, mode in zip(names, stats, modes):
                    rel = prefix + name
                    if rel not in known and turned_down(rel, name):
                        continue
                    if S_ISREG(mode):  # a FIFO, socket or device is no file to read
                        kept_names.append(name)
                        kept_rels.append(rel)
                        kept_stats.append(st)
                record(kept_names, kept_rels, kept_stats)

            def folder(name: str, entry: os.DirEntry | None = None) -> None:
                rel = prefix + name
                try:
                    is_link = entry is not None and entry.is_symlink()
                    if depth == 0 or name.startswith(".") or name in SKIP_DIRS:
                        return
                    pruned = known_folders.get(rel)
                    if pruned is None:
                        pruned = matcher.prunes(rel)
                    folders[rel] = pruned
                    if pruned:
                        return
                    flush()
                    if bad_name(name):
                        warnings.append(f"{shown_name(rel)}/: folder name is not valid UTF-8 or holds a control character, skipped")
                        return
                    sub_depth = None if depth is None else depth - 1
                    if is_link:
                        if not is_inside(real_root, os.path.realpath(dir_prefix + name)):
                            warnings.append(f"{rel}/: symlink points outside the collection root, skipped")
                        else:
                            linked.append((rel, sub_depth, True))  # real folders first: their paths win
                        return
                    walk(rel, sub_depth, via_link)
                except OSError as exc:
                    if wants(rel):
                        flush()
                        warnings.append(f"{rel}: cannot stat: {exc.strerror}")

            if listed is not None:
                names, stats, modes, kinds = listed
                start = 0
                dir_modes = {m for m in kinds if S_ISDIR(m)}
                only_files = all(map(S_ISREG, kinds - dir_modes))
                for at in compress(range(len(names)), map(dir_modes.__contains__, modes)):  # folders are few
                    if at > start:
                        plain_files(names[start:at], stats[start:at], modes[start:at], only_files)
                    folder(names[at])
                    start = at + 1
                if start < len(names):
                    plain_files(names[start:], stats[start:], modes[start:], only_files)
                return
            start = 0
            try:
                dirs = list(compress(range(len(entries)), map(_is_dir, entries)))  # folders are few
            except OSError:  # a symlink that cannot be followed (a loop: ELOOP): skipped, said once
                dirs = [i for i, entry in enumerate(entries) if _dir_or_warn(entry, prefix, warnings, depth != 0)]
            for at in dirs:
                if at > start:
                    files(entries[start:at])
                folder(entries[at].name, entries[at])
                start = at + 1
            if start < len(entries):
                files(entries[start:])
            flush()
        finally:
            if fd is not None:
                os.close(fd)

    linked: list[tuple[str, int | None, bool]] = []
    for base, depth in matcher.bases:
        visited.clear()
        target = os.path.join(real_root, base)
        if os.path.isdir(target) and is_inside(real_root, os.path.realpath(target)):
            walk(base, depth)
        while linked:
            walk(*linked.pop(0))
    if sorted(rels) != rels or (len(matcher.bases) > 1 and any(map(eq, rels, islice(rels, 1, None)))):
        # Not in path order (a `-` sorts before `/`, several walk bases), or a path found
        # twice (walks from two bases that overlap): sort, and keep each path once, as first found.
        order = sorted(range(len(rels)), key=rels.__getitem__)
        order = order[:1] + [j for i, j in zip(order, islice(order, 1, None)) if rels[i] != rels[j]]
        rels = [rels[i] for i in order]
        sizes = [sizes[i] for i in order]
        mtimes = [mtimes[i] for i in order]
    return Listing(real_root, rels, sizes, mtimes, warnings, rejected, folders)
