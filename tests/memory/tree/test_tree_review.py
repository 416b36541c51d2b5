"""`qmem tree review`: the weak placements of a migrated tree, each with its alternatives and the
exact `tree move` that applies one; moves and [tree.place] entries take a section off the list."""

from __future__ import annotations

import json
import shlex

import pytest
from typer.testing import CliRunner

from qmem.faces.cli.app import app
from qmem.memory.tree import grow as tree
from qmem.memory.tree import review as review_mod
from qmem.memory.tree.files import TreeError
from qmem.memory.tree.verdict import Verdict

from .test_tree_invariants import DAY, FLAT, make_ws, snapshot


def migrated(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    tree.migrate(ws, day=DAY)
    return ws


def rows(result) -> dict[str, dict]:
    return {str(row["leaf"]): row for row in result.weak}


def verdict(domain: str, cues: list[str], scores: dict[str, float], confident: bool = True) -> Verdict:
    out = Verdict(domain)
    out.cues, out.scores, out.confident = cues, scores, confident
    return out


def test_each_kind_of_weak_verdict_is_named_and_a_clear_one_is_not():
    assert review_mod.weakness(verdict("notes", ["named after its heading: no domain is clear"], {}, False), 2) \
        == "no clear domain: named after its heading: no domain is clear"
    assert review_mod.weakness(verdict("people", ["heading: on-call (+3)"], {"people": 3, "infrastructure": 6}), 2) \
        == "heading words only: no body evidence for people, some for infrastructure"
    assert review_mod.weakness(verdict("archive", ["heading: archive (+3)"], {"archive": 3}), 2) == ""  # nothing else said
    vague = verdict("accounts", ["body: wi-fi password (+2)", "the heading names no topic: the body's lead decides"],
                    {"accounts": 2, "identity": 1})
    assert review_mod.weakness(vague, 2).startswith("the heading names no topic")
    close = verdict("agents", ["heading: agents (+3)", "body: sub-agents (+2)"], {"agents": 5.5, "projects": 4})
    assert review_mod.weakness(close, 2) == "a close call: agents 5.5, projects 4 (within the confidence of 2)"
    assert review_mod.weakness(close, 1.5) == ""  # [tree] confidence sets how close is close
    clear = verdict("dates", ["heading: important dates (+6)", "body: birthdays (+1)"], {"dates": 8, "legal": 2})
    assert review_mod.weakness(clear, 2) == ""


def test_review_lists_the_weak_leaves_with_moves_that_work(tmp_path):
    ws = migrated(tmp_path)
    before = snapshot(ws.root)
    result = review_mod.review(ws)
    assert snapshot(ws.root) == before  # reads only
    found = rows(result)
    assert sorted(found) == ["memory/domains/accounts/notes.md", "memory/domains/agents/agents-and-tasks.md",
                             "memory/domains/infrastructure/api-quirks-and-tools.md", "memory/domains/notes/notes.md"]
    assert "memory/domains/dates/important-dates.md" not in found  # a clear verdict is not listed
    agents = found["memory/domains/agents/agents-and-tasks.md"]
    assert agents["section"] == "Agents and tasks" and agents["domain"] == "agents"
    assert [alt["domain"] for alt in agents["alternatives"]] == ["projects", "infrastructure", "codebase"]
    assert agents["commands"][0] == f"qmem tree move memory/domains/agents/agents-and-tasks.md projects -w {ws.root}"
    lonely = found["memory/domains/notes/notes.md"]
    assert lonely["alternatives"] == [] and lonely["template"].endswith(f"notes/notes.md DOMAIN -w {ws.root}")
    assert result.skipped == {"pinned": 1} and result.sections == 16 and "rules" in result.domains
    moved = CliRunner().invoke(app, shlex.split(str(agents["commands"][0]))[1:])  # the command as printed
    assert moved.exit_code == 0, moved.output
    again = review_mod.review(ws)
    assert "memory/domains/agents/agents-and-tasks.md" not in rows(again)
    assert again.skipped == {"pinned": 1, "moved since migrate": 1}  # the config was not passed: not placed


def test_a_recorded_move_is_placed_and_a_second_notes_is_still_found(tmp_path):
    ws = migrated(tmp_path)
    config = tmp_path / "config" / "collections.toml"  # the autouse fixture's QMEM_CONFIG
    runner = CliRunner()
    assert runner.invoke(app, ["tree", "move", "memory/domains/accounts/notes.md", "identity", "-w", ws.root]).exit_code == 0
    assert not config.exists()  # two sections are headed Notes: nothing recorded
    assert runner.invoke(app, ["tree", "move", "Agents and tasks", "projects", "-w", ws.root]).exit_code == 0
    data = json.loads(runner.invoke(app, ["tree", "review", "-w", ws.root, "--json"]).stdout)
    assert data["skipped"] == {"pinned": 1, "moved since migrate": 1, "placed": 1}
    leaves = [row["leaf"] for row in data["weak"]]
    assert leaves == ["memory/domains/infrastructure/api-quirks-and-tools.md", "memory/domains/notes/notes.md"]
    assert set(data) == {"workspace", "sections", "weak", "skipped", "domains"}
    assert set(data["weak"][0]) == {"section", "line", "leaf", "domain", "weak", "why", "tokens", "alternatives",
                                    "commands", "template"}


def test_cli_review_text_and_refusals(tmp_path):
    ws = migrated(tmp_path)
    runner = CliRunner()
    text = runner.invoke(app, ["tree", "review", "--workspace", ws.root])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert "memory/domains/agents/agents-and-tasks.md  ('Agents and tasks', line 66, ~73 tokens)" in lines
    assert f"  or projects (4): qmem tree move memory/domains/agents/agents-and-tasks.md projects -w {ws.root}" in lines
    assert f"  no other domain has evidence: qmem tree move memory/domains/notes/notes.md DOMAIN -w {ws.root}" in lines
    assert lines[-1].startswith("4 weak placements of 16 sections (not reviewed: 1 pinned); domains: accounts, ")
    flat = make_ws(tmp_path, "# Memory\n\n## A\n- x\n", "flat")
    bad = runner.invoke(app, ["tree", "review", "-w", flat.root])
    assert bad.exit_code == 2 and bad.stdout == "" and "no tree here yet" in bad.stderr and bad.stderr.count("\n") == 1
    with pytest.raises(TreeError, match="no tree here yet"):
        review_mod.review(flat)
