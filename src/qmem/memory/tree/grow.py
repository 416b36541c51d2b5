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

This module holds the commands that build and measure the tree (migrate, reindex, stats);
`tree_shape` plans it, `tree_files` handles its files on disk, `tree_rollback` goes back.
"""

from __future__ import annotations

import contextlib
import os
import time

from ...text.analysis import estimate_tokens
from ...base.conventions import plural
from ...base.errors import BadInputError, QmemError
from ...base.writes import atomic_write
from .files import (  # noqa: F401 - re-exported: callers and tests reach them as tree.<name>
    MANIFEST, TreeError, TreeResult, backup_original, check_folders, digest, file_digest, file_text, files_under,
    load_manifest, manifest_path, open_tree, prune_backups, read_bytes, read_tree, recover, rescue_file, stage,
    staging_path, switch, writers_lock,
)
from .rollback import cut_root, reassemble, reassembly_order, rollback, user_digest  # noqa: F401
from .shape import (  # noqa: F401 - the tree's shape, re-exported for callers of this module
    DOMAINS_HEADING, INDEX_NAME, ROOT_TITLE, Branch, Leaf, Part, Plan, branch_index, branches_from_plan,
    generated_title, index_budget, leaf_budget, leaf_slug, pin_share, pinned_core, plan, pointed, pointer_line, pointers, root_index, root_separator, scan_branches,
    split, summary_line, units,
)
from .domains import Verdict
from .domains import confidence_of as domains_confidence
from ..workspace import Workspace  # re-exported (tests build workspaces as tree.Workspace)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...base.config import Config

DEFAULT_MIN_TOKENS = 1000
DEFAULT_ROOT_BUDGET = 400
MIN_ROOT_BUDGET = 120
ROOT_SHARE = 0.07


def refresh_collections(cfg: Config, ws: Workspace, result: TreeResult) -> None:
    """Refresh the collections whose root contains the workspace, so search sees the change."""
    from ...base.fsutil import is_inside
    from ...engine.sync import refresh

    real = os.path.realpath(ws.root)
    names = [c.name for c in cfg.collections.values()
             if is_inside(os.path.realpath(c.path), real)]
    if not names:
        return
    try:
        refresh(cfg, names)
        result.refreshed = names
    except QmemError as exc:
        result.warnings.append(f"index not refreshed: {exc}")


def _domain_rows(branches: list[Branch]) -> dict[str, dict[str, object]]:
    return {b.name: {"files": b.files, "tokens": b.tokens, "leaves": b.leaf_names()} for b in branches}


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
    result lists every section with its domain and the cues that chose it. Under the writers'
    lock (a dry run writes nothing and takes none)."""
    with contextlib.nullcontext() if dry_run else writers_lock(ws):
        return _migrate(ws, tree_config or {}, dry_run=dry_run, force=force, min_tokens=min_tokens,
                        root_budget=root_budget, config_file=config_file, day=day, explain=explain)


