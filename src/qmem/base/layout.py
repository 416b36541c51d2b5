"""Where the index data lives; no heavy imports (the `get` path uses it).

Several configs may share one data root (`$QMEM_DATA`, `data_dir`, `~/.local/share/qmem`):
each config owns a folder of its own inside it, keyed by the config file's resolved path, so
nothing one config does can remove what another indexed.

    <root>/configs/<slug>-<hash>/owner.json         which config file owns this folder
    <root>/configs/<slug>-<hash>/v<SCHEMA>/tantivy/     the Tantivy index (a cache)
    <root>/configs/<slug>-<hash>/v<SCHEMA>/manifests/   one manifest (columns, marshal) per collection
    <root>/configs/<slug>-<hash>/v<SCHEMA>/write.lock   held by the one refresh allowed at a time

`Config.data_dir` is the config's own folder; every function below that takes `data_dir`
takes that folder. `<root>/v<N>/` is the layout of qmem before per-config folders: it may be
shared by several configs, so it is only ever read (`adopt`), never removed.
"""

from __future__ import annotations

import os
import time

SCHEMA_VERSION = 3  # 2: the body field is indexed as analysis.index_terms; 3: heading too, one stored meta
CONFIGS = "configs"
OWNER = "owner.json"
_SLUG_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def config_data_dir(data_root: str, config_file: str) -> str:
    """The folder that belongs to `config_file` inside `data_root`.

    Keyed by the config's resolved path (symlinks followed, so two names of one file share
    it); the slug (the config's folder name) only helps a person reading the listing."""
    import xxhash

    real = os.path.realpath(config_file)
    slug = slug_of(os.path.basename(os.path.dirname(real)))[:40].strip("._-") or "config"
    digest = xxhash.xxh3_64_hexdigest(os.fsencode(real))
    return os.path.join(data_root, CONFIGS, f"{slug}-{digest}")


def slug_of(name: str) -> str:
    """`name` with each run of characters other than ASCII letters, digits, '.', '_' and '-'
    replaced by one '_' (what `re.sub(r"[^A-Za-z0-9._-]+", "_", name)` gives, without `re`:
    this runs on every search)."""
    out: list[str] = []
    in_run = False
    for ch in name:
        if ch in _SLUG_CHARS:
            out.append(ch)
            in_run = False
        elif not in_run:
            out.append("_")
            in_run = True
    return "".join(out)


def _is_version(name: str) -> bool:
    """`v` and ASCII digits (a regex here would cost every refresh the import of `re`)."""
    digits = name[1:]
    return name[:1] == "v" and digits.isascii() and digits.isdigit()


def version_dir(data_dir: str) -> str:
    return os.path.join(data_dir, f"v{SCHEMA_VERSION}")


def tantivy_dir(data_dir: str) -> str:
    return os.path.join(version_dir(data_dir), "tantivy")


def manifest_dir(data_dir: str) -> str:
    return os.path.join(version_dir(data_dir), "manifests")


def manifest_path(data_dir: str, collection: str) -> str:
    """A collection's manifest (`manifest.py` reads and writes it; a search only asks whether
    it exists, without importing that module)."""
    return os.path.join(manifest_dir(data_dir), f"{collection}.manifest")


def lock_path(data_dir: str) -> str:
    return os.path.join(version_dir(data_dir), "write.lock")


def marks_path(data_dir: str) -> str:
    """The OpenSearch collections' marks this folder's manifests match (backends/opensearch/marks.py)."""
    return os.path.join(version_dir(data_dir), "opensearch-marks.json")


def stale_versions(data_dir: str) -> list[str]:
    """Index folders of other schema versions in a config's own folder (left by an older or
    newer qmem); the next refresh removes them."""
    try:
        names = os.listdir(data_dir)
    except OSError:
        return []
    current = f"v{SCHEMA_VERSION}"
    return sorted(n for n in names if _is_version(n) and n != current)


def remove_stale_versions(data_dir: str) -> list[str]:
    """Drop a config's index folders of other schema versions: the index is a cache rebuilt
    from the Markdown files. Their vectors are not (embedding costs minutes) and are keyed by
    section content, whatever the schema: a collection's vectors move to the current folder
    unless it has its own."""
    import shutil

    removed = stale_versions(data_dir)
    for name in removed:
        old_vectors = os.path.join(data_dir, name, "vectors")
        new_vectors = os.path.join(version_dir(data_dir), "vectors")
        try:
            collections = [c for c in os.listdir(old_vectors) if os.path.isdir(os.path.join(old_vectors, c))]
        except OSError:
            collections = []
        for coll in collections:
            if not os.path.lexists(os.path.join(new_vectors, coll)):
                try:
                    os.makedirs(new_vectors, exist_ok=True)
                    os.replace(os.path.join(old_vectors, coll), os.path.join(new_vectors, coll))
                except OSError:
                    pass  # left behind, removed with the old folder: the next embed rebuilds it
        shutil.rmtree(os.path.join(data_dir, name), ignore_errors=True)
    return removed


