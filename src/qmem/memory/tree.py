"""The bonsai tree: a flat MEMORY.md becomes a small root index over domain folders.

    MEMORY.md                                   root index: pinned core + one entry per domain
    memory/domains/<domain>/_index.md           branch index: one entry per leaf
    memory/domains/<domain>/<slug>.md           leaf: one `##` section of the old MEMORY.md, verbatim
    memory/domains/.qmem-tree.json              what migrate created (for reindex and rollback)
    MEMORY.md.bak                               the original, byte for byte

An agent boots on the root (a few hundred tokens) and reaches any fact in three reads.
Everything is built in a staging folder first; the switch-over replaces MEMORY.md last, so a
crash leaves the old MEMORY.md in charge (an interrupted migrate is cleaned up by the next
tree command). Daily logs `memory/YYYY-MM-DD.md` are never touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import xxhash

from .. import markdown
from ..analysis import estimate_tokens
from ..errors import BadInputError, QmemError
from ..fsutil import atomic_write
from . import domains as domains_mod
from .workspace import Workspace

MANIFEST = ".qmem-tree.json"
STAGING = ".qmem-staging"
INDEX_NAME = "_index.md"
ROOT_TITLE = "# Memory Index"
DOMAINS_HEADING = "## Domains"
DEFAULT_MIN_TOKENS = 1000
DEFAULT_ROOT_BUDGET = 400
SUMMARY_CHARS = 160
SUMMARY_STEPS = (SUMMARY_CHARS, 120, 90, 60, 40, 0)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_PIN_TAG = re.compile(r"\[(?:pin|p0)\]", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_SLUG_DROP = re.compile(r"[^\w\s-]")


class TreeError(QmemError):
    """A tree operation refused to run; the message says why and what to do."""


# -- paths ------------------------------------------------------------------------------------

def manifest_path(ws: Workspace) -> str:
    return os.path.join(ws.domains, MANIFEST)


def staging_path(ws: Workspace) -> str:
    return os.path.join(ws.memory_dir, STAGING)


def digest(data: bytes) -> str:
    return xxhash.xxh3_128_hexdigest(data)


# -- splitting and planning -------------------------------------------------------------------

class Part:
    """One `##` section of MEMORY.md, with its exact text."""

    __slots__ = ("title", "text", "line", "pinned", "domain", "slug")

    def __init__(self, title: str, text: str, line: int) -> None:
        self.title = title
        self.text = text
        self.line = line
        self.pinned = False
        self.domain = ""
        self.slug = ""

    @property
    def first_paragraph(self) -> str:
        body: list[str] = []
        for line in self.text.splitlines()[1:]:
            if not line.strip():
                if body:
                    break
                continue
            if not line.lstrip().startswith("#"):
                body.append(line)
        return " ".join(body)


def split(text: str) -> tuple[str, list[Part]]:
    """(preamble, sections) on `##` headings outside fenced code, every byte kept.

    A file without `##` is one section titled by its `#` heading (or "Memory")."""
    raw = _LINE.findall(text)
    bare = [line.rstrip("\r\n") for line in raw]
    heads = [h for h in markdown.headings(bare) if h.level == 2]
    if not heads:
        h1 = [h for h in markdown.headings(bare) if h.level == 1]
        title = h1[0].title if h1 else "Memory"
        return "", [Part(title, text, 1)] if text.strip() else []
    preamble = "".join(raw[:heads[0].line])
    parts = []
    for k, head in enumerate(heads):
        end = heads[k + 1].line if k + 1 < len(heads) else len(raw)
        parts.append(Part(head.title, "".join(raw[head.line:end]), head.line + 1))
    return preamble, parts


def leaf_slug(title: str) -> str:
    """Lowercase, special characters removed, spaces → hyphens, CJK kept, ≤ 60 characters."""
    text = _COMMENT.sub("", markdown.strip_tags(title)).strip().lower()
    text = _SLUG_DROP.sub("", text).replace("_", "-")
    text = re.sub(r"[\s-]+", "-", text).strip("-")
    return text[:60].rstrip("-")


def summary_line(text: str) -> str:
    """The first meaningful line: not a heading, front matter, blank line or rule; ≤ 160 chars."""
    lines = text.splitlines()
    start = markdown.front_matter(lines)[1]
    for line in lines[start:]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or _RULE.match(stripped) or stripped.startswith("```"):
            continue
        stripped = _COMMENT.sub("", stripped).strip()
        if not stripped:
            continue
        return stripped if len(stripped) <= SUMMARY_CHARS else stripped[: SUMMARY_CHARS - 1].rstrip() + "…"
    return ""


def display_name(domain: str) -> str:
    return domain.replace("-", " ").replace("/", " › ").title()


class Plan:
    """What migrate would write: the root's pinned core and the leaves per domain."""

    def __init__(self, preamble: str, parts: list[Part]) -> None:
        self.preamble = preamble
        self.parts = parts

    @property
    def pinned(self) -> list[Part]:
        return [p for p in self.parts if p.pinned]

    @property
    def leaves(self) -> list[Part]:
        return [p for p in self.parts if not p.pinned]

    def by_domain(self) -> dict[str, list[Part]]:
        out: dict[str, list[Part]] = {}
        for part in self.leaves:
            out.setdefault(part.domain, []).append(part)
        return dict(sorted(out.items()))


