"""Incremental refresh: scan → diff against the manifest → delete/add → one commit → manifest.

Unchanged size and mtime skip a file without reading it; otherwise its xxh3 hash decides.
Every file that is (re)added is first deleted by key, so repeating a refresh after a crash
never duplicates sections, and a fresh full build gives the same index.
"""

from __future__ import annotations

import os
import time

from . import manifest as manifests
from ..backends import open_writer
from ..base.errors import DataFolderError, IndexCorruptError
from ..base.fsutil import unusable_path
from ..base.layout import (
    claim, legacy_versions, manifest_dir, remove_stale_versions, stale_versions, tantivy_dir, version_dir,
)
from .reading import MAX_FILE_BYTES, FileRead, read_sections  # noqa: F401 - re-exported
from .scan import FileInfo, bad_name, scan_columns

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from ..backends import Writer
    from ..base.config import Collection, Config

    Progress = Callable[[int, int, str], None]
else:
    Progress = object  # progress(done, total, rel); collections.abc is not imported for a type

# A file modified this recently may change again within the same mtime tick without its
# size changing; it is re-hashed on the next refresh (git's "racily clean" rule).
RACY_NS = 2_000_000_000


class CollectionReport:
    __slots__ = ("name", "files", "added", "changed", "deleted", "unchanged", "sections", "warnings", "full", "skipped_root")

    def __init__(self, name: str) -> None:
        self.name = name
        self.files = 0
        self.added = 0
        self.changed = 0
        self.deleted = 0
        self.unchanged = 0
        self.sections = 0
        self.warnings: list[str] = []
        self.full = False
        self.skipped_root = False

    def to_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__slots__}


class RefreshReport:
    __slots__ = ("collections", "purged", "rebuilt_from", "healed", "adopted_from", "adopted", "seconds", "committed")

    def __init__(self) -> None:
        self.collections: list[CollectionReport] = []
        self.purged: list[str] = []  # collections no longer in the config, removed from the index
        self.rebuilt_from: list[str] = []  # index folders of another schema version, replaced
        self.healed = ""  # why the index was damaged and rebuilt from scratch ("" = it was fine)
        self.adopted_from = ""  # the legacy shared index folder this config's data was linked from
        self.adopted: list[str] = []  # what was linked from it: tantivy, manifests, vectors/<collection>
        self.seconds = 0.0
        self.committed = False

    def to_dict(self) -> dict[str, object]:
        return {
            "collections": [c.to_dict() for c in self.collections],
            "purged": self.purged,
            "rebuilt_from": self.rebuilt_from,
            "healed": self.healed,
            "adopted_from": self.adopted_from,
            "adopted": self.adopted,
            "seconds": round(self.seconds, 4),
            "committed": self.committed,
        }


def refresh(
    cfg: Config,
    names: list[str] | None = None,
    full: bool = False,
    progress: Progress | None = None,
    damaged: str = "",
) -> RefreshReport:
    """Bring the index in line with the files of the named collections (all by default).

    A damaged index (unreadable meta.json or segment files, another program's index) is a
    cache gone bad: it is removed and rebuilt from the Markdown, and `report.healed` says why
    (checking costs ~1 ms: meta.json, the files it names, each segment file's footer, and the
    checksums of the files written since the last check). `damaged`: a search found it
    damaged (why), so it is rebuilt whatever the checks say."""
    started = time.monotonic()
    claim_data_dir(cfg)
    try:
        report = _refresh(cfg, names, full, progress, damaged=damaged)
    except IndexCorruptError as exc:  # found only once Tantivy wrote to it: start again from nothing
        report = _refresh(cfg, names, full, progress, damaged=str(exc))
    if report.rebuilt_from:
        remove_stale_versions(cfg.data_dir)
    report.seconds = time.monotonic() - started
    return report


def claim_data_dir(cfg: Config) -> None:
    """Make sure this config's data folder can be written and record its owner;
    DataFolderError names what stands in the way."""
    try:
        claim(cfg.data_dir, cfg.file)
    except OSError as exc:
        raise DataFolderError(unusable_path(os.path.join(cfg.data_dir, "owner.json"), exc)) from None
    for folder in (version_dir(cfg.data_dir), tantivy_dir(cfg.data_dir), manifest_dir(cfg.data_dir)):
        if os.path.lexists(folder) and not os.path.isdir(folder):  # one line now, before any other
            raise DataFolderError(unusable_path(os.path.join(folder, "x"), NotADirectoryError()))


