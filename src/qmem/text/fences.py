"""Fenced code blocks: which lines of a Markdown text are code, by CommonMark's rule.

The one fence scanner: sections (headings inside code are not headings), the entry types a
section is found by (`--type K` never matches a `- [K]` example inside code), the janitor,
forget, distill and the tree all ask it, so they agree on every file.

CommonMark (https://spec.commonmark.org/0.31.2/#fenced-code-blocks), for top-level blocks:
- a fence opens on a line of at most 3 spaces of indentation, then a run of at least three
  backticks or three tildes; after a backtick run the rest of the line (the info string) may
  hold no backtick (```` ```npm install``` ```` is inline code, not a fence);
- it closes only on a line of the same character, at least as long a run, with nothing but
  whitespace after it (```` ```python ```` inside a block is code, not its end);
- a fence that never closes runs to the end of the text.
The fence lines themselves count as code.
"""

from __future__ import annotations

import re

# A fence run at the start of a line: up to 3 spaces, then ``` or ~~~ or longer.
RUN = r"`{3,}|~{3,}"
_LINE = re.compile(r" {0,3}(" + RUN + r")(.*)", re.DOTALL)


def opens(run: str, rest: str) -> bool:
    """Does a line whose fence-like `run` is followed by `rest` open a fence?"""
    return run[0] == "~" or "`" not in rest


def closes(run: str, rest: str, fence: str) -> bool:
    """Does a line of `run` then `rest` close the block the run `fence` opened?"""
    return run[0] == fence[0] and len(run) >= len(fence) and not rest.strip()


def split(line: str) -> tuple[str, str] | None:
    """(fence run, rest of the line) of a line that starts like a fence, else None."""
    lead = line[:4]
    if "`" not in lead and "~" not in lead:
        return None
    match = _LINE.match(line)
    return (match.group(1), match.group(2)) if match else None


def fenced(lines: list[str]) -> list[bool]:
    """For each line (without its ending): True when it is part of a fenced code block."""
    mask: list[bool] = []
    fence = ""
    for line in lines:
        mark = split(line)
        if fence:
            mask.append(True)
            if mark and closes(mark[0], mark[1], fence):
                fence = ""
        elif mark and opens(*mark):
            fence = mark[0]
            mask.append(True)
        else:
            mask.append(False)
    return mask
