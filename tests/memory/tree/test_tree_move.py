"""`qmem tree move LEAF DOMAIN`: a leaf (or a split section's folder) to another domain, then reindex;
rollback stays byte-exact, reindex keeps the move, nothing is deleted or overwritten."""

from __future__ import annotations

import json
import os
import stat

import pytest
from typer.testing import CliRunner

from qmem.faces.cli.app import app
from qmem.memory.tree import grow as tree
from qmem.memory.tree import move as move_mod
from qmem.memory.tree.files import TreeError

from ...conftest import ROOT
from .test_tree_invariants import DAY, FLAT, make_ws, snapshot

BIG = ROOT / "tests" / "fixtures" / "tree" / "en-08-big-research-log.md"


def flat(tmp_path, name: str = "ws"):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original, name)
    tree.migrate(ws, day=DAY)
    return ws, original


def big(tmp_path):
    original = BIG.read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original, "lab")
    tree.migrate(ws, force=True, day=DAY)
    return ws, original


def exists(ws, rel: str) -> bool:
    return os.path.isfile(os.path.join(ws.domains, rel))


def test_a_leaf_moves_by_any_of_its_paths_and_the_indexes_follow(tmp_path):
    ws, _ = flat(tmp_path)
    result = move_mod.move(ws, "memory/domains/identity/personal-profile.md", "people", day=DAY)
    assert result.changed and result.action == "move"
    assert exists(ws, "people/personal-profile.md") and not exists(ws, "identity/personal-profile.md")
    assert "personal-profile.md" in open(os.path.join(ws.domains, "people", "_index.md"), encoding="utf-8").read()
    assert "personal-profile" in result.domains["people"]["leaves"]
    assert result.moved[0] == {"what": "leaf", "from": "memory/domains/identity/personal-profile.md",
                               "to": "memory/domains/people/personal-profile.md"}
    move_mod.move(ws, "people/personal-profile.md", "dates", day=DAY)  # from memory/domains
    move_mod.move(ws, os.path.join(ws.domains, "dates", "personal-profile.md"), "identity", day=DAY)  # absolute
    assert exists(ws, "identity/personal-profile.md")
    assert not os.path.exists(os.path.join(ws.domains, "people"))  # an emptied domain leaves the root and disk


def test_an_emptied_domain_folder_that_still_holds_a_file_stays(tmp_path):
    ws, _ = flat(tmp_path)
    hand = os.path.join(ws.domains, "legal", "draft.txt")
    with open(hand, "w", encoding="utf-8") as handle:
        handle.write("not a leaf: qmem never made it\n")
    move_mod.move(ws, "legal/legal.md", "business", day=DAY)
    assert sorted(os.listdir(os.path.join(ws.domains, "legal"))) == ["draft.txt"]  # the folder and the file stay
    assert "**legal**" not in open(ws.memory_md, encoding="utf-8").read()  # the domain left the root


def test_a_heading_names_its_leaf_and_an_ambiguous_one_is_refused(tmp_path):
    ws, _ = flat(tmp_path)
    move_mod.move(ws, "personal PROFILE", "people", day=DAY)
    assert exists(ws, "people/personal-profile.md")
    with pytest.raises(TreeError, match="names 2 leaves .*accounts/notes.md.*notes/notes.md.*give the leaf's path"):
        move_mod.move(ws, "Notes", "people", day=DAY)


def test_a_name_clash_gets_a_new_name_and_says_so(tmp_path):
    ws, _ = flat(tmp_path)
    before = open(os.path.join(ws.domains, "accounts", "notes.md"), "rb").read()
    result = move_mod.move(ws, "notes/notes.md", "accounts", day=DAY)
    assert exists(ws, "accounts/notes-2.md") and open(os.path.join(ws.domains, "accounts", "notes.md"), "rb").read() == before
    assert "(memory/domains/accounts/notes.md exists: named notes-2.md)" in result.message


def test_a_split_section_moves_as_one_folder(tmp_path):
    ws, original = big(tmp_path)
    parts = sorted(os.listdir(os.path.join(ws.domains, "projects", "project-log")))
    assert len(parts) > 3
    result = move_mod.move(ws, "projects/project-log/lab-website.md", "research", day=DAY)
    assert sorted(os.listdir(os.path.join(ws.domains, "research", "project-log"))) == parts
    assert result.moved[0]["what"] == f"section folder ({len(parts)} leaves)"
    assert not os.path.exists(os.path.join(ws.domains, "projects"))
    move_mod.move(ws, "Project Log", "projects", day=DAY)  # its heading names the folder too
    assert sorted(os.listdir(os.path.join(ws.domains, "projects", "project-log"))) == parts
    tree.rollback(ws)
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original


def test_rollback_is_exact_after_moves_and_reindex_keeps_them(tmp_path):
    ws, original = flat(tmp_path)
    move_mod.move(ws, "identity/personal-profile.md", "people", day=DAY)
    move_mod.move(ws, "notes/notes.md", "accounts", day=DAY)  # a clash: accounts/notes-2.md
    move_mod.move(ws, "rules/core-rules.md", "codebase", day=DAY)  # the rules the root points to
    root = open(ws.memory_md, encoding="utf-8").read()
    assert "`memory/domains/codebase/core-rules.md`" in root and "rules/core-rules.md" not in root
    assert tree.reassemble(ws).decode("utf-8") == original
    again = tree.reindex(ws, day=DAY)
    assert not again.changed and exists(ws, "people/personal-profile.md") and exists(ws, "accounts/notes-2.md")
    assert open(ws.memory_md, encoding="utf-8").read() == root
    result = tree.rollback(ws)  # no --force: the moved leaves are still migrate's own
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original
    assert not result.rescue and not os.path.exists(ws.domains)