def _migrate(ws: Workspace, tree_config: dict[str, object], *, dry_run: bool, force: bool, min_tokens: int,
             root_budget: int | None, config_file: str, day: str | None, explain: bool) -> TreeResult:
    result = TreeResult("migrate", ws.root)
    result.dry_run = dry_run
    original = ws.require_memory()
    check_folders(ws)
    ws.check_write(ws.memory_md)
    recover(ws, original)
    manifest = load_manifest(ws)
    if manifest is not None:
        result.message = "already migrated (memory/domains exists); after editing leaves run: qmem tree reindex"
        result.tokens_before = manifest.get("tokens_before", 0)
        result.tokens_after = estimate_tokens(original.decode("utf-8", "replace"))
        return result
    if os.path.lexists(ws.domains):
        found = files_under(ws.domains)
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
    budget = root_budget or auto_root_budget(result.tokens_before)
    the_plan = plan(text, tree_config, config_file, root_budget=budget)
    if not the_plan.leaves:
        raise TreeError("MEMORY.md has no sections to move (all pinned or empty)")
    day = day or time.strftime("%Y-%m-%d")
    branches = branches_from_plan(the_plan)
    core = pinned_core(the_plan)
    lines = pointers(the_plan)
    root, fits, dropped = root_index(core, branches, budget, lines)
    if not fits and root_budget:
        raise TreeError(f"--root-budget {root_budget} cannot hold the root's title and the names of its "
                        f"{plural(len(branches), 'domain')} (~{estimate_tokens(root)} tokens); give "
                        f"--root-budget {estimate_tokens(root)} or more")
    if not fits:  # the automatic budget is ours to raise: the domain names are the floor
        result.warnings.append(f"the root needs ~{estimate_tokens(root)} tokens for the names of its "
                               f"{plural(len(branches), 'domain')}: over the automatic budget of {budget}")
        budget = estimate_tokens(root)
    result.root_budget = budget
    result.warnings += the_plan.warnings + [f"[tree.place] {key!r} matches no section of MEMORY.md"
                                            for key in the_plan.unplaced]
    result.tokens_after = estimate_tokens(root)
    result.root_fits = result.tokens_after <= budget
    if dropped:
        result.dropped = dropped
        result.warnings.append(f"to fit the {budget}-token root, left out: {'; '.join(dropped)}")
    for part in the_plan.overflow:
        where = (f"memory/domains/{part.files[0][0]}" if len(part.files) == 1
                 else f"memory/domains/{part.domain}/{part.slug}/ ({len(part.files)} leaves)")
        result.warnings.append(f"pinned section {part.title!r} (~{estimate_tokens(part.text)} tokens) does not fit "
                               f"the root's {the_plan.pin_budget}-token share for pinned text: filed as {where}; "
                               f"the root points to it")
    result.domains = _domain_rows(branches)
    leaves = {rel: body for p in the_plan.leaves for rel, body in p.files}
    indexes = {f"{b.name}/{INDEX_NAME}": branch_index(b, day, index_budget(result.tokens_before)) for b in branches}
    _report_plan(the_plan, result, explain)
    if explain:
        result.settings = _settings(tree_config, config_file, budget, the_plan)
    result.worst_read = worst_read(root, indexes, leaves)
    result.written = [f"memory/domains/{rel}" for rel in sorted({**leaves, **indexes})] + ["MEMORY.md"]
    if dry_run:
        result.message = "dry run: nothing written"
        return result
    backup = backup_original(ws, original)
    result.backup = ws.rel(backup)
    manifest = {
        "version": 3,
        "migrated_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "original_digest": digest(original),
        "backup": result.backup,
        "tokens_before": result.tokens_before,
        "root_budget": root_budget,  # None: auto_root_budget, as reindex will use it too
        "pointers": lines,  # the root's lines naming rules filed outside it
        "root_digest": digest(root.encode("utf-8")),
        "leaves": {rel: digest(body.encode("utf-8")) for rel, body in leaves.items()},
        "indexes": sorted(indexes),
        "index_digests": {rel: digest(body.encode("utf-8")) for rel, body in indexes.items()},
        # How the original comes back from the root and the leaves (see reassemble).
        "head_chars": len(generated_title(the_plan.preamble)),
        "core_chars": len(core),
        "order": reassembly_order(the_plan),
        # The domain list qmem wrote last (reindex tells it from text added to the root since),
        # and the root's own text at migrate time, which rollback compares against.
        "domains_block": root[len(core) + len(root_separator(core)):],
        "user_digest": user_digest(core),
    }
    stage(ws, leaves, indexes, root, manifest)
    switch(ws)
    result.changed = True
    split_note = f" ({plural(len(leaves), 'leaf', 'leaves')})" if len(leaves) != len(the_plan.leaves) else ""
    result.message = (f"moved {plural(len(the_plan.leaves), 'section')}{split_note} into "
                      f"{plural(len(branches), 'domain')}; original kept as {result.backup}")
    moved = prune_backups(ws, backup)
    if moved:
        result.message += (f"; {plural(len(moved), 'older backup')} moved to "
                           f"{ws.rel(os.path.dirname(os.path.join(ws.root, moved[0])))}/")
    return result


def _settings(tree_config: dict[str, object], config_file: str, root_budget: int, the_plan: Plan) -> dict[str, object]:
    """What `--explain` shows of the `[tree]` settings: the ones the plan used, and the user's
    own domains and cues."""
    custom, placed = tree_config.get("domains", {}), tree_config.get("place", {})
    return {"confidence": domains_confidence(tree_config, config_file), "pin_share": pin_share(tree_config, config_file),
            "root_budget": root_budget, "leaf_budget": the_plan.leaf_budget, "pin_budget": the_plan.pin_budget,
            "auto_pin": tree_config.get("auto_pin", True) is not False,
            "domains_mode": tree_config.get("domains_mode", "extend"),
            "user_domains": {str(k): [str(w) for w in v] for k, v in custom.items()} if isinstance(custom, dict) else {},
            "place": dict(placed) if isinstance(placed, dict) else {},  # checked by plan
            "config": config_file}


