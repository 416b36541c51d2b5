"""Going back from the bonsai tree: `rollback` restores the original MEMORY.md and removes only
what migrate wrote; `reassemble` rebuilds the original from the root and the leaves. Both need
what migrate recorded in the manifest: the order of the original's parts, and a fingerprint of
the root's own text, so that text a user added to the root since is told from qmem's.
"""

from __future__ import annotations

import difflib
import os

from ...text.analysis import estimate_tokens
from ...base.writes import atomic_write
from .files import (
    MANIFEST, TreeError, TreeResult, digest, file_digest, file_text, files_under, load_manifest, manifest_path,
    open_tree, read_bytes, remove_empty_dirs, rescue_dir, rescue_file, writers_lock,
)
from .shape import DOMAINS_HEADING, Plan
from ..workspace import (
    DISTILLED_SUFFIX, STATS_END, STATS_START, Workspace, bare, distilled_only, raw_lines, without_block,
)


# -- what migrate records ---------------------------------------------------------------------

def reassembly_order(the_plan: Plan) -> list[list[object]]:
    """The original's parts in order: ["root", chars] for text kept in the root, ["leaf", rel]."""
    order: list[list[object]] = [["root", len(the_plan.preamble)]] if the_plan.preamble else []
    for part in the_plan.parts:
        if part.pinned:
            order.append(["root", len(part.text)])
        else:
            order.extend(["leaf", rel] for rel, _ in part.files)
    return order


def _user_lines(core: str, extra: str = "") -> list[str]:
    """The root's own text as rollback compares it: its non-blank lines, minus distill's stats."""
    lines = without_block([bare(line) for line in raw_lines(core)], STATS_START, STATS_END)
    lines += [bare(line) for line in raw_lines(extra)]
    return [line for line in lines if line.strip()]


def user_digest(core: str, extra: str = "") -> str:
    return digest("\n".join(_user_lines(core, extra)).encode("utf-8"))


def cut_root(text: str, manifest: dict) -> tuple[str, str]:
    """(core, added): the root's text before the domain list, and the lines found in or after
    the domain list that qmem did not write there (sections appended to MEMORY.md since)."""
    raw = raw_lines(text)
    at = next((i for i, line in enumerate(raw) if bare(line) == DOMAINS_HEADING), None)
    if at is None:
        return text, ""
    core, tail = "".join(raw[:at]), raw[at:]
    block = manifest.get("domains_block")
    if block is None:  # a version-1 manifest: the list ends at its "Daily logs:" line
        end = next((i for i, line in enumerate(tail) if line.startswith("Daily logs: `memory/")), len(tail) - 1)
        return core, "".join(tail[end + 1:])
    matcher = difflib.SequenceMatcher(None, raw_lines(block), tail, autojunk=False)
    added = [line for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("insert", "replace")
             for line in tail[j1:j2]]
    return core, "".join(added)


def root_was_edited(current: bytes, manifest: dict) -> bool:
    """Does the root hold text qmem did not write (or lack text it did)? Distill's stats block
    and the domain list are qmem's; anything else is compared with the root at migrate time."""
    if "user_digest" not in manifest:  # a version-1 manifest: only the last root qmem wrote is known
        return digest(current) != manifest["root_digest"]
    core, added = cut_root(current.decode("utf-8", "replace"), manifest)
    return user_digest(core, added) != manifest["user_digest"]


def reassemble(ws: Workspace) -> bytes:
    """The original MEMORY.md rebuilt from the root and the leaves on disk, in the order
    migrate recorded (byte for byte as long as neither was edited since)."""
    manifest = load_manifest(ws)
    if manifest is None or "order" not in manifest:
        raise TreeError("no tree made by this qmem version here: nothing to reassemble")
    root = file_text(ws.memory_md) or ""
    core = root[manifest["head_chars"]:manifest["core_chars"]]
    out, at = [], 0
    for kind, value in manifest["order"]:
        if kind == "root":
            out.append(core[at:at + value])
            at += value
        else:
            out.append(file_text(os.path.join(ws.domains, value)) or "")
    return "".join(out).encode("utf-8")


# -- rollback ---------------------------------------------------------------------------------