def plan(text: str, tree_config: dict[str, object], config_file: str = "") -> Plan:
    """Split, pin, classify and name leaves. Same input, same plan."""
    table = domains_mod.load_table(tree_config, config_file)
    pinned_titles = {str(t).strip().lower() for t in tree_config.get("pinned", []) or []}  # type: ignore[union-attr]
    preamble, parts = split(text)
    taken: dict[str, set[str]] = {}
    for number, part in enumerate(parts, 1):
        bare_title = _COMMENT.sub("", markdown.strip_tags(part.title)).strip().lower()
        part.pinned = bool(_PIN_TAG.search(part.title)) or bare_title in pinned_titles
        if part.pinned:
            continue
        part.domain = domains_mod.classify(part.title, part.first_paragraph, table)
        slug = leaf_slug(part.title) or f"section-{number}"
        used = taken.setdefault(part.domain, {"_index"})
        candidate, n = slug, 1
        while candidate in used:
            n += 1
            candidate = f"{slug}-{n}"
        used.add(candidate)
        part.slug = candidate
    return Plan(preamble, parts)


# -- rendering the indexes --------------------------------------------------------------------

class Leaf:
    __slots__ = ("name", "tokens", "summary")

    def __init__(self, name: str, tokens: int, summary: str) -> None:
        self.name = name  # file name ("backup-plan.md") or sub-domain folder ("cloud/")
        self.tokens = tokens
        self.summary = summary


class Branch:
    """A domain folder as reindex sees it: its leaves and its sub-domains."""

    def __init__(self, name: str) -> None:
        self.name = name  # "infrastructure" or "infrastructure/cloud"
        self.leaves: list[Leaf] = []
        self.children: list[Branch] = []

    @property
    def tokens(self) -> int:
        return sum(leaf.tokens for leaf in self.leaves) + sum(child.tokens for child in self.children)

    @property
    def files(self) -> int:
        return len(self.leaves) + sum(child.files for child in self.children)

    @property
    def summary(self) -> str:
        biggest = max(self.leaves, key=lambda leaf: leaf.tokens, default=None)
        if biggest and biggest.summary:
            return biggest.summary
        return next((child.summary for child in self.children if child.summary), "")

    def leaf_names(self) -> list[str]:
        names = [leaf.name[:-3] for leaf in self.leaves]
        return names + [f"{child.name.rsplit('/', 1)[-1]}/" for child in self.children]


