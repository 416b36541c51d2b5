"""Markdown → sections: heading path, GitHub-style anchor, line range, entry tags, date.

A section starts at every ATX heading (outside fenced code) and runs to the next heading of
any level, so no text is indexed twice; the heading path keeps the context
("Skills › Windows PS5 编码地狱"). A heading with no text of its own, directly followed by a
deeper one, is not a section: its children carry it in their breadcrumbs. Text before the
first heading is the preamble section (level 0, empty anchor). `section_span` gives the GitHub notion of a section (down to the
next heading of the same or a higher level) for `qmem get`.
"""

from __future__ import annotations

import re

from ..base.conventions import HEADING_SEPARATOR, TYPE_NAMES
from . import fences

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import cast
else:  # a cold search would pay for importing typing; at run time a cast is its value
    def cast(_type: object, value: object) -> object:
        return value

# An ATX heading line is `_HEADING_OPEN` then its text (see `heading_title`); the one-regex
# form r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$" costs ~3 µs a line in `re`.
_HEADING_OPEN = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
# A line that opens a heading (its #s) or may be a fence line (its run of ` or ~), and the
# rest of it: one regex scan of "\n" + text finds them all (a literal "\n" first is ~5×
# faster than a MULTILINE "^"); `$` of `_HEADING_OPEN` on a line is `[\n]|\Z` here. What a
# fence-like line means is `fences`' rule.
_LINE_MARK = re.compile(r"\n {0,3}(?:(#{1,6})(?=[ \t\n]|\Z)|(" + fences.RUN + r"))([^\n]*)")
_ENTRY_PREFIX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+((?:\[[^\]\n]{1,40}\]\s*)+)")
# The tag run opening each list entry, searched in "\n" + text: a literal "\n" first is ~2.5×
# faster than a MULTILINE "^" (no match spans a line break after its first).
# Possessive quantifiers: no backtracking (none could find another match), ~1.5× faster.
_ENTRY_RUNS = re.compile(r"\n[ \t]*+(?:[-*+]|\d++[.)])[ \t]++((?:\[[^\]\n]{1,40}+\][ \t]*+)++)")
_LEADING_TAGS = re.compile(r"^((?:\[[^\]\n]{1,40}\]\s*)+)")
_TAG = re.compile(r"\[([^\]\n]{1,40})\]")
_LIFECYCLE = re.compile(r"^P(\d+)(?:\s*\|\s*expire:\s*(.*))?$", re.IGNORECASE)
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_SLUG_DROP = re.compile(r"[^\w\- ]")

# Windows keep one huge section from swallowing a file's worth of ranking and snippets.
WINDOW_LINES = 80
WINDOW_CHARS = 8000


class Section:
    """One indexed unit of a Markdown file."""

    __slots__ = (
        "level", "title", "anchor", "heading_path", "line_start", "line_end",
        "body_line", "body", "types", "date", "priority", "expires",
    )

    def __init__(
        self,
        level: int,
        title: str,
        anchor: str,
        heading_path: list[str],
        line_start: int,
        line_end: int,
        body_line: int,
        body: str,
        types: list[str],
        date: int,
        priority: int,
        expires: int,
    ) -> None:
        self.level = level  # 0 for the preamble
        self.title = title
        self.anchor = anchor
        self.heading_path = heading_path
        self.line_start = line_start  # 1-based, the heading line (or first line of a window)
        self.line_end = line_end  # inclusive
        self.body_line = body_line  # line number of the first line of `body`
        self.body = body
        self.types = types  # sorted type letters, e.g. ["!", "K"]
        self.date = date  # YYYYMMDD or 0
        self.priority = priority  # lowest lifecycle level seen (0, 1, 2) or -1
        self.expires = expires  # earliest expiry YYYYMMDD or 0

    @property
    def heading(self) -> str:
        return HEADING_SEPARATOR.join(self.heading_path)

    def __repr__(self) -> str:
        return f"Section({self.heading!r}, #{self.anchor}, L{self.line_start}-{self.line_end})"


def parse_date(text: str) -> int:
    """The first valid YYYY-MM-DD in `text` as YYYYMMDD, or 0."""
    if "-" not in text:
        return 0
    from ..base.dates import day_from_number

    for match in _ISO_DATE.finditer(text):
        number = int(match.group(1) + match.group(2) + match.group(3))
        try:
            day_from_number(number)  # a day that exists
        except ValueError:
            continue
        return number
    return 0


