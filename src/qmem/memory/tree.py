"""The bonsai tree: a flat MEMORY.md becomes a small root index over domain folders.

    MEMORY.md                                   root index: pinned core + one entry per domain
    memory/domains/<domain>/_index.md           branch index: one entry per leaf
    memory/domains/<domain>/<slug>.md           leaf: one `##` section of the old MEMORY.md, verbatim
    memory/domains/.qmem-tree.json              what migrate created (for reindex and rollback)
    MEMORY.md.bak                               the original, byte for byte (the newest 3 backups
                                                stay here; older ones go to memory/archive/backups/)

An agent boots on the root (a few hundred tokens) and reaches any fact in three reads.
Everything is built in a staging folder first; the switch-over replaces MEMORY.md last, so a
crash leaves the old MEMORY.md in charge (an interrupted migrate is cleaned up by the next
tree command). Daily logs `memory/YYYY-MM-DD.md` are never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import time

import xxhash

from ..analysis import estimate_tokens
from ..conventions import plural
from ..errors import BadInputError, QmemError
from ..fsutil import atomic_write
from .tree_shape import (  # noqa: F401 - the tree's shape, re-exported for callers of this module
    DOMAINS_HEADING, INDEX_NAME, ROOT_TITLE, Branch, Leaf, Part, Plan, _all_branches, branch_index, leaf_slug,
    pinned_core, plan, root_index, scan_branches, split, summary_line,
)
from .workspace import Workspace

MANIFEST = ".qmem-tree.json"
STAGING = ".qmem-staging"
DEFAULT_MIN_TOKENS = 1000
DEFAULT_ROOT_BUDGET = 400
KEEP_BACKUPS = 3  # MEMORY.md.bak* kept beside MEMORY.md; older ones go to memory/archive/backups/


class TreeError(QmemError):
    """A tree operation refused to run; the message says why and what to do."""


# -- paths ------------------------------------------------------------------------------------

def manifest_path(ws: Workspace) -> str:
    return os.path.join(ws.domains, MANIFEST)


def staging_path(ws: Workspace) -> str:
    return os.path.join(ws.memory_dir, STAGING)


def digest(data: bytes) -> str:
    return xxhash.xxh3_128_hexdigest(data)


def load_manifest(ws: Workspace) -> dict | None:
    try:
        with open(manifest_path(ws), encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise TreeError(f"{ws.rel(manifest_path(ws))}: unreadable ({exc}); fix or move it away") from None


def _file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return digest(handle.read())
    except OSError:
        return None


# -- results ----------------------------------------------------------------------------------

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
        self.backup = ""
        self.rescue = ""
        self.domains: dict[str, dict[str, object]] = {}
        self.written: list[str] = []
        self.removed: list[str] = []
        self.refreshed: list[str] = []
        self.warnings: list[str] = []

    @property
    def reduction(self) -> float:
        return 1 - self.tokens_after / self.tokens_before if self.tokens_before else 0.0

    def to_dict(self) -> dict[str, object]:
        out = {k: v for k, v in vars(self).items()}
        out["reduction"] = round(self.reduction, 4)
        return out


def refresh_collections(cfg: object, ws: Workspace, result: TreeResult) -> None:
    """Refresh the collections whose root contains the workspace, so search sees the change."""
    from ..fsutil import is_inside
    from ..sync import refresh

    real = os.path.realpath(ws.root)
    names = [c.name for c in cfg.collections.values()  # type: ignore[attr-defined]
             if is_inside(os.path.realpath(c.path), real)]
    if not names:
        return
    try:
        refresh(cfg, names)  # type: ignore[arg-type]
        result.refreshed = names
    except QmemError as exc:
        result.warnings.append(f"index not refreshed: {exc}")


def _domain_rows(branches: list[Branch]) -> dict[str, dict[str, object]]:
    return {b.name: {"files": b.files, "tokens": b.tokens, "leaves": b.leaf_names()} for b in _all_branches(branches)}


# -- migrate ----------------------------------------------------------------------------------

def migrate(
    ws: Workspace,
    tree_config: dict[str, object] | None = None,
    *,
    dry_run: bool = False,
    force: bool = False,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    root_budget: int = DEFAULT_ROOT_BUDGET,
    config_file: str = "",
    day: str | None = None,
) -> TreeResult:
    """Restructure MEMORY.md into the tree (see the module docstring)."""
    tree_config = tree_config or {}
    result = TreeResult("migrate", ws.root)
    result.dry_run = dry_run
    original = ws.require_memory()
    _recover(ws, original)
    manifest = load_manifest(ws)
    if manifest is not None:
        result.message = "already migrated (memory/domains exists); after editing leaves run: qmem tree reindex"
        result.tokens_before = manifest.get("tokens_before", 0)
        result.tokens_after = estimate_tokens(original.decode("utf-8", "replace"))
        return result
    if os.path.exists(ws.domains):
        raise TreeError(f"{ws.rel(ws.domains)} exists but was not made by qmem; move it away first")
    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInputError("MEMORY.md is not UTF-8 text; refusing to restructure it") from None
    result.tokens_before = estimate_tokens(text)
    if result.tokens_before < min_tokens and not force:
        raise TreeError(
            f"MEMORY.md is ~{result.tokens_before} tokens, under --min-tokens {min_tokens}: the root index's "
            f"own overhead would eat most of the gain; use --force to restructure anyway"
        )
    the_plan = plan(text, tree_config, config_file)
    if not the_plan.leaves:
        raise TreeError("MEMORY.md has no sections to move (all pinned or empty)")
    day = day or time.strftime("%Y-%m-%d")
    branches = _branches_from_plan(the_plan)
    root, fits = root_index(pinned_core(the_plan), branches, root_budget)
    result.tokens_after = estimate_tokens(root)
    result.root_fits = fits
    if not fits:
        result.warnings.append(f"the root index is ~{result.tokens_after} tokens, over the {root_budget}-token "
                               f"budget even with leaf lists and summaries cut (the pinned core is large)")
    result.domains = _domain_rows(branches)
    leaves = {f"{p.domain}/{p.slug}.md": p.text for p in the_plan.leaves}
    indexes = {f"{b.name}/{INDEX_NAME}": branch_index(b, day) for b in branches}
    result.written = [f"memory/domains/{rel}" for rel in sorted({**leaves, **indexes})] + ["MEMORY.md"]
    if dry_run:
        result.message = "dry run: nothing written"
        return result
    backup = _backup(ws, original)
    result.backup = ws.rel(backup)
    manifest = {
        "version": 1,
        "migrated_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "original_digest": digest(original),
        "backup": result.backup,
        "tokens_before": result.tokens_before,
        "root_digest": digest(root.encode("utf-8")),
        "leaves": {rel: digest(body.encode("utf-8")) for rel, body in leaves.items()},
        "indexes": sorted(indexes),
    }
    _stage(ws, leaves, indexes, root, manifest)
    _switch(ws)
    result.changed = True
    result.message = f"moved {plural(len(leaves), 'section')} into {plural(len(branches), 'domain')}; original kept as {result.backup}"
    moved = prune_backups(ws, backup)
    if moved:
        result.message += (f"; {plural(len(moved), 'older backup')} moved to "
                           f"{ws.rel(os.path.dirname(os.path.join(ws.root, moved[0])))}/")
    return result


def _branches_from_plan(the_plan: Plan) -> list[Branch]:
    branches = []
    for domain, parts in the_plan.by_domain().items():
        branch = Branch(domain)
        for part in sorted(parts, key=lambda p: p.slug):
            branch.leaves.append(Leaf(f"{part.slug}.md", estimate_tokens(part.text), summary_line(part.text)))
        branches.append(branch)
    return branches


def _backup(ws: Workspace, original: bytes) -> str:
    """MEMORY.md.bak, or .bak.2, .bak.3…; an existing backup with the same bytes is reused."""
    for existing in backups(ws):
        if _file_digest(existing) == digest(original):
            return existing
    candidate, n = ws.memory_md + ".bak", 1
    while os.path.exists(candidate):
        n += 1
        candidate = f"{ws.memory_md}.bak.{n}"
    atomic_write(candidate, original)
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


def _stage(ws: Workspace, leaves: dict[str, str], indexes: dict[str, str], root: str, manifest: dict) -> None:
    shutil.rmtree(staging_path(ws), ignore_errors=True)
    staged_domains = os.path.join(staging_path(ws), "domains")
    for rel, body in {**leaves, **indexes}.items():
        path = os.path.join(staged_domains, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(body)
    atomic_write(os.path.join(staged_domains, MANIFEST), json.dumps(manifest, ensure_ascii=False, indent=2))
    atomic_write(os.path.join(staging_path(ws), "MEMORY.md"), root)


def _switch(ws: Workspace) -> None:
    """Move the staged tree in, then replace MEMORY.md: the last rename is the commit."""
    os.rename(os.path.join(staging_path(ws), "domains"), ws.domains)
    os.replace(os.path.join(staging_path(ws), "MEMORY.md"), ws.memory_md)
    shutil.rmtree(staging_path(ws), ignore_errors=True)


def _recover(ws: Workspace, current: bytes) -> None:
    """Undo what an interrupted migrate left: staged files, and a tree whose switch-over never
    happened (MEMORY.md is still the original), as long as its files are unchanged."""
    shutil.rmtree(staging_path(ws), ignore_errors=True)
    manifest = load_manifest(ws)
    if manifest is None or manifest.get("original_digest") != digest(current):
        return
    if manifest.get("root_digest") == digest(current):
        return
    for rel, expected in manifest.get("leaves", {}).items():
        if _file_digest(os.path.join(ws.domains, rel)) not in (expected, None):
            return  # edited by hand: not ours to remove
    shutil.rmtree(ws.domains, ignore_errors=True)


# -- reindex ----------------------------------------------------------------------------------

def reindex(ws: Workspace, *, root_budget: int = DEFAULT_ROOT_BUDGET, day: str | None = None) -> TreeResult:
    """Regenerate every `_index.md` and the root's domain list from the leaves on disk.

    Leaves are never moved. Whatever stands before `## Domains` in MEMORY.md (the pinned
    core, maybe edited since) is kept verbatim."""
    result = TreeResult("reindex", ws.root)
    current, manifest = _open_tree(ws, "no tree here yet: run qmem tree migrate first")
    text = current.decode("utf-8", "replace")
    result.tokens_before = manifest.get("tokens_before", 0)
    day = day or time.strftime("%Y-%m-%d")
    branches = scan_branches(ws)
    wanted = {f"{b.name}/{INDEX_NAME}": branch_index(b, day) for b in _all_branches(branches)}
    for rel, body in wanted.items():
        path = os.path.join(ws.domains, rel)
        if _file_text(path) != body:
            atomic_write(path, body)
            result.written.append(f"memory/domains/{rel}")
    for rel in _stale_indexes(ws, set(wanted)):
        os.unlink(os.path.join(ws.domains, rel))
        result.removed.append(f"memory/domains/{rel}")
    cut = text.find(f"\n{DOMAINS_HEADING}\n")
    core = text[:cut + 1] if cut >= 0 else text  # the pinned core with its own line endings
    core = core[len(ROOT_TITLE):] if core.startswith(ROOT_TITLE) else core
    root, fits = root_index(core, branches, root_budget)
    result.root_fits = fits
    if not fits:
        result.warnings.append(f"the root index is over the {root_budget}-token budget (the pinned core is large)")
    if root != text:
        atomic_write(ws.memory_md, root)
        result.written.append("MEMORY.md")
    result.tokens_after = estimate_tokens(root)
    manifest["root_digest"] = digest(root.encode("utf-8"))
    manifest["indexes"] = sorted(set(manifest.get("indexes", [])) | set(wanted))
    atomic_write(manifest_path(ws), json.dumps(manifest, ensure_ascii=False, indent=2))
    result.domains = _domain_rows(branches)
    result.changed = bool(result.written or result.removed)
    result.message = "indexes up to date" if not result.changed else f"rewrote {len(result.written)} files"
    return result


def _open_tree(ws: Workspace, missing: str) -> tuple[bytes, dict]:
    """The current MEMORY.md and the tree's manifest, after cleaning up an interrupted migrate."""
    current = ws.require_memory()
    _recover(ws, current)
    manifest = load_manifest(ws)
    if manifest is None:
        raise TreeError(missing)
    return current, manifest


