"""qmem.text.markdown as it was before parsing moved onto character offsets (issue 15), kept
verbatim as the reference the faster parser must match slot for slot
(tests/text/test_markdown_equivalence.py, bench/parse_speed.py --reference).

One change since: fenced code follows CommonMark's rule (a backtick fence's info string holds
no backtick; the entry tags inside code are not the section's), as `qmem.text.fences` does;
written here line by line, on its own, as an oracle should be."""

from __future__ import annotations

import re
from collections.abc import Iterable

from qmem.base.conventions import HEADING_SEPARATOR, TYPE_NAMES

# An ATX heading line is `_HEADING_OPEN` then its text (see `heading_title`); the one-regex
# form r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$" costs ~3 µs a line in `re`.
_HEADING_OPEN = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LINE_MARK = re.compile(r"\n {0,3}[#`~]")  # a line where a heading or a fence may start
_ENTRY_PREFIX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+((?:\[[^\]\n]{1,40}\]\s*)+)")
_ENTRY_PREFIX_LINES = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+((?:\[[^\]\n]{1,40}\][ \t]*)+)", re.MULTILINE)
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
    from datetime import date as _date

    for match in _ISO_DATE.finditer(text):
        y, m, d = (int(g) for g in match.groups())
        try:
            _date(y, m, d)
        except ValueError:
            continue
        return y * 10000 + m * 100 + d
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


class Tags:
    """Entry types and lifecycle found in bracket tags."""

    __slots__ = ("types", "priority", "expires")

    def __init__(self) -> None:
        self.types: set[str] = set()
        self.priority = -1
        self.expires = 0

    def add(self, tag_run: str) -> None:
        known = _RUN_MEANING.get(tag_run)
        if known is None:
            run = Tags()
            for raw in _TAG.findall(tag_run):
                letter, priority, expiry, _ = tag_meaning(raw)
                if letter:
                    run.types.add(letter)
                run.merge(priority, expiry)
            known = (tuple(run.types), run.priority, run.expires)
            if len(_RUN_MEANING) < 10_000:
                _RUN_MEANING[tag_run] = known  # `- [K] [P1] …` runs repeat: parsed once
        if known[0]:
            self.types.update(known[0])
        self.merge(known[1], known[2])

    def merge(self, priority: int, expiry: int) -> None:
        if priority >= 0:
            self.priority = priority if self.priority < 0 else min(self.priority, priority)
        if expiry and (not self.expires or expiry < self.expires):
            self.expires = expiry


_RUN_MEANING: dict[str, tuple[tuple[str, ...], int, int]] = {}


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
        return _headings_in(lines, range(start, len(lines)))
    return _headings_in(lines, _marked_lines(text, lines, start))


def _marked_lines(text: str, lines: list[str], start: int) -> list[int]:
    """Indexes (≥ start) of the lines a heading or a fence can be on: found by one regex scan
    of `text` ("\n".join(lines)) instead of a Python step per line."""
    pos = sum(len(line) + 1 for line in lines[:start]) if start else 0
    row = start
    marked = []
    # A line starting at offset p of `text` follows the "\n" at offset p of "\n" + text:
    # searching for a literal "\n" first is ~5× faster than a MULTILINE "^".
    for match in _LINE_MARK.finditer("\n" + text, pos):
        row += text.count("\n", pos, match.start())
        pos = match.start()
        marked.append(row)
    return marked


