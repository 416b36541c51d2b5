"""The bonsai tree's files on disk: the manifest (validated before any path in it is used),
safe reads, the `MEMORY.md.bak*` backups, the staging folder and the switch-over that makes
migrate atomic, recovery from an interrupted migrate, and the rescue folder that keeps text qmem
did not write. The tree commands (`tree.py`, `tree_rollback.py`) decide; this module touches disk.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import time
from collections.abc import Iterator

import xxhash

from ...base.errors import QmemError
from ...base.writes import WriterLock, atomic_write, mode_of
from ..workspace import Workspace

MANIFEST = ".qmem-tree.json"
STAGING = ".qmem-staging"
KEEP_BACKUPS = 3  # MEMORY.md.bak* kept beside MEMORY.md; older ones go to memory/archive/backups/


class TreeError(QmemError):
    """A tree operation refused to run; the message says why and what to do."""


class TreeResult:
    """What a tree command did (or, with dry_run, would do)."""

    def __init__(self, action: str, workspace: str) -> None:
        self.action = action
        self.workspace = workspace
        self.dry_run = False
        self.changed = False
        self.message = ""
        self.tokens_before = 0
        self.tokens_after = 0
        self.root_fits = True
        self.root_budget = 0  # the budget the root was built for
        self.dropped: list[str] = []  # what the root's budget made it leave out
        self.backup = ""
        self.rescue = ""
        self.moved: list[dict[str, str]] = []  # text qmem moved: {"what", "from", "to"}
        self.domains: dict[str, dict[str, object]] = {}
        self.written: list[str] = []
        self.removed: list[str] = []
        self.refreshed: list[str] = []
        self.warnings: list[str] = []
        self.pinned: list[dict[str, str]] = []  # sections kept in the root: {"section", "why"}
        self.sections: list[dict[str, object]] = []  # with explain: every section's domain and cues
        self.oversize: list[dict[str, object]] = []  # leaves over the leaf budget with nothing to cut at
        self.worst_read: dict[str, object] = {}  # the costliest root → index(es) → leaf read
        self.settings: dict[str, object] = {}  # with explain: the [tree] settings the plan used
        self.place: dict[str, object] = {}  # with move: the [tree.place] entry that keeps it (placement.lasting)

    @property
    def reduction(self) -> float:
        return 1 - self.tokens_after / self.tokens_before if self.tokens_before else 0.0

    def to_dict(self) -> dict[str, object]:
        out = {k: v for k, v in vars(self).items()}
        out["reduction"] = round(self.reduction, 4)
        return out


# -- paths ------------------------------------------------------------------------------------

def manifest_path(ws: Workspace) -> str:
    return os.path.join(ws.domains, MANIFEST)


def staging_path(ws: Workspace) -> str:
    return os.path.join(ws.memory_dir, STAGING)


def digest(data: bytes) -> str:
    return xxhash.xxh3_128_hexdigest(data)


def load_manifest(ws: Workspace) -> dict | None:
    """The tree's manifest, validated: every path in it is a plain relative path that stays
    inside the workspace, so a tampered manifest can never make rollback touch another file."""
    from ...base import jsonio

    path = manifest_path(ws)
    try:
        manifest = jsonio.read(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise TreeError(f"{ws.rel(path)}: unreadable ({exc}); fix or move it away") from None
    problem = _manifest_problem(ws, manifest)
    if problem:
        raise TreeError(f"{ws.rel(path)}: not a manifest qmem wrote ({problem}); fix or move it away")
    return manifest


def _safe_rel(rel: object) -> bool:
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel:
        return False
    return all(part not in ("", ".", "..") for part in rel.split("/"))


def _manifest_problem(ws: Workspace, manifest: object) -> str:
    if not isinstance(manifest, dict):
        return "not a JSON object"
    leaves, indexes = manifest.get("leaves"), manifest.get("indexes", [])
    if not isinstance(leaves, dict) or not all(isinstance(v, str) for v in leaves.values()):
        return "leaves: expected an object of digests"
    if not isinstance(indexes, list):
        return "indexes: expected a list"
    for rel in list(leaves) + list(indexes) + list(manifest.get("index_digests", {}) or {}):
        if not _safe_rel(rel):
            return f"unsafe path {rel!r}"
    backup = manifest.get("backup")
    if not _safe_rel(backup) or not str(backup).startswith("MEMORY.md.bak"):
        return f"unsafe backup path {backup!r}"
    for key in ("original_digest", "root_digest"):
        if not isinstance(manifest.get(key), str):
            return f"{key}: expected a digest"
    order = manifest.get("order", [])
    if not isinstance(order, list) or not all(
            isinstance(row, list) and len(row) == 2 and (row[0] == "root" and isinstance(row[1], int)
                                                         or row[0] == "leaf" and _safe_rel(row[1]))
            for row in order):
        return "order: expected [kind, value] rows"
    return ""


# -- reads ---------------------------------------------------------------------------------------

def file_digest(path: str) -> str | None:
    data = read_bytes(path)
    return None if data is None else digest(data)


def read_bytes(path: str) -> bytes | None:
    """The bytes of a regular file (a FIFO or a device is never opened), or None."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def file_text(path: str) -> str | None:
    data = read_bytes(path)
    return None if data is None else data.decode("utf-8", "replace")