def first_build_running(data_dir: str, collections: list[str]) -> bool:
    """True while another process builds this config's index for the first time: it holds the
    write lock and none of `collections` has a manifest yet, so nothing is committed to search
    (on any backend: every refresh writes the manifests and takes this lock)."""
    if any(os.path.exists(manifest_path(data_dir, name)) for name in collections):
        return False
    from .writes import lock_held

    return lock_held(lock_path(data_dir))


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


# -- ownership -------------------------------------------------------------------------------

def claim(data_dir: str, config_file: str) -> None:
    """Record which config owns `data_dir` (once; the first writer writes it, and a record
    that no longer reads is written again)."""
    owner = os.path.join(data_dir, OWNER)
    if _looks_whole(owner):
        return
    from . import jsonio
    from .writes import atomic_write

    record = {"config": os.path.realpath(config_file), "created_at": time.time(), "layout": 2}
    atomic_write(owner, jsonio.dump_bytes(record) + b"\n")


def _looks_whole(owner: str) -> bool:
    """True when the owner record reads as `claim` wrote it (checked without json: every
    refresh claims, and a no-op refresh imports no JSON library); a garbled one is rewritten.
    Both spellings count: orjson's compact one (written now) and json's (`{"config": "`)."""
    try:
        with open(owner, "rb") as handle:
            data = handle.read(1 << 16).rstrip()
    except OSError:
        return False
    return data.startswith((b'{"config":"', b'{"config": "')) and data.endswith(b"}") \
        and (b'"created_at":' in data)


def owner_of(data_dir: str) -> str | None:
    """The config file recorded in a data folder, or None when unrecorded or unreadable."""
    from . import jsonio

    try:
        config = jsonio.read(os.path.join(data_dir, OWNER)).get("config")
    except (OSError, ValueError, AttributeError):
        return None
    return config if isinstance(config, str) else None


class DataFolder:
    """One folder of index data under a data root, and whose it is.

    `legacy` folders (`<root>/v<N>`) come from qmem before per-config folders: any config
    that used the root may have shared them, so no config can tell whether it is the last."""

    __slots__ = ("path", "config", "config_exists", "legacy", "bytes")

    def __init__(self, path: str, config: str | None, config_exists: bool, legacy: bool, size: int) -> None:
        self.path = path
        self.config = config
        self.config_exists = config_exists
        self.legacy = legacy
        self.bytes = size

    @property
    def orphan(self) -> bool:
        """A config folder whose config file is gone (or was never recorded)."""
        return not self.legacy and not self.config_exists

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "config": self.config, "config_exists": self.config_exists,
                "legacy": self.legacy, "orphan": self.orphan, "bytes": self.bytes}


def data_folders(data_root: str, sizes: bool = False) -> list[DataFolder]:
    """Every data folder under `data_root`: one per config that ever indexed there (with the
    config file that owns it and whether that file still exists), then legacy folders.

    For `qmem doctor`/`status`: a folder whose config is gone is an orphan its user may delete."""
    found: list[DataFolder] = []
    configs = os.path.join(data_root, CONFIGS)
    try:
        names = sorted(os.listdir(configs))
    except OSError:
        names = []
    for name in names:
        path = os.path.join(configs, name)
        if name.startswith(".") or not os.path.isdir(path):
            continue
        owner = owner_of(path)
        found.append(DataFolder(path, owner, bool(owner and os.path.isfile(owner)), False,
                                dir_size(path) if sizes else 0))
    for name in legacy_versions(data_root):
        path = os.path.join(data_root, name)
        found.append(DataFolder(path, None, False, True, dir_size(path) if sizes else 0))
    return found


def legacy_versions(data_root: str) -> list[str]:
    """`v<N>` folders directly in the data root: the shared layout of qmem before per-config
    data folders."""
    try:
        names = os.listdir(data_root)
    except OSError:
        return []
    return sorted(n for n in names if _is_version(n) and os.path.isdir(os.path.join(data_root, n)))


def adopt(legacy_version_dir: str, data_dir: str, whole_index: bool, vector_collections: list[str]) -> list[str]:
    """Give `data_dir` a copy of parts of a legacy index folder: its `tantivy/` and
    `manifests/` when `whole_index` (same schema version), and the vector stores of
    `vector_collections` (keyed by section content, so valid across schema versions). Hard
    links where the file system allows (qmem and Tantivy never rewrite these files in place,
    they replace them), copies otherwise.

    The legacy folder is left exactly as it was: other configs may still need it. Each part
    is copied into a temporary name and renamed into place, so a crash leaves either no
    part or a whole one; a part already present is kept. Call it under the config's write
    lock. Returns the parts copied (`tantivy`, `manifests`, `vectors/<collection>`)."""
    import shutil

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    target = version_dir(data_dir)
    parts = (["tantivy", "manifests"] if whole_index else []) + [f"vectors/{c}" for c in vector_collections]
    copied = []
    for part in parts:
        src = os.path.join(legacy_version_dir, part)
        dst = os.path.join(target, part)
        if not os.path.isdir(src) or os.path.lexists(dst):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        tmp = os.path.join(os.path.dirname(dst), f".adopt-{os.path.basename(part)}-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(src, tmp, symlinks=True, copy_function=link, ignore=shutil.ignore_patterns("*.lock"))
        os.rename(tmp, dst)
        copied.append(part)
    return copied
