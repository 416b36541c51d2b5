"""Bonsai tree: general facts of how people write memory headings (issue 27, domains that
generalise): an imperative heading is an order, a log's label names no subject, and a section
with no subject of its own is filed where its confidential part must live. Every example is
written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import explain, load_table, topicless
from qmem.memory.tree.instructions import imperative_heading, instruction

TABLE = load_table({})
PROSE = "Check the numbers twice; a wrong figure costs more than a late one.\n"


@pytest.mark.parametrize("heading", [
    "Verify Before Reporting, Non-Negotiable", "⚠️ CRITICAL: Keep this file under 8,000 chars",
    "Avoid restarting the gateway", "Review the PR before merging", "Use `rg` for searching",
    "Never skip the tests before merging", "Don't restart the box", "Check this before deploying", "Keep Learning",
])
def test_a_heading_that_is_an_imperative_clause_is_an_order(heading):
    assert imperative_heading(heading)
    assert instruction(heading, PROSE, TABLE)


@pytest.mark.parametrize("heading", [
    "Test Results", "Email Marketing", "Update on the migration", "Call with Sam", "Schedule for next week",
    "Report Format", "Run on boot", "Search Priority", "Update: 2026-02-20", "Review Queue", "Use cases",
])
def test_a_noun_phrase_that_opens_with_a_verb_s_form_is_no_order(heading):
    assert imperative_heading(heading) == ""
    assert not instruction(heading, PROSE, TABLE).startswith("heading is an order")


@pytest.mark.parametrize("heading", [
    "Update: 2026-02-20", "Update: 2026-03-05 (Desktop Session)", "Session 3", "Today's notes", "Morning session",
    "Daily log", "更新 2026-03-01", "업데이트", "Sesión de hoy", "Обновление",
])
def test_a_log_s_label_names_no_topic(heading):
    assert topicless(heading)


@pytest.mark.parametrize("heading", ["Daily Routines", "New Cron Jobs", "Session handling in the API", "日志系统",
                                     "Server log rotation"])
def test_a_heading_with_a_subject_beside_a_log_word_has_a_topic(heading):
    assert not topicless(heading)


LOG_DAY = """### Agent overhaul
- the inbox agent now drafts replies, the content agent posts twice a day

### Personal debt (CONFIDENTIAL — owner-only)
- owes the bank 12,000 EUR, 500 a month
"""


@pytest.mark.parametrize("heading", ["Update: 2026-03-05 (Desktop Session)", "2026-03-05", "Session 12"])
def test_a_section_without_a_subject_goes_where_its_confidential_part_must_live(heading):
    verdict = explain(heading, LOG_DAY, TABLE)
    assert verdict.domain == "private", verdict.cues
    assert verdict.cues[0].startswith("a subsection is marked confidential")


def test_a_section_with_a_subject_keeps_it_beside_a_confidential_subsection():
    body = "- Quarterly VAT return due 10 April\n- rent is paid by bank transfer\n\n" \
           "### Personal debt (CONFIDENTIAL — owner-only)\n- owes her brother 12,000 EUR\n"
    assert explain("Finances", body, TABLE).domain == "business"


@pytest.mark.parametrize("heading", ["오늘의 업데이트", "메모는", "중요한 것들", "기타 메모", "今日のメモ", "その他のメモ"])
def test_a_word_for_memory_with_its_particle_is_still_one(heading):
    # Korean josa and Japanese joshi are bound to the noun before them: they name no topic
    assert topicless(heading)


@pytest.mark.parametrize("heading", ["서버의 메모", "메모장", "今日の作業メモ", "좋아하는 것"])
def test_a_particle_beside_a_topic_leaves_the_topic(heading):
    assert not topicless(heading)


def test_under_a_topicless_korean_heading_a_weak_body_decides():
    assert explain("오늘의 메모", "- 서버 재시작\n", TABLE).domain == "infrastructure"
    assert explain("오늘의 산책", "- 서버 재시작\n", TABLE).domain != "infrastructure"  # a walk is a topic


@pytest.mark.parametrize("heading, body, expected", [
    ("Strategic framework", "- the agent runs a research sub-agent, its prompts and skills; model fallbacks\n", "agents"),
    ("Frameworks", "- a few notes\n", "codebase"),  # the word alone is still the code's
    ("Frontend frameworks", "- react and vite; the components live in src/\n", "codebase"),
])
def test_framework_is_a_broad_word_the_body_settles(heading, body, expected):
    assert explain(heading, body, TABLE).domain == expected


# Claude Code's auto memory: MEMORY.md is an index of one file per memory, named by its type
FEEDBACK = ("- [feedback_no-summaries.md](feedback_no-summaries.md) — no closing summary, the diff says it\n"
            "- [feedback_real-db.md](memory/feedback_real-db.md) — integration tests hit a real database\n")
PROJECT = "- [project_ferry-app.md](project_ferry-app.md) — booking app, store review next week\n"


def test_an_index_of_feedback_memories_is_the_user_s_guidance_and_pinned():
    assert instruction("Tests", FEEDBACK, TABLE).startswith("its items index feedback memories")
    assert instruction("Tests", FEEDBACK + PROJECT, TABLE) == ""  # a mixed index is no set of rules


def test_an_index_of_project_memories_is_ongoing_work():
    assert explain("Ferry", PROJECT, TABLE).domain == "projects"
    assert explain("Ferry", "- [ferry.md](ferry.md) — booking app, store review next week\n", TABLE).domain == "ferry"


@pytest.mark.parametrize("heading, body, expected", [
    ("Newsletter workflow", "- draft on Monday, the project milestone list, roadmap and the next release plan\n", "projects"),
    ("Workflow", "- a few steps\n", "agents"),  # alone, still the agent's
    ("Agent workflow", "- the agent drafts, the sub-agent reviews\n", "agents"),
])
def test_workflow_is_a_broad_word_the_body_settles(heading, body, expected):
    assert explain(heading, body, TABLE).domain == expected
