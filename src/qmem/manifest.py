"""What the index holds for a collection: path → size, mtime, content hash, section count.

Written atomically after each commit. A crash between commit and manifest only makes the
next refresh redo idempotent work (files look changed, get deleted by key and re-added).
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
        if raw.get("v") != MANIFEST_VERSION:
            return Manifest(collection)
        stored = Manifest(collection, raw["root"], raw["refreshed_at"], raw["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return Manifest(collection)
    try:
        with open(_stamp_path(data_dir, collection), encoding="ascii") as handle:
            stored.refreshed_at = max(stored.refreshed_at, float(handle.read()))
    except (OSError, ValueError):
        pass
    return stored


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


def remove(data_dir: str, collection: str) -> None:
    for path in (manifest_path(data_dir, collection), _stamp_path(data_dir, collection)):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def stored_collections(data_dir: str) -> list[str]:
    try:
        names = os.listdir(manifest_dir(data_dir))
    except OSError:
        return []
    return sorted(n[:-5] for n in names if n.endswith(".json") and not n.startswith("."))
