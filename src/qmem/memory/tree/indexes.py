"""The tree's indexes: the root (MEMORY.md) and one `_index.md` per domain, and reading a tree
back from disk. Pure rendering, except `scan_branches`.

Three reads, always: root → `memory/domains/<domain>/_index.md` → the leaf. A domain's index
lists every leaf under its folder, those of sub-folders (a big section cut into parts) too,
grouped under the sub-folder's name; no sub-folder gets an index of its own.

The root holds the pinned core verbatim, then one line per domain:
`- **projects** (5 files, ~900 tokens) — <summary> · also: <leaf names>`. To stay within its
budget it gives up, in this order: the long header, token counts, leaf names beyond the first
few and long summaries (shortened step by step), then leaf names, then summaries — what a
reader needs to choose a domain goes last, and `root_index` says what it gave up.
"""

from __future__ import annotations

import os
import re

from ...text import fences, markdown
from ...text.analysis import estimate_tokens
from .. import shared
from ..secrets import TABLE_SEPARATOR
from ..workspace import Workspace, raw_lines
from .units import COMMENT, LIST_MARK

INDEX_NAME = "_index.md"
ROOT_TITLE = "# Memory Index"
DOMAINS_HEADING = "## Domains"
ALSO = " · also: "
SEP = " — "  # between an entry's name and counts and its summary (never "tokens): …", which reads as a key
ENTRY = re.compile(r"^- \*\*(?P<domain>[^*\n]+)\*\*")  # a domain's line in the root
POINTER = "Read before acting — rules kept outside this file: "  # the root's line naming rules filed as leaves
_POINTED = re.compile(r"`(memory/domains/[^`\n]+)`")
SUMMARY_CHARS = 160
SUMMARY_LINES = 60  # a summary is looked for in a leaf's first lines
SUMMARY_TOKENS = 30  # one summary line in an index: ~120 Latin characters, ~30 CJK characters
MIN_SUMMARY_TOKENS = 8  # a leaf's summary in its branch index: a fifth of the leaf, at least this
INDEX_SUMMARY_STEPS = (30, 20, 14, 10, 6, 0)  # token caps tried on index summaries until the index fits
HEADER = ("Read a domain's index `memory/domains/<domain>/_index.md` to choose a leaf. Daily logs: "
          "`memory/YYYY-MM-DD.md`. Search all: `qmem search \"<words>\"`.")
SHORT_HEADER = "Indexes: `memory/domains/<domain>/_index.md`."
# (long header, counts, summary characters, leaf names kept), tried in order until the root fits.
LADDER = [(True, True, 160, 8), (True, True, 120, 5), (False, True, 120, 5), (False, False, 120, 3),
          (False, False, 90, 3), (False, False, 90, 2), (False, False, 60, 2), (False, False, 60, 1),
          (False, False, 40, 1), (False, False, 60, 0), (False, False, 40, 0), (False, False, 25, 0),
          (False, False, 0, 2), (False, False, 0, 1), (False, False, 0, 0)]
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,}|§)\s*$")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_DATE = r"\d{4}[-/.年]\d{1,2}(?:[-/.月]\d{1,2}日?)?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?"
_TIMESTAMP = re.compile(rf"^(?:[^:：]{{0,24}}[:：]\s*)?[*_]*{_DATE}[*_]*$")


# -- summaries --------------------------------------------------------------------------------

def summary_line(text: str) -> str:
    """The first line that says something, ≤ 160 chars.

    Skipped: headings, front matter, blank lines, rules, fenced code, comments, images, table
    headers and separators, bare labels ("Details:"), timestamps ("_Last updated: 2026-02-11_")
    and anything a shared boot leaves out (a secret, a `[P]` profile line, a confidential
    subsection: `shared.py`), since indexes are shown in group chats too. A list marker is
    dropped; a table row reads "cell · cell". Only the first SUMMARY_LINES lines are read."""
    raw = raw_lines(text[:SUMMARY_LINES * 400])[:SUMMARY_LINES]
    for window in (8, SUMMARY_LINES):  # most leaves say something in their first lines
        found = _first_line("".join(raw[:window]))
        if found or window >= len(raw):
            return found
    return ""