def slugify(text: str) -> str:
    """GitHub's heading anchor: lowercase, punctuation dropped, spaces → hyphens, CJK kept."""
    text = text.strip()
    if "[" in text:  # a link can only start at a bracket: most headings skip its regex
        text = _MD_LINK.sub(r"\1", text)
    return _SLUG_DROP.sub("", text.lower()).replace(" ", "-")


def strip_tags(title: str) -> str:
    """The heading text without leading `[K]`/`[P1|expire:…]` style tags."""
    match = _LEADING_TAGS.match(title) if title[:1] == "[" else None
    return title[match.end():].strip() if match else title


_TAG_MEANING: dict[str, tuple[str, int, int, str]] = {}


def tag_meaning(raw: str) -> tuple[str, int, int, str]:
    """What one bracket tag says: (type letter, priority 0-2 or -1, expiry YYYYMMDD or 0,
    problem). `[K]` → ("K", -1, 0, ""); `[P1|expire:2026-06-01]` → ("", 1, 20260601, "");
    `[P1|expire:2026-13-01]` → ("", 1, 0, "bad expiry date …"). Tags repeat a lot: each text
    is parsed once. The one parser of entry tags (the index and the memory layer use it)."""
    known = _TAG_MEANING.get(raw)
    if known is None:
        tag = raw.strip()
        known = ("", -1, 0, "")
        if tag.upper() in TYPE_NAMES:
            known = (tag.upper(), -1, 0, "")
        else:
            life = _LIFECYCLE.match(tag)
            if life and life.group(1) not in ("0", "1", "2"):
                known = ("", -1, 0, f"unknown priority [{tag}]")
            elif life:
                expiry = parse_date(life.group(2)) if life.group(2) else 0
                bad = life.group(2) is not None and (not expiry or len(life.group(2).strip()) != 10)
                known = ("", int(life.group(1)), 0 if bad else expiry, f"bad expiry date in [{tag}]" if bad else "")
        if len(_TAG_MEANING) < 10_000:
            _TAG_MEANING[raw] = known
    return known


def run_meaning(run: str) -> tuple[str, int, int]:
    """What a run of bracket tags says together: (its type letters, lowest priority or -1,
    earliest expiry or 0); `[K] [P1|expire:2026-06-01] ` → ("K", 1, 20260601). `- [K] …`
    runs repeat a lot: each is parsed once."""
    known = _RUN_MEANING.get(run)
    if known is None:
        letters = ""
        priority, expires = -1, 0
        for raw in _TAG.findall(run):
            letter, tag_priority, expiry, _ = tag_meaning(raw)
            letters += letter
            priority, expires = _merged(priority, expires, tag_priority, expiry)
        known = (letters, priority, expires)
        if len(_RUN_MEANING) < 10_000:
            _RUN_MEANING[run] = known
    return known


def _merged(priority: int, expires: int, other_priority: int, other_expiry: int) -> tuple[int, int]:
    """The lowest priority (-1 is none) and the earliest expiry (0 is none) of two."""
    if other_priority >= 0 and (priority < 0 or other_priority < priority):
        priority = other_priority
    if other_expiry and (not expires or other_expiry < expires):
        expires = other_expiry
    return priority, expires


_RUN_MEANING: dict[str, tuple[str, int, int]] = {}
_SECTION_TAGS: dict[tuple[str, ...], tuple[list[str], int, int]] = {}


def section_tags(lead: str | None, body: str) -> tuple[list[str], int, int]:
    """(sorted type letters, priority, expiry) of a section: its heading's leading tag run
    `lead` and the tag runs that open the list entries of its `body`. The same runs in the
    same order recur in many sections (~60% of a 20k-file corpus): their sum is kept."""
    runs = _ENTRY_RUNS.findall("\n" + body) if "[" in body else []
    if lead:
        runs.append(lead)
    if not runs:
        return [], -1, 0
    key = tuple(runs)
    known = _SECTION_TAGS.get(key)
    if known is None:
        known = _tags_of(runs)
        if len(_SECTION_TAGS) < 20_000:
            _SECTION_TAGS[key] = known
    return known[0][:], known[1], known[2]  # each section gets a list of its own