def _files(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def branch_index(branch: Branch, day: str) -> str:
    lines = [f"# {display_name(branch.name)} Index", "",
             f"Last indexed: {day} · ~{branch.tokens} tokens in {_files(branch.files)}", ""]
    for leaf in branch.leaves:
        lines += [f"### {leaf.name} (~{leaf.tokens} tokens)", leaf.summary or "(no text)", ""]
    for child in branch.children:
        short = child.name.rsplit("/", 1)[-1]
        lines += [f"### {short}/{INDEX_NAME} (~{child.tokens} tokens, {_files(child.files)})",
                  child.summary or "(no text)", ""]
    return "\n".join(lines).rstrip() + "\n"


def root_index(pinned_core: str, branches: list[Branch], budget: int) -> tuple[str, bool]:
    """The new MEMORY.md: title, pinned core, one entry per domain, pointers.

    To fit `budget` (the shared token estimate), leaf lists go first, then summaries get
    shorter: the longest summaries that fit without leaf lists are kept, then as many leaf
    names as still fit. A domain is never dropped. Returns (text, fits)."""
    core = pinned_core.strip("\n")
    longest = max((len(b.leaf_names()) for b in branches), default=0)
    chars = next((c for c in SUMMARY_STEPS if estimate_tokens(_root_text(core, branches, 0, c)) <= budget), None)
    if chars is None:
        return _root_text(core, branches, 0, 0), False
    for keep in range(longest, -1, -1):
        text = _root_text(core, branches, keep, chars)
        if estimate_tokens(text) <= budget:
            return text, True
    return _root_text(core, branches, 0, chars), True


def _root_text(core: str, branches: list[Branch], keep: int, summary_chars: int) -> str:
    lines = [ROOT_TITLE, ""]
    if core:
        lines += [core, ""]
    lines += [DOMAINS_HEADING, ""]
    for branch in branches:
        lines.append(f"### {display_name(branch.name)} (~{branch.tokens} tokens, {_files(branch.files)}) "
                     f"→ memory/domains/{branch.name}/{INDEX_NAME}")
        if summary_chars and branch.summary:
            summary = branch.summary
            lines.append(summary if len(summary) <= summary_chars else summary[: summary_chars - 1].rstrip() + "…")
        names = branch.leaf_names()
        if keep and names:
            shown = names[:keep]
            more = f" +{len(names) - keep} more" if len(names) > keep else ""
            lines.append(f"_Also: {', '.join(shown)}{more}_")
        lines.append("")
    lines.append("Daily logs: `memory/YYYY-MM-DD.md`. Search everything: `qmem search \"<words>\"`.")
    return "\n".join(lines) + "\n"


def pinned_core(plan_: Plan) -> str:
    """The preamble without its `#` title line, then every pinned section, verbatim."""
    raw = _LINE.findall(plan_.preamble)
    if raw and raw[0].startswith("# "):
        raw = raw[1:]
        while raw and not raw[0].strip():
            raw = raw[1:]
    return "".join(raw) + "".join(p.text for p in plan_.pinned)


# -- reading the tree back --------------------------------------------------------------------

def scan_branches(ws: Workspace) -> list[Branch]:
    """Domains and sub-domains as they are on disk now (hand-made changes included)."""

    def walk(folder: str, name: str) -> Branch | None:
        branch = Branch(name)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                child = walk(entry.path, f"{name}/{entry.name}")
                if child is not None:
                    branch.children.append(child)
            elif entry.name.endswith(".md") and entry.name != INDEX_NAME:
                with open(entry.path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                branch.leaves.append(Leaf(entry.name, estimate_tokens(text), summary_line(text)))
        return branch if branch.leaves or branch.children else None

    out = []
    if os.path.isdir(ws.domains):
        for entry in sorted(os.scandir(ws.domains), key=lambda e: e.name):
            if entry.is_dir() and not entry.name.startswith("."):
                branch = walk(entry.path, entry.name)
                if branch is not None:
                    out.append(branch)
    return out


def _all_branches(branches: list[Branch]) -> list[Branch]:
    out = []
    for branch in branches:
        out.append(branch)
        out.extend(_all_branches(branch.children))
    return out


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
    result.message = f"moved {len(leaves)} sections into {len(branches)} domains; original kept as {result.backup}"
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
    candidate, n = ws.memory_md + ".bak", 1
    while os.path.exists(candidate):
        if _file_digest(candidate) == digest(original):
            return candidate
        n += 1
        candidate = f"{ws.memory_md}.bak.{n}"
    atomic_write(candidate, original)
    return candidate


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
    current = ws.require_memory()
    _recover(ws, current)
    manifest = load_manifest(ws)
    if manifest is None:
        raise TreeError("no tree here yet: run qmem tree migrate first")
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
    core = text.split(f"\n{DOMAINS_HEADING}\n", 1)[0] if f"\n{DOMAINS_HEADING}\n" in text else text
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
    current = ws.require_memory()
    _recover(ws, current)
    manifest = load_manifest(ws)
    if manifest is None:
        raise TreeError("nothing to roll back: no tree made by qmem here")
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
