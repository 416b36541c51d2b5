"""The bonsai tree: a flat MEMORY.md becomes a small root index over domain folders.

    MEMORY.md                                   root index: title + pinned core + one entry per domain
    memory/domains/<domain>/_index.md           branch index: one entry per leaf
    memory/domains/<domain>/<slug>.md           leaf: one `##` section of the old MEMORY.md, verbatim
    memory/domains/.qmem-tree.json              what migrate created (for reindex and rollback)
    MEMORY.md.bak                               the original, byte for byte (the newest 3 backups
                                                stay here; older ones go to memory/archive/backups/)
    memory/rescue-<time>/                       what rollback kept that migrate did not write

The root keeps the original's text before its first `##` (the `#` title included) and its
pinned sections verbatim, so `reassemble` gives the original back byte for byte from the
root and the leaves. Text qmem did not write is never dropped: sections appended to the
root are moved into leaves by reindex, and rollback refuses to run over hand edits and
hand-added files unless forced, and then moves them into a rescue folder it names.

An agent boots on the root (a few hundred tokens) and reaches any fact in three reads.
Everything is built in a staging folder first; the switch-over replaces MEMORY.md last, so a
crash leaves the old MEMORY.md in charge (an interrupted migrate is cleaned up by the next
tree command). Daily logs `memory/YYYY-MM-DD.md` are never touched.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import stat
import time

import xxhash

from ..analysis import estimate_tokens
from ..conventions import plural
from ..errors import BadInputError, QmemError
from ..fsutil import atomic_write
from .tree_shape import (  # noqa: F401 - the tree's shape, re-exported for callers of this module
    _LINE, DOMAINS_HEADING, INDEX_NAME, ROOT_TITLE, Branch, Leaf, Part, Plan, _all_branches, branch_index,
    branches_from_plan, generated_title, leaf_budget, leaf_slug, pinned_core, plan, root_index, root_separator, scan_branches, split, summary_line,
)
from .workspace import DISTILLED_SUFFIX, STATS_END, STATS_START, Workspace, distilled_only, without_block

MANIFEST = ".qmem-tree.json"
STAGING = ".qmem-staging"
DEFAULT_MIN_TOKENS = 1000
DEFAULT_ROOT_BUDGET = 400
MIN_ROOT_BUDGET = 200
ROOT_SHARE = 0.12
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
    """The tree's manifest, validated: every path in it is a plain relative path that stays
    inside the workspace, so a tampered manifest can never make rollback touch another file."""
    path = manifest_path(ws)
    try:
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
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


def _file_digest(path: str) -> str | None:
    data = _read_bytes(path)
    return None if data is None else digest(data)


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
    root_budget: int | None = None,
    config_file: str = "",
    day: str | None = None,
    explain: bool = False,
) -> TreeResult:
    """Restructure MEMORY.md into the tree (see the module docstring). With `explain`, the
    result lists every section with its domain and the cues that chose it."""
    tree_config = tree_config or {}
    result = TreeResult("migrate", ws.root)
    result.dry_run = dry_run
    original = ws.require_memory()
    _check_folders(ws)
    ws.check_write(ws.memory_md)
    _recover(ws, original)
    manifest = load_manifest(ws)
    if manifest is not None:
        result.message = "already migrated (memory/domains exists); after editing leaves run: qmem tree reindex"
        result.tokens_before = manifest.get("tokens_before", 0)
        result.tokens_after = estimate_tokens(original.decode("utf-8", "replace"))
        return result
    if os.path.lexists(ws.domains):
        found = _files_under(ws.domains)
        listed = ", ".join(ws.rel(p) for p in found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise TreeError(f"{ws.rel(ws.domains)} exists but was not made by qmem"
                        + (f" (it holds {listed})" if found else "")
                        + "; move it away first (or merge its text into MEMORY.md), then migrate")
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
    branches = branches_from_plan(the_plan)
    core = pinned_core(the_plan)
    root, fits = root_index(core, branches, root_budget or auto_root_budget(result.tokens_before))
    result.tokens_after = estimate_tokens(root)
    result.root_fits = fits
    if not fits and root_budget:
        result.warnings.append(f"the root index is ~{result.tokens_after} tokens, over the {root_budget}-token "
                               f"budget even with leaf lists and summaries cut (the pinned core is large)")
    result.domains = _domain_rows(branches)
    leaves = {rel: body for p in the_plan.leaves for rel, body in p.files}
    indexes = {f"{b.name}/{INDEX_NAME}": branch_index(b, day) for b in _all_branches(branches)}
    _report_plan(the_plan, result, explain)
    result.worst_read = worst_read(root, indexes, leaves)
    result.written = [f"memory/domains/{rel}" for rel in sorted({**leaves, **indexes})] + ["MEMORY.md"]
    if dry_run:
        result.message = "dry run: nothing written"
        return result
    backup = _backup(ws, original)
    result.backup = ws.rel(backup)
    manifest = {
        "version": 2,
        "migrated_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "original_digest": digest(original),
        "backup": result.backup,
        "tokens_before": result.tokens_before,
        "root_budget": root_budget,  # None: auto_root_budget, as reindex will use it too
        "root_digest": digest(root.encode("utf-8")),
        "leaves": {rel: digest(body.encode("utf-8")) for rel, body in leaves.items()},
        "indexes": sorted(indexes),
        "index_digests": {rel: digest(body.encode("utf-8")) for rel, body in indexes.items()},
        # How the original comes back from the root and the leaves (see reassemble).
        "head_chars": len(generated_title(the_plan.preamble)),
        "core_chars": len(core),
        "order": _order(the_plan),
        # The domain list qmem wrote last (reindex tells it from text added to the root since),
        # and the root's own text at migrate time, which rollback compares against.
        "domains_block": root[len(core) + len(root_separator(core)):],
        "user_digest": _user_digest(core),
    }
    _stage(ws, leaves, indexes, root, manifest)
    _switch(ws)
    result.changed = True
    split_note = f" ({plural(len(leaves), 'leaf', 'leaves')})" if len(leaves) != len(the_plan.leaves) else ""
    result.message = (f"moved {plural(len(the_plan.leaves), 'section')}{split_note} into "
                      f"{plural(len(branches), 'domain')}; original kept as {result.backup}")
    moved = prune_backups(ws, backup)
    if moved:
        result.message += (f"; {plural(len(moved), 'older backup')} moved to "
                           f"{ws.rel(os.path.dirname(os.path.join(ws.root, moved[0])))}/")
    return result


def _order(the_plan: Plan) -> list[list[object]]:
    """The original's parts in order: ["root", chars] for text kept in the root, ["leaf", rel]."""
    order: list[list[object]] = [["root", len(the_plan.preamble)]] if the_plan.preamble else []
    for part in the_plan.parts:
        if part.pinned:
            order.append(["root", len(part.text)])
        else:
            order.extend(["leaf", rel] for rel, _ in part.files)
    return order


