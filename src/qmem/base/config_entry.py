"""One `key = "value"` written into a table of the config file, every other byte kept.

`qmem tree move` records the reader's choice as `[tree.place] "Heading" = "domain"` so that a
later migrate files the section there too. The config is the user's file, comments and layout
included, so the edit is checked before it lands: the new text must parse to the old settings
plus this one entry, and every line of the old file must still be there in order (only new lines
added, or the one line that held this key replaced). An edit that cannot keep to that (a table
written inline, `place = { … }`, which tomlkit rewrites whole) is not made: the caller is told
why and says how to add the entry by hand. Read-modify-write under the same lock appenders take,
replaced atomically.
"""

from __future__ import annotations

import difflib

from . import jsonio
from .writes import rewrite_locked


def set_entry(file: str, table: tuple[str, ...], key: str, value: str) -> str:
    """Set `key = value` in `[table]` of `file` (made when missing). Returns "" when the file
    holds the entry now (written, or already so), else why it was left as it was."""
    problem: list[str] = []

    def change(text: str) -> str | None:
        new, why = edited(text, table, key, value)
        problem.append(why)
        return new

    try:
        rewrite_locked(file, change)
    except (OSError, UnicodeDecodeError) as exc:
        return f"cannot update {file}: {getattr(exc, 'strerror', None) or exc}"
    return problem[0] if problem else ""


def entry_line(key: str, value: str) -> str:
    """`"key" = "value"` as a person adds it by hand (a JSON string is a TOML basic string)."""
    return f"{jsonio.dumps(key)} = {jsonio.dumps(value)}"


def edited(text: str, table: tuple[str, ...], key: str, value: str) -> tuple[str | None, str]:
    """(the new text, "") or (None, why not); (None, "") when the entry is there already."""
    import tomllib

    import tomlkit

    try:
        want = tomllib.loads(text)  # becomes the settings the new text must hold
        doc = tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, tomlkit.exceptions.ParseError) as exc:
        return None, f"not valid TOML ({exc})"
    node: dict = doc
    expected: dict = want
    for depth, name in enumerate(table):
        if name not in node:
            node[name] = tomlkit.table(is_super_table=depth < len(table) - 1)
            expected[name] = {}
        node, expected = node[name], expected[name]
        if not isinstance(node, dict) or not isinstance(expected, dict):
            return None, f"{'.'.join(table[:depth + 1])}: not a table"
    if expected.get(key) == value:
        return None, ""
    had = key in expected
    node[key] = value
    expected[key] = value
    new = tomlkit.dumps(doc)
    if "\r\n" in text and "\n" not in text.replace("\r\n", ""):
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")  # tomlkit ends the lines it adds with \n
    if tomllib.loads(new) != want:
        return None, f"{'.'.join(table)}: the edit would change other settings"
    if not _keeps_lines(text, new, replaced=1 if had else 0):
        return None, f"{'.'.join(table)}: the edit would rewrite lines of the file (an inline table?)"
    return new, ""


def _keeps_lines(old: str, new: str, replaced: int) -> bool:
    """Is every line of `old` in `new`, in order, but for at most `replaced` changed lines?
    (Line endings aside: a last line without one may gain one.)"""
    changed = 0
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    for op, i1, i2, _, _ in matcher.get_opcodes():
        if op in ("delete", "replace"):
            changed += i2 - i1
    return changed <= replaced
