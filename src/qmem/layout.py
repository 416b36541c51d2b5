"""Where the index data lives inside the data folder; no heavy imports (the `get` path uses it).

    <data>/v<SCHEMA>/tantivy/     the Tantivy index (a cache: delete it and `qmem index`)
    <data>/v<SCHEMA>/manifests/   one JSON manifest per collection
    <data>/v<SCHEMA>/write.lock   held by the one refresh allowed at a time
"""

from __future__ import annotations

import os

SCHEMA_VERSION = 1


def version_dir(data_dir: str) -> str:
    return os.path.join(data_dir, f"v{SCHEMA_VERSION}")


def tantivy_dir(data_dir: str) -> str:
    return os.path.join(version_dir(data_dir), "tantivy")


def manifest_dir(data_dir: str) -> str:
    return os.path.join(version_dir(data_dir), "manifests")


def lock_path(data_dir: str) -> str:
    return os.path.join(version_dir(data_dir), "write.lock")


def stale_versions(data_dir: str) -> list[str]:
    """Index folders of other schema versions (left by an older or newer qmem)."""
    try:
        names = os.listdir(data_dir)
    except OSError:
        return []
    current = f"v{SCHEMA_VERSION}"
    return sorted(n for n in names if n.startswith("v") and n[1:].isdigit() and n != current)


def dir_size(path: str) -> int:
    """Bytes of the regular files under `path`."""
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total