def _refresh(cfg: Config, names: list[str] | None, full: bool, progress: Progress | None,
             damaged: str = "") -> RefreshReport:
    report = RefreshReport()
    selected = cfg.select(names)
    report.rebuilt_from = stale_versions(cfg.data_dir)
    with open_writer(cfg) as writer:
        if writer.created and not manifests.stored_collections(cfg.data_dir):
            report.adopted_from, report.adopted = _adopt_legacy(cfg, writer)
        problem, docs = (damaged, -1) if damaged else writer.health()
        loaded: dict[str, manifests.Manifest] = {}
        if not problem and docs >= 0 and not manifests.pending_intents(cfg.data_dir):
            # The manifests say what the index holds; when the counts disagree (a crash qmem
            # could not see, a hand-edited or older data folder), neither can be trusted.
            loaded = {name: manifests.load(cfg.data_dir, name) for name in manifests.stored_collections(cfg.data_dir)}
            expected = sum(m.sections for m in loaded.values())
            if expected != docs:
                problem = f"it holds {docs} sections where its manifests list {expected}"
                loaded = {}
        if problem:
            report.healed = problem
            writer.reset()
        if writer.created:
            # No index (never built, deleted, or just reset): every manifest describes sections
            # that are not there, so every collection is rebuilt and stale manifests go.
            for stored in manifests.stored_collections(cfg.data_dir):
                manifests.remove(cfg.data_dir, stored)
            selected = cfg.select(None)
        results: list[tuple[manifests.Manifest, bool]] = []
        for orphan in manifests.stored_collections(cfg.data_dir):
            if orphan not in cfg.collections:
                writer.delete_collection(orphan)
                report.purged.append(orphan)
        dirty = bool(report.purged)
        touched: dict[str, set[str]] = {}
        for coll in selected:
            result, saved, changed, files_changed, paths = _refresh_collection(writer, cfg, coll, full, progress,
                                                                               loaded.get(coll.name))
            report.collections.append(result)
            dirty = dirty or changed
            if paths:
                touched[coll.name] = paths
            if saved is not None:
                results.append((saved, files_changed))
        if dirty or writer.created:
            for name, paths in touched.items():  # the intent survives a crash after the commit
                manifests.save_intent(cfg.data_dir, name, paths)
            writer.commit()
            report.committed = True
        for saved, files_changed in results:
            if files_changed:
                manifests.save(cfg.data_dir, saved)
            else:
                manifests.touch(cfg.data_dir, saved.collection, saved.refreshed_at)
            manifests.clear_intent(cfg.data_dir, saved.collection)
        for orphan in report.purged:
            manifests.remove(cfg.data_dir, orphan)
        if report.committed:
            writer.finish()
    return report


def _adopt_legacy(cfg: Config, writer: Writer) -> tuple[str, list[str]]:
    """The first refresh of a config with no data of its own reuses what the shared folder of
    an older qmem (`<data root>/v<N>`) holds for this config's collections (same name, same
    root): the whole index when its schema is current, else only the vectors (keyed by section
    content, so they stay valid; the index is rebuilt from the Markdown). Linked, never moved:
    other configs that shared the folder keep it (`writer.adopt_legacy`). Returns (folder,
    parts copied)."""
    own = os.path.realpath(version_dir(cfg.data_dir))
    for name in reversed(legacy_versions(cfg.data_root)):  # newest first
        folder = os.path.join(cfg.data_root, name)
        if os.path.realpath(folder) == own:
            continue
        roots = _legacy_roots(folder)
        mine = sorted(c.name for c in cfg.collections.values() if roots.get(c.name) == c.path)
        if not mine:
            continue
        copied = writer.adopt_legacy(folder, mine)
        return (folder, copied) if copied else ("", [])
    return "", []


def _legacy_roots(folder: str) -> dict[str, str]:
    """Collection name → root, from the manifests of a legacy folder (any manifest version)."""
    found: dict[str, str] = {}
    try:
        names = os.listdir(os.path.join(folder, "manifests"))
    except OSError:
        return found
    for name in names:
        collection, _, ext = name.rpartition(".")
        if ext not in ("manifest", "json") or name.startswith("."):
            continue
        root = manifests.stored_root(os.path.join(folder, "manifests", name))
        if root is not None:
            found.setdefault(collection, root)
    return found


