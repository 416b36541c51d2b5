"""Names shared by the Markdown parser, search filters and renderers (no imports, no cost)."""

from __future__ import annotations

HEADING_SEPARATOR = " › "

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
