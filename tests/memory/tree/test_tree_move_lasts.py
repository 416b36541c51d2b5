"""A `tree move` lasts: reindex never undoes it, and the `[tree.place]` entry the move writes
into the config makes a migrate after a rollback file the section there again (issue 27).
Without the entry a re-migrate classifies from cues and puts the section back."""

from __future__ import annotations

import json
import os
import tomllib

from typer.testing import CliRunner

from qmem.faces.cli.app import app
from qmem.memory.tree import grow as tree
from qmem.memory.tree import move as move_mod

from .test_tree_invariants import DAY, FLAT, make_ws
from .test_tree_move import BIG
from .test_tree_place import TEXT

CONFIG = ("# my qmem config: comments and layout must survive a move\n"
          "data_dir = \"/tmp/qmem-data\"  # where indexes live\n\n[memory]\nboot_budget = 1500   # an odd    spacing, kept as written\n\n"
          "# tree settings\n[tree]\nauto_pin = true    # pins stay on\n\n"
          "[tree.place]\n# the reader's corrections\n\"Deploy notes\" = \"codebase\"  # mine\n\n"
          "[collections.notes]\npath = \"/tmp/notes\"\n")


def setup(tmp_path, text: str, config: str | None = CONFIG):
    ws = make_ws(tmp_path, text)
    path = tmp_path / "config" / "collections.toml"  # the autouse fixture's QMEM_CONFIG
    if config is not None:
        path.parent.mkdir(exist_ok=True)
        path.write_text(config, encoding="utf-8")
    return ws, path


def cli(*args: str):
    return CliRunner().invoke(app, ["tree", *args])


def leaf_of(ws, name: str) -> str:
    return next(rel for rel in move_mod.leaves(ws) if rel.endswith("/" + name))


def kept_in_order(old: str, new: str) -> bool:
    """Every line of `old` is in `new`, in the same order."""
    rest = iter(new.splitlines())
    return all(any(line == other for other in rest) for line in old.splitlines())


