"""Names shared by the Markdown parser, search filters and renderers (no imports, no cost)."""

from __future__ import annotations

HEADING_SEPARATOR = " › "

# Where the memory layer keeps copies: expired entries moved by the janitor, and what
# `tree rollback` rescued. Left out of a collection's default patterns (`exclude`).
ARCHIVE_DIR = "memory/archive"
DEFAULT_EXCLUDE = ["memory/archive/**", "memory/rescue-*/**"]


def is_archived(path: str) -> bool:
    """A file the janitor moved expired memory into (`memory/archive/…`, or `archive/…` in a
    collection rooted at memory/): its hits are expired memory."""
    return path.startswith(("archive/", ARCHIVE_DIR + "/")) or f"/{ARCHIVE_DIR}/" in f"/{path}"

# Entry types, written `- [K] text` or `### [S] Heading` (see DESIGN.md, memory layer).
TYPE_NAMES = {
    "P": "profile",
    "E": "event",
    "K": "knowledge",
    "B": "behaviour",
    "S": "skill",
    "!": "security",
}


def plural(count: int, word: str, many: str = "") -> str:
    """`1 file`, `2 files`, `1 entry`, `3 entries`: the count with the word in the right number."""
    if count == 1:
        return f"{count} {word}"
    if not many:
        many = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{count} {many}"
