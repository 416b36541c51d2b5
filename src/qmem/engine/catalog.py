"""Collections as a user manages them: create, remove, rename, describe, status.

Removing or renaming a collection changes the config and the index, never the user's
Markdown files.
"""

from __future__ import annotations

import os
import time

from ..base import config as config_mod
from . import manifest as manifests
from ..base.config import Collection, Config
from ..backends import open_searcher
from ..base.errors import BadInputError
from ..base.layout import dir_size, legacy_versions, stale_versions, tantivy_dir
from .scan import scan_columns
from .sync import Progress, RefreshReport, refresh


def create(
    cfg: Config,
    name: str,
    path: str,
    patterns: list[str] | None = None,
    exclude: list[str] | None = None,
    description: str = "",
    index: bool = True,
    progress: Progress | None = None,
) -> tuple[Collection, RefreshReport | None]:
    """Add a collection (root stored absolute, `~` expanded) and index it unless told not to."""
    root = os.path.abspath(os.path.expanduser(path))
    if not os.path.isdir(root):
        raise BadInputError(f"{path}: not a folder")
    coll = Collection(name, root, patterns, exclude, description)
    config_mod.add_collection(cfg, coll)
    report = refresh(cfg, [name], progress=progress) if index else None
    if report is not None:
        for result in report.collections:
            if result.name == name and not result.files:
                result.warnings.append(empty_hint(coll))
    return coll, report


def empty_hint(coll: Collection) -> str:
    """Why a collection indexed no file: its patterns matched nothing under its root; when the
    folder does hold Markdown files, the `-p` that would take them. A warning, not an error:
    a workspace may fill later (exit 0 stays)."""
    import shlex

    from .scan import scan

    shown = ", ".join(f"'{p}'" for p in coll.patterns)
    hint = f"no file matched {shown} under {coll.path}"
    if coll.patterns != ["**/*.md"]:
        found, _ = scan(coll.path, ["**/*.md"], coll.exclude)
        if found:
            n = len(found)
            hint += (f"; it holds {n} Markdown file{'' if n == 1 else 's'} elsewhere: "
                     f"qmem collection remove {coll.name} && qmem collection create {coll.name} {shlex.quote(coll.path)} -p '**/*.md'")
    return hint


def remove(cfg: Config, name: str) -> tuple[Collection, RefreshReport]:
    """Drop a collection from the config and its sections from the index."""
    coll = config_mod.remove_collection(cfg, name)
    return coll, refresh(cfg, [])


def rename(cfg: Config, old: str, new: str) -> tuple[Collection, RefreshReport]:
    """Rename in the config, then re-index under the new name (the old one is purged)."""
    coll = config_mod.rename_collection(cfg, old, new)
    return coll, refresh(cfg, [new])


class CollectionStatus:
    __slots__ = (
        "name", "root", "patterns", "exclude", "description", "root_exists", "files", "sections",
        "last_refresh", "stale", "new", "changed", "deleted", "index_bytes_est",
    )

    def __init__(self, *, name: str, root: str, patterns: list[str], exclude: list[str], description: str,
                 root_exists: bool, files: int, sections: int, last_refresh: str | None, stale: int | None,
                 new: int | None, changed: int | None, deleted: int | None, index_bytes_est: int | None) -> None:
        """Keyword parameters, not `**fields`: a misspelt name is a TypeError. The stale
        counts and the size share are None when the disk was not scanned (`overview`)."""
        self.name = name
        self.root = root
        self.patterns = patterns
        self.exclude = exclude
        self.description = description
        self.root_exists = root_exists
        self.files = files
        self.sections = sections
        self.last_refresh = last_refresh  # ISO time, None before the first refresh
        self.stale = stale
        self.new = new
        self.changed = changed
        self.deleted = deleted
        self.index_bytes_est = index_bytes_est

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}