def _refresh_collection(
    writer: Writer,
    cfg: Config,
    coll: Collection,
    full: bool,
    progress: Progress | None,
    old: manifests.Manifest | None = None,
) -> tuple[CollectionReport, manifests.Manifest | None, bool, bool, set[str]]:
    """(report, new manifest, index changed, manifest entries changed, paths replaced or deleted)."""
    result = CollectionReport(coll.name)
    if not os.path.isdir(coll.path):
        result.skipped_root = True
        result.warnings.append(f"{coll.path}: collection root is missing; index left as it was")
        return result, None, False, False, set()
    old = old or manifests.load(cfg.data_dir, coll.name)
    touched: set[str] = set()
    if (full or old.root != coll.path) and writer.rebuilds_collections:
        result.full = True
        writer.delete_collection(coll.name)
        touched.update(old.files)  # gone from the index now, whatever the next scan finds
        old_files: dict[str, list] | None = {}
    elif full or old.root != coll.path:
        # A shared backend keeps what it holds while this runs (other machines search it):
        # every file is read again and compared with the hash the backend holds (a first
        # refresh here, a moved root), or sent again (--full); nothing is deleted first.
        result.full = True
        held = writer.known_files(coll.name, old.files if old.root == coll.path else {}, read_all=full)
        old_files = {rel: [-1, 0, "" if full else entry[2], entry[3]] for rel, entry in held.items()}
    else:
        # The stored entries: built only when the scan differs from them, unless the backend
        # has its own say (a cluster's hashes).
        old_files = None if writer.manifest_is_truth else writer.known_files(coll.name, old.files)
        pending = manifests.load_intent(cfg.data_dir, coll.name)
        if pending:
            # An earlier refresh committed changes to these paths and died before its manifest:
            # what the index holds for them is unknown, so re-read them, or delete them if gone.
            old_files = dict(old.files if old_files is None else old_files)
            for rel in pending:
                old_files[rel] = [-1, -1, "", 0]
    rules = manifests.rules_of(coll.patterns, coll.exclude)
    listing = scan_columns(coll.path, coll.patterns, coll.exclude, old.known(coll.path, rules))
    result.warnings.extend(listing.warnings)
    if old_files is None:
        if old.same_stats(listing.rels, listing.sizes, listing.mtimes):
            # The common case, a refresh that finds nothing to do: no per-file step at all
            # (the manifest is rewritten only to record the rules its paths passed and the
            # scan's glob verdicts, or to leave an older format).
            result.files = result.unchanged = len(listing)
            result.sections = old.sections
            old.refreshed_at = time.time()
            rewrite = old.rules != rules or old.outdated or not old.same_verdicts(listing)
            old.rules, old.rejected, old.folders = rules, listing.rejected, listing.folders
            return result, old, False, rewrite, touched
        old_files = old.files
    files = listing.infos()
    now_ns = time.time_ns()
    new_files: dict[str, list] = {}
    todo: list[FileInfo] = []
    for info in files:
        entry = old_files.get(info.rel)
        if entry and entry[0] == info.size and entry[1] == info.mtime_ns:
            new_files[info.rel] = entry
            result.unchanged += 1
        else:
            todo.append(info)
    changed = result.full and writer.rebuilds_collections
    unreadable: set[str] = set()
    for done, (info, read) in enumerate(_reads(writer, coll.name, todo, old_files), 1):
        if progress:
            progress(done, len(todo), info.rel)
        entry = old_files.get(info.rel)
        size = -1 if now_ns - info.mtime_ns < RACY_NS else info.size
        if read.problem:
            result.warnings.append(f"{info.rel}: {read.problem}")
            unreadable.add(info.rel)
            if entry and manifests.skipped_reason(entry) is None:  # its sections were indexed: they go
                writer.delete_file(coll.name, info.rel)
                touched.add(info.rel)
                result.deleted += 1
                changed = True
            new_files[info.rel] = manifests.skipped_entry(size, info.mtime_ns, read.problem)
            continue
        if entry and entry[2] == read.digest:
            new_files[info.rel] = [size, info.mtime_ns, read.digest, entry[3]]
            result.unchanged += 1
            continue
        if read.prepared is not None:
            if result.full and writer.rebuilds_collections:  # all deleted above: none to delete first
                writer.add_prepared(coll.name, info.rel, read.prepared)
            else:
                writer.replace_prepared(coll.name, info.rel, read.prepared)
            count = len(read.prepared)
        else:
            sections = read.sections
            assert sections is not None  # a read without a problem or prepared sections holds its text
            writer.replace_file(coll.name, info.rel, sections, read.digest)
            count = len(sections)
        touched.add(info.rel)
        new_files[info.rel] = [size, info.mtime_ns, read.digest, count]
        changed = True
        if entry:
            result.changed += 1
        else:
            result.added += 1
    for rel in old_files.keys() - new_files.keys() - unreadable:
        writer.delete_file(coll.name, rel)
        touched.add(rel)
        result.deleted += 1
        changed = True
    result.files = len(new_files)
    result.sections = sum(e[3] for e in new_files.values())
    files_changed = changed or new_files != old.files or old.root != coll.path
    files_changed = files_changed or old.rules != rules or old.outdated or not old.same_verdicts(listing)
    new = manifests.Manifest(coll.name, coll.path, time.time(), new_files, rules)
    new.rejected, new.folders = listing.rejected, listing.folders
    return result, new, changed, files_changed, touched


