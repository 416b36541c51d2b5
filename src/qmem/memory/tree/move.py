"""`qmem tree move LEAF DOMAIN`: a reader's correction of where migrate filed a section.

A leaf (named by its path, or by its section's heading) moves to another domain's folder; a
section migrate cut into a folder of parts (`<domain>/<slug>/`) moves as that folder, so its
parts stay together. Nothing is deleted or overwritten: a name the target folder already holds
gets `-2`, `-3`… and the result says so. The tree's manifest follows the move (the leaf keeps its
digest and its place in the reassembly order, the root's pointer to a rules leaf follows it), so
`tree rollback` still restores the original MEMORY.md byte for byte, and then the indexes and the
root are rebuilt exactly as `tree reindex` rebuilds them, under the same writers' lock.
"""

from __future__ import annotations

import os
import stat

from ...base import jsonio
from ...base.config_entry import entry_line
from ...base.fsutil import is_inside
from ...base.writes import atomic_write
from ...text import markdown
from ..workspace import Workspace
from . import grow
from .domains import load_table
from .files import TreeError, TreeResult, files_under, file_text, manifest_path, open_tree, writers_lock
from .indexes import INDEX_NAME
from .place import domain_name_problem, matches
from .placement import lasting

NOT_MIGRATED = "no tree here yet: run qmem tree migrate first"


class Unit:
    """What moves: one leaf file, or the folder of a section cut into parts."""

    def __init__(self, ws: Workspace, rel: str) -> None:
        parts = rel.split("/")
        self.rel = "/".join(parts[:2]) if len(parts) > 2 else rel  # under memory/domains
        self.folder = len(parts) > 2
        self.domain = parts[0]
        self.path = os.path.join(ws.domains, self.rel)
        self.files = files_under(self.path) if self.folder else [self.path]

    def describe(self) -> str:
        return f"section folder ({len(self.files)} leaves)" if self.folder else "leaf"


def move(ws: Workspace, leaf: str, domain: str, *, dry_run: bool = False, tree_config: dict[str, object] | None = None,
         config_file: str = "", record: bool = True, day: str | None = None) -> TreeResult:
    """Move `leaf` (a path under memory/domains, or a section's heading) into `domain`, then
    reindex, then (with `record`) write `[tree.place] "Heading" = "domain"` into `config_file` so
    a re-migrate files it there too (`placement`; `result.place` says what was done and why).
    A dry run writes nothing and takes no lock; otherwise the writers' lock on MEMORY.md and on
    every leaf that moves is held from the first read to the last write."""
    tree_config = tree_config or {}
    open_tree(ws, NOT_MIGRATED)
    if dry_run:
        return _move(ws, leaf, domain, True, tree_config, config_file, False, day)
    first = find(ws, leaf)
    with writers_lock(ws, *first.files):
        return _move(ws, leaf, domain, False, tree_config, config_file, record, day)


def _move(ws: Workspace, leaf: str, domain: str, dry_run: bool, tree_config: dict[str, object], config_file: str,
          record: bool, day: str | None) -> TreeResult:
    _, manifest = open_tree(ws, NOT_MIGRATED)
    unit = find(ws, leaf)
    _check_domain(ws, domain, tree_config, config_file)
    result = TreeResult("move", ws.root)
    result.dry_run = dry_run
    if unit.domain == domain:
        result.message = f"memory/domains/{unit.rel} is already in {domain}: nothing to move"
        return result
    target = free_name(os.path.join(ws.domains, domain), os.path.basename(unit.rel))
    new_rel = f"{domain}/{os.path.basename(target)}"
    ws.check_write(target if not unit.folder else os.path.join(target, "x"))
    note = (f" (memory/domains/{domain}/{os.path.basename(unit.rel)} exists: named {os.path.basename(target)})"
            if os.path.basename(target) != os.path.basename(unit.rel) else "")
    moved = {"what": unit.describe(), "from": f"memory/domains/{unit.rel}", "to": f"memory/domains/{new_rel}"}
    if dry_run:
        result.moved.append(moved)
        result.written = [f"memory/domains/{new_rel}{path[len(unit.path):]}" for path in unit.files]
        result.place = lasting(ws, section_heading(ws, manifest, unit.rel, unit.folder), domain, tree_config, config_file, write=False)
        result.message = f"dry run: would move {moved['from']} → {moved['to']}{note}; nothing written"
        _say_place(result, dry_run=True)
        return result
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.rename(unit.path, target)  # under the lock: no other tree writer made `target` since free_name
    follow(manifest, unit.rel, new_rel, unit.folder)
    atomic_write(manifest_path(ws), jsonio.dumps(manifest, pretty=True), like=ws.memory_md)
    result = grow.reindex_held(ws, root_budget=None, day=day, tree_config=tree_config, config_file=config_file)
    remove_if_empty(ws, os.path.join(ws.domains, unit.domain))
    result.action = "move"
    result.moved.insert(0, moved)
    result.removed = [f"memory/domains/{unit.rel}{path[len(unit.path):]}" for path in unit.files] + result.removed
    result.changed = True
    result.message = f"moved {moved['from']} → {moved['to']}{note}; {result.message}"
    result.place = lasting(ws, section_heading(ws, manifest, new_rel, unit.folder), domain, tree_config, config_file, write=record)
    _say_place(result, dry_run=False)
    return result