def test_a_move_is_recorded_in_the_config_and_a_re_migrate_keeps_it(tmp_path):
    ws, config = setup(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    before = config.read_text(encoding="utf-8")
    assert cli("migrate", ws.root).exit_code == 0
    assert leaf_of(ws, "personal-profile.md") == "identity/personal-profile.md"  # where the cues put it
    moved = cli("move", "Personal profile", "people", "-w", ws.root)
    assert moved.exit_code == 0, moved.output
    assert f'recorded [tree.place] "Personal profile" = "people" in {config}' in moved.stdout
    after = config.read_text(encoding="utf-8")
    assert kept_in_order(before, after) and len(after.splitlines()) == len(before.splitlines()) + 1
    assert tomllib.loads(after)["tree"]["place"] == {"Deploy notes": "codebase", "Personal profile": "people"}
    assert cli("reindex", ws.root).stdout.startswith("indexes up to date")
    assert leaf_of(ws, "personal-profile.md") == "people/personal-profile.md"
    assert cli("rollback", ws.root).exit_code == 0
    assert cli("migrate", ws.root).exit_code == 0
    assert leaf_of(ws, "personal-profile.md") == "people/personal-profile.md"  # the entry, not the cues


def test_without_the_entry_a_re_migrate_undoes_the_move(tmp_path):
    ws, config = setup(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    assert cli("migrate", ws.root).exit_code == 0
    moved = cli("move", "identity/personal-profile.md", "people", "-w", ws.root, "--no-record")
    assert moved.exit_code == 0 and config.read_text(encoding="utf-8") == CONFIG
    assert ("[tree.place] left as it is: to keep it there on a re-migrate, add \"Personal profile\" = \"people\" "
            f"under [tree.place] in {config}") in moved.stdout
    assert cli("rollback", ws.root).exit_code == 0 and cli("migrate", ws.root).exit_code == 0
    assert leaf_of(ws, "personal-profile.md") == "identity/personal-profile.md"  # what the record prevents


def test_a_second_move_updates_the_key_that_names_the_section(tmp_path):
    ws, config = setup(tmp_path, TEXT)
    assert cli("migrate", ws.root, "--force").exit_code == 0
    assert leaf_of(ws, "deploy-notes.md") == "codebase/deploy-notes.md"  # placed by the config already
    moved = cli("move", "deploy notes", "infrastructure", "-w", ws.root, "--json")
    data = json.loads(moved.stdout)
    assert data["place"] == {"heading": "Deploy notes", "domain": "infrastructure", "config": str(config),
                             "recorded": True, "why": "", "by_hand": ""}
    after = config.read_text(encoding="utf-8")
    assert '"Deploy notes" = "infrastructure"  # mine\n' in after  # the same line, its comment kept
    assert after == CONFIG.replace('"Deploy notes" = "codebase"', '"Deploy notes" = "infrastructure"')


def test_a_split_section_is_recorded_by_its_own_heading(tmp_path):
    ws, config = setup(tmp_path, BIG.read_text(encoding="utf-8"), config=None)  # no config yet: the move makes one
    tree.migrate(ws, force=True, day=DAY)
    result = move_mod.move(ws, "projects/project-log/compute.md", "research", config_file=str(config), day=DAY)
    assert result.place["heading"] == "Project Log" and result.place["recorded"]
    assert config.read_text(encoding="utf-8") == '[tree.place]\n"Project Log" = "research"\n'
    tree.rollback(ws)
    tree.migrate(ws, {"place": {"Project Log": "research"}}, force=True, day=DAY)
    assert os.path.isdir(os.path.join(ws.domains, "research", "project-log"))


def test_an_entry_that_would_not_do_what_it_says_is_not_written(tmp_path):
    ws, config = setup(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    tree.migrate(ws, day=DAY)
    result = move_mod.move(ws, "notes/notes.md", "accounts", config_file=str(config), day=DAY)
    assert not result.place["recorded"] and config.read_text(encoding="utf-8") == CONFIG
    assert ("not recorded in [tree.place]: 2 sections of the original MEMORY.md have the heading 'Notes': "
            "an entry would file them all there") in result.warnings[-1]
    assert result.place["by_hand"] == ""  # no entry would keep just this one: none is suggested


def test_a_secret_outranks_the_entry_so_it_is_not_written(tmp_path):
    ws, config = setup(tmp_path, TEXT, config="")
    tree.migrate(ws, force=True, day=DAY)
    result = move_mod.move(ws, "Keys", "notes", config_file=str(config), day=DAY)
    assert result.changed and os.path.isfile(os.path.join(ws.domains, "notes", "keys.md"))  # the move is the user's
    assert config.read_text(encoding="utf-8") == ""
    assert "not recorded in [tree.place]: the section holds a secret (api key on its line 2); it stays in accounts" \
        in result.warnings[-1]


def test_an_inline_place_table_is_left_alone_and_the_entry_given_by_hand(tmp_path):
    inline = '[tree]\nplace = { "Deploy notes" = "codebase" }  # one line\n'
    ws, config = setup(tmp_path, TEXT, config=inline)
    tree.migrate(ws, tomllib.loads(inline)["tree"], force=True, day=DAY)
    result = move_mod.move(ws, "Garden", "hobbies", tree_config=tomllib.loads(inline)["tree"],
                           config_file=str(config), day=DAY)
    assert config.read_text(encoding="utf-8") == inline and not result.place["recorded"]
    assert "the edit would rewrite lines of the file (an inline table?)" in result.warnings[-1]
    assert f'(add "Garden" = "hobbies" under [tree.place] in {config})' in result.warnings[-1]


def test_a_dry_run_says_what_it_would_record_and_writes_nothing(tmp_path):
    ws, config = setup(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    assert cli("migrate", ws.root).exit_code == 0
    dry = cli("move", "Personal profile", "people", "-w", ws.root, "--dry-run")
    assert dry.exit_code == 0 and config.read_text(encoding="utf-8") == CONFIG
    assert f'would record [tree.place] "Personal profile" = "people" in {config}' in dry.stdout
