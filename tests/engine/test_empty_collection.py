"""`collection create` on a folder its patterns miss: exit 0 (a workspace may fill later), and
one warning naming the patterns that matched nothing and the `-p` that would take the files."""

from __future__ import annotations

import json


def test_a_notes_folder_gets_the_patterns_that_matched_nothing_and_a_p_that_works(cli, tmp_path):
    notes = tmp_path / "notes"
    (notes / "ideas").mkdir(parents=True)
    (notes / "ideas" / "one.md").write_text("# One\nkeyboard shortcuts\n", encoding="utf-8")
    (notes / "two.md").write_text("# Two\n", encoding="utf-8")
    made = cli("collection", "create", "notes", str(notes))
    assert made.code == 0 and "0 files, 0 sections" in made.out
    assert made.err.count("\n") == 1, made.err
    assert "no file matched 'MEMORY.md', 'memory/**/*.md'" in made.err and "2 Markdown files" in made.err
    fix = made.err.split("Markdown files elsewhere: ", 1)[1].strip()
    assert fix == f"qmem collection remove notes && qmem collection create notes {notes} -p '**/*.md'"
    assert cli("collection", "remove", "notes").code == 0
    again = cli("collection", "create", "notes", str(notes), "-p", "**/*.md")
    assert again.code == 0 and again.err == "" and "2 files" in again.out
    assert json.loads(cli("search", "keyboard", "--json").out)[0]["path"] == "ideas/one.md"


def test_an_empty_folder_gets_the_patterns_without_a_suggestion(cli, tmp_path):
    empty = tmp_path / "new-agent"
    empty.mkdir()
    made = cli("collection", "create", "agent", str(empty), "--json")
    assert made.code == 0
    warnings = json.loads(made.out)["refresh"]["collections"][0]["warnings"]
    assert warnings == [f"no file matched 'MEMORY.md', 'memory/**/*.md' under {empty}"]
