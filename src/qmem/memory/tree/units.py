"""The pieces a MEMORY.md is made of, every byte kept: sections, entries, and the parts a big
section is cut into. Pure functions of text.

- `split`: the `##` sections (text before the first is the preamble);
- `units`: what the tree files on its own, following the file's own structure — the sections
  at the shallowest heading level that has two or more (`#` sections when a file uses `#` for
  them), else, for a file without such headings, its entries: blocks between `§` or `---` lines
  (two or more), else its top-level list items and paragraphs;
- `split_section`: a section over the leaf budget cut at its next heading level, and where there
  is none, at its top-level list items and paragraphs, packed up to the budget;
- `label`: the few words that name an entry with no heading ("**Watchdog v2**: …" → Watchdog v2).
"""

from __future__ import annotations

import re
import unicodedata

from ...text import fences, markdown
from ...text.analysis import estimate_tokens
from ..workspace import raw_lines

SLUG_CHARS = 40
COMMENT = re.compile(r"<!--.*?-->")
_SEPARATOR = re.compile(r"^\s*(?:§|-{3,}|\*{3,}|_{3,})\s*$")
_TOP_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+\S")
_BOLD = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*|__)(.+?)(?:\*\*|__)")
_LABEL_END = re.compile(r"[:：]|\s[-–—]\s|[(（]")
_TITLE_WORDS = re.compile(r"(?i)memory|memories|notes|记忆|記憶|メモリ|备忘|備忘|erinnerung|gedächtnis|ghi nhớ|bộ nhớ")
LIST_MARK = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")  # "- ", "1. ", "> - [x] "


class Part:
    """One unit of MEMORY.md (a section or an entry), with its exact text."""

    __slots__ = ("domain", "files", "heading", "line", "overflow", "pinned", "slug", "text", "title", "verdict")

    def __init__(self, title: str, text: str, line: int, heading: bool = True) -> None:
        self.title = title
        self.text = text
        self.line = line
        self.heading = heading  # False: an entry of a file without headings, titled by its label
        self.pinned = False
        self.overflow = False  # a pinned section that did not fit the root: filed as a leaf
        self.domain = ""
        self.slug = ""
        self.verdict: object = None  # a domains.Verdict, set by the plan (domains imports this module)
        self.files: list[tuple[str, str]] = []  # (path under memory/domains, text): several when split

    @property
    def body(self) -> str:
        """The text under the heading line (an entry's whole text)."""
        if not self.heading:
            return self.text
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
    return _cut(raw, heads)


def _cut(raw: list[str], heads: list) -> tuple[str, list[Part]]:
    preamble = "".join(raw[:heads[0].line])
    parts = []
    for k, head in enumerate(heads):
        end = heads[k + 1].line if k + 1 < len(heads) else len(raw)
        parts.append(Part(head.title, "".join(raw[head.line:end]), head.line + 1))
    return preamble, parts


def units(text: str) -> tuple[str, list[Part]]:
    """(preamble, units): see the module docstring. The preamble is what stays in the root (the
    title and what stands before the first unit)."""
    raw = raw_lines(text)
    bare = [line.rstrip("\r\n") for line in raw]
    heads = markdown.headings(bare)
    h1s = sum(h.level == 1 for h in heads)
    first = heads[0] if heads and heads[0].level == 1 else None
    title = first
    if first is not None and h1s >= 3 and not _TITLE_WORDS.search(first.title) and \
            not any(line.strip() for line in bare[markdown.front_matter(bare)[1]:first.line]):
        title = None  # `#` is how this file cuts its sections: the first is one of them
    opening = _title_lines(bare, heads) if first is not None else set()
    for level in range(1, 7):
        at_level = [h for h in heads if h.level == level and h is not title and id(h) not in opening]
        if len(at_level) >= 2:
            return _cut(raw, at_level)
        if at_level:  # one section at this level: it is the file's only unit, split by parts later
            return _cut(raw, at_level)
    start = title.line + 1 if title else 0
    return "".join(raw[:start]), entries(raw, start)