def test_a_moved_leaf_that_was_edited_is_still_kept_by_rollback(tmp_path):
    ws, original = flat(tmp_path)
    move_mod.move(ws, "identity/personal-profile.md", "people", day=DAY)
    with open(os.path.join(ws.domains, "people", "personal-profile.md"), "a", encoding="utf-8") as handle:
        handle.write("- [P] likes hiking\n")
    with pytest.raises(TreeError, match="people/personal-profile.md \\(edited\\)"):
        tree.rollback(ws)
    result = tree.rollback(ws, force=True)
    kept = os.path.join(ws.root, result.rescue, "domains", "people", "personal-profile.md")
    assert "likes hiking" in open(kept, encoding="utf-8").read()
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original


def test_a_dry_run_writes_nothing(tmp_path):
    ws, _ = flat(tmp_path)
    before = snapshot(ws.root)
    result = move_mod.move(ws, "identity/personal-profile.md", "people", dry_run=True, day=DAY)
    assert snapshot(ws.root) == before and result.dry_run and not result.changed
    assert result.written == ["memory/domains/people/personal-profile.md"]
    assert "would move memory/domains/identity/personal-profile.md → memory/domains/people/personal-profile.md" in result.message


def test_moving_into_its_own_domain_changes_nothing(tmp_path):
    ws, _ = flat(tmp_path)
    before = snapshot(ws.root)
    result = move_mod.move(ws, "identity/personal-profile.md", "identity", day=DAY)
    assert not result.changed and "already in identity" in result.message and snapshot(ws.root) == before


def test_bad_input_is_refused_in_one_line(tmp_path):
    ws, _ = flat(tmp_path)
    outside = tmp_path / "elsewhere.md"
    outside.write_text("## Elsewhere\n", encoding="utf-8")
    os.symlink(os.path.join(ws.domains, "legal", "legal.md"), os.path.join(ws.domains, "legal", "link.md"))
    before = snapshot(ws.domains)  # before the FIFO: reading one blocks until a writer opens it
    pipe = os.path.join(ws.domains, "legal", "pipe.md")
    os.mkfifo(pipe)
    cases = {
        "no-such-leaf": "no leaf or section heading 'no-such-leaf'",
        str(outside): "outside the workspace",
        "../elsewhere.md": "outside the workspace",
        "MEMORY.md": "not a leaf under memory/domains",
        "memory/2026-02-28.md": "not a leaf under memory/domains",
        "legal/link.md": "not a regular file (a symbolic link)",
        "legal/pipe.md": "not a regular file",
        "legal/_index.md": "not a leaf (an index",
        "memory/domains/.qmem-tree.json": "not a leaf under memory/domains",
    }
    for leaf, message in cases.items():
        with pytest.raises(TreeError) as caught:
            move_mod.move(ws, leaf, "people", day=DAY)
        assert message in str(caught.value) and "\n" not in str(caught.value), leaf
    for domain in ("People Stuff", "../x", "a/b", ".hidden", ""):
        with pytest.raises(TreeError, match="not a known domain"):
            move_mod.move(ws, "legal/legal.md", domain, day=DAY)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)  # left where it was, never opened
    os.unlink(pipe)
    assert snapshot(ws.domains) == before


def test_a_workspace_not_migrated_is_refused(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    with pytest.raises(TreeError, match="no tree here yet"):
        move_mod.move(ws, "legal/legal.md", "people")


def test_cli_move_every_flag(tmp_path):
    ws, original = flat(tmp_path)
    runner = CliRunner()
    dry = runner.invoke(app, ["tree", "move", "identity/personal-profile.md", "people", "-w", ws.root, "--dry-run"])
    assert dry.exit_code == 0 and "dry run: would move" in dry.stdout and "would write:" in dry.stdout
    assert not exists(ws, "people/personal-profile.md")
    done = runner.invoke(app, ["tree", "move", "Personal profile", "people", "--workspace", ws.root, "--json"])
    data = json.loads(done.stdout)
    assert done.exit_code == 0 and data["action"] == "move" and data["changed"]
    assert data["moved"][0]["to"] == "memory/domains/people/personal-profile.md"
    assert "memory/domains/identity/personal-profile.md" in data["removed"]
    text = runner.invoke(app, ["tree", "move", "people/personal-profile.md", "identity", "-w", ws.root])
    assert text.exit_code == 0 and text.stdout.startswith("moved memory/domains/people/personal-profile.md → ")
    assert "boot tokens:" in text.stdout
    for args in (["nope.md", "people"], ["legal/legal.md", "Not A Slug"], ["MEMORY.md", "people"]):
        bad = runner.invoke(app, ["tree", "move", *args, "-w", ws.root])
        assert bad.exit_code == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1, args
    assert runner.invoke(app, ["tree", "move", "--help"]).exit_code == 0
    assert runner.invoke(app, ["tree", "rollback", ws.root]).exit_code == 0
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original
