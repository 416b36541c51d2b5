"""Names shared by the Markdown parser, search filters and renderers (no cost to import)."""

from __future__ import annotations

from .errors import BadInputError

HEADING_SEPARATOR = " › "
# The scope every agent may see; agents and teams have their own (`agent:alice`, `team:infra`).
SHARED_SCOPE = "shared"

# Where the memory layer keeps copies: expired entries moved by the janitor, and what
# `tree rollback` rescued. Left out of a collection's default patterns (`exclude`).
ARCHIVE_DIR = "memory/archive"
DEFAULT_EXCLUDE = ["memory/archive/**", "memory/rescue-*/**"]


def is_archived(path: str) -> bool:
    """A file the janitor moved expired memory into (`memory/archive/…`, or `archive/…` in a
    collection rooted at memory/): its hits are expired memory."""
    return path.startswith(("archive/", ARCHIVE_DIR + "/")) or f"/{ARCHIVE_DIR}/" in f"/{path}"

# The largest file qmem reads (the index skips larger ones; the memory commands leave them out
# or refuse them in one line): 16 MiB is ~4 million tokens, far past any memory an agent loads.
MAX_FILE_BYTES = 16 * 1024 * 1024


def too_large(size: int) -> str:
    """Why a file of `size` bytes is not read (one phrase)."""
    return f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB ({size / (1024 * 1024):.1f} MiB)"


# Entry types, written `- [K] text` or `### [S] Heading` (see DESIGN.md, memory layer).
TYPE_NAMES = {
    "P": "profile",
    "E": "event",
    "K": "knowledge",
    "B": "behaviour",
    "S": "skill",
    "!": "security",
}
TYPE_ALIASES = {"behavior": "B", "secret": "!"}  # the US spelling, and another name


def type_letter(value: str) -> str | None:
    """`K`, `k`, `knowledge`, `skills`, `behavior`, `behaviour`, `sec` → the type letter; None
    when the value names no type (or starts more than one)."""
    v = value.strip()
    if v.upper() in TYPE_NAMES:
        return v.upper()
    names = {**{name: letter for letter, name in TYPE_NAMES.items()}, **TYPE_ALIASES}
    word = v.lower()
    for candidate in (word, word[:-1] if word.endswith("s") else word):
        if candidate in names:
            return names[candidate]
    found = {letter for name, letter in names.items() if len(word) >= 3 and name.startswith(word)}
    return found.pop() if len(found) == 1 else None


def parse_type(value: str) -> str:
    """The type letter `value` names, or BadInputError listing the accepted names."""
    letter = type_letter(value)
    if letter is None:
        names = ", ".join(f"{k} ({n}{'/behavior' if k == 'B' else ''})" for k, n in TYPE_NAMES.items())
        raise BadInputError(f"unknown entry type {value!r}; use one of {names}")
    return letter


def plural(count: int, word: str, many: str = "") -> str:
    """`1 file`, `2 files`, `1 entry`, `3 entries`: the count with the word in the right number."""
    if count == 1:
        return f"{count} {word}"
    if not many:
        many = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{count} {many}"


def human_size(n: float) -> str:
    """Bytes for a person: `512 B`, `13.2 KB`, `1.5 MB`."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"