def _say_place(result: TreeResult, dry_run: bool) -> None:
    """The message's last words on `[tree.place]`: recorded (or would be), or why not and how."""
    entry = result.place
    line = f"[tree.place] {entry_line(str(entry['heading']), str(entry['domain']))}"
    if entry["recorded"] or (dry_run and not entry["why"]):
        where = entry["config"] or "the config"
        result.message += f"; {'would record' if dry_run else 'recorded'} {line} in {where} (a re-migrate files it there too)"
    elif entry["why"]:
        result.warnings.append(f"not recorded in [tree.place]: {entry['why']}; a migrate after a rollback "
                               f"may file it elsewhere again" + (f" ({entry['by_hand']})" if entry["by_hand"] else ""))
    else:
        result.message += f"; [tree.place] left as it is: to keep it there on a re-migrate, {entry['by_hand']}"


def section_heading(ws: Workspace, manifest: dict, rel: str, folder: bool) -> str:
    """The heading of the section at `rel` (under memory/domains): its leaf's first line, or for
    a section cut into parts (`folder`) the first line of its first part in the reassembly order,
    where the heading was."""
    if folder:
        rel = next((value for kind, value in manifest.get("order", []) if kind == "leaf"
                    and str(value).startswith(rel + "/")), "")
    return first_heading(file_text(os.path.join(ws.domains, rel)) or "") if rel else ""


# -- which leaf -------------------------------------------------------------------------------

def find(ws: Workspace, leaf: str) -> Unit:
    """The unit `leaf` names: a path (as given, from the workspace, or from memory/domains) to a
    leaf file, else a heading that exactly one section's first line holds. TreeError otherwise."""
    for candidate in _candidates(ws, leaf):
        if os.path.lexists(candidate):
            return Unit(ws, _leaf_rel(ws, candidate, leaf))
    found = {unit.rel: unit for unit in _by_heading(ws, leaf)}
    if not found:
        raise TreeError(f"no leaf or section heading {leaf!r} under memory/domains (qmem tree stats lists the leaves)")
    if len(found) > 1:
        listed = ", ".join(f"memory/domains/{rel}" for rel in sorted(found))
        raise TreeError(f"heading {leaf!r} names {len(found)} leaves ({listed}); give the leaf's path")
    return next(iter(found.values()))


def _candidates(ws: Workspace, leaf: str) -> list[str]:
    if not leaf.strip() or "\x00" in leaf:
        return []
    if os.path.isabs(leaf):
        return [leaf]
    return [os.path.join(ws.root, leaf), os.path.join(ws.domains, leaf), os.path.abspath(leaf)]


