"""`[tree.place]`: a reader's word on a section's domain, and what still outranks it."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from qmem.base.errors import ConfigError
from qmem.faces.cli.app import app
from qmem.memory.tree import grow as tree
from qmem.memory.tree.place import PLACED

from .test_tree_invariants import DAY, FLAT, make_ws

TEXT = ("# Memory\n\nIntro line.\n\n"
        "## Garden\n- [K] the tomatoes go in the south bed in May\n- [K] compost turned every two weeks\n\n"
        "## Deploy notes\n- [K] deploys go out on Tuesday after the standup\n\n"
        "## Keys\n- [K] the billing API key is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c\n\n"
        "## Confidential health notes\n- [K] the dentist appointment is on the 3rd\n\n"
        "## [pin] Ground rules\n- [K] answer in English\n\n"
        "## Standing orders\n- always run the tests before a commit\n- never push on a Friday\n"
        "- always answer in the user's language\n")


def planned(text: str, place: dict[str, object]) -> dict[str, object]:
    """section title → its part in the plan migrate would make."""
    return {p.title: p for p in tree.plan(text, {"place": place}, root_budget=400).parts}


def test_a_placed_section_goes_where_the_place_says_with_that_evidence():
    parts = planned(TEXT, {"Deploy notes": "codebase", "garden": "hobbies"})
    assert parts["Deploy notes"].domain == "codebase" and parts["Deploy notes"].verdict.cues == [PLACED]
    assert parts["Garden"].domain == "hobbies"  # a new domain, its heading matched in any case
    assert parts["Garden"].files == [("hobbies/garden.md", parts["Garden"].text)]
    unplaced = planned(TEXT, {})
    assert unplaced["Deploy notes"].domain != "codebase"  # the place, not the cues, chose it


@pytest.mark.parametrize("value, fragment", [
    ("My Hobbies", "such as 'my-hobbies'"), ("../etc", "not a known domain"), ("", "not a known domain"),
    (3, "expected a domain name"), ("infra/cloud", "not a known domain"),
])
def test_a_bad_domain_is_a_config_error(value, fragment):
    with pytest.raises(ConfigError, match="tree.place") as caught:
        tree.plan(TEXT, {"place": {"Garden": value}})
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_a_place_table_that_is_not_a_table_is_a_config_error():
    with pytest.raises(ConfigError, match="expected a table"):
        tree.plan(TEXT, {"place": ["Garden", "hobbies"]})


def test_secrets_confidential_marks_and_explicit_pins_outrank_a_place():
    the_plan = tree.plan(TEXT, {"place": {"Keys": "notes", "Confidential health notes": "dates",
                                          "[pin] Ground rules": "codebase"}}, root_budget=400)
    parts = {p.title: p for p in the_plan.parts}
    assert parts["Keys"].domain == "accounts"
    assert parts["Confidential health notes"].domain == "private"
    assert parts["[pin] Ground rules"].pinned
    warned = " | ".join(the_plan.warnings)
    assert "'Keys' = 'notes' not applied: the section holds a secret (api key on its line 2)" in warned
    assert "marks it confidential; it stays in private" in warned
    assert "a pin outranks a place" in warned


def test_a_section_pinned_only_by_its_wording_is_filed_where_placed():
    assert planned(TEXT, {})["Standing orders"].pinned  # read as rules: kept in the root
    part = planned(TEXT, {"Standing orders": "codebase"})["Standing orders"]
    assert not part.pinned and part.domain == "codebase" and part.files


def test_migrate_reports_places_and_warns_of_a_key_that_names_no_section(tmp_path):
    ws = make_ws(tmp_path, TEXT)
    result = tree.migrate(ws, {"place": {"Deploy notes": "codebase", "Deploy note": "codebase"}}, force=True,
                          day=DAY, explain=True)
    assert os.path.isfile(os.path.join(ws.domains, "codebase", "deploy-notes.md"))
    row = next(r for r in result.sections if r["section"] == "Deploy notes")
    assert row["domain"] == "codebase" and row["why"] == [PLACED]
    assert "[tree.place] 'Deploy note' matches no section of MEMORY.md" in result.warnings
    assert result.settings["place"] == {"Deploy notes": "codebase", "Deploy note": "codebase"}
    tree.rollback(ws)
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == TEXT


def test_reindex_files_an_appended_section_by_its_place(tmp_path):
    ws = make_ws(tmp_path, TEXT)
    tree.migrate(ws, force=True, day=DAY)
    with open(ws.memory_md, "a", encoding="utf-8") as handle:
        handle.write("\n## Seeds to buy\n- [K] basil and coriander\n")
    result = tree.reindex(ws, day=DAY, tree_config={"place": {"Seeds to buy": "garden-shop", "Other": "dates"}})
    assert os.path.isfile(os.path.join(ws.domains, "garden-shop", "seeds-to-buy.md"))
    assert not any("Other" in w for w in result.warnings)  # keys name the whole file's sections, not just the added


def write_config(tmp_path, body: str) -> None:
    folder = tmp_path / "config"
    folder.mkdir(exist_ok=True)
    (folder / "collections.toml").write_text(body, encoding="utf-8")


def test_cli_migrate_dry_run_explain_and_json_show_the_place(tmp_path):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    write_config(tmp_path, '[tree.place]\n"Personal profile" = "people"\n"No such heading" = "dates"\n')
    runner = CliRunner()
    dry = runner.invoke(app, ["tree", "migrate", ws.root, "--dry-run", "--explain"])
    assert dry.exit_code == 0, dry.output
    assert "Personal profile → people: placed by [tree.place]" in dry.stdout
    assert "[tree.place] 'Personal profile' → people" in dry.stdout
    assert "'No such heading' matches no section" in dry.stderr
    assert not os.path.exists(ws.domains)
    data = json.loads(runner.invoke(app, ["tree", "migrate", ws.root, "--json", "--explain"]).stdout)
    row = next(r for r in data["sections"] if r["section"] == "Personal profile")
    assert row["domain"] == "people" and row["files"] == ["memory/domains/people/personal-profile.md"]
    assert os.path.isfile(os.path.join(ws.domains, "people", "personal-profile.md"))


def test_cli_a_bad_place_is_one_line_and_exit_2(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    write_config(tmp_path, '[tree.place]\n"Personal profile" = "Close Friends"\n')
    bad = CliRunner().invoke(app, ["tree", "migrate", ws.root, "--dry-run"])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "tree.place.'Personal profile'" in bad.stderr
    assert "'close-friends'" in bad.stderr
