"""ATX headings outside fenced code, their text and their GitHub anchors.

The one reader of Markdown headings: sections (`markdown`) are cut at them, `qmem get`
finds a heading's span by its anchor, and the memory layer and the tree walk them. A line
is a heading only outside fenced code (`fences` says what is code); its text drops the
optional closing `#`s like GitHub; anchors follow GitHub's slug rule, keeping CJK letters.
`markdown` cuts a file into sections at these headings; this module only finds and names them.
"""

from __future__ import annotations

import re

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
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_SLUG_DROP = re.compile(r"[^\w\- ]")


def slugify(text: str) -> str:
    """GitHub's heading anchor: lowercase, punctuation dropped, spaces → hyphens, CJK kept."""
    text = text.strip()
    if "[" in text:  # a link can only start at a bracket: most headings skip its regex
        text = _MD_LINK.sub(r"\1", text)
    return _SLUG_DROP.sub("", text.lower()).replace(" ", "-")


class Heading:
    """One ATX heading of a file: its line, level (1-6) and text."""

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
                for mark in heading_marks(_line_marks(lines, start))]
    pos = sum(len(line) + 1 for line in lines[:start]) if start else 0
    found = []
    for mark in heading_marks(marks_of(text, pos)):
        start += text.count("\n", pos, mark[0])
        pos = mark[0]
        found.append(Heading(start, len(mark[2]), heading_title(mark[4])))
    return found


# A line that may open a heading or a fence, as `heading_marks` reads it: (offset of the
# line, offset of the next line, its #s or None, its fence run or None, the rest of it).
Mark = tuple[int, int, "str | None", "str | None", str]
# A heading's mark: its #s, no fence run.
HeadingMark = tuple[int, int, str, None, str]


def marks_of(text: str, pos: int) -> list[Mark]:
    """The lines of `text` from offset `pos` on that open a heading or a fence: one regex
    scan instead of a Python step per line."""
    # A line starting at offset p of `text` follows the "\n" at offset p of "\n" + text,
    # so a match's span is (offset of the line, offset of the line after it).
    # the regex's groups: the #s or None, the fence run or None, the rest of the line
    return cast("list[Mark]", [match.span() + match.groups() for match in _LINE_MARK.finditer("\n" + text, pos)])


def _line_marks(lines: list[str], start: int) -> list[Mark]:
    """`marks_of` for lines that may hold line breaks of their own, one by one (the line's
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


def heading_marks(marks: list[Mark], code: list[tuple[int, int]] | None = None) -> list[HeadingMark]:
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