def _tags_of(runs: list[str]) -> tuple[list[str], int, int]:
    """`section_tags` of tag runs, each read by `run_meaning`."""
    letters = ""
    priority, expires = -1, 0
    for run in runs:
        run_letters, run_priority, run_expiry = run_meaning(run)
        letters += run_letters
        if run_priority >= 0 or run_expiry:
            priority, expires = _merged(priority, expires, run_priority, run_expiry)
    return sorted(set(letters)), priority, expires


def bracket_tags(run: str) -> list[str]:
    """The texts inside `[...]` tags of a tag run: `[K][P1|expire:D]` → ["K", "P1|expire:D"]."""
    return _TAG.findall(run)


def heading_tag_run(title: str) -> str | None:
    """The bracket tags at the start of a heading's text, or None."""
    match = _LEADING_TAGS.match(title)
    return match.group(1) if match else None


def entry_tag_run(line: str) -> str | None:
    """The bracket tags at the start of a list entry (`- [K][P1] text`), or None."""
    match = _ENTRY_PREFIX.match(line)
    return match.group(1) if match else None


def front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
    """Simple `key: value` front matter and the number of lines it spans (0 when absent)."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    meta: dict[str, str] = {}
    for i in range(1, min(len(lines), 200)):
        stripped = lines[i].strip()
        if stripped in ("---", "..."):
            return meta, i + 1
        match = _FRONT_KEY.match(lines[i])
        if match:
            meta[match.group(1).lower()] = match.group(2).strip("'\"")
    return {}, 0


class Heading:
    __slots__ = ("line", "level", "title")

    def __init__(self, line: int, level: int, title: str) -> None:
        self.line = line  # 0-based index into lines
        self.level = level
        self.title = title


def headings(lines: list[str], start: int = 0) -> list[Heading]:
    """ATX headings outside fenced code blocks."""
    text = "\n".join(lines)
    if text.count("\n") != len(lines) - 1:  # lines with their own line breaks: line by line
        return [Heading(mark[0], len(mark[2]), heading_title(mark[4]))
                for mark in _heading_marks(_line_marks(lines, start))]
    pos = sum(len(line) + 1 for line in lines[:start]) if start else 0
    found = []
    for mark in _heading_marks(_marks(text, pos)):
        start += text.count("\n", pos, mark[0])
        pos = mark[0]
        found.append(Heading(start, len(mark[2]), heading_title(mark[4])))
    return found


# A line that may open a heading or a fence, as `_heading_marks` reads it: (offset of the
# line, offset of the next line, its #s or None, its fence run or None, the rest of it).
Mark = tuple[int, int, "str | None", "str | None", str]
# A heading's mark: its #s, no fence run.
HeadingMark = tuple[int, int, str, None, str]


def _marks(text: str, pos: int) -> list[Mark]:
    """The lines of `text` from offset `pos` on that open a heading or a fence: one regex
    scan instead of a Python step per line."""
    # A line starting at offset p of `text` follows the "\n" at offset p of "\n" + text,
    # so a match's span is (offset of the line, offset of the line after it).
    # the regex's groups: the #s or None, the fence run or None, the rest of the line
    return cast("list[Mark]", [match.span() + match.groups() for match in _LINE_MARK.finditer("\n" + text, pos)])


def _line_marks(lines: list[str], start: int) -> list[Mark]:
    """`_marks` for lines that may hold line breaks of their own, one by one (the line's
    index stands for both offsets)."""
    found: list[Mark] = []
    for i in range(start, len(lines)):
        line = lines[i]
        fence = fences.split(line)
        heading = _HEADING_OPEN.match(line) if not fence and "#" in line[:4] else None
        if fence:
            found.append((i, i, None, fence[0], fence[1]))
        elif heading:
            found.append((i, i, heading.group(1), None, line[heading.end():]))
    return found


def _heading_marks(marks: list[Mark], code: list[tuple[int, int]] | None = None) -> list[HeadingMark]:
    """The marks of headings, those in fenced code left out (`fences` says what is code).
    With `code`, the (start, end) offsets of each fenced block are appended to it: from its
    opening line to the line after its closing one, or None as the end of one never closed."""
    found: list[Mark] = []
    fence = ""
    opened = 0
    for mark in marks:
        run = mark[3]
        if fence:
            if run and fences.closes(run, mark[4], fence):
                fence = ""
                if code is not None:
                    code.append((opened, mark[1]))
        elif run:
            if fences.opens(run, mark[4]):
                fence, opened = run, mark[0]
        else:
            found.append(mark)
    if fence and code is not None:
        code.append((opened, -1))
    return cast("list[HeadingMark]", found)  # a mark without a fence run is a heading's: it has #s


def heading_title(rest: str) -> str:
    """The text of an ATX heading from what follows its `#`s: the optional closing `#`s
    (after a space or tab) and surrounding blanks dropped; `## #` keeps `#`, like GitHub."""
    text = rest.strip(" \t")
    if text.endswith("#"):
        open_end = text.rstrip("#")
        if open_end[-1:] in (" ", "\t"):
            text = open_end.rstrip(" \t")
    return text.strip()


def anchors(titles: list[str]) -> list[str]:
    """GitHub anchors for headings in file order; repeats get -1, -2, …"""
    seen: dict[str, int] = {}
    out: list[str] = []
    for title in titles:
        slug = slugify(title)
        if slug in seen:
            seen[slug] += 1
            candidate = f"{slug}-{seen[slug]}"
            while candidate in seen:
                seen[slug] += 1
                candidate = f"{slug}-{seen[slug]}"
            seen[candidate] = 0
            out.append(candidate)
        else:
            seen[slug] = 0
            out.append(slug)
    return out


def split_lines(text: str) -> list[str]:
    """Lines without their endings; `\\r\\n` and lone `\\r` count as one ending."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def parse(text: str, file_date: int = 0) -> list[Section]:
    """Split a Markdown document into sections (see the module docstring).

    `file_date` (from a `YYYY-MM-DD` file name) applies to sections without a date of their
    own; a `date:` front-matter key overrides it, a heading that starts with a date wins.

    The document is cut on character offsets of its normalized text, not on a list of
    lines: a body is one slice, not a join of many small strings (2× less CPU on a
    20k-file build). The result is the one a line list `split_lines` would give: the
    text's lines are exactly `text.split("\n")` once line endings are `\n` and the final
    one is dropped (tests/text/test_markdown_equivalence.py checks this against the old parser).
    """
    text = normalized(text)
    meta, row, pos = _front_matter_of(text)
    doc_date = parse_date(meta.get("date", "")) or file_date
    code: list[tuple[int, int]] = []
    heads = _heading_marks(_marks(text, pos), code)
    titles = [heading_title(mark[4]) for mark in heads]
    slugs = anchors(titles)

    sections: list[Section] = []
    body, kept, breaks = _cut(text, pos, heads[0][0] if heads else len(text))
    if body:
        _build(sections, 0, "", "", [], row, row, body, kept, doc_date, _prose(body, pos, code) if code else body)
    row += breaks  # the line of the first heading

    levels: list[int] = []
    path: list[str] = []  # the breadcrumbs of the headings in `levels`
    last = len(heads) - 1
    for k, (_, body_pos, hashes, _, _) in enumerate(heads):
        level, title = len(hashes), titles[k]
        while levels and levels[-1] >= level:
            levels.pop()
            path.pop()
        levels.append(level)
        path.append(strip_tags(title) or title)
        body, kept, breaks = _cut(text, body_pos, heads[k + 1][0] if k < last else len(text))
        # A bare heading directly followed by a deeper one is a container, not a section.
        if body or k == last or len(heads[k + 1][2]) <= level:
            _build(sections, level, title, slugs[k], path[:], row, row + 1, body, kept, doc_date,
                   _prose(body, body_pos, code) if code else body)
        row += 1 + breaks
    return sections


