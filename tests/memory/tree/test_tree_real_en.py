"""Bonsai tree: English error classes seen on real users' MEMORY.md files the rules were not
written from (issue 27, realset2/realset4): standing rules written as plain imperatives, with no
"always"/"never"/"must" in them; an agent's scheduled runs and watches; work left open; an aside
saying the thing is past. Every example is written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import Context, explain, load_table
from qmem.memory.tree.instructions import english_order, instruction

TABLE = load_table({})


def domain(heading: str, body: str = "") -> str:
    return explain(heading, body, TABLE).domain


@pytest.mark.parametrize("item", [
    "- Use UTC for every timestamp you show the user.",
    "* Keep answers short unless asked for detail.",
    "- **Tone:** prefer plain words to jargon",
    "1. **Curious, not nosy:** Ask one question at a time.",
    "- When the user says `ship it`, treat it as approval to merge.",
    "- If a build is still running, wait for it before reporting.",
    "- Weekly reports should list open risks first.",
    "- remove filler before sending",
])
def test_an_imperative_item_is_an_order_without_an_order_word(item):
    assert english_order(item)


@pytest.mark.parametrize("item", [
    "- Backup runs nightly to the NAS",  # a noun that is also a verb is left out of the verbs
    "- Test suite is green on main",  # the verb's noun sense, then a verb: a statement
    "- [ ] Review the pull request from Ana",  # a checkbox is a task
    "- **Primary channel:** Signal",
    "- The staging box moved to Frankfurt",
])
def test_a_statement_is_no_order(item):
    assert not english_order(item)


def test_a_list_of_imperatives_under_a_topic_heading_is_standing_instructions():
    body = ("- Use metric units in every answer.\n- Keep replies under ten lines.\n"
            "- Prefer tables for comparisons.\n- Cite the source document by name.\n")
    assert instruction("Answer Style", body, TABLE)
    assert instruction("Core Preferences", body, TABLE)  # a domain cue, but every item is an order


def test_half_orders_under_a_heading_that_names_no_domain_are_instructions():
    body = ("- Ask before sending anything outside the team.\n- Quiet hours are 22:00 to 07:00.\n"
            "- Check the shared inbox twice a day.\n- The inbox is labelled by client.\n")
    assert instruction("Out of Hours", body, TABLE)


def test_nested_details_do_not_dilute_the_orders_above_them():
    body = ("- Store meeting notes in the notes folder.\n- Meeting notes should include:\n"
            "  - the date\n  - who attended\n  - decisions\n  - next steps\n")
    assert instruction("Meeting Notes", body, TABLE)


@pytest.mark.parametrize("heading", ["Next Priorities", "Open work", "Current Tasks"])
def test_imperatives_under_a_heading_of_plans_are_tasks(heading):
    body = ("- Run the first launch post on Friday\n- Confirm the pairing on the new laptop\n"
            "- Review the draft pricing page\n")
    assert instruction(heading, body, TABLE) == ""


def test_a_dated_entry_of_half_orders_is_a_record_not_rules():
    body = ("- The gateway was down for two hours.\n- Restart it with the service script.\n"
            "- Check the logs before restarting.\n- Cause: a full disk.\n")
    assert instruction("2026-03-24 gateway outage", body, TABLE) == ""


_AGENT_FILE = ["- the skills I load: summarise, translate\n", "- MCP servers: search, calendar\n",
               "- the model is a small local LLM; prompts live in prompts/\n", "- sub-agents for research\n",
               "- the VPS and its backups\n", "- family birthdays\n"]


@pytest.mark.parametrize("heading", ["Morning Digest (7 AM cron)", "Competitor Blog Monitoring (since March)"])
def test_in_an_agent_s_own_memory_its_cron_runs_and_watches_are_the_agent_s(heading):
    context = Context(TABLE, _AGENT_FILE)
    body = "- sends a short summary to the chat\n- checks the sources listed below\n"
    assert explain(heading, body, TABLE, context).domain == "agents"


def test_in_a_file_about_machines_cron_and_monitoring_stay_infrastructure():
    context = Context(TABLE, ["- the VPS and its backups\n", "- family birthdays\n", "- invoices to clients\n",
                              "- the router and wifi\n", "- the skills I load\n"])
    body = "- disk usage alerts\n- uptime checks every minute\n"
    assert explain("Server Monitoring", body, TABLE, context).domain == "infrastructure"
    assert explain("Nightly cron", body, TABLE, context).domain == "infrastructure"


@pytest.mark.parametrize("heading", ["Open work", "Long-running threads / open work", "Open items", "Loose ends"])
def test_work_left_open_is_projects(heading):
    assert domain(heading, "- pair the phone when Ana is back\n- check the timezone with her\n") == "projects"



@pytest.mark.parametrize("item", [
    "* When a task is closed:",  # a condition that opens the orders nested under it
    "* Before sending a reminder, first check whether it was answered.",
    "* Only send the digest when something changed.",
    "- React with an emoji instead of replying to every message",
])
def test_a_condition_a_leading_only_and_a_colon_still_open_an_order(item):
    assert english_order(item)


def test_when_as_a_statement_of_fact_is_no_order():
    assert not english_order("- When the server restarts, the cache is empty.")


def test_half_orders_under_a_heading_about_the_user_s_preferences_are_instructions():
    body = ("- Keep it short and practical\n- Skip the small talk\n- Mornings are for deep work\n"
            "- Coffee, no sugar\n")
    assert instruction("Preferences & Boundaries", body, TABLE)
    facts = "- Prefers short answers\n- Likes hiking and jazz\n- Coffee, no sugar\n- Keep the tone light\n"
    assert instruction("Ana's Preferences", facts, TABLE) == ""  # one order in four: who she is


@pytest.mark.parametrize("heading", ["Model trial (HISTORICAL — March, replaced by the new model)",
                                     "Search provider (superseded)", "Reading list (obsolete)"])
def test_an_aside_that_says_the_thing_is_past_archives_it(heading):
    assert domain(heading, "- used for three weeks by the agent\n- the prompts and the costs\n") == "archive"


def test_a_past_word_outside_an_aside_is_the_topic():
    assert domain("Historical prices", "- revenue per month, the invoices\n") == "business"