def _leaf_rel(ws: Workspace, path: str, given: str) -> str:
    """`path`'s place under memory/domains, once sure it is a leaf file there."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    if not is_inside(os.path.realpath(ws.root), folder):
        raise TreeError(f"{given}: outside the workspace {ws.root}")
    domains = os.path.realpath(ws.domains)
    if folder == domains or not is_inside(domains, folder):
        raise TreeError(f"{given}: not a leaf under memory/domains/<domain>/")
    mode = os.lstat(path).st_mode
    if not stat.S_ISREG(mode):
        raise TreeError(f"{given}: not a regular file" + (" (a symbolic link)" if stat.S_ISLNK(mode) else ""))
    rel = os.path.relpath(os.path.join(folder, os.path.basename(path)), domains).replace(os.sep, "/")
    name = rel.rsplit("/", 1)[-1]
    if name == INDEX_NAME or name.startswith(".") or not name.endswith(".md") or any(p.startswith(".") for p in rel.split("/")):
        raise TreeError(f"{given}: not a leaf (an index or a file qmem keeps); leaves are the other .md files")
    return rel


def leaves(ws: Workspace) -> list[str]:
    """Every leaf under memory/domains (paths relative to it): the regular `.md` files in a
    domain's folder, not an `_index.md`, nothing under a dot-name."""
    out = []
    for path in files_under(ws.domains):
        rel = os.path.relpath(path, ws.domains).replace(os.sep, "/")
        if "/" in rel and not rel.endswith("/" + INDEX_NAME) and rel.endswith(".md") \
                and not any(p.startswith(".") for p in rel.split("/")) and stat.S_ISREG(os.lstat(path).st_mode):
            out.append(rel)
    return out


def _by_heading(ws: Workspace, heading: str) -> list[Unit]:
    """Leaves whose first line is a heading `heading` names (as `[tree.place]` keys match)."""
    out = []
    for rel in leaves(ws):
        title = first_heading(file_text(os.path.join(ws.domains, rel)) or "")
        if title and matches(heading, title):
            out.append(Unit(ws, rel))
    return out


def first_heading(text: str) -> str:
    """The heading a leaf opens with (its section's title as the plan reads it), "" when the
    leaf opens otherwise."""
    lines = text[:4000].splitlines()
    first = next((k for k, line in enumerate(lines) if line.strip()), None)
    found = markdown.headings(lines[first:first + 1]) if first is not None else []
    return found[0].title if found else ""


# -- where to ---------------------------------------------------------------------------------

def _check_domain(ws: Workspace, domain: str, tree_config: dict[str, object], config_file: str) -> None:
    """A domain the cue table knows, one the tree already has, or a new one written as a slug."""
    folder = os.path.join(ws.domains, domain)
    if domain.strip() and not any(sep in domain for sep in ("/", os.sep, "\x00")) and not domain.startswith(".") \
            and os.path.isdir(folder) and not os.path.islink(folder):
        return  # "" would name memory/domains itself
    problem = domain_name_problem(domain, load_table(tree_config, config_file))
    if problem:
        raise TreeError(f"domain {problem}")


def remove_if_empty(ws: Workspace, folder: str) -> None:
    """Remove the domain folder a move emptied (reindex took its stale `_index.md`), so the
    domain leaves the disk as it left the root. Only a real, empty folder directly under
    memory/domains: a link, or a folder still holding anything (a file added by hand, a rescued
    index), stays."""
    if os.path.dirname(os.path.realpath(folder)) != os.path.realpath(ws.domains):
        return
    try:
        if stat.S_ISDIR(os.lstat(folder).st_mode) and not os.listdir(folder):
            os.rmdir(folder)
    except OSError:
        pass  # gone already, or filled since: either way nothing of the user's is touched


def free_name(folder: str, name: str) -> str:
    """`folder/name`, or `name-2`, `name-3`… (before `.md`) when that is taken: never over a file."""
    stem, ext = (name[:-3], ".md") if name.endswith(".md") else (name, "")
    candidate, n = os.path.join(folder, name), 1
    while os.path.lexists(candidate):
        n += 1
        candidate = os.path.join(folder, f"{stem}-{n}{ext}")
    return candidate


def follow(manifest: dict, old: str, new: str, folder: bool) -> None:
    """The manifest after `old` moved to `new` (paths under memory/domains): the leaves keep
    their digests, the reassembly order its rows, the root's pointer lines their targets."""
    def moved(rel: str) -> str:
        if rel == old or (folder and rel.startswith(old + "/")):
            return new + rel[len(old):]
        return rel

    manifest["leaves"] = {moved(rel): value for rel, value in manifest["leaves"].items()}
    manifest["order"] = [[kind, moved(value) if kind == "leaf" else value] for kind, value in manifest.get("order", [])]
    tail = "/" if folder else ""
    manifest["pointers"] = [line.replace(f"`memory/domains/{old}{tail}`", f"`memory/domains/{new}{tail}`")
                            for line in manifest.get("pointers", []) if isinstance(line, str)]
