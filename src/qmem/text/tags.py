"""Bracket tags: the `[K]` types and `[P1|expire:YYYY-MM-DD]` lifecycles of entries and headings.

The one parser of entry tags: the index reads a section's types, priority and expiry with it
(`section_tags`), the janitor and the memory layer read single tags and runs with it, so they
agree on every file. A tag run opens a list entry (`- [K][P1] text`) or a heading's text
(`### [S] Windows PS5`). `parse_date` reads the YYYY-MM-DD of an expiry (and of a heading or
front matter, for `markdown`). Out of markdown.py, which cuts a file into sections.
"""

from __future__ import annotations

import re

from ..base.conventions import TYPE_NAMES

_ENTRY_PREFIX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+((?:\[[^\]\n]{1,40}\]\s*)+)")
# The tag run opening each list entry, searched in "\n" + text: a literal "\n" first is ~2.5×
# faster than a MULTILINE "^" (no match spans a line break after its first).
# Possessive quantifiers: no backtracking (none could find another match), ~1.5× faster.
_ENTRY_RUNS = re.compile(r"\n[ \t]*+(?:[-*+]|\d++[.)])[ \t]++((?:\[[^\]\n]{1,40}+\][ \t]*+)++)")
_LEADING_TAGS = re.compile(r"^((?:\[[^\]\n]{1,40}\]\s*)+)")
_TAG = re.compile(r"\[([^\]\n]{1,40})\]")
_LIFECYCLE = re.compile(r"^P(\d+)(?:\s*\|\s*expire:\s*(.*))?$", re.IGNORECASE)
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")


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