def _title_lines(bare: list[str], heads: list) -> set[int]:
    """A title written as several `#` lines ("# MEMORY.md", "# events, lessons, people", "# setup is
    in TOOLS.md") with nothing under any of them: one title, not `#` sections (ids of the heads)."""
    run = []
    for k, head in enumerate(heads):
        if head.level != 1:
            break
        end = heads[k + 1].line if k + 1 < len(heads) else len(bare)
        if any(line.strip() for line in bare[head.line + 1:end]):
            break
        run.append(head)
    return {id(h) for h in run} if len(run) >= 2 else set()


def entries(raw: list[str], start: int) -> list[Part]:
    """The entries of a file without section headings, from line `start` on, each titled by its
    label; blank lines and separators travel with the entry before them."""
    bare = [line.rstrip("\r\n") for line in raw]
    fenced = fences.fenced(bare)
    separators = [k for k in range(start, len(bare)) if _SEPARATOR.match(bare[k]) and not fenced[k]]
    if len(separators) >= 2:
        starts = [start] + [k + 1 for k in separators if k + 1 < len(bare)]
    else:
        starts = _block_starts(bare, start, fenced)
    starts = sorted(set(k for k in starts if k < len(bare)))
    out: list[Part] = []
    for n, begin in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(raw)
        chunk = "".join(raw[begin:end])
        if not chunk.strip() and out:
            out[-1].text += chunk
            continue
        first = next((line for line in bare[begin:end] if line.strip() and not _SEPARATOR.match(line)), "")
        out.append(Part(name_of(first) or "Memory", chunk, begin + 1, heading=False))
    return [p for p in out if p.text]


def _block_starts(bare: list[str], start: int, fenced: list[bool]) -> list[int]:
    """Where top-level list items and paragraphs begin (a block's blank lines stay with it)."""
    starts = [start]
    previous_blank = True
    for k in range(start, len(bare)):
        line = bare[k]
        if fenced[k] and not (k == start or not fenced[k - 1]):  # inside a code block, past its opening fence
            previous_blank = False
            continue
        if not line.strip():
            previous_blank = True
            continue
        if k > start and (_TOP_ITEM.match(line) or (previous_blank and not line.startswith((" ", "\t")))):
            starts.append(k)
        previous_blank = False
    return starts


def label(line: str) -> str:
    """The words an entry names itself by: its bold lead, else what stands before its first
    colon, dash or parenthesis (up to 60 characters); "" when it has none."""
    bold = _BOLD.match(line)
    if bold and bold.group(1).strip(" :："):
        return bold.group(1).strip(" :：")
    text = LIST_MARK.sub("", line).strip().lstrip("#").strip()
    cut = _LABEL_END.search(text)
    if cut and 0 < cut.start() <= 60:
        return text[:cut.start()].strip()
    return ""


def name_of(line: str) -> str:
    """An entry's label, else its first words (six, or sixteen CJK characters)."""
    found = label(line)
    if found:
        return found
    text = LIST_MARK.sub("", line).strip().lstrip("#").strip()
    if re.search(r"[\u3400-\u9fff]", text[:20]):
        return text[:16]
    return " ".join(text.split()[:6])


def bare_title(title: str) -> str:
    """A heading's words: no leading `[K]`/`[P1|…]` tags, no `<!-- … -->` comments."""
    return COMMENT.sub("", markdown.strip_tags(title)).strip()


_PRESENTATION = re.compile("[\ufe00-\ufe0f\u200d\U000e0100-\U000e01ef]")  # how an emoji is drawn, not a letter


