"""One fence scanner (CommonMark's rule) behind every reader of Markdown: sections, the type
filter, the janitor, forget, distill and the tree agree on what is code."""

from __future__ import annotations

import json
from datetime import date

import pytest

from qmem.memory import daily, distill, forget, janitor
from qmem.memory.tree import shape
from qmem.memory.workspace import Workspace
from qmem.text import fences, markdown


def mask(text: str) -> str:
    """The fence mask as a string: C for code, . for prose, one character per line."""
    return "".join("C" if code else "." for code in fences.fenced(text.split("\n")))


@pytest.mark.parametrize(("text", "expected"), [
    ("a\n```\nb\n```\nc", ".CCC."),
    ("```\nb\n```python\nc\n```\nd", "CCCCC."),  # ```python inside a block is code, not its end
    ("````\n```\nb\n````\nc", "CCCC."),  # a shorter run does not close a longer fence
    ("```\nb\n~~~\nc\n```", "CCCCC"),  # nor a run of the other character
    ("~~~\nb\n~~~~ \nc", "CCC."),  # a longer run closes, trailing blanks allowed
    ("```\nb\n``` x\nc", "CCCC"),  # text after the run: not a close; a fence never closed runs to the end
    ("```npm install```\n# h\nc", "..."),  # a backtick info string with a backtick: inline code, no fence
    ("~~~ `x`\nb\n~~~\nc", "CCC."),  # a tilde fence's info string may hold backticks
    ("   ```\nb\n   ```\nc", "CCC."),  # up to three spaces of indentation
    ("    ```\nb\n    ```\nc", "...."),  # four is an indented code line, not a fence
    ("``\nb", ".."),
])
def test_the_commonmark_rule(text, expected):
    assert mask(text) == expected


def test_headings_inside_code_are_not_sections():
    text = "# A\n```\n# not a heading\n```python\n# still code\n```\n# B\nb\n"
    assert [s.heading for s in markdown.parse(text)] == ["A", "B"]
    assert [h.title for h in markdown.headings(text.split("\n"))] == ["A", "B"]


def test_entry_tags_inside_code_do_not_type_a_section():
    text = ("# Notes\n- [S] a real skill\n```markdown\n- [K] an example entry\n- [P1|expire:2020-01-01] x\n```\n\n"
            "# Only code\n~~~\n- [K] example\n~~~\n\n# Unclosed\n- [E] event\n```\n- [!] code to the end\n")
    sections = markdown.parse(text)
    assert [(s.heading, s.types, s.expires) for s in sections] == [
        ("Notes", ["S"], 0), ("Only code", [], 0), ("Unclosed", ["E"], 0)]
    assert "- [K] an example entry" in sections[0].body  # the code is still searchable text


def test_search_by_type_skips_code_blocks(cli, workspace):
    (workspace / "memory" / "howto.md").write_text(
        "# How to write entries\n\n```\n- [K] BSC USDC has 18 decimals\n```\n", encoding="utf-8")
    assert cli("collection", "create", "main", str(workspace)).code == 0
    found = json.loads(cli("search", "decimals", "--type", "K", "--json").out or "[]")
    assert found and all(hit["path"] != "memory/howto.md" for hit in found)
    assert "memory/howto.md" in {hit["path"] for hit in json.loads(cli("search", "decimals", "--json").out)}


EXPIRED_IN_CODE = """# Notes

```
old example
```python
- [P1|expire:2020-01-01] inside code, after a ```python line
```

````
```
- [P2|expire:2020-01-01] inside a four-backtick fence
````
- [K] [P1|expire:2020-01-02] a real expired entry
"""


def test_the_janitor_leaves_code_alone(workspace):
    ws = Workspace(str(workspace))
    (workspace / "memory" / "notes.md").write_text(EXPIRED_IN_CODE, encoding="utf-8")
    report = janitor.janitor(ws, today=date(2026, 3, 1))
    assert [m.text for m in report.moved] == ["- [K] [P1|expire:2020-01-02] a real expired entry"]
    left = (workspace / "memory" / "notes.md").read_text(encoding="utf-8")
    assert "inside code, after a" in left and "inside a four-backtick fence" in left


def test_forget_and_distill_skip_code(workspace):
    ws = Workspace(str(workspace))
    day = date(2026, 2, 28)
    (workspace / "memory" / "2026-02-28.md").write_text(
        "# 2026-02-28\n\n- [K] keep the wallet offline\n```\n- [K] wallet example in code\n```python\n"
        "- [S] wallet skill in code\n```\n", encoding="utf-8")
    assert [f.text for f in forget.find(ws, "wallet")] == ["- [K] keep the wallet offline"]
    report = distill.distill(ws, days=1, today=day, dry_run=True)
    assert [row["entry"] for row in report.added] == ["- [K] keep the wallet offline"]
    known = daily.known_texts(ws, day)
    assert "keep the wallet offline" in known and not [t for t in known if "in code" in t]


def test_an_entry_keeps_its_indented_code_block(workspace):
    ws = Workspace(str(workspace))
    (workspace / "memory" / "notes.md").write_text(
        "- [S] deploy like this\n  ```\n  - [K] not an entry\n  make deploy\n  ```\n- [K] next\n", encoding="utf-8")
    found = forget.find(ws, "deploy like this")
    assert [f.count for f in found] == [5]


def test_the_tree_summary_skips_code():
    text = "## Ops\n```\ncode line\n```python\nmore code\n```\nThe real first line.\n"
    assert shape.summary_line(text) == "The real first line."