def _report_plan(the_plan: Plan, result: TreeResult, explain: bool) -> None:
    """Which sections stay in the root and why; leaves still too big; with explain, every
    section's domain and the cues that chose it."""
    for part in the_plan.parts:
        verdict = part.verdict
        if part.pinned and isinstance(verdict, Verdict):
            result.pinned.append({"section": part.title, "why": verdict.pin_reason})
            if verdict.secrets:
                result.warnings.append(f"pinned section {part.title!r} holds a secret (line "
                                       f"{verdict.secrets[0][0] + 1}); it stays in the root verbatim")
        for rel, body in part.files:
            tokens = estimate_tokens(body)
            if tokens > the_plan.leaf_budget:
                result.oversize.append({"leaf": f"memory/domains/{rel}", "tokens": tokens})
        if explain and isinstance(verdict, Verdict):
            result.sections.append({"section": part.title, "line": part.line,
                                    "domain": "(root: pinned)" if part.pinned else part.domain,
                                    "why": [verdict.pin_reason] if part.pinned else verdict.cues,
                                    "confident": verdict.confident, "secrets": len(verdict.secrets),
                                    "tokens": estimate_tokens(part.text),
                                    "files": [f"memory/domains/{rel}" for rel, _ in part.files]})


def worst_read(root: str, indexes: dict[str, str], leaves: dict[str, str]) -> dict[str, object]:
    """The costliest read an agent makes to reach one leaf: the root, every `_index.md` on
    the way down, then the leaf (tokens, and the path)."""
    base = estimate_tokens(root)
    index_tokens = {rel.rsplit("/", 1)[0]: estimate_tokens(body) for rel, body in indexes.items()}
    worst: dict[str, object] = {"tokens": base, "leaf": ""}
    most = base
    for rel, body in leaves.items():
        folders = rel.split("/")[:-1]
        cost = base + estimate_tokens(body) + sum(index_tokens.get("/".join(folders[:k]), 0)
                                                  for k in range(1, len(folders) + 1))
        if cost > most:
            most, worst = cost, {"tokens": cost, "leaf": f"memory/domains/{rel}"}
    return worst


# -- reindex ----------------------------------------------------------------------------------

def auto_root_budget(flat_tokens: int) -> int:
    """The root's budget when none is given: DEFAULT_ROOT_BUDGET, and for a file under ~5,700
    tokens ROOT_SHARE of it (at least MIN_ROOT_BUDGET), so the root stays a small part of what
    the agent read before (a boot cut of 93%). The domain names are the floor: a root may need more."""
    return min(DEFAULT_ROOT_BUDGET, max(MIN_ROOT_BUDGET, int(flat_tokens * ROOT_SHARE)))


def reindex(ws: Workspace, *, root_budget: int | None = None, day: str | None = None,
            tree_config: dict[str, object] | None = None, config_file: str = "") -> TreeResult:
    """Regenerate every `_index.md` and the root's domain list from the leaves on disk.

    Leaves are never moved. Whatever stands before `## Domains` in MEMORY.md (the title and
    pinned core, maybe edited since) is kept verbatim. Text added to the root's domain list
    or after it is kept too: each `##` section becomes a new leaf, classified as migrate
    would, and any other line joins the root's core; `moved` says where each went. An
    `_index.md` edited by hand is kept in a rescue folder before it is rewritten. Under the
    writers' lock: MEMORY.md is read and rewritten with no other writer in between."""
    with writers_lock(ws):
        return reindex_held(ws, root_budget=root_budget, day=day, tree_config=tree_config, config_file=config_file)