def rollback(ws: Workspace, *, force: bool = False) -> TreeResult:
    """Restore the original MEMORY.md byte for byte and remove only what migrate created.

    Everything else is kept and named. Topic files that `distill` filled (nothing but
    distilled entries, which are copies of daily-log lines) move to memory/<name>, where
    distill writes without a tree. A root holding text qmem did not write, a leaf edited
    since migrate, or a file added under memory/domains is a refusal without --force; with
    it, they move to memory/rescue-<time>/ (the root's text as rescue-<time>/MEMORY.md).

    Under the writers' lock on MEMORY.md and on every leaf migrate wrote (forget and janitor
    rewrite leaves under it): nothing is removed that a concurrent writer just changed."""
    _, manifest = open_tree(ws, "nothing to roll back: no tree made by qmem here")
    leaves = [os.path.join(ws.domains, rel) for rel in manifest["leaves"]]
    with writers_lock(ws, *leaves):
        return _rollback(ws, force)


def _rollback(ws: Workspace, force: bool) -> TreeResult:
    result = TreeResult("rollback", ws.root)
    current, manifest = open_tree(ws, "nothing to roll back: no tree made by qmem here")
    backup = os.path.join(ws.root, manifest["backup"])
    original = read_bytes(backup)
    if original is None or digest(original) != manifest["original_digest"]:
        raise TreeError(f"the backup {manifest['backup']} is missing or changed; refusing to roll back")
    ws.check_write(ws.memory_md)
    ours = {**manifest["leaves"], **manifest.get("index_digests", {})}
    ours.update({rel: None for rel in manifest.get("indexes", []) if rel not in ours})
    edited, added, distilled = [], [], []
    for path in files_under(ws.domains):
        rel = os.path.relpath(path, ws.domains).replace(os.sep, "/")
        if rel == MANIFEST:
            continue
        if rel in ours:
            if os.path.islink(path) or ours[rel] not in (None, file_digest(path)):
                edited.append(path)
        elif not os.path.islink(path) and os.path.isfile(path) and distilled_only(file_text(path) or ""):
            distilled.append(path)
        else:
            added.append(path)
    root_edited = root_was_edited(current, manifest)
    if (edited or added or root_edited) and not force:
        what = [ws.rel(p) + " (edited)" for p in edited] + [ws.rel(p) + " (added)" for p in added]
        what += ["MEMORY.md (text qmem did not write)"] if root_edited else []
        shown = ", ".join(what[:8]) + (f" and {len(what) - 8} more" if len(what) > 8 else "")
        raise TreeError(f"edited since migrate: {shown}; use --force to roll back and keep them "
                        f"in memory/rescue-<time>/")
    for path in edited:
        rescue_file(ws, path, result, "edited since migrate")
    for path in added:
        rescue_file(ws, path, result, "added after migrate")
    for path in distilled:
        name = os.path.basename(path)
        if name.endswith(DISTILLED_SUFFIX):
            name = name[:-len(DISTILLED_SUFFIX)] + ".md"  # where distill writes without a tree
        target = os.path.join(ws.memory_dir, name)
        if os.path.lexists(target):
            rescue_file(ws, path, result, "distilled topic file (memory/ has one of that name)")
        else:
            ws.check_write(target)
            os.replace(path, target)
            result.moved.append({"what": "distilled topic file", "from": ws.rel(path), "to": ws.rel(target)})
    if root_edited:
        target = os.path.join(rescue_dir(ws, result), "MEMORY.md")
        atomic_write(target, current, like=ws.memory_md)
        result.moved.append({"what": "the root as it was", "from": "MEMORY.md", "to": ws.rel(target)})
    atomic_write(ws.memory_md, original)
    for rel in ours:
        path = os.path.join(ws.domains, rel)
        if os.path.isfile(path) and not os.path.islink(path):
            os.unlink(path)
            result.removed.append(f"memory/domains/{rel}")
    os.unlink(manifest_path(ws))
    remove_empty_dirs(ws.domains)
    result.changed = True
    result.tokens_before = manifest.get("tokens_before", 0)
    result.tokens_after = estimate_tokens(original.decode("utf-8", "replace"))
    result.message = "restored the original MEMORY.md" + (f"; kept what migrate did not write in {result.rescue}"
                                                          if result.rescue else "")
    return result
