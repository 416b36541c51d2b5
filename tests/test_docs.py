"""The README documents every command and option the CLI has."""

from __future__ import annotations

from qmem.cli.app import command as cli_command

from .conftest import ROOT


def commands(group, prefix=""):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def test_every_command_and_option_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = []
    for name, command in commands(cli_command()):
        if f"qmem {name}" not in readme and f"`{name.split()[-1]}" not in readme:
            missing.append(name)
        for param in command.params:
            if param.param_type_name == "option" and param.name != "help":
                if not any(opt in readme for opt in param.opts):
                    missing.append(f"{name} {param.opts[0]}")
    assert missing == []
