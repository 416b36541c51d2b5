"""What the index holds for a collection: path → size, mtime, content hash, section count.

Written atomically after each commit. Before the commit, the refresh records its intent: the
paths whose sections it is about to replace or delete (`<collection>.intent`). A crash after
the commit but before the manifest leaves the intent behind, and the next refresh treats those
paths as unknown (re-read if present, deleted by key if gone), so a file that the killed
refresh added and that vanished, moved or turned binary since leaves nothing in the index.
"""

from __future__ import annotations

import json
import os
from array import array
from itertools import islice

from .fsutil import atomic_write
from .layout import manifest_dir, manifest_path

MANIFEST_VERSION = 2  # 2: columns in a marshal file (v1: one JSON object per file)
_SEP = "\0"  # never in a path or a hex digest

Rules = tuple[tuple[str, ...], tuple[str, ...]]  # a collection's (patterns, excludes)


def rules_of(patterns: list[str], exclude: list[str]) -> Rules:
    return tuple(patterns), tuple(exclude)


class Manifest:
    """Stored as columns (paths, sizes, mtimes, digests, section counts) that load in a few ms
    for 20,000 files; `files`, the path → entry dict, is built on first use, so a no-op
    refresh that only compares the stat columns never builds it."""

    __slots__ = ("collection", "root", "refreshed_at", "rules", "_files", "_columns")

    def __init__(self, collection: str, root: str = "", refreshed_at: float = 0.0,
                 files: dict[str, list] | None = None, rules: Rules | None = None) -> None:
        self.collection = collection
        self.root = root
        self.refreshed_at = refreshed_at  # unix seconds of the last refresh, 0 = never
        # The (patterns, excludes) every path listed passed, when known: a scan with the same
        # rules needs no glob match or name check for these paths (see `known_paths`).
        self.rules = rules
        # rel path → [size, mtime_ns, xxh3 hex, sections]; size -1 forces a re-hash next time
        self._files: dict[str, list] | None = files or {}
        self._columns: _Columns | None = None

    @property
    def files(self) -> dict[str, list]:
        if self._files is None:
            c = self._columns
            assert c is not None
            self._files = {p: [s, m, d, n] for p, s, m, d, n in zip(c.paths, c.sizes, c.mtimes, c.digests(), c.sections)}
        return self._files

    @files.setter
    def files(self, files: dict[str, list]) -> None:
        self._files, self._columns = files, None

    def known_paths(self, root: str, rules: Rules) -> list[str]:
        """The listed paths (in path order), when they were found under `root` with these
        same rules, so each passes them; empty otherwise."""
        if self.rules != rules or self.root != root:
            return []
        c = self._columns
        return c.paths if self._files is None and c is not None else sorted(self.files)

    @property
    def sections(self) -> int:
        if self._files is None and self._columns is not None:
            return sum(self._columns.sections)
        return sum(entry[3] for entry in self.files.values())

    def same_stats(self, paths: list[str], sizes: array, mtimes: array) -> bool:
        """True when the scan found exactly the stored paths with the stored sizes and mtimes
        (in order): nothing to read. Compared as whole columns, without a per-file step."""
        c = self._columns
        if c is None:
            files = self.files
            return list(files) == paths and all(
                files[p][0] == s and files[p][1] == m for p, s, m in zip(paths, sizes, mtimes))
        return c.paths == paths and c.sizes == sizes and c.mtimes == mtimes


class _Columns:
    __slots__ = ("paths", "sizes", "mtimes", "_digests", "sections")

    def __init__(self, paths: list[str], sizes: array, mtimes: array, digests: str, sections: array) -> None:
        self.paths, self.sizes, self.mtimes, self._digests, self.sections = paths, sizes, mtimes, digests, sections

    def digests(self) -> list[str]:
        return self._digests.split(_SEP) if self.paths else []


def _stamp_path(data_dir: str, collection: str) -> str:
    return os.path.join(manifest_dir(data_dir), f"{collection}.stamp")


def load(data_dir: str, collection: str) -> Manifest:
    """The stored manifest, or an empty one when missing or unreadable (→ full refresh)."""
    try:
        with open(manifest_path(data_dir, collection), "rb") as handle:
            stored = _decode(collection, handle.read())
    except OSError:
        stored = None
    if stored is None:
        return Manifest(collection)
    try:
        with open(_stamp_path(data_dir, collection), encoding="ascii") as handle:
            stored.refreshed_at = max(stored.refreshed_at, float(handle.read()))
    except (OSError, ValueError):
        pass
    return stored