def _report_plan(the_plan: Plan, result: TreeResult, explain: bool) -> None:
    """Which sections stay in the root and why; leaves still too big; with explain, every
    section's domain and the cues that chose it."""
    for part in the_plan.parts:
        verdict = part.verdict
        if part.pinned and verdict is not None:
            result.pinned.append({"section": part.title, "why": verdict.pin_reason})
            if verdict.secrets:
                result.warnings.append(f"pinned section {part.title!r} holds a secret (line "
                                       f"{verdict.secrets[0][0] + 1}); it stays in the root verbatim")
        for rel, body in part.files:
            tokens = estimate_tokens(body)
            if tokens > the_plan.leaf_budget:
                result.oversize.append({"leaf": f"memory/domains/{rel}", "tokens": tokens})
        if explain and verdict is not None:
            result.sections.append({"section": part.title, "line": part.line,
                                    "domain": "(root: pinned)" if part.pinned else part.domain,
                                    "why": [verdict.pin_reason] if part.pinned else verdict.cues,
                                    "files": [f"memory/domains/{rel}" for rel, _ in part.files]})


def worst_read(root: str, indexes: dict[str, str], leaves: dict[str, str]) -> dict[str, object]:
    """The costliest read an agent makes to reach one leaf: the root, every `_index.md` on
    the way down, then the leaf (tokens, and the path)."""
    base = estimate_tokens(root)
    index_tokens = {rel.rsplit("/", 1)[0]: estimate_tokens(body) for rel, body in indexes.items()}
    worst: dict[str, object] = {"tokens": base, "leaf": ""}
    for rel, body in leaves.items():
        folders = rel.split("/")[:-1]
        cost = base + estimate_tokens(body) + sum(index_tokens.get("/".join(folders[:k]), 0)
                                                  for k in range(1, len(folders) + 1))
        if cost > worst["tokens"]:  # type: ignore[operator]
            worst = {"tokens": cost, "leaf": f"memory/domains/{rel}"}
    return worst