def files_under(folder: str) -> list[str]:
    """Every file and link under `folder` (links to folders are listed, never followed)."""
    found: list[str] = []
    for dirpath, dirnames, files in os.walk(folder):
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        dirnames[:] = sorted(d for d in dirnames if d not in links)
        found.extend(os.path.join(dirpath, n) for n in sorted(files + links))
    return sorted(found)


def remove_empty_dirs(top: str) -> None:
    for folder, _, _ in sorted(os.walk(top), key=lambda row: -len(row[0])):
        try:
            os.rmdir(folder)
        except OSError:
            pass


# -- the writers' lock -------------------------------------------------------------------------

LOCK_TIMEOUT = 10.0


@contextlib.contextmanager
def writers_lock(ws: Workspace, *paths: str, timeout: float | None = None) -> Iterator[None]:
    """Hold the lock every other writer takes on MEMORY.md (remember --replace, forget, janitor,
    distill) and on each of `paths` (leaves a rollback removes), for a whole read-decide-write:
    a tree command that read MEMORY.md before a concurrent correction and wrote after it would
    silently undo the correction. `timeout` seconds per lock (LOCK_TIMEOUT), then a TreeError."""
    timeout = LOCK_TIMEOUT if timeout is None else timeout
    with contextlib.ExitStack() as stack:
        for path in (ws.memory_md, *paths):
            try:
                if path == ws.memory_md and not stat.S_ISREG(os.stat(path).st_mode):
                    raise TreeError("MEMORY.md is not a regular file; tree commands work only on one")
                if path != ws.memory_md and not stat.S_ISREG(os.lstat(path).st_mode):
                    continue  # a link or a FIFO is never opened (rollback moves it, never reads it)
                stack.enter_context(WriterLock(path, timeout))
            except FileNotFoundError:
                if path == ws.memory_md:
                    ws.require_memory()  # the one-line "no MEMORY.md" error
            except TimeoutError:
                raise TreeError(f"{ws.rel(path)} is locked by another writer (waited {timeout:g} s); "
                                f"try again when it is done") from None
        yield


# -- opening the tree --------------------------------------------------------------------------

def check_folders(ws: Workspace) -> None:
    """memory/ and memory/domains must be real folders inside the workspace: the tree
    commands move and remove files there."""
    for folder in (ws.memory_dir, ws.domains):
        if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
            raise TreeError(f"{ws.rel(folder)} is a link or not a folder; tree commands work only on a real folder")


def read_tree(ws: Workspace) -> tuple[bytes, dict | None]:
    """The current MEMORY.md and the tree's manifest (None: not migrated), after cleaning up an
    interrupted migrate."""
    current = ws.require_memory()
    check_folders(ws)
    recover(ws, current)
    return current, load_manifest(ws)


def open_tree(ws: Workspace, missing: str) -> tuple[bytes, dict]:
    """read_tree for a command that needs a tree: TreeError(`missing`) when there is none."""
    current, manifest = read_tree(ws)
    if manifest is None:
        raise TreeError(missing)
    return current, manifest


# -- backups ---------------------------------------------------------------------------------

def backup_original(ws: Workspace, original: bytes) -> str:
    """MEMORY.md.bak, or .bak.2, .bak.3…; an existing backup with the same bytes is reused."""
    for existing in backups(ws):
        if file_digest(existing) == digest(original):
            return existing
    candidate, n = ws.memory_md + ".bak", 1
    while os.path.exists(candidate):
        n += 1
        candidate = f"{ws.memory_md}.bak.{n}"
    atomic_write(candidate, original, like=ws.memory_md)
    return candidate


def backups(ws: Workspace) -> list[str]:
    """The `MEMORY.md.bak*` files beside MEMORY.md, newest first."""
    try:
        names = os.listdir(ws.root)
    except OSError:
        return []
    found = [os.path.join(ws.root, n) for n in names
             if n == "MEMORY.md.bak" or (n.startswith("MEMORY.md.bak.") and n[len("MEMORY.md.bak."):].isdigit())]
    return sorted(found, key=lambda p: (-os.stat(p).st_mtime_ns, p))


