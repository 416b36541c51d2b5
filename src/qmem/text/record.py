"""What an index keeps of a section, whatever the engine: the fields a hit reads back, and the
fingerprint of the section's text.

Every backend returns a hit's stored fields as `{name: [value]}` with the names of `FIELDS`
(`types` is a list of letters, every other field holds one value): `engine.hits`, the vector
tier and fusion read that one shape. The body is not among them: a hit reads its text from
the file, and `body_hash` tells whether the file still holds what was indexed.
"""

from __future__ import annotations

from xxhash import xxh3_64_intdigest

# What a hit's stored fields hold, in the order the local index stores them.
FIELDS = ("collection", "path", "anchor", "heading", "body_hash", "types", "line_start", "line_end",
          "body_line", "date", "expires", "priority")
LIST_FIELDS = frozenset({"types"})


def body_hash(body: str) -> int:
    """Fingerprint of a section's text, to tell at search time whether the file still has it."""
    return xxh3_64_intdigest(body.encode("utf-8"))