def reassemble(ws: Workspace) -> bytes:
    """The original MEMORY.md rebuilt from the root and the leaves on disk, in the order
    migrate recorded (byte for byte as long as neither was edited since)."""
    manifest = load_manifest(ws)
    if manifest is None or "order" not in manifest:
        raise TreeError("no tree made by this qmem version here: nothing to reassemble")
    root = _file_text(ws.memory_md) or ""
    core = root[manifest["head_chars"]:manifest["core_chars"]]
    out, at = [], 0
    for kind, value in manifest["order"]:
        if kind == "root":
            out.append(core[at:at + value])
            at += value
        else:
            out.append(_file_text(os.path.join(ws.domains, value)) or "")
    return "".join(out).encode("utf-8")


def _user_lines(core: str, extra: str = "") -> list[str]:
    """The root's own text as rollback compares it: its non-blank lines, minus distill's stats."""
    lines = without_block([line.rstrip("\r\n") for line in _LINE.findall(core)], STATS_START, STATS_END)
    lines += [line.rstrip("\r\n") for line in _LINE.findall(extra)]
    return [line for line in lines if line.strip()]


def _user_digest(core: str, extra: str = "") -> str:
    return digest("\n".join(_user_lines(core, extra)).encode("utf-8"))


def _cut_root(text: str, manifest: dict) -> tuple[str, str]:
    """(core, added): the root's text before the domain list, and the lines found in or after
    the domain list that qmem did not write there (sections appended to MEMORY.md since)."""
    raw = _LINE.findall(text)
    at = next((i for i, line in enumerate(raw) if line.rstrip("\r\n") == DOMAINS_HEADING), None)
    if at is None:
        return text, ""
    core, tail = "".join(raw[:at]), raw[at:]
    block = manifest.get("domains_block")
    if block is None:  # a version-1 manifest: the list ends at its "Daily logs:" line
        end = next((i for i, line in enumerate(tail) if line.startswith("Daily logs: `memory/")), len(tail) - 1)
        return core, "".join(tail[end + 1:])
    matcher = difflib.SequenceMatcher(None, _LINE.findall(block), tail, autojunk=False)
    added = [line for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("insert", "replace")
             for line in tail[j1:j2]]
    return core, "".join(added)


def _files_under(folder: str) -> list[str]:
    """Every file and link under `folder` (links to folders are listed, never followed)."""
    found = []
    for dirpath, dirnames, files in os.walk(folder):
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        dirnames[:] = sorted(d for d in dirnames if d not in links)
        found.extend(os.path.join(dirpath, n) for n in sorted(files + links))
    return sorted(found)


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


def _clear_staging(ws: Workspace) -> None:
    """Remove what an earlier migrate staged; a link of that name is removed, never followed."""
    staging = staging_path(ws)
    if os.path.islink(staging) or os.path.isfile(staging):
        os.unlink(staging)
    shutil.rmtree(staging, ignore_errors=True)


def _stage(ws: Workspace, leaves: dict[str, str], indexes: dict[str, str], root: str, manifest: dict) -> None:
    _clear_staging(ws)
    ws.check_write(os.path.join(staging_path(ws), "MEMORY.md"))
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
    _clear_staging(ws)
    manifest = load_manifest(ws)
    if manifest is None or manifest.get("original_digest") != digest(current):
        return
    if manifest.get("root_digest") == digest(current):
        return
    for rel, expected in manifest.get("leaves", {}).items():
        if _file_digest(os.path.join(ws.domains, rel)) not in (expected, None):
            return  # edited by hand: not ours to remove
    for rel in list(manifest.get("leaves", {})) + list(manifest.get("indexes", [])):
        try:
            os.unlink(os.path.join(ws.domains, rel))
        except FileNotFoundError:
            pass
    os.unlink(manifest_path(ws))
    _remove_empty_dirs(ws.domains)  # anything else there was added by hand: it stays


