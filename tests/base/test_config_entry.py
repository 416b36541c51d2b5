"""base.config_entry: one entry written into the user's config, every other line kept or nothing written."""

from __future__ import annotations

import os
import tomllib

import pytest

from qmem.base.config_entry import edited, set_entry

PLACE = ("tree", "place")


@pytest.mark.parametrize("text", [
    "",
    "# only a comment",
    '# top\ndata_dir = "/d"   # odd  spacing\n\n[memory]\nboot_budget = 900',  # no last line break
    '[tree]\nauto_pin = false  # why\n\n[collections.main]\npath = "/x"\n',
    '[tree]\nplace."A" = "b"\nauto_pin = true\n',
    '[tree.place]\n# mine\n"A" = "b"\n\n[tree.domains]\ngarden = ["rose"]\n',
    '[tree]\r\nauto_pin = true\r\n',
])
def test_an_entry_is_added_and_every_old_line_kept_in_order(text):
    new, why = edited(text, PLACE, "Deploy notes", "infrastructure")
    assert why == "" and new is not None
    old_lines, new_lines = text.splitlines(), new.splitlines()
    rest = iter(new_lines)
    assert all(any(line == other for other in rest) for line in old_lines)
    assert len(new_lines) - len(old_lines) <= 3  # the entry; when its table is new, a blank line and its header
    assert ("\r\n" in text) == ("\r\n" in new) and ("\r\n" not in text or "\n" not in new.replace("\r\n", ""))
    want = tomllib.loads(text)
    want.setdefault("tree", {}).setdefault("place", {})["Deploy notes"] = "infrastructure"
    assert tomllib.loads(new) == want


def test_an_existing_key_is_changed_on_its_own_line():
    text = '[tree.place]\n"Deploy notes" = "codebase"   # keep me\n"B" = "c"\n'
    new, why = edited(text, PLACE, "Deploy notes", "infrastructure")
    assert why == "" and new == text.replace('"codebase"', '"infrastructure"')
    assert edited(new, PLACE, "Deploy notes", "infrastructure") == (None, "")  # already so: nothing to write


@pytest.mark.parametrize("text, fragment", [
    ('[tree]\nplace = { "A" = "b" }\n', "would rewrite lines of the file"),
    ("[tree\n", "not valid TOML"),
    ("tree = 3\n", "tree: not a table"),
    ("[tree]\nplace = 3\n", "tree.place: not a table"),
])
def test_an_edit_that_cannot_keep_the_file_is_refused(text, fragment):
    new, why = edited(text, PLACE, "A2", "b")
    assert new is None and fragment in why


def test_set_entry_writes_atomically_keeping_the_mode_or_leaves_the_file(tmp_path):
    path = tmp_path / "collections.toml"
    path.write_text("# mine\n", encoding="utf-8")
    os.chmod(path, 0o600)
    assert set_entry(str(path), PLACE, "Garden", "hobbies") == ""
    assert path.read_text(encoding="utf-8") == '# mine\n\n[tree.place]\nGarden = "hobbies"\n'
    assert os.stat(path).st_mode & 0o777 == 0o600
    inline = '[tree]\nplace = { "A" = "b" }\n'
    path.write_text(inline, encoding="utf-8")
    assert "would rewrite lines" in set_entry(str(path), PLACE, "Garden", "hobbies")
    assert path.read_text(encoding="utf-8") == inline
    missing = tmp_path / "new" / "collections.toml"
    assert set_entry(str(missing), PLACE, "Garden", "hobbies") == "" and missing.is_file()
    bad = tmp_path / "bad.toml"
    bad.write_text("[tree\n", encoding="utf-8")
    assert "not valid TOML" in set_entry(str(bad), PLACE, "Garden", "hobbies")
    assert bad.read_text(encoding="utf-8") == "[tree\n"
