"""Bonsai tree, session 2026-12-03d: the technical boundary (agents / infrastructure / codebase /
projects / lessons) on real files (issue 27). Every example is written for the test (none is taken
from a measured file)."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import Context, explain, load_table
from qmem.memory.tree.match import for_table

TABLE = load_table({})


def domain(heading: str, body: str = "") -> str:
    return explain(heading, body, TABLE).domain


@pytest.mark.parametrize("heading, expected", [
    ("Schedule & Preferences", "dates"),        # two topics, the first named wins: not "schedule preferences"
    ("Calendar, schedule & preferences", "dates"),
    ("Schedule preferences", "identity"),       # the phrase itself still is one
])
def test_a_cue_of_several_words_never_spans_the_joint_of_a_list(heading, expected):
    assert domain(heading) == expected


def test_the_joint_holds_in_a_body_and_leaves_written_phrases_alone():
    cues = for_table(TABLE)
    assert "accounts" not in {c.domain for c in cues.find("the api, key rotation and logs")}
    assert "accounts" in {c.domain for c in cues.find("the api key lives in the vault")}
    assert "ci/cd" in {c.text for c in cues.find("ci/cd runs on every push", heading=True)}


@pytest.mark.parametrize("heading, body, expected", [
    ("Project root", "`/srv/build/orchard`", "codebase"),  # not the project itself: where its code is
    ("Important directories", "", "important-directories"),  # a bare word for folders names no domain
    ("Key directories", "- ~/orchard/api/ — the HTTP handlers\n- ~/orchard/web/ — the front end", "codebase"),
    ("Sprint 2 files changed", "- `src/cart.ts` — totals\n- `src/pay.ts` — refunds", "codebase"),
])
def test_where_the_code_lives_and_the_files_a_piece_of_work_wrote_are_the_code(heading, body, expected):
    assert domain(heading, body) == expected


_AGENT_FILE = [
    ("Skills", "- weather skill\n- calendar skill"),
    ("Models", "- the agents run on a local llm; sub-agents on a bigger one"),
    ("Heartbeat", "- the agent checks the inbox every hour"),
    ("Known Issues", "- the small model sends wrong tool arguments now and then\n- the mini host hangs after updates"),
]
_PRODUCT_FILE = [
    ("Overview", "- a recipe app for families"),
    ("Stack", "- React front end, Postgres"),
    ("Roadmap", "- offline mode in Q3"),
    ("Known Issues", "- the list view flickers on Android\n- exports drop accented names"),
]


def _filed(sections: list[tuple[str, str]], heading: str) -> str:
    context = Context(TABLE, [body for _, body in sections])
    return next(explain(h, b, TABLE, context).domain for h, b in sections if h == heading)


def test_known_issues_are_gotchas_in_an_agent_s_memory_and_bugs_in_a_product_s():
    assert _filed(_AGENT_FILE, "Known Issues") == "lessons"
    assert _filed(_PRODUCT_FILE, "Known Issues") == "codebase"
    assert _filed(_AGENT_FILE[:3] + [("Technical debt & known issues", "- the retry loop")],
                  "Technical debt & known issues") == "codebase"  # names the code as well


@pytest.mark.parametrize("heading, body, expected", [
    ("Config Notes", "- memory flush before compaction: on\n- session search: on", "agents"),
    ("Configuration", "- fallback: the big model, then the small one", "agents"),
    ("Mac mini config", "- 24 GB, always on\n- sleeps never", "infrastructure"),  # a machine named
    ("Server settings", "- nginx in front, certbot renews", "infrastructure"),
    ("⚙️ Configuration", "- nightly backup script", "infrastructure"),  # the machine's emoji
])
def test_settings_that_name_no_machine_are_the_agent_s_own_in_its_memory(heading, body, expected):
    assert _filed(_AGENT_FILE[:3] + [(heading, body)], heading) == expected


@pytest.mark.parametrize("heading", ["About This Agent", "About the assistant", "Agent identity"])
def test_the_agent_s_own_profile_is_identity(heading):
    assert domain(heading, "- name: Wren\n- runs on a home server\n- speaks English and Dutch") == "identity"


def test_an_agent_s_routines_are_its_scheduled_runs_and_outside_its_memory_nothing_moves():
    runs = "- 7 AM: market digest\n- night: work through the open tasks"
    assert _filed(_AGENT_FILE[:3] + [("📅 Daily Routines", runs)], "📅 Daily Routines") == "agents"
    assert _filed(_AGENT_FILE[:3] + [("My morning routine", "- coffee, then a run")], "My morning routine") == "identity"
    assert _filed(_PRODUCT_FILE[:3] + [("Daily Routines", runs)], "Daily Routines") == "identity"
    # outside an agent's memory, settings stay the machine's too
    assert _filed(_PRODUCT_FILE[:3] + [("Config Notes", "- memory flush before compaction: on")],
                  "Config Notes") == "infrastructure"