# -- reindex ----------------------------------------------------------------------------------

def auto_root_budget(flat_tokens: int) -> int:
    """The root's budget when none is given: DEFAULT_ROOT_BUDGET, and for a file under ~3,300
    tokens ROOT_SHARE of it (at least MIN_ROOT_BUDGET), so the root stays a small part of what
    the agent read before. Domain entries with no summary are the floor: a root may need more."""
    return min(DEFAULT_ROOT_BUDGET, max(MIN_ROOT_BUDGET, int(flat_tokens * ROOT_SHARE)))


def reindex(ws: Workspace, *, root_budget: int | None = None, day: str | None = None,
            tree_config: dict[str, object] | None = None, config_file: str = "") -> TreeResult:
    """Regenerate every `_index.md` and the root's domain list from the leaves on disk.

    Leaves are never moved. Whatever stands before `## Domains` in MEMORY.md (the title and
    pinned core, maybe edited since) is kept verbatim. Text added to the root's domain list
    or after it is kept too: each `##` section becomes a new leaf, classified as migrate
    would, and any other line joins the root's core; `moved` says where each went. An
    `_index.md` edited by hand is kept in a rescue folder before it is rewritten."""
    result = TreeResult("reindex", ws.root)
    current, manifest = _open_tree(ws, "no tree here yet: run qmem tree migrate first")
    ws.check_write(ws.memory_md)
    text = current.decode("utf-8", "replace")
    result.tokens_before = manifest.get("tokens_before", 0)
    day = day or time.strftime("%Y-%m-%d")
    core, added = _cut_root(text, manifest)
    if added.strip():
        core = _adopt_root_text(ws, core, added, tree_config or {}, config_file, result)
    branches = scan_branches(ws)
    wanted = {f"{b.name}/{INDEX_NAME}": branch_index(b, day) for b in _all_branches(branches)}
    known = manifest.get("index_digests", {})
    legacy = "index_digests" not in manifest  # a version-1 manifest: what qmem wrote is unknown
    for rel, body in wanted.items():
        path = ws.check_write(os.path.join(ws.domains, rel))
        old = _file_text(path)
        if old != body:
            if old is not None and legacy is False and known.get(rel) != digest(old.encode("utf-8")):
                _rescue_file(ws, path, result, "an _index.md edited by hand")
            atomic_write(path, body)
            result.written.append(f"memory/domains/{rel}")
    for rel in _stale_indexes(ws, set(wanted)):
        path = os.path.join(ws.domains, rel)
        if legacy is False and known.get(rel) != _file_digest(path):
            _rescue_file(ws, path, result, "an _index.md edited by hand")
        else:
            os.unlink(path)
        result.removed.append(f"memory/domains/{rel}")
    stored = manifest.get("root_budget")
    explicit = root_budget or (stored if isinstance(stored, int) and stored > 0 else None)
    root, fits = root_index(core, branches, explicit or auto_root_budget(result.tokens_before))
    result.root_fits = fits
    if not fits and explicit:
        result.warnings.append(f"the root index is over the {explicit}-token budget (the pinned core is large)")
    if root != text:
        atomic_write(ws.memory_md, root)
        result.written.append("MEMORY.md")
    result.tokens_after = estimate_tokens(root)
    manifest["root_digest"] = digest(root.encode("utf-8"))
    manifest["indexes"] = sorted(set(manifest.get("indexes", [])) | set(wanted))
    manifest["index_digests"] = {**known, **{rel: digest(body.encode("utf-8")) for rel, body in wanted.items()}}
    manifest["domains_block"] = root[len(core) + len(root_separator(core)):]
    atomic_write(manifest_path(ws), json.dumps(manifest, ensure_ascii=False, indent=2))
    result.domains = _domain_rows(branches)
    result.changed = bool(result.written or result.removed)
    result.message = "indexes up to date" if not result.changed else f"rewrote {len(result.written)} files"
    if result.moved:
        result.message += "; " + "; ".join(f"{m['what']} → {m['to']}" for m in result.moved)
    return result


