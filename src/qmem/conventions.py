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
