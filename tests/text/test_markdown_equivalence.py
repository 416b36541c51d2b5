"""`markdown.parse` (cut on character offsets) returns exactly what the line-based parser
it replaced returned (kept as tests/reference/markdown_reference.py): every slot of every Section,
on generated Markdown full of traps and on real files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qmem.text import markdown

from ..reference import markdown_reference as reference
from ..conftest import SAMPLE

C20K = Path("/work/tools/c20k")  # the 20k-file benchmark corpus, where this machine has it


def slots(sections: list) -> list[tuple]:
    return [tuple(getattr(s, name) for name in markdown.Section.__slots__) for s in sections]


def assert_same(text: str, file_date: int = 0) -> None:
    assert slots(markdown.parse(text, file_date)) == slots(reference.parse(text, file_date)), repr(text)


_WORDS = ["deploy", "wallet", "编码地狱", "C++ & Rust", "[link](http://x)", "2026-03-01", "x", "", " ", "\t"]
_TAGS = ["[K]", "[S] ", "[P1|expire:2026-01-02]", "[P0]", "[P7]", "[P2|expire:2026-13-40]", "[e]", "[x"]


def _line() -> st.SearchStrategy[str]:
    words = st.lists(st.sampled_from(_WORDS), max_size=4).map(" ".join)
    tags = st.lists(st.sampled_from(_TAGS), max_size=3).map("".join)
    return st.one_of(
        st.tuples(st.sampled_from(["", " ", "   ", "    "]), st.sampled_from(["#", "##", "###", "######", "#######"]),
                  st.sampled_from([" ", "\t", "", "  "]), tags, words, st.sampled_from(["", " #", " ##", "#", " # "]))
        .map("".join),  # headings: indents, all levels, closing #s, tags
        st.tuples(st.sampled_from(["", "  ", "    "]), st.sampled_from(["```", "````", "~~~", "~~~~", "``", "```python"]),
                  st.sampled_from(["", " ", " x", " `x`", "x```"])).map("".join),  # fences, closed or not, inline code
        st.tuples(st.sampled_from(["- ", "* ", "1. ", "2) ", "  - ", "-"]), tags, words).map("".join),  # entries
        st.sampled_from(["", " ", "\t", "\x0b", "\x0c", "\u3000", "\x1c", "\x85", "\u2028", " \u3000# x", "---", "...", "date: 2026-02-03", "title: 'x'"]),
        words,
        st.text(alphabet="ab #`~-[]\n\r\t 中文|:", max_size=12),
    )


def _document() -> st.SearchStrategy[str]:
    endings = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"])
    lines = st.lists(st.tuples(_line(), endings), max_size=40).map(lambda pairs: "".join(a + b for a, b in pairs))
    front = st.sampled_from(["", "---\ndate: 2026-01-05\n---\n", "---\ntitle: x\n...\n", "---\nno end\n", " --- \n"])
    tail = st.sampled_from(["", "\n", "\n\n", " ", "\r"])
    return st.tuples(front, lines, tail).map("".join)


@settings(max_examples=int(os.environ.get("QMEM_EQUIVALENCE_EXAMPLES", "400")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_document(), st.sampled_from([0, 20260228]))
def test_generated_markdown_parses_as_before(text, file_date):
    assert_same(text, file_date)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 400), st.integers(0, 300), st.sampled_from(["# H\n", "", "---\nx: y\n---\n", "# [K] H\n"]),
       st.sampled_from(["\n", "\r\n"]), st.sampled_from(["", "\n\n  \n"]))
def test_windows_of_long_sections_as_before(count, width, head, ending, tail):
    body = ending.join(f"- [K] line {i} " + "词" * ((i * 37) % (width + 1)) for i in range(count))
    assert_same(head.replace("\n", ending) + body + tail + "## next\nx")
    assert_same(head + body + tail)


@pytest.mark.parametrize("text", [
    "", "\n", "\r", "\r\n", " ", "#", "# ", "#\n", "---", "---\n", "---\n---", "---\n---\n# H\n", "\n\n# H", "x\r\r# H\r",
    "# H\n```\n# not\n", "# H\n~~~\n# not\n~~~~\n# yes\n", "intro\n# H\n  \n\t\n", "# A\n## B\n### C\n", "# A\n\n## B\nx",
    "# H\nline  \n\n", "# H\n\x0b\n\x0c", "- x\n" * 100, "# H\n" + "y" * 9000, "\ufeff# H\nx",
])
def test_edge_cases_parse_as_before(text):
    assert_same(text)
    assert_same(text, 20260101)


def _markdown_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.md") if p.is_file())


def _check_files(paths: list[Path]) -> int:
    for path in paths:
        text = path.read_bytes().decode("utf-8-sig", "replace")
        assert_same(text, markdown.parse_date(path.name))
    return len(paths)


def test_repository_markdown_parses_as_before():
    """The sample workspace, the test fixtures and the docs: real files of many shapes."""
    root = SAMPLE.parent.parent
    paths = [p for folder in ("examples", "tests", "docs") if (root / folder).is_dir() for p in _markdown_files(root / folder)]
    paths += sorted(root.glob("*.md"))
    assert len([p for p in paths if SAMPLE in p.parents]) >= 4
    assert _check_files(paths) >= 20


@pytest.mark.skipif(not C20K.is_dir(), reason="the 20k-file benchmark corpus is only on the bench machine")
def test_benchmark_corpus_parses_as_before():
    paths = _markdown_files(C20K)
    step = max(1, len(paths) // 2000) if not os.environ.get("QMEM_FULL_CORPUS") else 1
    assert _check_files(paths[::step]) >= min(len(paths), 1000)