def _first_line(text: str) -> str:
    lines = shared.without_private(text)[0].splitlines()
    start = markdown.front_matter(lines)[1]
    code = fences.fenced(lines)
    for k in range(start, len(lines)):
        stripped = lines[k].strip()
        if code[k] or not stripped or stripped.startswith("#") or _RULE.match(stripped):
            continue
        if stripped.startswith("|"):
            if TABLE_SEPARATOR.match(stripped) or (k + 1 < len(lines) and TABLE_SEPARATOR.match(lines[k + 1].strip())):
                continue  # a separator, or the header row above one
            stripped = " · ".join(cell.strip() for cell in stripped.strip("|").split("|") if cell.strip())
        stripped = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), LIST_MARK.sub("", COMMENT.sub("", _IMAGE.sub("", stripped)))).strip()
        bare = stripped.strip("*_` ")
        if not bare or bare.endswith((":", "：")) or _TIMESTAMP.match(bare):
            continue
        return shorten(stripped, SUMMARY_TOKENS)
    return ""


def shorten(text: str, tokens: int, chars: int = SUMMARY_CHARS) -> str:
    """`text` cut to at most `tokens` (the shared estimate) and `chars` characters, with "…":
    a Chinese line is cut at ~30 characters, an English one at ~120."""
    if estimate_tokens(text) <= tokens and len(text) <= chars:
        return text
    low, high = 0, min(len(text), chars - 1)
    while low < high:  # the longest prefix that fits
        mid = (low + high + 1) // 2
        if estimate_tokens(text[:mid]) < tokens:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def display_name(domain: str) -> str:
    return domain.replace("-", " ").replace("/", " › ").title()


# -- the shape read back ------------------------------------------------------------------------

class Leaf:
    __slots__ = ("name", "summary", "tokens")

    def __init__(self, name: str, tokens: int, summary: str) -> None:
        self.name = name  # file name ("backup-plan.md")
        self.tokens = tokens
        self.summary = summary


class Branch:
    """A domain folder: its leaves and its sub-folders (listed in the domain's own index)."""

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


def branch_index(branch: Branch, day: str, budget: int | None = None) -> str:
    """A domain's `_index.md`: every leaf below its folder with a summary that costs about a fifth
    of the leaf, sub-folders' leaves under their folder's name (no index of their own). With a
    `budget`, summaries get shorter until the index fits it (names and sizes always stay)."""
    head = [f"# {display_name(branch.name)} — memory/domains/{branch.name}/", "",
            f"Last indexed: {day} · ~{branch.tokens} tokens in {_files(branch.files)}", ""]
    text = "\n".join(head + _index_lines(branch, "", INDEX_SUMMARY_STEPS[0])).rstrip() + "\n"
    if budget is None or estimate_tokens(text) <= budget:
        return text
    bare = estimate_tokens("\n".join(head + _index_lines(branch, "", 0)))  # names and sizes only
    room = (budget - bare) // max(1, branch.files)  # per leaf, for its summary
    for cap in INDEX_SUMMARY_STEPS:
        if cap <= room + 2 or cap == 0:
            text = "\n".join(head + _index_lines(branch, "", cap)).rstrip() + "\n"
            if estimate_tokens(text) <= budget or cap == 0:
                break
    return text


