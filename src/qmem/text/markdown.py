"""Markdown → sections: heading path, GitHub-style anchor, line range, entry tags, date.

A section starts at every ATX heading (outside fenced code) and runs to the next heading of
any level, so no text is indexed twice; the heading path keeps the context
("Skills › Windows PS5 编码地狱"). A heading with no text of its own, directly followed by a
deeper one, is not a section: its children carry it in their breadcrumbs. Text before the
first heading is the preamble section (level 0, empty anchor). `section_span` gives the GitHub notion of a section (down to the
next heading of the same or a higher level) for `qmem get`.

Headings and their anchors are `headings`' job, bracket tags and their dates `tags`'; their
names are re-exported here, where callers have always found them.
"""

from __future__ import annotations

import re

from ..base.conventions import HEADING_SEPARATOR
from .headings import (  # noqa: F401 - re-exported for callers of this module
    Heading, HeadingMark, Mark, anchors, heading_marks, heading_title, headings, marks_of, slugify,
)
from .tags import (  # noqa: F401 - re-exported for callers of this module
    bracket_tags, entry_tag_run, heading_tag_run, parse_date, run_meaning, section_tags, strip_tags, tag_meaning,
)

_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")

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
    heads = heading_marks(marks_of(text, pos), code)
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
