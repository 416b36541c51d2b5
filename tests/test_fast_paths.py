"""The faster code paths give what the plain ones gave: headings found by one regex scan and
string rules instead of a regex per line, and a refresh that reads nothing it need not."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem import markdown

# The heading rule as one regex, as it was: the reference for the faster scan.
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def reference_headings(lines: list[str], start: int = 0) -> list[tuple[int, int, str]]:
    found, fence = [], ""
    for i in range(start, len(lines)):
        line = lines[i]
        fence_match = FENCE.match(line)
        if fence:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                if not line.strip().strip(fence[0]):
                    fence = ""
            continue
        if fence_match:
            fence = fence_match.group(1)
            continue
        match = HEADING.match(line)
        if match:
            found.append((i, len(match.group(1)), (match.group(2) or "").strip()))
    return found


def found(lines: list[str], start: int = 0) -> list[tuple[int, int, str]]:
    return [(h.line, h.level, h.title) for h in markdown.headings(lines, start)]


_LINE = st.text(alphabet=" \t#`~a中\u3000\x0b", max_size=12)


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINE, max_size=12), st.integers(0, 4))
def test_headings_match_the_one_regex_rule(lines, start):
    assert found(lines, start) == reference_headings(lines, start)


def test_heading_edge_cases():
    lines = ["# a #", "## #", "### ##", "#### a ## b ##", "##### x\t#\t", "###### six", "####### seven", "#", "#\t",
             "   # three spaces", "    # four spaces", "#no", "# a#", "## \u3000b\u3000 ##", "```", "# in code", "````",
             "```", "~~~", "# still", "~~~~ x", "~~~~", "# out"]
    assert found(lines) == reference_headings(lines)
    assert found(lines)[:3] == [(0, 1, "a"), (1, 2, "#"), (2, 3, "##")]


def test_lines_carrying_their_own_breaks_keep_their_indexes():
    assert found(["text\n# b", "## c"]) == [(1, 2, "c")]