def _adopt_root_text(ws: Workspace, core: str, added: str, tree_config: dict[str, object], config_file: str,
                     result: TreeResult) -> str:
    """File the text added to the root since qmem last wrote it: `##` sections become leaves
    (new files, never over an existing one), the rest joins the core. Returns the new core."""
    the_plan = plan(added, tree_config, config_file)
    sections = the_plan.parts if the_plan.parts and the_plan.parts[0].text.lstrip().startswith("##") else []
    keep = added if not sections else the_plan.preamble if the_plan.preamble.strip() else ""
    for part in sections:
        if part.pinned:
            keep += part.text
            result.moved.append({"what": f"section {part.title!r}", "from": "MEMORY.md", "to": "MEMORY.md (pinned core)"})
            continue
        folder = os.path.join(ws.domains, part.domain)
        name, n = part.slug, 1
        while os.path.lexists(os.path.join(folder, f"{name}.md")):
            n += 1
            name = f"{part.slug}-{n}"
        path = ws.check_write(os.path.join(folder, f"{name}.md"))
        atomic_write(path, part.text if part.text.endswith("\n") else part.text + "\n")
        result.moved.append({"what": f"section {part.title!r}", "from": "MEMORY.md", "to": ws.rel(path)})
    if keep.strip():
        if core and not core.endswith("\n"):
            core += "\n"
        core += keep.lstrip("\r\n")
        result.moved.append({"what": "lines added after the domain list", "from": "MEMORY.md",
                             "to": "MEMORY.md (before ## Domains)"})
    return core


def _rescue_dir(ws: Workspace, result: TreeResult) -> str:
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


def _rescue_file(ws: Workspace, path: str, result: TreeResult, why: str) -> str:
    """Move `path` (a file or a link, never followed) into the rescue folder, keeping its place
    under memory/ (or its name, for MEMORY.md)."""
    rel = os.path.relpath(path, ws.memory_dir) if path != ws.memory_md else "MEMORY.md"
    target = os.path.join(_rescue_dir(ws, result), rel)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.replace(path, target)
    result.moved.append({"what": why, "from": ws.rel(path), "to": ws.rel(target)})
    return target


def _open_tree(ws: Workspace, missing: str) -> tuple[bytes, dict]:
    """The current MEMORY.md and the tree's manifest, after cleaning up an interrupted migrate."""
    current = ws.require_memory()
    _check_folders(ws)
    _recover(ws, current)
    manifest = load_manifest(ws)
    if manifest is None:
        raise TreeError(missing)
    return current, manifest


def _check_folders(ws: Workspace) -> None:
    """memory/ and memory/domains must be real folders inside the workspace: the tree
    commands move and remove files there."""
    for folder in (ws.memory_dir, ws.domains):
        if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
            raise TreeError(f"{ws.rel(folder)} is a link or not a folder; tree commands work only on a real folder")