def _file_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except OSError:
        return None


def _stale_indexes(ws: Workspace, wanted: set[str]) -> list[str]:
    stale = []
    for folder, _, files in os.walk(ws.domains):
        if INDEX_NAME in files:
            rel = os.path.relpath(os.path.join(folder, INDEX_NAME), ws.domains).replace(os.sep, "/")
            if rel not in wanted:
                stale.append(rel)
    return stale


# -- rollback ---------------------------------------------------------------------------------

def rollback(ws: Workspace, *, force: bool = False) -> TreeResult:
    """Restore the original MEMORY.md byte for byte and remove only what migrate created.

    A leaf or root edited since is a refusal without --force; with it, the edited files are
    moved to memory/rescue-<time>/ instead of being deleted."""
    result = TreeResult("rollback", ws.root)
    current, manifest = _open_tree(ws, "nothing to roll back: no tree made by qmem here")
    backup = os.path.join(ws.root, manifest["backup"])
    original = _read_bytes(backup)
    if original is None or digest(original) != manifest["original_digest"]:
        raise TreeError(f"the backup {manifest['backup']} is missing or changed; refusing to roll back")
    edited = [rel for rel, expected in manifest["leaves"].items()
              if _file_digest(os.path.join(ws.domains, rel)) not in (expected, None)]
    root_edited = digest(current) != manifest["root_digest"]
    if (edited or root_edited) and not force:
        what = [f"memory/domains/{rel}" for rel in edited] + (["MEMORY.md (the root)"] if root_edited else [])
        raise TreeError(f"edited since migrate: {', '.join(what)}; use --force to roll back and keep "
                        f"the edited files in memory/rescue-<time>/")
    if edited or root_edited:
        rescue = os.path.join(ws.memory_dir, f"rescue-{time.strftime('%Y%m%d-%H%M%S')}")
        result.rescue = ws.rel(rescue)
        for rel in edited:
            target = os.path.join(rescue, "domains", rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.replace(os.path.join(ws.domains, rel), target)
        if root_edited:
            os.makedirs(rescue, exist_ok=True)
            atomic_write(os.path.join(rescue, "MEMORY.md"), current)
    atomic_write(ws.memory_md, original)
    for rel in list(manifest["leaves"]) + list(manifest.get("indexes", [])):
        path = os.path.join(ws.domains, rel)
        if os.path.exists(path):
            os.unlink(path)
            result.removed.append(f"memory/domains/{rel}")
    os.unlink(manifest_path(ws))
    _remove_empty_dirs(ws.domains)
    if os.path.exists(ws.domains):
        result.warnings.append("memory/domains keeps files added by hand after migrate (not removed)")
    result.changed = True
    result.tokens_before = manifest.get("tokens_before", 0)
    result.tokens_after = estimate_tokens(original.decode("utf-8", "replace"))
    result.message = "restored the original MEMORY.md" + (f"; edited files kept in {result.rescue}" if result.rescue else "")
    return result


def _read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _remove_empty_dirs(top: str) -> None:
    for folder, _, _ in sorted(os.walk(top), key=lambda row: -len(row[0])):
        try:
            os.rmdir(folder)
        except OSError:
            pass


# -- stats ------------------------------------------------------------------------------------

def stats(ws: Workspace) -> TreeResult:
    """Boot tokens before (the backup) and after (the root), and per-domain files and tokens."""
    result = TreeResult("stats", ws.root)
    current = ws.require_memory()
    _recover(ws, current)
    manifest = load_manifest(ws)
    result.tokens_after = estimate_tokens(current.decode("utf-8", "replace"))
    if manifest is None:
        result.tokens_before = result.tokens_after
        result.message = "not migrated: MEMORY.md is loaded whole at boot (qmem tree migrate --dry-run shows the plan)"
        return result
    backup = _read_bytes(os.path.join(ws.root, manifest["backup"]))
    result.tokens_before = estimate_tokens(backup.decode("utf-8", "replace")) if backup else manifest.get("tokens_before", 0)
    result.backup = manifest["backup"]
    result.domains = _domain_rows(scan_branches(ws))
    return result