def _index_lines(branch: Branch, path: str, cap: int) -> list[str]:
    lines = []
    for leaf in branch.leaves:
        summary = shorten(leaf.summary, min(cap, max(MIN_SUMMARY_TOKENS, leaf.tokens // 5))) if cap else ""
        lines.append(f"- `{leaf.name}` (~{leaf.tokens} tokens)" + (SEP + summary if summary else ""))
    for child in branch.children:
        sub = f"{path}{child.name.rsplit('/', 1)[-1]}/"
        lines += ["", f"## {sub} (~{child.tokens} tokens, {_files(child.files)})"]
        lines += _index_lines(child, sub, cap)
    return lines


def all_leaves(branch: Branch, prefix: str = "") -> list[tuple[str, Leaf]]:
    """(path under the branch folder, leaf) for every leaf below it."""
    out = [(prefix + leaf.name, leaf) for leaf in branch.leaves]
    for child in branch.children:
        out += all_leaves(child, f"{prefix}{child.name.rsplit('/', 1)[-1]}/")
    return out


# -- the root ---------------------------------------------------------------------------------

def root_separator(core: str) -> str:
    """What goes between the pinned core and the domain list: enough for one blank line."""
    if not core or core.endswith("\n\n"):
        return ""
    return "\n" if core.endswith("\n") else "\n\n"


def root_index(core: str, branches: list[Branch], budget: int,
               pointers: list[str] | None = None) -> tuple[str, bool, list[str]]:
    """The new MEMORY.md: the pinned core verbatim (title included), `pointers` (lines naming
    rules that did not fit the root), then one line per domain, within `budget` tokens (the
    shared estimate) if it can be done. Returns (text, fits, what the budget made it leave out)."""
    text = ""
    for step in LADDER:
        text = _root_text(core, branches, pointers or [], *step)
        if estimate_tokens(text) <= budget:
            return text, True, _dropped(branches, *step)
    return text, False, _dropped(branches, *LADDER[-1])


def _dropped(branches: list[Branch], long_header: bool, counts: bool, chars: int, keep: int) -> list[str]:
    out = []
    if not counts:
        out.append("token and file counts")
    if chars < SUMMARY_CHARS:
        longer = sum(len(b.summary) > chars for b in branches if b.summary)
        if not chars:
            out.append(f"the summaries of {sum(bool(b.summary) for b in branches)} domains")
        elif longer:
            out.append(f"summaries cut to {chars} characters ({longer} domains)")
    if keep < LADDER[0][3]:
        cut = [b.name for b in branches if len(_names(b, keep, chars)) < len(b.leaf_names())]
        if cut:
            out.append(f"leaf names beyond {keep} per domain ({len(cut)} domains)" if keep
                       else f"the leaf names of {len(cut)} domains")
    return out


def _names(branch: Branch, keep: int, chars: int) -> list[str]:
    """The leaf names an entry shows: `keep` of them, and with no summary shown at least one."""
    names = branch.leaf_names()
    if not (chars and branch.summary) and keep == 0 and chars:
        return names[:1]
    return names[:keep]


def _root_text(core: str, branches: list[Branch], pointers: list[str], long_header: bool, counts: bool,
               chars: int, keep: int) -> str:
    lines = [DOMAINS_HEADING, "", HEADER if long_header else SHORT_HEADER, ""]
    lines += pointers + ([""] if pointers else [])
    for branch in branches:
        entry = f"- **{branch.name}**"
        if counts:
            entry += f" ({_files(branch.files)}, ~{branch.tokens} tokens)"
        summary = branch.summary if chars else ""
        if summary:
            entry += SEP + (summary if len(summary) <= chars else summary[:chars - 1].rstrip() + "…")
        names = _names(branch, keep, chars)
        if names:
            more = len(branch.leaf_names()) - len(names)
            entry += (ALSO if summary else SEP + "leaves: ") + ", ".join(names) + (f" +{more} more" if more > 0 else "")
        lines.append(entry)
    return core + root_separator(core) + "\n".join(lines) + "\n"


def pointer_line(paths: list[str]) -> list[str]:
    """The root's line naming the rules that did not fit it ([] when all did)."""
    return [POINTER + ", ".join(f"`{path}`" for path in paths)] if paths else []


def pointed(root: str) -> list[str]:
    """The paths (files, or folders ending in /) the root's pointer line names."""
    for line in root.splitlines():
        if line.startswith(POINTER):
            return [path for path in _POINTED.findall(line) if ".." not in path.split("/")]
    return []


def generated_title(preamble: str) -> str:
    """`# Memory Index` and a blank line for a root whose preamble has no `#` title, else ""."""
    bare = [line.rstrip("\r\n") for line in raw_lines(preamble)]
    return "" if any(h.level == 1 for h in markdown.headings(bare)) else ROOT_TITLE + "\n\n"


# -- reading the tree back --------------------------------------------------------------------

def leaf(rel: str, text: str) -> Leaf:
    return Leaf(rel.rsplit("/", 1)[-1], estimate_tokens(text), summary_line(text))


def scan_branches(ws: Workspace) -> list[Branch]:
    """Domains and their sub-folders as they are on disk now (hand-made changes included)."""

    def walk(folder: str, name: str) -> Branch | None:
        branch = Branch(name)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                child = walk(entry.path, f"{name}/{entry.name}")
                if child is not None:
                    branch.children.append(child)
            elif entry.name.endswith(".md") and entry.name != INDEX_NAME and entry.is_file():  # never a FIFO
                with open(entry.path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                branch.leaves.append(leaf(entry.name, text))
        return branch if branch.leaves or branch.children else None

    out = []
    if os.path.isdir(ws.domains):
        for entry in sorted(os.scandir(ws.domains), key=lambda e: e.name):
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."):
                branch = walk(entry.path, entry.name)
                if branch is not None:
                    out.append(branch)
    return out