def leaf_slug(title: str) -> str:
    """A short readable file name: lowercase, punctuation and emoji dropped, spaces → hyphens,
    CJK and accented letters kept; at most SLUG_CHARS characters, cut at a word boundary."""
    kept: list[str] = []
    after_letter = False  # a combining mark belongs to the letter before it: सुरक्षा stays whole
    for ch in bare_title(title).lower():
        category = unicodedata.category(ch)
        if ch.isalnum() or ch in "_-" or ch.isspace():
            kept.append(ch)
            after_letter = ch.isalnum()
        elif category in ("Mn", "Mc") and after_letter and not _PRESENTATION.match(ch):
            kept.append(ch)
        else:  # emoji, their variation selectors and keycaps: '🛠️ Tools' is 'tools', not '\ufe0f-tools'
            after_letter = False
    text = "".join(kept).replace("_", "-")
    text = re.sub(r"[\s-]+", "-", text).strip("-")
    if len(text) <= SLUG_CHARS:
        return text
    cut = text[:SLUG_CHARS + 1].rfind("-")
    return (text[:cut] if cut >= SLUG_CHARS // 2 else text[:SLUG_CHARS]).rstrip("-")


def split_section(text: str, budget: int, level: int = 2) -> list[tuple[str, str]]:
    """A section over `budget` tokens cut at its next heading level (### then ####…), every
    byte kept: [(title, text)], in order. The text before the first subheading (the heading
    line and any intro) is its own piece when it says something, else it opens the first one.
    A piece still over budget is cut again at its own next level; one with no subheadings is cut
    at its top-level list items and paragraphs (`pack`)."""
    if estimate_tokens(text) <= budget:
        return [("", text)]
    raw = raw_lines(text)
    bare = [line.rstrip("\r\n") for line in raw]
    deeper = [h for h in markdown.headings(bare) if h.level > level]
    if not deeper:
        return pack(raw, budget)
    sub = min(h.level for h in deeper)
    cuts = [h for h in deeper if h.level == sub]
    intro = "".join(raw[:cuts[0].line])
    pieces: list[tuple[str, str]] = []
    carry = ""
    if any(line.strip() for line in bare[1:cuts[0].line]) or not bare[0].lstrip().startswith("#"):
        pieces.extend(pack(raw[:cuts[0].line], budget))
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


def pack(raw: list[str], budget: int) -> list[tuple[str, str]]:
    """Lines cut at their top-level list items and paragraphs into pieces of at most `budget`
    tokens where the blocks allow (one block bigger than that stays whole): [(label, text)]."""
    text = "".join(raw)
    if estimate_tokens(text) <= budget:
        return [("", text)]
    bare = [line.rstrip("\r\n") for line in raw]
    fenced = fences.fenced(bare)
    first = 1 if bare and bare[0].lstrip().startswith("#") else 0
    starts = sorted(set([0] + _block_starts(bare, first, fenced)[1:]))
    blocks, heads = [], []
    for a, b in zip(starts, starts[1:] + [len(raw)]):
        block = "".join(raw[a:b])
        if estimate_tokens(block) <= budget or b - a < 2:
            blocks.append(block)
            heads.append(bare[a])
            continue
        for k in range(a, b):  # one block over the budget (a long code block, a long list item): by lines
            blocks.append(raw[k])
            heads.append(bare[a] if k == a else "")
    pieces: list[tuple[str, str]] = []
    current, size, name = "", 0, ""
    for block, head in zip(blocks, heads):
        tokens = estimate_tokens(block)
        if current and size + tokens > budget:
            pieces.append((name, current))
            current, size, name = "", 0, ""
        if not current:
            name = name_of(head) if not head.lstrip().startswith("#") else ""
        current += block
        size += tokens
    if current:
        pieces.append((name, current))
    return _merge_small(pieces, budget)


def _merge_small(pieces: list[tuple[str, str]], budget: int) -> list[tuple[str, str]]:
    """A piece holding only a heading, or under a quarter of the budget, joins its neighbour
    (the next one for a bare heading, else the one before) when the two stay near the budget."""
    out: list[tuple[str, str]] = []
    carry = ""
    for name, text in pieces:
        text = carry + text
        carry = ""
        if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
            carry = text  # a heading with nothing under it opens the next piece
            continue
        if out and estimate_tokens(text) < budget // 4 and estimate_tokens(out[-1][1] + text) <= budget * 5 // 4:
            out[-1] = (out[-1][0], out[-1][1] + text)
            continue
        out.append((name, text))
    if carry:
        if out:
            out[-1] = (out[-1][0], out[-1][1] + carry)
        else:
            out.append(("", carry))
    return out