class Status:
    __slots__ = ("config_file", "data_dir", "index_bytes", "stale_index_versions", "collections", "index_problem",
                 "legacy_data")

    def __init__(self, config_file: str, data_dir: str, index_bytes: int, stale: list[str],
                 collections: list[CollectionStatus], index_problem: str | None = None,
                 legacy_data: list[str] | None = None) -> None:
        self.config_file = config_file
        self.data_dir = data_dir  # this config's own data folder
        self.index_bytes = index_bytes
        self.stale_index_versions = stale
        self.collections = collections
        self.index_problem = index_problem  # why the index is unreadable (the next search or index rebuilds it)
        self.legacy_data = legacy_data or []  # shared index folders of an older qmem, never removed by qmem

    def to_dict(self) -> dict[str, object]:
        return {
            "config_file": self.config_file,
            "data_dir": self.data_dir,
            "index_bytes": self.index_bytes,
            "stale_index_versions": self.stale_index_versions,
            "index_problem": self.index_problem,
            "legacy_data": self.legacy_data,
            "collections": [c.to_dict() for c in self.collections],
        }


def collection_status(cfg: Config, coll: Collection, index_bytes: int = 0, total_sections: int = 0) -> CollectionStatus:
    """Counts from the manifest plus a stat-only scan: what changed on disk since the refresh."""
    stored = manifests.load(cfg.data_dir, coll.name)
    exists = os.path.isdir(coll.path)
    new = changed = deleted = 0
    if exists:
        # The refresh's own scan: what the manifest knows needs no glob match, and a collection
        # with nothing changed is one comparison of columns.
        rules = manifests.rules_of(coll.patterns, coll.exclude)
        listing = scan_columns(coll.path, coll.patterns, coll.exclude, stored.known(coll.path, rules))
        if not stored.same_stats(listing.rels, listing.sizes, listing.mtimes):
            files = stored.files
            for rel, size, mtime_ns in zip(listing.rels, listing.sizes, listing.mtimes):
                entry = files.get(rel)
                if entry is None:
                    new += 1
                elif entry[1] != mtime_ns or entry[0] not in (size, -1):  # -1: racy, size unknown
                    changed += 1
            deleted = len(files.keys() - set(listing.rels))
    sections = stored.sections
    share = round(index_bytes * sections / total_sections) if total_sections else 0
    return CollectionStatus(
        name=coll.name, root=coll.path, patterns=coll.patterns, exclude=coll.exclude,
        description=coll.description, root_exists=exists, files=stored.file_count, sections=sections,
        last_refresh=_iso(stored.refreshed_at) if stored.refreshed_at else None,
        stale=new + changed + deleted, new=new, changed=changed, deleted=deleted, index_bytes_est=share,
    )


def overview(cfg: Config) -> list[CollectionStatus]:
    """Every collection from the config and its manifest, without scanning the disk
    (the stale counts stay None; `status` computes them)."""
    rows = []
    for coll in cfg.select(None):
        stored = manifests.load(cfg.data_dir, coll.name)
        rows.append(CollectionStatus(
            name=coll.name, root=coll.path, patterns=coll.patterns, exclude=coll.exclude,
            description=coll.description, root_exists=os.path.isdir(coll.path), files=stored.file_count,
            sections=stored.sections, last_refresh=_iso(stored.refreshed_at) if stored.refreshed_at else None,
            stale=None, new=None, changed=None, deleted=None, index_bytes_est=None,
        ))
    return rows


def status(cfg: Config, names: list[str] | None = None) -> Status:
    index_bytes = dir_size(tantivy_dir(cfg.data_dir))
    selected = cfg.select(names)
    total = sum(manifests.load(cfg.data_dir, n).sections for n in cfg.collections)
    return Status(
        cfg.file, cfg.data_dir, index_bytes, stale_versions(cfg.data_dir),
        [collection_status(cfg, c, index_bytes, total) for c in selected],
        open_searcher(cfg).health()[0], [os.path.join(cfg.data_root, v) for v in legacy_versions(cfg.data_root)],
    )


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(ts))


def refresh_if_stale(cfg: Config, names: list[str] | None = None) -> str | None:
    """Refresh the named collections when files changed on disk since their last refresh.

    Stat-only check first; the refresh never waits for another writer (a busy index means a
    refresh is already running: the search reads the last commit). Returns a note, or None."""
    from ..base.errors import IndexBusyError

    stale = [c.name for c in cfg.select(names) if collection_status(cfg, c).stale]
    if not stale:
        return None
    timeout, cfg.lock_timeout = cfg.lock_timeout, 0.0
    try:
        refresh(cfg, stale)
    except IndexBusyError:
        return "another refresh is running; searched the last commit"
    finally:
        cfg.lock_timeout = timeout
    return f"refreshed {', '.join(stale)} first"
