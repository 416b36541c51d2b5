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

from .fsutil import atomic_write
from .layout import manifest_dir

MANIFEST_VERSION = 1


class Manifest:
    __slots__ = ("collection", "root", "refreshed_at", "files")

    def __init__(self, collection: str, root: str = "", refreshed_at: float = 0.0,
                 files: dict[str, list] | None = None) -> None:
        self.collection = collection
        self.root = root
        self.refreshed_at = refreshed_at  # unix seconds of the last refresh, 0 = never
        # rel path → [size, mtime_ns, xxh3 hex, sections]; size -1 forces a re-hash next time
        self.files: dict[str, list] = files or {}

    @property
    def sections(self) -> int:
        return sum(entry[3] for entry in self.files.values())


def manifest_path(data_dir: str, collection: str) -> str:
    return os.path.join(manifest_dir(data_dir), f"{collection}.json")


def _stamp_path(data_dir: str, collection: str) -> str:
    return os.path.join(manifest_dir(data_dir), f"{collection}.stamp")


def load(data_dir: str, collection: str) -> Manifest:
    """The stored manifest, or an empty one when missing or unreadable (→ full refresh)."""
    try:
        with open(manifest_path(data_dir, collection), "rb") as handle:
            raw = json.loads(handle.read())
        if raw.get("v") != MANIFEST_VERSION or not _well_formed(raw):
            return Manifest(collection)
        stored = Manifest(collection, raw["root"], raw["refreshed_at"], raw["files"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Manifest(collection)
    try:
        with open(_stamp_path(data_dir, collection), encoding="ascii") as handle:
            stored.refreshed_at = max(stored.refreshed_at, float(handle.read()))
    except (OSError, ValueError):
        pass
    return stored


def _well_formed(raw: dict) -> bool:
    """A manifest a refresh can trust; anything else reads as empty (→ that collection is
    rebuilt), never as a crash."""
    files = raw.get("files")
    if not isinstance(raw.get("root"), str) or not isinstance(raw.get("refreshed_at"), (int, float)):
        return False
    if not isinstance(files, dict):
        return False
    for entry in files.values():
        if (type(entry) is not list or len(entry) != 4 or type(entry[0]) is not int or type(entry[1]) is not int
                or type(entry[2]) is not str or type(entry[3]) is not int or entry[3] < 0):
            return False
    return True


def save(data_dir: str, manifest: Manifest) -> None:
    import orjson

    payload = {
        "v": MANIFEST_VERSION,
        "collection": manifest.collection,
        "root": manifest.root,
        "refreshed_at": manifest.refreshed_at,
        "files": manifest.files,
    }
    atomic_write(manifest_path(data_dir, manifest.collection), orjson.dumps(payload))


def touch(data_dir: str, collection: str, when: float) -> None:
    """Record a refresh that changed nothing, without rewriting a 10k-entry manifest."""
    atomic_write(_stamp_path(data_dir, collection), repr(when))


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
    paths = (manifest_path(data_dir, collection), _stamp_path(data_dir, collection), _intent_path(data_dir, collection))
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
    found = {n.rsplit(".", 1)[0] for n in names if n.endswith((".json", ".intent")) and not n.startswith(".")}
    return sorted(found)