def _headings_in(lines: list[str], rows: Iterable[int]) -> list[Heading]:
    found: list[Heading] = []
    fence = ""
    for i in rows:
        line = lines[i]
        lead = line[:4]
        fence_match = _FENCE.match(line) if ("`" in lead or "~" in lead) else None
        if fence:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                if not line.strip().strip(fence[0]):
                    fence = ""
            continue
        if fence_match and (fence_match.group(1)[0] == "~" or "`" not in line[fence_match.end():]):
            fence = fence_match.group(1)
            continue
        if "#" not in lead:
            continue
        match = _HEADING_OPEN.match(line)
        if match:
            found.append(Heading(i, len(match.group(1)), heading_title(line[match.end():])))
    return found


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
    """
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    meta, skip = front_matter(lines)
    doc_date = parse_date(meta.get("date", "")) or file_date
    heads = headings(lines, skip)
    slugs = anchors([h.title for h in heads])
    code = _code_rows(lines, skip)

    sections: list[Section] = []
    first_heading = heads[0].line if heads else len(lines)
    if first_heading > skip and "".join(lines[skip:first_heading]).strip():
        sections.extend(_build(lines, skip, first_heading, None, 0, "", [], doc_date, code))

    stack: list[Heading] = []
    path: list[str] = []  # the breadcrumbs of `stack`
    for k, head in enumerate(heads):
        while stack and stack[-1].level >= head.level:
            stack.pop()
            path.pop()
        stack.append(head)
        path.append(strip_tags(head.title) or head.title)
        end = heads[k + 1].line if k + 1 < len(heads) else len(lines)
        if k + 1 < len(heads) and heads[k + 1].level > head.level and not "".join(lines[head.line + 1:end]).strip():
            continue  # a bare container heading: its children carry it in their breadcrumbs
        sections.extend(_build(lines, head.line, end, head, head.level, slugs[k], path[:], doc_date, code))
    return sections


def _code_rows(lines: list[str], start: int) -> set[int]:
    """Indexes of the lines (from `start` on) inside fenced code, fence lines included."""
    rows: set[int] = set()
    fence = ""
    for i in range(start, len(lines)):
        line = lines[i]
        match = _FENCE.match(line)
        if fence:
            rows.add(i)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and not line[match.end():].strip():
                fence = ""
        elif match and (match.group(1)[0] == "~" or "`" not in line[match.end():]):
            fence = match.group(1)
            rows.add(i)
    return rows


def _build(
    lines: list[str],
    start: int,
    end: int,
    head: Heading | None,
    level: int,
    anchor: str,
    path: list[str],
    doc_date: int,
    code: set[int],
) -> list[Section]:
    """One section (or several windows of it) for lines[start:end]; `code`: the rows of
    fenced code, whose entry tags are examples, not the section's."""
    tags = Tags()
    title = ""
    date = doc_date
    body_start = start
    if head is not None:
        title = head.title
        body_start = start + 1
        lead = _LEADING_TAGS.match(title) if title[:1] == "[" else None
        if lead:
            tags.add(lead.group(1))
        date = parse_date(title[:10]) if title[:1].isdigit() else 0
        date = date or doc_date
    while end > body_start and not lines[end - 1].strip():
        end -= 1
    body = "\n".join(lines[body_start:end])
    prose = "\n".join(lines[i] for i in range(body_start, end) if i not in code)
    if "[" in prose:
        for run in set(_ENTRY_PREFIX_LINES.findall(prose)):
            tags.add(run)
    types = sorted(tags.types) if tags.types else []
    priority, expires = tags.priority, tags.expires

    if end - body_start <= WINDOW_LINES and len(body) < WINDOW_CHARS:
        return [Section(level, title, anchor, path, start + 1, max(end, start + 1), body_start + 1,
                        body, types, date, priority, expires)]

    def make(first: int, last: int, body_first: int, text: str) -> Section:
        return Section(
            level, title, anchor, path, first + 1, max(last, first + 1), body_first + 1,
            text, types, date, priority, expires,
        )
    windows: list[Section] = []
    first = start
    cursor = body_start
    while cursor < end:
        stop, size = cursor, 0
        while stop < end and stop - cursor < WINDOW_LINES and (size + len(lines[stop]) <= WINDOW_CHARS or stop == cursor):
            size += len(lines[stop]) + 1
            stop += 1
        windows.append(make(first, stop, cursor, "\n".join(lines[cursor:stop])))
        first = cursor = stop
    return windows


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
