"""Bonsai tree: error classes seen on real users' MEMORY.md files (issue 27, the real sets):
decorative emoji, the agent's own tools and schedules, phrasing a heading's words stand for,
dates without a year, rule words in an aside. Every example is written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import explain, load_table

TABLE = load_table({})


def domain(heading: str, body: str = "") -> str:
    return explain(heading, body, TABLE).domain


@pytest.mark.parametrize("heading, body, expected", [
    ("📦 Repository links", "- the main repo and a fork\n", "codebase"),  # the words, not the box
    ("🔗 Kundenliste", "- drei neue Kunden im März\n", "business"),
    ("🧠 Grundlagen der Methode", "- Phase 1: Interviews\n- Roadmap bis Mai, Meilensteine im Juni\n", "projects"),
])
def test_a_decorative_emoji_gives_way_to_the_heading_s_words_and_a_clear_body(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("📚 学んだこと・決定事項", "- タスクは週ごとに見直す\n", "lessons"),  # the emoji breaks the words' tie
    ("🔑", "- nothing else here\n", "accounts"),  # an emoji alone still names its domain
])
def test_an_emoji_still_counts_where_the_words_do_not_decide(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading", ["本月重點", "下季焦點", "待辦事項（家裡）"])
def test_traditional_chinese_words_for_focus_and_to_dos_name_projects(heading):
    assert domain(heading, "- 測試與建置流程要修好\n- 模組拆分\n") == "projects"