def prune_backups(ws: Workspace, keep_path: str, keep: int = KEEP_BACKUPS) -> list[str]:
    """Keep the newest `keep` backups (always `keep_path`) beside MEMORY.md; move older ones to
    memory/archive/backups/ (never deleted). Returns where each moved one went."""
    found = backups(ws)
    kept = [keep_path] + [p for p in found if p != keep_path][:keep - 1]
    moved = []
    for path in found:
        if path in kept:
            continue
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(os.stat(path).st_mtime))
        target = os.path.join(ws.archive, "backups", f"MEMORY.md.{stamp}.bak")
        n = 1
        while os.path.exists(target):
            n += 1
            target = os.path.join(ws.archive, "backups", f"MEMORY.md.{stamp}-{n}.bak")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.replace(path, target)
        moved.append(ws.rel(target))
    return moved


# -- staging and the switch-over ----------------------------------------------------------------

def _clear_staging(ws: Workspace) -> None:
    """Remove what an earlier migrate staged; a link of that name is removed, never followed."""
    staging = staging_path(ws)
    if os.path.islink(staging) or os.path.isfile(staging):
        os.unlink(staging)
    shutil.rmtree(staging, ignore_errors=True)


def stage(ws: Workspace, leaves: dict[str, str], indexes: dict[str, str], root: str, manifest: dict) -> None:
    _clear_staging(ws)
    ws.check_write(os.path.join(staging_path(ws), "MEMORY.md"))
    staged_domains = os.path.join(staging_path(ws), "domains")
    private = mode_of(ws.memory_md)  # every staged file holds MEMORY.md's text: it gets its mode
    for rel, body in {**leaves, **indexes}.items():
        path = os.path.join(staged_domains, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            if private is not None:
                os.fchmod(handle.fileno(), private)
            handle.write(body)
    from ...base import jsonio

    atomic_write(os.path.join(staged_domains, MANIFEST), jsonio.dumps(manifest, pretty=True),
                 like=ws.memory_md)
    atomic_write(os.path.join(staging_path(ws), "MEMORY.md"), root, like=ws.memory_md)


def switch(ws: Workspace) -> None:
    """Move the staged tree in, then replace MEMORY.md: the last rename is the commit."""
    os.rename(os.path.join(staging_path(ws), "domains"), ws.domains)
    os.replace(os.path.join(staging_path(ws), "MEMORY.md"), ws.memory_md)
    shutil.rmtree(staging_path(ws), ignore_errors=True)


def recover(ws: Workspace, current: bytes) -> None:
    """Undo what an interrupted migrate left: staged files, and a tree whose switch-over never
    happened (MEMORY.md is still the original), as long as its files are unchanged."""
    _clear_staging(ws)
    manifest = load_manifest(ws)
    if manifest is None or manifest.get("original_digest") != digest(current):
        return
    if manifest.get("root_digest") == digest(current):
        return
    for rel, expected in manifest.get("leaves", {}).items():
        if file_digest(os.path.join(ws.domains, rel)) not in (expected, None):
            return  # edited by hand: not ours to remove
    for rel in list(manifest.get("leaves", {})) + list(manifest.get("indexes", [])):
        try:
            os.unlink(os.path.join(ws.domains, rel))
        except FileNotFoundError:
            pass
    os.unlink(manifest_path(ws))
    remove_empty_dirs(ws.domains)  # anything else there was added by hand: it stays


# -- rescue ----------------------------------------------------------------------------------

def rescue_dir(ws: Workspace, result: TreeResult) -> str:
    """memory/rescue-<time>[-n]/, made once per command and named in the result."""
    if result.rescue:
        return os.path.join(ws.root, result.rescue)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder, n = os.path.join(ws.memory_dir, f"rescue-{stamp}"), 1
    while os.path.lexists(folder):
        n += 1
        folder = os.path.join(ws.memory_dir, f"rescue-{stamp}-{n}")
    ws.check_write(os.path.join(folder, "x"))
    os.makedirs(folder)
    result.rescue = ws.rel(folder)
    return folder


def rescue_file(ws: Workspace, path: str, result: TreeResult, why: str) -> str:
    """Move `path` (a file or a link, never followed) into the rescue folder, keeping its place
    under memory/ (or its name, for MEMORY.md)."""
    rel = os.path.relpath(path, ws.memory_dir) if path != ws.memory_md else "MEMORY.md"
    target = os.path.join(rescue_dir(ws, result), rel)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.replace(path, target)
    result.moved.append({"what": why, "from": ws.rel(path), "to": ws.rel(target)})
    return target
