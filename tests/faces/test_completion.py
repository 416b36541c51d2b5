"""Issue 16, item 5: shell completion for bash, zsh and fish, collection names from the config,
without slowing the search path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from ..conftest import subprocess_env
from .test_startup import loaded


@pytest.fixture
def two(cli, workspace, tmp_path):
    other = tmp_path / "notes"
    other.mkdir()
    assert cli("collection", "create", "main", str(workspace)).code == 0
    assert cli("collection", "create", "notes", str(other), "--no-index").code == 0


def complete(cli, words: list[str]) -> list[str]:
    """Run the generated bash function in a real bash for the command line `words` (last is the one being typed)."""
    script = cli("completion", "bash").out
    env = subprocess_env()
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    array = " ".join("'" + w.replace("'", "'\\''") + "'" for w in ["qmem", *words])
    probe = f'{script}\nCOMP_WORDS=({array}); COMP_CWORD={len(words)}; __qmem_complete; printf "%s\\n" "${{COMPREPLY[@]}}"'
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, env=env, check=True).stdout
    return [line for line in out.splitlines() if line]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_options_and_collection_names(cli, two):
    assert "collection" in complete(cli, ["co"]) and "completion" in complete(cli, ["co"])
    assert complete(cli, ["collection", "re"]) == ["remove", "rename"]
    assert complete(cli, ["search", "--li"]) == ["--limit"]
    assert complete(cli, ["search", "-c", ""]) == ["main", "notes"]
    assert complete(cli, ["search", "--collection", "n"]) == ["notes"]
    assert complete(cli, ["index", ""]) == ["main", "notes"]
    assert complete(cli, ["collection", "show", "m"]) == ["main"]
    assert complete(cli, ["state", ""]) == ["show", "set", "append", "clear"]


def test_zsh_and_fish_scripts(cli, two):
    zsh = cli("completion", "zsh").out
    assert "bashcompinit" in zsh and "complete -o default -F __qmem_complete qmem" in zsh
    fish = cli("completion", "fish").out
    assert "complete -c qmem -f -n '__fish_use_subcommand' -a search -d 'Search the index" in fish
    assert "complete -c qmem -n '__fish_seen_subcommand_from search' -s c -l collection -r -f -a '(qmem __collections)'" in fish
    assert "complete -c qmem -f -n '__fish_seen_subcommand_from collection; and not __fish_seen_subcommand_from" in fish
    res = cli("completion", "tcsh")
    assert res.code == 2 and "bash, zsh or fish" in res.err


def test_collection_names_helper_is_lean_and_quiet_on_a_broken_config(cli, two, tmp_path):
    assert cli("__collections").out == "main\nnotes\n"
    assert loaded(["__collections"]) == []  # no Typer, no TOML parser: the config's JSON cache
    (tmp_path / "config" / "collections.toml").write_text("[broken\n", encoding="utf-8")
    res = cli("__collections")
    assert (res.code, res.out, res.err) == (0, "", "")