def reindex_held(ws: Workspace, *, root_budget: int | None, day: str | None, tree_config: dict[str, object] | None,
                 config_file: str) -> TreeResult:
    """`reindex` for a caller that already holds the writers' lock (`tree move`)."""
    result = TreeResult("reindex", ws.root)
    current, manifest = open_tree(ws, "no tree here yet: run qmem tree migrate first")
    ws.check_write(ws.memory_md)
    text = current.decode("utf-8", "replace")
    result.tokens_before = manifest.get("tokens_before", 0)
    day = day or time.strftime("%Y-%m-%d")
    core, added = cut_root(text, manifest)
    if added.strip():
        core = _adopt_root_text(ws, core, added, tree_config or {}, config_file, result)
    branches = scan_branches(ws)
    wanted = {f"{b.name}/{INDEX_NAME}": branch_index(b, day, index_budget(result.tokens_before)) for b in branches}
    known = manifest.get("index_digests", {})
    legacy = "index_digests" not in manifest  # a version-1 manifest: what qmem wrote is unknown
    for rel, body in wanted.items():
        path = ws.check_write(os.path.join(ws.domains, rel))
        old = file_text(path)
        if old != body:
            if old is not None and legacy is False and known.get(rel) != digest(old.encode("utf-8")):
                rescue_file(ws, path, result, "an _index.md edited by hand")
            atomic_write(path, body, like=ws.memory_md)
            result.written.append(f"memory/domains/{rel}")
    for rel in _stale_indexes(ws, set(wanted)):
        path = os.path.join(ws.domains, rel)
        if legacy is False and known.get(rel) != file_digest(path):
            rescue_file(ws, path, result, "an _index.md edited by hand")
        else:
            os.unlink(path)
        result.removed.append(f"memory/domains/{rel}")
    stored = manifest.get("root_budget")
    explicit = root_budget or (stored if isinstance(stored, int) and stored > 0 else None)
    budget = explicit or auto_root_budget(result.tokens_before)
    lines = pointer_line([path for line in manifest.get("pointers", []) if isinstance(line, str)
                          for path in pointed(line) if os.path.exists(os.path.join(ws.root, path))])
    root, fits, dropped = root_index(core, branches, budget, lines)
    if not fits and not explicit and estimate_tokens(core) < budget:
        budget, fits = estimate_tokens(root), True  # the automatic budget: the domain names are the floor
    result.root_budget = budget
    result.root_fits = fits
    result.dropped = dropped
    if not fits:
        result.warnings.append(f"the root is ~{estimate_tokens(root)} tokens, over its {budget}-token budget: its own "
                               f"text before {DOMAINS_HEADING} is ~{estimate_tokens(core)} tokens (move a section "
                               f"below {DOMAINS_HEADING} and reindex: it becomes a leaf)")
    elif dropped:
        result.warnings.append(f"to fit the {budget}-token root, left out: {'; '.join(dropped)}")
    if root != text:
        atomic_write(ws.memory_md, root)
        result.written.append("MEMORY.md")
    result.tokens_after = estimate_tokens(root)
    manifest["root_digest"] = digest(root.encode("utf-8"))
    manifest["indexes"] = sorted(set(manifest.get("indexes", [])) | set(wanted))
    manifest["index_digests"] = {**known, **{rel: digest(body.encode("utf-8")) for rel, body in wanted.items()}}
    manifest["domains_block"] = root[len(core) + len(root_separator(core)):]
    manifest["pointers"] = lines
    from ...base import jsonio

    atomic_write(manifest_path(ws), jsonio.dumps(manifest, pretty=True), like=ws.memory_md)
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
    result.warnings += the_plan.warnings  # a key that names none of the added sections may name a leaf
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
        atomic_write(path, part.text if part.text.endswith("\n") else part.text + "\n", like=ws.memory_md)
        result.moved.append({"what": f"section {part.title!r}", "from": "MEMORY.md", "to": ws.rel(path)})
    if keep.strip():
        if core and not core.endswith("\n"):
            core += "\n"
        core += keep.lstrip("\r\n")
        result.moved.append({"what": "lines added after the domain list", "from": "MEMORY.md",
                             "to": "MEMORY.md (before ## Domains)"})
    return core


def _stale_indexes(ws: Workspace, wanted: set[str]) -> list[str]:
    stale = []
    for folder, _, files in os.walk(ws.domains):
        if INDEX_NAME in files:
            rel = os.path.relpath(os.path.join(folder, INDEX_NAME), ws.domains).replace(os.sep, "/")
            if rel not in wanted:
                stale.append(rel)
    return stale


# -- stats ------------------------------------------------------------------------------------

def stats(ws: Workspace, tree_config: dict[str, object] | None = None) -> TreeResult:
    """Boot tokens before (the backup) and after (the root), per-domain files and tokens, the
    costliest read down to one leaf, and the leaves still over the leaf budget."""
    result = TreeResult("stats", ws.root)
    current, manifest = read_tree(ws)
    result.tokens_after = estimate_tokens(current.decode("utf-8", "replace"))
    if manifest is None:
        result.tokens_before = result.tokens_after
        result.message = "not migrated: MEMORY.md is loaded whole at boot (qmem tree migrate --dry-run shows the plan)"
        return result
    backup = read_bytes(os.path.join(ws.root, manifest["backup"]))
    result.tokens_before = estimate_tokens(backup.decode("utf-8", "replace")) if backup else manifest.get("tokens_before", 0)
    result.backup = manifest["backup"]
    result.domains = _domain_rows(scan_branches(ws))
    indexes: dict[str, str] = {}
    leaves: dict[str, str] = {}
    for path in files_under(ws.domains):
        rel = os.path.relpath(path, ws.domains).replace(os.sep, "/")
        if rel.endswith(".md") and not rel.startswith("."):
            (indexes if rel.rsplit("/", 1)[-1] == INDEX_NAME else leaves)[rel] = file_text(path) or ""
    result.worst_read = worst_read(current.decode("utf-8", "replace"), indexes, leaves)
    budget = leaf_budget(tree_config or {}, result.tokens_before)
    result.oversize = [{"leaf": f"memory/domains/{rel}", "tokens": estimate_tokens(body)}
                       for rel, body in sorted(leaves.items()) if estimate_tokens(body) > budget]
    return result