def _decode(collection: str, data: bytes) -> Manifest | None:
    """A manifest a refresh can trust, or None: anything else reads as empty (→ that
    collection is rebuilt), never as a crash."""
    import marshal

    try:
        raw = marshal.loads(data)
        if type(raw) is not dict or raw.get("v") != MANIFEST_VERSION:
            return None
        root, refreshed_at, count = raw["root"], raw["refreshed_at"], raw["count"]
        paths_text, digests_text = raw["paths"], raw["digests"]
        if not (type(root) is str and type(refreshed_at) in (int, float) and type(count) is int
                and type(paths_text) is str and type(digests_text) is str):
            return None
        columns = [array("q"), array("q"), array("q")]
        for column, key in zip(columns, ("sizes", "mtimes", "sections")):
            column.frombytes(raw[key])
    except (ValueError, EOFError, TypeError, KeyError):
        return None
    paths = paths_text.split(_SEP) if count else []
    digests = digests_text.split(_SEP) if count else []
    sizes, mtimes, sections = columns
    if not (len(paths) == len(digests) == len(sizes) == len(mtimes) == len(sections) == count):
        return None
    if count and (min(sections) < 0 or "" in paths):
        return None
    rules = raw.get("rules")
    if not (type(rules) is tuple and len(rules) == 2
            and all(type(part) is tuple and all(type(x) is str for x in part) for part in rules)):
        rules = None  # written before rules were kept, or junk: every path is checked
    stored = Manifest(collection, root, refreshed_at, rules=rules)
    stored._files = None
    stored._columns = _Columns(paths, sizes, mtimes, digests_text, sections)
    return stored


def stored_root(path: str) -> str | None:
    """The collection root a manifest file records, in any manifest version, or None."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    stored = _decode("", data)
    if stored is not None:
        return stored.root
    try:
        root = json.loads(data).get("root")  # a v1 (JSON) manifest
    except (ValueError, AttributeError):
        return None
    return root if isinstance(root, str) else None


def save(data_dir: str, manifest: Manifest) -> None:
    import marshal

    files = manifest.files
    if any(a > b for a, b in zip(files, islice(files, 1, None))):
        files = dict(sorted(files.items()))  # in path order, as a scan lists them: see same_stats
    entries = files.values()
    payload = {
        "v": MANIFEST_VERSION,
        "collection": manifest.collection,
        "root": manifest.root,
        "refreshed_at": manifest.refreshed_at,
        "count": len(files),
        "paths": _SEP.join(files),
        "sizes": array("q", [e[0] for e in entries]).tobytes(),
        "mtimes": array("q", [e[1] for e in entries]).tobytes(),
        "digests": _SEP.join([e[2] for e in entries]),
        "sections": array("q", [e[3] for e in entries]).tobytes(),
    }
    if manifest.rules is not None:
        payload["rules"] = manifest.rules
    atomic_write(manifest_path(data_dir, manifest.collection), marshal.dumps(payload))
    try:
        os.unlink(os.path.join(manifest_dir(data_dir), f"{manifest.collection}.json"))  # a v1 manifest
    except FileNotFoundError:
        pass


def touch(data_dir: str, collection: str, when: float) -> None:
    """Record a refresh that changed nothing, without rewriting a 10k-entry manifest. Not
    fsynced (a no-op refresh every minute should not wait for the disk): losing it to a crash
    only makes `status` show the previous refresh time."""
    path = _stamp_path(data_dir, collection)
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="ascii") as handle:
        handle.write(repr(when))
    os.replace(tmp, path)


def _intent_path(data_dir: str, collection: str) -> str:
    return os.path.join(manifest_dir(data_dir), f"{collection}.intent")


def load_intent(data_dir: str, collection: str) -> set[str]:
    """Paths a refresh was changing in the index when it stopped before saving its manifest."""
    try:
        with open(_intent_path(data_dir, collection), "rb") as handle:
            raw = json.loads(handle.read())
    except (OSError, ValueError):
        return set()
    return {p for p in raw if isinstance(p, str)} if isinstance(raw, list) else set()


def save_intent(data_dir: str, collection: str, paths: set[str]) -> None:
    """Record, before the commit, the paths whose sections this refresh replaces or deletes
    (added to any intent an earlier, interrupted refresh left)."""
    import orjson

    pending = load_intent(data_dir, collection) | paths
    atomic_write(_intent_path(data_dir, collection), orjson.dumps(sorted(pending)))


def clear_intent(data_dir: str, collection: str) -> None:
    try:
        os.unlink(_intent_path(data_dir, collection))
    except FileNotFoundError:
        pass


def remove(data_dir: str, collection: str) -> None:
    legacy_json = os.path.join(manifest_dir(data_dir), f"{collection}.json")  # a v1 manifest
    paths = (manifest_path(data_dir, collection), _stamp_path(data_dir, collection), _intent_path(data_dir, collection),
             legacy_json)
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def pending_intents(data_dir: str) -> bool:
    """True when some refresh stopped between its commit and its manifest."""
    try:
        return any(n.endswith(".intent") and not n.startswith(".") for n in os.listdir(manifest_dir(data_dir)))
    except OSError:
        return False


def stored_collections(data_dir: str) -> list[str]:
    """Collections the index may hold sections of: those with a manifest or an intent."""
    try:
        names = os.listdir(manifest_dir(data_dir))
    except OSError:
        return []
    found = {n.rsplit(".", 1)[0] for n in names if n.endswith((".manifest", ".json", ".intent")) and not n.startswith(".")}
    return sorted(found)
