"""The shape of a bonsai tree: splitting MEMORY.md, planning leaves, rendering the indexes,
and reading a tree back from disk. Pure functions of text; `tree.py` does the file work."""

from __future__ import annotations

import os
import re

from ...text import fences, markdown
from ...text.analysis import estimate_tokens
from . import domains as domains_mod
from .. import shared
from ..workspace import Workspace, raw_lines

INDEX_NAME = "_index.md"
ROOT_TITLE = "# Memory Index"
DOMAINS_HEADING = "## Domains"
SUMMARY_CHARS = 160
SUMMARY_TOKENS = 30  # one summary line in an index: ~120 Latin characters, ~30 CJK characters
MIN_SUMMARY_TOKENS = 12  # a leaf's summary in its branch index: a fifth of the leaf, at least this
SLUG_CHARS = 40
DEFAULT_LEAF_BUDGET = 1200
MIN_LEAF_TOKENS = 250
LEAF_SHARE = 0.15
SUMMARY_STEPS = (SUMMARY_CHARS, 120, 90, 60, 40, 0)
_PIN_TAG = re.compile(r"\[(?:pin|p0)\]", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_SLUG_DROP = re.compile(r"[^\w\s-]")
_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_LIST_MARK = re.compile(r"^(?:>\s*)*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_DATE = r"\d{4}[-/.年]\d{1,2}(?:[-/.月]\d{1,2}日?)?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?"
_TIMESTAMP = re.compile(rf"^(?:[^:：]{{0,24}}[:：]\s*)?[*_]*{_DATE}[*_]*$")


# -- splitting and planning -------------------------------------------------------------------

class Part:
    """One `##` section of MEMORY.md, with its exact text."""

    __slots__ = ("title", "text", "line", "pinned", "domain", "slug", "verdict", "files")

    def __init__(self, title: str, text: str, line: int) -> None:
        self.title = title
        self.text = text
        self.line = line
        self.pinned = False
        self.domain = ""
        self.slug = ""
        self.verdict: domains_mod.Verdict | None = None
        self.files: list[tuple[str, str]] = []  # (path under memory/domains, text): several when split

    @property
    def body(self) -> str:
        """The text under the heading line."""
        return self.text.split("\n", 1)[1] if "\n" in self.text else ""


def split(text: str) -> tuple[str, list[Part]]:
    """(preamble, sections) on `##` headings outside fenced code, every byte kept.

    A file without `##` is one section titled by its `#` heading (or "Memory")."""
    raw = raw_lines(text)
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
    """A short readable file name: lowercase, punctuation and emoji dropped, spaces → hyphens,
    CJK and accented letters kept; at most SLUG_CHARS characters, cut at a word boundary."""
    text = _COMMENT.sub("", markdown.strip_tags(title)).strip().lower()
    text = _SLUG_DROP.sub("", text).replace("_", "-")
    text = re.sub(r"[\s-]+", "-", text).strip("-")
    if len(text) <= SLUG_CHARS:
        return text
    cut = text[:SLUG_CHARS + 1].rfind("-")
    return (text[:cut] if cut >= SLUG_CHARS // 2 else text[:SLUG_CHARS]).rstrip("-")


def summary_line(text: str) -> str:
    """The first line that says something, ≤ 160 chars.

    Skipped: headings, front matter, blank lines, rules, fenced code, comments, images, table
    headers and separators, bare labels ("Details:"), timestamps ("_Last updated: 2026-02-11_")
    and anything a shared boot leaves out (a secret, a `[P]` profile line, a confidential
    subsection: `shared.py`), since indexes are shown in group chats too. A list marker is
    dropped; a table row reads "cell · cell"."""
    lines = shared.without_private(text)[0].splitlines()
    start = markdown.front_matter(lines)[1]
    code = fences.fenced(lines)
    for k in range(start, len(lines)):
        stripped = lines[k].strip()
        if code[k] or not stripped or stripped.startswith("#") or _RULE.match(stripped):
            continue
        if stripped.startswith("|"):
            if _TABLE_SEPARATOR.match(stripped) or (k + 1 < len(lines) and _TABLE_SEPARATOR.match(lines[k + 1].strip())):
                continue  # a separator, or the header row above one
            stripped = " · ".join(cell.strip() for cell in stripped.strip("|").split("|") if cell.strip())
        stripped = _LIST_MARK.sub("", _COMMENT.sub("", _IMAGE.sub("", stripped))).strip()
        bare = stripped.strip("*_` ")
        if not bare or bare.endswith((":", "：")) or _TIMESTAMP.match(bare):
            continue
        return shorten(stripped, SUMMARY_TOKENS)
    return ""


def shorten(text: str, tokens: int) -> str:
    """`text` cut to at most `tokens` (the shared estimate) and SUMMARY_CHARS characters, with "…":
    a Chinese line is cut at ~30 characters, an English one at ~120."""
    if estimate_tokens(text) <= tokens and len(text) <= SUMMARY_CHARS:
        return text
    low, high = 0, min(len(text), SUMMARY_CHARS - 1)
    while low < high:  # the longest prefix that fits
        mid = (low + high + 1) // 2
        if estimate_tokens(text[:mid]) < tokens:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def display_name(domain: str) -> str:
    return domain.replace("-", " ").replace("/", " › ").title()


class Plan:
    """What migrate would write: the root's pinned core and the leaves per domain."""

    def __init__(self, preamble: str, parts: list[Part]) -> None:
        self.preamble = preamble
        self.parts = parts
        self.leaf_budget = DEFAULT_LEAF_BUDGET

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
    preamble, parts = split(text)
    budget = leaf_budget(tree_config, estimate_tokens(text))
    taken: dict[str, set[str]] = {}
    for number, part in enumerate(parts, 1):
        verdict = part.verdict = domains_mod.explain(part.title, part.body, table)
        verdict.pin_reason = pin_reason(part.title, part.body, tree_config, table, bool(verdict.secrets))
        part.pinned = verdict.pinned = bool(verdict.pin_reason)
        part.domain = verdict.domain
        if part.pinned:
            continue
        slug = leaf_slug(part.title) or f"section-{number}"
        used = taken.setdefault(part.domain, {"_index"})
        candidate, n = slug, 1
        while candidate in used:
            n += 1
            candidate = f"{slug}-{n}"
        used.add(candidate)
        part.slug = candidate
        part.files = _leaf_files(part, budget)
    the_plan = Plan(preamble, parts)
    the_plan.leaf_budget = budget
    return the_plan


def pin_reason(title: str, body: str, tree_config: dict[str, object], table: dict[str, list[str]],
               holds_secret: bool = False) -> str:
    """Why a section is standing rules the agent reads at every start ("" when it is not):
    tagged `[pin]`/`[P0]`, listed in `[tree] pinned`, or (unless `auto_pin = false`, and never
    for a section holding a secret) read as instructions by `domains.instruction`."""
    if _PIN_TAG.search(title):
        return "tagged [pin]/[P0]"
    pinned_titles = {str(t).strip().lower() for t in tree_config.get("pinned", []) or []}  # type: ignore[union-attr]
    if _COMMENT.sub("", markdown.strip_tags(title)).strip().lower() in pinned_titles:
        return "listed in [tree] pinned"
    if tree_config.get("auto_pin", True) is False or holds_secret:
        return ""
    return domains_mod.instruction(title, body, table)


def leaf_budget(tree_config: dict[str, object], total_tokens: int) -> int:
    """The most tokens one leaf should hold: `[tree] leaf_budget` (default 1,200), and for a
    smaller file at most LEAF_SHARE of it (never under MIN_LEAF_TOKENS), so that the costliest
    read root → branch → leaf stays a small part of the flat file."""
    configured = int(tree_config.get("leaf_budget", DEFAULT_LEAF_BUDGET) or DEFAULT_LEAF_BUDGET)  # type: ignore[arg-type]
    return min(configured, max(MIN_LEAF_TOKENS, int(total_tokens * LEAF_SHARE)))


def _leaf_files(part: Part, budget: int) -> list[tuple[str, str]]:
    """One leaf, or, for a section over budget with subheadings, a folder of small leaves."""
    pieces = split_section(part.text, budget)
    if len(pieces) == 1:
        return [(f"{part.domain}/{part.slug}.md", part.text)]
    used, files = {"_index"}, []
    for number, (title, piece) in enumerate(pieces, 1):
        name = (leaf_slug(title) if title else part.slug) or f"part-{number}"
        candidate, n = name, 1
        while candidate in used:
            n += 1
            candidate = f"{name}-{n}"
        used.add(candidate)
        files.append((f"{part.domain}/{part.slug}/{candidate}.md", piece))
    return files


def split_section(text: str, budget: int, level: int = 2) -> list[tuple[str, str]]:
    """A section over `budget` tokens cut at its next heading level (### then ####…), every
    byte kept: [(title, text)], in order. The text before the first subheading (the heading
    line and any intro) is its own piece when it says something, else it opens the first one.
    A piece still over budget is cut again at its own next level; one with no subheadings stays
    whole (tree stats reports it)."""
    if estimate_tokens(text) <= budget:
        return [("", text)]
    raw = raw_lines(text)
    bare = [line.rstrip("\r\n") for line in raw]
    deeper = [h for h in markdown.headings(bare) if h.level > level]
    if not deeper:
        return [("", text)]
    sub = min(h.level for h in deeper)
    cuts = [h for h in deeper if h.level == sub]
    intro = "".join(raw[:cuts[0].line])
    pieces: list[tuple[str, str]] = []
    carry = ""
    if any(line.strip() for line in bare[1:cuts[0].line]) or not bare[0].lstrip().startswith("#"):
        pieces.append(("", intro))
    else:
        carry = intro  # a bare heading line travels with the first subsection
    for k, head in enumerate(cuts):
        end = cuts[k + 1].line if k + 1 < len(cuts) else len(raw)
        chunk = "".join(raw[head.line:end])
        inner = split_section(chunk, budget, sub)
        if carry:
            inner[0] = (inner[0][0] or head.title, carry + inner[0][1])
            carry = ""
        pieces.extend((title or head.title, piece) for title, piece in inner)
    return pieces



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
    for leaf in branch.leaves:  # an entry costs a small part of what it points to
        summary = shorten(leaf.summary, max(MIN_SUMMARY_TOKENS, leaf.tokens // 5))
        lines += [f"### {leaf.name} (~{leaf.tokens} tokens)", summary or "(no text)", ""]
    for child in branch.children:
        short = child.name.rsplit("/", 1)[-1]
        lines += [f"### {short}/{INDEX_NAME} (~{child.tokens} tokens, {_files(child.files)})",
                  child.summary or "(no text)", ""]
    return "\n".join(lines).rstrip() + "\n"


def root_index(pinned_core: str, branches: list[Branch], budget: int) -> tuple[str, bool]:
    """The new MEMORY.md: the pinned core (title included), one entry per domain, pointers.

    To fit `budget` (the shared token estimate), leaf lists go first, then summaries get
    shorter: the longest summaries that fit without leaf lists are kept, then as many leaf
    names as still fit. A domain is never dropped. Returns (text, fits)."""
    core = pinned_core  # verbatim, blank lines included: the root must give back every byte
    longest = max((len(b.leaf_names()) for b in branches), default=0)
    chars = next((c for c in SUMMARY_STEPS if estimate_tokens(_root_text(core, branches, 0, c)) <= budget), None)
    if chars is None:
        return _root_text(core, branches, 0, 0), False
    for keep in range(longest, -1, -1):
        text = _root_text(core, branches, keep, chars)
        if estimate_tokens(text) <= budget:
            return text, True
    return _root_text(core, branches, 0, chars), True


def root_separator(core: str) -> str:
    """What goes between the pinned core and the domain list: enough for one blank line."""
    if not core or core.endswith("\n\n"):
        return ""
    return "\n" if core.endswith("\n") else "\n\n"


def _root_text(core: str, branches: list[Branch], keep: int, summary_chars: int) -> str:
    head = core + root_separator(core)  # the core verbatim, then the generated domain list
    lines = [DOMAINS_HEADING, ""]
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
    return head + "\n".join(lines) + "\n"


def generated_title(preamble: str) -> str:
    """`# Memory Index` and a blank line for a root whose preamble has no `#` title, else ""."""
    bare = [line.rstrip("\r\n") for line in raw_lines(preamble)]
    return "" if any(h.level == 1 for h in markdown.headings(bare)) else ROOT_TITLE + "\n\n"


def pinned_core(plan_: Plan) -> str:
    """The root's own text: the preamble verbatim (its `#` title kept; `# Memory Index` when it
    has none), then every pinned section, verbatim."""
    return generated_title(plan_.preamble) + plan_.preamble + "".join(p.text for p in plan_.pinned)


def branches_from_plan(the_plan: Plan) -> list[Branch]:
    """The branches migrate will write, as scan_branches will read them back."""
    branches = []
    for domain, parts in the_plan.by_domain().items():
        branch = Branch(domain)
        for part in sorted(parts, key=lambda p: p.slug):
            if len(part.files) == 1:
                branch.leaves.append(_leaf(*part.files[0]))
                continue
            child = Branch(f"{domain}/{part.slug}")
            child.leaves = sorted((_leaf(rel, text) for rel, text in part.files), key=lambda leaf: leaf.name)
            branch.children.append(child)
        branch.leaves.sort(key=lambda leaf: leaf.name)  # as scan_branches reads them: by file name
        branches.append(branch)
    return branches


def _leaf(rel: str, text: str) -> Leaf:
    return Leaf(rel.rsplit("/", 1)[-1], estimate_tokens(text), summary_line(text))


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
            elif entry.name.endswith(".md") and entry.name != INDEX_NAME and entry.is_file():  # never a FIFO
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