def _reads(writer: Writer, collection: str, todo: list[FileInfo],
           old_files: dict[str, list]) -> Iterator[tuple[FileInfo, FileRead]]:
    """Each file of `todo` with what reading it found, in order: by worker processes for a big
    refresh of a backend that takes prepared sections (see `parallel`), else here, lazily.
    A file whose bytes are what the index holds is only read and hashed, never decoded."""
    from . import parallel
    from .reading import file_digest

    known = {f.rel: (old_files.get(f.rel) or _NO_ENTRY)[2] for f in todo}
    workers = parallel.worker_count(todo) if writer.preparer else 0
    same: set[str] = set()
    changed = todo
    if workers and any(known.values()):
        # Files indexed before may only have been touched (a checkout, a restore, rsync
        # without -t): their bytes decide, so hash those here; workers get real changes only.
        same = {f.rel for f in todo if known[f.rel] and file_digest(f) == known[f.rel]}
        changed = [f for f in todo if f.rel not in same]
        workers = parallel.worker_count(changed)
    if not workers:
        for info in todo:
            rel = info.rel
            yield info, FileRead(known[rel], None, rel=rel) if rel in same else read_sections(info, known[rel])
        return
    results = parallel.prepared(collection, [(f.rel, f.abs, f.size, known[f.rel]) for f in changed], workers,
                                writer.preparer)
    try:
        for info in todo:
            if info.rel in same:
                yield info, FileRead(known[info.rel], None, rel=info.rel)
                continue
            digest, problem, prepared = next(results)
            yield info, FileRead(digest, None, problem, info.rel, prepared)
    finally:
        results.close()


_NO_ENTRY = (0, 0, "")


def refresh_files(cfg: Config, paths: list[str]) -> int:
    """Re-index just these files (absolute paths) in every indexed collection that holds them,
    on whichever backend the config names, without waiting: IndexBusyError at once when
    another refresh holds this config's lock. For writers such as `remember` and `forget`, so
    what was just written (or removed) is what the next search sees. Collections never indexed
    are left to the next full refresh. Returns how many (collection, file) pairs were refreshed."""
    from .scan import Matcher

    todo: dict[str, list[FileInfo]] = {}
    for coll in cfg.collections.values():
        root = os.path.realpath(coll.path)
        matcher = Matcher(coll.patterns, coll.exclude)
        for path in paths:
            real = os.path.realpath(path)
            rel = os.path.relpath(real, root).replace(os.sep, "/")
            if rel.startswith("../") or not os.path.isfile(real) or not matcher.wants(rel):
                continue
            stat = os.stat(real)
            todo.setdefault(coll.name, []).append(FileInfo(rel, real, stat.st_size, stat.st_mtime_ns))
    stored = set(manifests.stored_collections(cfg.data_dir))  # every backend's refresh writes them
    todo = {name: infos for name, infos in todo.items() if name in stored}
    if not todo:
        return 0  # nothing of ours, or never indexed: the next full refresh builds it
    done = 0
    with open_writer(cfg, 0) as writer:
        if writer.created:
            return 0  # the local index is gone: the next full refresh rebuilds it
        saved = []
        for name, infos in todo.items():
            old = manifests.load(cfg.data_dir, name)
            coll = cfg.collections[name]
            if not old.refreshed_at or old.root != coll.path:
                continue  # never indexed here: the next full refresh builds it
            if old.rules != manifests.rules_of(coll.patterns, coll.exclude) or any(bad_name(i.rel) for i in infos):
                old.rules = None  # these paths did not pass a scan: the next one checks every path
            now_ns = time.time_ns()
            for info in infos:
                read = read_sections(info)
                size = -1 if now_ns - info.mtime_ns < RACY_NS else info.size
                if read.sections is None:
                    if info.rel in old.files:
                        writer.delete_file(name, info.rel)
                    old.files[info.rel] = manifests.skipped_entry(size, info.mtime_ns, read.problem)
                    continue
                writer.replace_file(name, info.rel, read.sections, read.digest)
                old.files[info.rel] = [size, info.mtime_ns, read.digest, len(read.sections)]
                done += 1
            saved.append(old)
        if saved:
            ours = {m.collection: {info.rel for info in todo[m.collection]} for m in saved}
            # What a killed refresh left pending is not ours to settle: it stays for the next refresh.
            pending = {m.collection: manifests.load_intent(cfg.data_dir, m.collection) - ours[m.collection]
                       for m in saved}
            for manifest in saved:  # the intent survives a crash after the commit (see refresh)
                manifests.save_intent(cfg.data_dir, manifest.collection, ours[manifest.collection])
            writer.commit()
            for manifest in saved:
                manifests.save(cfg.data_dir, manifest)
                manifests.settle_intent(cfg.data_dir, manifest.collection, pending[manifest.collection])
    return done