def _file_text(path: str) -> str | None:
    data = _read_bytes(path)
    return None if data is None else data.decode("utf-8", "replace")


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

    Everything else is kept and named. Topic files that `distill` filled (nothing but
    distilled entries, which are copies of daily-log lines) move to memory/<name>, where
    distill writes without a tree. A root holding text qmem did not write, a leaf edited
    since migrate, or a file added under memory/domains is a refusal without --force; with
    it, they move to memory/rescue-<time>/ (the root's text as rescue-<time>/MEMORY.md)."""
    result = TreeResult("rollback", ws.root)
    current, manifest = _open_tree(ws, "nothing to roll back: no tree made by qmem here")
    backup = os.path.join(ws.root, manifest["backup"])
    original = _read_bytes(backup)
    if original is None or digest(original) != manifest["original_digest"]:
        raise TreeError(f"the backup {manifest['backup']} is missing or changed; refusing to roll back")
    ws.check_write(ws.memory_md)
    ours = {**manifest["leaves"], **manifest.get("index_digests", {})}
    ours.update({rel: None for rel in manifest.get("indexes", []) if rel not in ours})
    edited, added, distilled = [], [], []
    for path in _files_under(ws.domains):
        rel = os.path.relpath(path, ws.domains).replace(os.sep, "/")
        if rel == MANIFEST:
            continue
        if rel in ours:
            if os.path.islink(path) or ours[rel] not in (None, _file_digest(path)):
                edited.append(path)
        elif not os.path.islink(path) and os.path.isfile(path) and distilled_only(_file_text(path) or ""):
            distilled.append(path)
        else:
            added.append(path)
    root_edited = _root_edited(current, manifest)
    if (edited or added or root_edited) and not force:
        what = [ws.rel(p) + " (edited)" for p in edited] + [ws.rel(p) + " (added)" for p in added]
        what += ["MEMORY.md (text qmem did not write)"] if root_edited else []
        shown = ", ".join(what[:8]) + (f" and {len(what) - 8} more" if len(what) > 8 else "")
        raise TreeError(f"edited since migrate: {shown}; use --force to roll back and keep them "
                        f"in memory/rescue-<time>/")
    for path in edited:
        _rescue_file(ws, path, result, "edited since migrate")
    for path in added:
        _rescue_file(ws, path, result, "added after migrate")
    for path in distilled:
        name = os.path.basename(path)
        if name.endswith(DISTILLED_SUFFIX):
            name = name[:-len(DISTILLED_SUFFIX)] + ".md"  # where distill writes without a tree
        target = os.path.join(ws.memory_dir, name)
        if os.path.lexists(target):
            _rescue_file(ws, path, result, "distilled topic file (memory/ has one of that name)")
        else:
            ws.check_write(target)
            os.replace(path, target)
            result.moved.append({"what": "distilled topic file", "from": ws.rel(path), "to": ws.rel(target)})
    if root_edited:
        target = os.path.join(_rescue_dir(ws, result), "MEMORY.md")
        atomic_write(target, current)
        result.moved.append({"what": "the root as it was", "from": "MEMORY.md", "to": ws.rel(target)})
    atomic_write(ws.memory_md, original)
    for rel in ours:
        path = os.path.join(ws.domains, rel)
        if os.path.isfile(path) and not os.path.islink(path):
            os.unlink(path)
            result.removed.append(f"memory/domains/{rel}")
    os.unlink(manifest_path(ws))
    _remove_empty_dirs(ws.domains)
    result.changed = True
    result.tokens_before = manifest.get("tokens_before", 0)
    result.tokens_after = estimate_tokens(original.decode("utf-8", "replace"))
    result.message = "restored the original MEMORY.md" + (f"; kept what migrate did not write in {result.rescue}"
                                                          if result.rescue else "")
    return result


def _root_edited(current: bytes, manifest: dict) -> bool:
    """Does the root hold text qmem did not write (or lack text it did)? Distill's stats block
    and the domain list are qmem's; anything else is compared with the root at migrate time."""
    if "user_digest" not in manifest:  # a version-1 manifest: only the last root qmem wrote is known
        return digest(current) != manifest["root_digest"]
    core, added = _cut_root(current.decode("utf-8", "replace"), manifest)
    return _user_digest(core, added) != manifest["user_digest"]


def _read_bytes(path: str) -> bytes | None:
    """The bytes of a regular file (a FIFO or a device is never opened), or None."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
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

def stats(ws: Workspace, tree_config: dict[str, object] | None = None) -> TreeResult:
    """Boot tokens before (the backup) and after (the root), per-domain files and tokens, the
    costliest read down to one leaf, and the leaves still over the leaf budget."""
    result = TreeResult("stats", ws.root)
    current = ws.require_memory()
    _check_folders(ws)
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
    indexes, leaves = {}, {}
    for path in _files_under(ws.domains):
        rel = os.path.relpath(path, ws.domains).replace(os.sep, "/")
        if rel.endswith(".md") and not rel.startswith("."):
            (indexes if rel.rsplit("/", 1)[-1] == INDEX_NAME else leaves)[rel] = _file_text(path) or ""
    result.worst_read = worst_read(current.decode("utf-8", "replace"), indexes, leaves)
    budget = leaf_budget(tree_config or {}, result.tokens_before)
    result.oversize = [{"leaf": f"memory/domains/{rel}", "tokens": estimate_tokens(body)}
                       for rel, body in sorted(leaves.items()) if estimate_tokens(body) > budget]
    return result
