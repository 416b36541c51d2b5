"""Bonsai tree: English error classes seen on real users' MEMORY.md files the rules were not
written from (issue 27, realset2/realset4): standing rules written as plain imperatives, with no
"always"/"never"/"must" in them. Every example is written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import load_table
from qmem.memory.tree.instructions import english_order, instruction

TABLE = load_table({})


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
