"""Typed memory entries: `- [K] [P1|expire:2026-06-01] text → ref`, parsed and written.

Types (`[P] [E] [K] [B] [S] [!]`) and lifecycle tags (`[P0]`, `[P1|expire:D]`, `[P2|expire:D]`)
follow DESIGN.md; one parser here serves remember, flush, distill and the janitor.
"""

from __future__ import annotations

import functools
import re
from datetime import date, timedelta

from ..text.analysis import is_cjk
from ..base.errors import BadInputError
from ..text.markdown import tag_meaning
from ..base.conventions import parse_type as type_of
from ..base.dates import iso_from_number

PRIORITY_DAYS = {"P1": 90, "P2": 30}
_ENTRY = re.compile(r"^(?P<indent>\s*)[-*+]\s+(?P<tags>(?:\[[^\]\n]{1,40}\]\s*)*)(?P<rest>.*)$")
_TAG = re.compile(r"\[([^\]\n]{1,40})\]")
_REF = re.compile(r"\s*(?:→|->)\s*(\S+)\s*$")
_NORMAL_DROP = re.compile(r"[^\w]+")
_NUMBER = re.compile(r"\d+")


class Entry:
    """One list item with its tags taken apart."""

    __slots__ = ("type", "priority", "expires", "text", "ref", "problems")

    def __init__(self, text: str, type_: str = "", priority: str = "", expires: str = "", ref: str = "") -> None:
        self.type = type_  # "K", "!", … or ""
        self.priority = priority  # "P0", "P1", "P2" or ""
        self.expires = expires  # "YYYY-MM-DD" or ""
        self.text = text
        self.ref = ref
        self.problems: list[str] = []  # malformed tags, reported rather than guessed

    def render(self) -> str:
        tags = f"[{self.type}] " if self.type else ""
        if self.priority == "P0":
            tags += "[P0] "
        elif self.priority:
            tags += f"[{self.priority}|expire:{self.expires}] " if self.expires else f"[{self.priority}] "
        ref = f" → {self.ref}" if self.ref else ""
        return f"- {tags}{self.text}{ref}"


def parse_line(line: str) -> Entry | None:
    """The entry on a list-item line, or None for any other line."""
    match = _ENTRY.match(line)
    if not match or (not match.group("tags") and not match.group("rest").strip()):
        return None
    tags, rest = match.group("tags"), match.group("rest")
    entry = Entry(rest.strip())
    for found in _TAG.finditer(tags):
        letter, priority, _, _ = tag_meaning(found.group(1).strip())
        if not letter and priority < 0:  # not a tag qmem knows (`[Q]`, a link's `[text]`): it is text
            entry.text = (tags[found.start():] + rest).strip()
            break
        apply_tag(entry, found.group(1).strip())
    ref = _REF.search(entry.text)
    if ref:
        entry.ref = ref.group(1)
        entry.text = entry.text[: ref.start()].rstrip()
    return entry


def apply_tag(entry: Entry, tag: str) -> None:
    letter, priority, expiry, problem = tag_meaning(tag)
    if letter:
        entry.type = letter
    if priority >= 0:
        entry.priority = f"P{priority}"
    if expiry:
        entry.expires = iso_from_number(expiry)
    if problem:
        entry.problems.append(problem)


def expiry_for(priority: str, day: date, explicit: str | None = None) -> str:
    """`--expire` if given, else +90 days for P1, +30 for P2, nothing for P0 or no priority."""
    if explicit:
        return parse_expiry(explicit, day).isoformat()
    days = PRIORITY_DAYS.get(priority)
    return (day + timedelta(days=days)).isoformat() if days else ""


def parse_expiry(value: str, day: date) -> date:
    """`YYYY-MM-DD`, `today`, `tomorrow`, `30d`, `2w` or `+30d` (days or weeks after `day`, the
    entry's date); a date before `day` is refused (it would expire at once)."""
    v = value.strip().lower().lstrip("+")
    try:
        if v in ("today", "tomorrow"):
            when = day + timedelta(days=1 if v == "tomorrow" else 0)
        elif v[-1:] in ("d", "w") and v[:-1].isdigit():
            when = day + timedelta(days=int(v[:-1]) * (7 if v[-1] == "w" else 1))
        else:
            when = date.fromisoformat(v)
    except (ValueError, OverflowError):
        raise BadInputError(f"bad --expire {value!r}: use YYYY-MM-DD, tomorrow, 30d or 2w") from None
    if when < day:
        raise BadInputError(f"--expire {value} is in the past (before {day.isoformat()}); give a later date")
    return when


def parse_priority(value: str | None) -> str:
    if not value:
        return ""
    v = value.strip().upper()
    if v in ("P0", "P1", "P2"):
        return v
    raise BadInputError(f"unknown priority {value!r}: use P0 (permanent), P1 (90 days) or P2 (30 days)")


def parse_type(value: str | None) -> str:
    """The type letter of `--type` (see conventions.type_letter); "" when none is given."""
    return type_of(value) if value else ""


def entry_id(line: str) -> str:
    """A short id of an entry, from its line's text (indentation and line ending left out): a
    ref `path:LINE@ID` still names the same entry after its line moved, and no other."""
    from xxhash import xxh3_64_hexdigest

    return xxh3_64_hexdigest(line.strip().encode("utf-8"))[:8]


def has_words(text: str, words: str) -> bool:
    """True when `words` (normalised as `normalise` does) occur in `text` as whole words, in
    order: `ep th` is not in "keep this one". Next to a Chinese (or other CJK) character is
    a word boundary too: CJK text has no spaces between its words."""
    needle, hay = normalise(words), normalise(text)
    if not needle:
        return False

    def boundary(at: int) -> bool:
        return at in (0, len(hay)) or hay[at - 1] == " " or hay[at] == " " or is_cjk(hay[at - 1]) or is_cjk(hay[at])

    start = hay.find(needle)
    while start >= 0:
        if boundary(start) and boundary(start + len(needle)):
            return True
        start = hay.find(needle, start + 1)
    return False


@functools.lru_cache(maxsize=4096)  # `similar` normalises the same kept entries for every new one
def normalise(text: str) -> str:
    """Case, punctuation and spacing removed: `BSC USDC: 18 decimals!` == `bsc usdc 18 decimals`."""
    return _NORMAL_DROP.sub(" ", text.lower()).strip()


def _features(text: str) -> set[str]:
    """Words for Latin text, character pairs for CJK (which has no spaces between words)."""
    norm = normalise(text)
    chars = norm.replace(" ", "")
    if chars and 2 * sum(1 for ch in chars if is_cjk(ch)) >= len(chars):
        return {chars[i:i + 2] for i in range(len(chars) - 1)} or {chars}
    return set(norm.split())


def similar(a: str, b: str, threshold: float = 0.8) -> bool:
    """Same normalised text, or Jaccard similarity of words (CJK: character pairs) ≥ threshold
    with the same numbers: `port 8080` and `port 9090` are two facts however alike the rest
    (a changed number is what a correction usually is; dropping it as a duplicate loses it)."""
    na, nb = normalise(a), normalise(b)
    if na == nb:
        return True
    if sorted(_NUMBER.findall(na)) != sorted(_NUMBER.findall(nb)):
        return False
    fa, fb = _features(a), _features(b)
    if not fa or not fb:
        return False
    return len(fa & fb) / len(fa | fb) >= threshold