def _prose(body: str, start: int, code: list[tuple[int, int]]) -> str:
    """`body` (which starts at offset `start` of the text) without its fenced code blocks,
    whole lines cut out: what a section's entry tags are read from. A block lies inside one
    section's body (a heading inside code is no heading), so only the blocks that start in
    the body are cut."""
    end = start + len(body)
    cut = [(a - start, len(body) if b < 0 else min(b, end) - start) for a, b in code if start <= a < end]
    if not cut:
        return body
    kept, at = [], 0
    for a, b in cut:
        kept.append(body[at:a])
        at = b
    kept.append(body[at:])
    return "".join(kept)


def normalized(text: str) -> str:
    """`text` with `\r\n` and lone `\r` as `\n` and without its final line ending: its
    lines are then `text.split("\n")`, the lines `split_lines` gives (less an empty last)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text[:-1] if text[-1:] == "\n" else text


def _front_matter_of(text: str) -> tuple[dict[str, str], int, int]:
    """`front_matter` of normalized text: (keys, lines it spans, offset where they end)."""
    line_end = text.find("\n")
    if (text[:line_end] if line_end >= 0 else text).strip() != "---":
        return {}, 0, 0
    head = text.split("\n", 200)[:200]  # all `front_matter` looks at
    meta, skip = front_matter(head)
    return meta, skip, sum(len(line) + 1 for line in head[:skip])


def _cut(text: str, start: int, end: int) -> tuple[str, int, int]:
    """The body in text[start:end], a run of whole lines: (the slice without its trailing
    blank lines (that strip to nothing) nor the line break before them, the number of lines
    it keeps, the number of line breaks in the slice). Blank means `str.isspace`, so
    `rstrip` finds where the last kept line is; one `count` per slice numbers the lines."""
    body = text[start:end]
    breaks = body.count("\n")
    if not body[-1:].isspace():
        return body, breaks + 1 if body else 0, breaks
    kept = len(body.rstrip())
    if not kept:
        return "", 0, breaks
    cut = body.find("\n", kept)
    if cut < 0:
        return body, breaks + 1, breaks
    return body[:cut], breaks + 1 - body.count("\n", cut), breaks


def _build(
    out: list[Section],
    level: int,
    title: str,
    anchor: str,
    path: list[str],
    start: int,
    body_start: int,
    body: str,
    kept: int,
    doc_date: int,
    prose: str,
) -> None:
    """Append to `out` the section of the heading `title` on line `start` (level 0, no
    title: the preamble), or several windows of it when it is long; its trimmed `body`
    holds `kept` lines from line `body_start` on, `prose` is the body less its fenced code
    (the entry tags of code are examples, not entries)."""
    lead = heading_tag_run(title) if title[:1] == "[" else None
    date = (parse_date(title[:10]) if title[:1].isdigit() else 0) or doc_date
    types, priority, expires = section_tags(lead, prose)
    end = body_start + kept  # past the last body line
    if kept <= WINDOW_LINES and len(body) < WINDOW_CHARS:
        out.append(Section(level, title, anchor, path, start + 1, max(end, start + 1), body_start + 1,
                           body, types, date, priority, expires))
        return
    lines = body.split("\n")
    first = start
    cursor = 0
    while cursor < len(lines):
        stop, size = cursor, 0
        while stop < len(lines) and stop - cursor < WINDOW_LINES and (size + len(lines[stop]) <= WINDOW_CHARS or stop == cursor):
            size += len(lines[stop]) + 1
            stop += 1
        out.append(Section(level, title, anchor, path, first + 1, body_start + stop, body_start + cursor + 1,
                           "\n".join(lines[cursor:stop]), types, date, priority, expires))
        first = body_start + stop
        cursor = stop


def section_span(lines: list[str], anchor: str) -> tuple[int, int] | None:
    """0-based [start, end) of the section `anchor` down to the next heading of the same or
    higher level (GitHub's notion of a section, subsections included). Tags in a heading may
    be left out of the anchor: `windows-ps5` finds `### [S] Windows PS5`."""
    meta_skip = front_matter(lines)[1]
    heads = headings(lines, meta_skip)
    slugs = anchors([h.title for h in heads])
    bare = anchors([strip_tags(h.title) for h in heads])
    for candidates in (slugs, bare):
        for k, slug in enumerate(candidates):
            if slug == anchor:
                level = heads[k].level
                end = len(lines)
                for later in heads[k + 1:]:
                    if later.level <= level:
                        end = later.line
                        break
                while end > heads[k].line + 1 and not lines[end - 1].strip():
                    end -= 1
                return heads[k].line, end
    return None


def list_anchors(lines: list[str]) -> list[str]:
    """Every heading anchor of a file, in order (for "did you mean" suggestions)."""
    heads = headings(lines, front_matter(lines)[1])
    return anchors([h.title for h in heads])
