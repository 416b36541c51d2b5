from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.text import markdown
from qmem.text.markdown import parse, section_span, slugify, split_lines


def test_sections_split_at_every_heading_with_breadcrumbs_and_lines():
    text = "intro\n\n# Top\nbody\n## Child\nchild body\n### Leaf\nleaf\n## Sibling\nsib\n"
    sections = parse(text)
    assert [s.heading for s in sections] == ["", "Top", "Top › Child", "Top › Child › Leaf", "Top › Sibling"]
    assert [(s.line_start, s.line_end) for s in sections] == [(1, 1), (3, 4), (5, 6), (7, 8), (9, 10)]
    assert sections[2].body == "child body"
    assert sections[2].body_line == 6
    assert sections[0].level == 0 and sections[0].anchor == ""


def test_bare_container_headings_are_not_sections_but_leaves_are():
    sections = parse("# Title\n## Empty leaf\n## Parent\n### Child\ntext\n")
    assert [s.heading for s in sections] == ["Title › Empty leaf", "Title › Parent › Child"]


def test_headings_inside_fenced_code_are_not_sections():
    text = "# Real\n```bash\n# comment, not a heading\n```\n~~~~\n## also not\n~~~~\n## Second\n"
    assert [s.title for s in parse(text)] == ["Real", "Second"]


def test_fence_closes_only_with_same_char_and_length():
    text = "# A\n````\n```\n# inside\n````\n# B\n"
    assert [s.title for s in parse(text)] == ["A", "B"]


def test_hash_without_space_is_not_a_heading():
    sections = parse("#hashtag\n# Real\n")
    assert [(s.level, s.title, s.body) for s in sections] == [(0, "", "#hashtag"), (1, "Real", "")]


def test_github_anchor_rules():
    assert slugify("Windows PS5 编码地狱") == "windows-ps5-编码地狱"
    assert slugify("Hello, World!") == "hello-world"
    assert slugify("C++ & Rust") == "c--rust"
    assert slugify("A [link](http://example.com) here") == "a-link-here"
    assert slugify("snake_case stays") == "snake_case-stays"
    assert slugify("Emoji 🚀 gone") == "emoji--gone"


def test_duplicate_headings_get_numbered_anchors():
    anchors = [s.anchor for s in parse("# Notes\na\n## Notes\nb\n## Notes\nc\n# notes-1\n")]
    assert anchors == ["notes", "notes-1", "notes-2", "notes-1-1"]


def test_dates_from_file_name_front_matter_and_heading():
    assert parse("- x\n", file_date=20260228)[0].date == 20260228
    assert parse("---\ndate: 2026-01-05\n---\n# T\nx\n", file_date=20260228)[0].date == 20260105
    sections = parse("# Log\n## 2026-03-01 meeting\nx\n## Other\ny\n", file_date=20260228)
    assert [s.date for s in sections] == [20260301, 20260228]
    assert markdown.parse_date("2026-02-30") == 0  # not a real day


def test_front_matter_lines_are_not_indexed_but_line_numbers_hold():
    sections = parse("---\ntitle: K\ndate: 2026-01-01\n---\nfirst\n# H\nx\n")
    assert sections[0].body == "first"
    assert sections[0].line_start == 5
    assert sections[1].line_start == 6


def test_entry_types_and_lifecycle_tags():
    text = (
        "## [S] Skill heading\n"
        "- [K] knowledge entry\n"
        "- [!] [P1|expire:2026-06-01] secret rotation\n"
        "- [P0] permanent\n"
        "- [ ] a checkbox is not a type\n"
        "* [E][P2|expire:2026-04-01] event\n"
    )
    s = parse(text)[0]
    assert s.types == ["!", "E", "K", "S"]
    assert s.priority == 0
    assert s.expires == 20260401
    assert s.heading == "Skill heading"  # tags are left out of the breadcrumb
    assert s.anchor == "s-skill-heading"  # but kept in the anchor, as GitHub does


def test_long_sections_are_windowed_with_exact_line_ranges():
    body = "\n".join(f"line {i}" for i in range(200))
    sections = parse("# Big\n" + body + "\n")
    assert len(sections) == 3
    assert sections[0].line_start == 1
    assert [(s.line_start, s.line_end) for s in sections[1:]] == [(82, 161), (162, 201)]
    assert all(s.anchor == "big" for s in sections)
    rebuilt = "\n".join(s.body for s in sections)
    assert rebuilt == body


def test_crlf_and_empty_input():
    assert parse("") == []
    assert parse("\n\n  \n") == []
    s = parse("# A\r\nx\r\n# B\r\ny")
    assert [(x.title, x.body) for x in s] == [("A", "x"), ("B", "y")]


def test_section_span_includes_subsections_and_accepts_bare_anchor():
    lines = split_lines("# A\n## [S] Tool tips\ntext\n### Deeper\nmore\n## Next\n")
    assert section_span(lines, "s-tool-tips") == (1, 5)
    assert section_span(lines, "tool-tips") == (1, 5)
    assert section_span(lines, "next") == (5, 6)
    assert section_span(lines, "missing") is None


markdown_text = st.lists(
    st.one_of(
        st.sampled_from(["# Title", "## Sub", "### 编码", "```", "~~~", "- [K] fact", "---", "", "text 中文"]),
        st.text(max_size=40),
    ),
    max_size=60,
).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(markdown_text)
def test_any_markdown_parses_into_ordered_sections_within_the_file(text):
    sections = parse(text)
    total = len(split_lines(text))
    last_start = 0
    for s in sections:
        assert 1 <= s.line_start <= s.line_end <= max(total, 1)
        assert s.line_start >= last_start
        last_start = s.line_start
        assert s.body_line >= s.line_start
