"""Write docs/commands.md, the command reference, from the `--help` of every `qmem` and
`qmem-qmd` command, so the reference cannot drift from the CLI.

    python scripts/gen_docs.py             # rewrite docs/commands.md
    python scripts/gen_docs.py --check     # exit 1 (and say what differs) when it is stale
    python scripts/gen_docs.py --examples  # also re-run every ```console block of README.md and
                                           # docs/*.md and write what the commands print now

`tests/project/test_docs.py` runs the same check, so CI fails on a stale reference, and names
any command that has no entry. Help is rendered at 80 columns (what a terminal of 80 or more
shows). Each command links to the guide that shows it at work; a command missing from GROUPS,
or a guide without a heading naming the command, stops the generator with its name.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REFERENCE = DOCS / "commands.md"
WIDTH = "80"

# The reference's order: (group title, [(top-level command, the guide that shows it)]).
GROUPS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Collections and the index", [("collection", "search.md"), ("index", "search.md"), ("update", "search.md"),
                                   ("status", "search.md"), ("doctor", "search.md")]),
    ("Search and read", [("search", "search.md"), ("get", "search.md"), ("eval", "search.md")]),
    ("Memory", [("boot", "memory.md"), ("remember", "memory.md"), ("forget", "memory.md"), ("flush", "memory.md"),
                ("state", "memory.md"), ("distill", "memory.md"), ("janitor", "memory.md"),
                ("maintain", "memory.md"), ("protocol", "memory.md")]),
    ("The bonsai tree", [("tree", "tree.md")]),
    ("Semantic search", [("embed", "semantic-search.md"), ("vsearch", "semantic-search.md"),
                         ("query", "semantic-search.md")]),
    ("Agents and shells", [("mcp", "mcp.md"), ("completion", "operations.md")]),
    ("A shared cluster", [("opensearch", "opensearch.md")]),
]
QMD_GUIDE = "qmd.md"


class DocsError(Exception):
    """The reference cannot be written as it stands (a command without a place or a guide)."""


@contextlib.contextmanager
def _columns() -> Iterator[None]:
    """click and argparse wrap help to the terminal; pin it so the reference is the same everywhere."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        yield
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def qmem_commands() -> list[tuple[str, object]]:
    """(path, click command) of every visible `qmem` command and group, depth first, in the order
    `qmem --help` lists them; the root is the path ""."""
    found: list[tuple[str, object]] = []

    def walk(cmd: object, path: str) -> None:
        found.append((path, cmd))
        for name, sub in getattr(cmd, "commands", {}).items():
            if not getattr(sub, "hidden", False):
                walk(sub, f"{path} {name}".strip())

    walk(_root(), "")
    return found


@functools.cache
def _root() -> Any:
    from qmem.faces.cli.app import command

    return command()


@functools.cache
def qmem_help(path: str) -> str:
    """What `qmem PATH --help` prints (the command tree is built once per process)."""
    import io

    # The command tree's own main, its stdout captured: no click.testing (Typer 0.28 vendors
    # click and no longer installs it).
    out = io.StringIO()
    code: object = 0
    with _columns(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            _root().main(args=[*path.split(), "--help"], prog_name="qmem")
        except SystemExit as exc:
            code = exc.code or 0
    if code != 0:
        raise DocsError(f"qmem {path} --help exited {code}: {out.getvalue()}")
    return out.getvalue()


def qmd_helps() -> list[tuple[str, str]]:
    """(path, help) of `qmem-qmd` and each of its subcommands, as argparse prints them."""
    from qmem.faces import qmd

    out: list[tuple[str, str]] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        out.append((path, parser.format_help()))
        for action in parser._actions:  # argparse keeps its subcommands here, and nowhere public
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}".strip())

    with _columns():
        walk(qmd._parser(), "")
    return out


def guide_anchor(guide: str, path: str, program: str = "qmem") -> str:
    """`guide#anchor` of the first heading in docs/GUIDE that names `` `PROGRAM PATH` `` (for a
    subcommand without a heading of its own, its group's)."""
    from qmem.text.markdown import anchors, headings, split_lines

    name = f"{program} {path}".strip()
    file = DOCS / guide
    if not file.is_file():
        raise DocsError(f"{name}: its guide docs/{guide} does not exist")
    titles = [h.title for h in headings(split_lines(file.read_text(encoding="utf-8")))]
    sections = list(zip(titles, anchors(titles)))
    words = name.split()
    for size in range(len(words), min(2, len(words)) - 1, -1):  # never `qmem` alone
        wanted = f"`{' '.join(words[:size])}`"
        for title, anchor in sections:
            if wanted in title:
                return f"{guide}#{anchor}"
    raise DocsError(f"{name}: docs/{guide} has no heading naming `{name}`")


def guide_title(guide: str) -> str:
    """The guide's `# Title`, up to a colon or a parenthesis: the link text."""
    first = (DOCS / guide).read_text(encoding="utf-8").split("\n", 1)[0]
    return first.lstrip("# ").split(" (")[0].split(":")[0]


def _fence(text: str) -> str:
    return "```text\n" + text.rstrip("\n") + "\n```\n"


def _summary(cmd: object) -> str:
    text = getattr(cmd, "short_help", None) or (getattr(cmd, "help", None) or "").split("\n\n")[0]
    return " ".join(text.split()).rstrip(".")


def render() -> str:
    """The whole of docs/commands.md."""
    commands = dict(qmem_commands())
    placed = {name for _, entries in GROUPS for name, _ in entries}
    unplaced = sorted({path.split()[0] for path in commands if path} - placed)
    if unplaced:
        raise DocsError(f"scripts/gen_docs.py: GROUPS has no place for: {', '.join('qmem ' + n for n in unplaced)}")
    parts = [
        "# Command reference\n",
        "<!-- Written by `python scripts/gen_docs.py` from each command's --help; do not edit by hand. -->\n",
        "Every command and option, exactly as `--help` prints it (at 80 columns). Each entry links to\n"
        "the guide that shows the command at work with real output. Errors are one line on stderr\n"
        "(`qmem: …`) and an exit code: `0` ok, `2` bad input, `75` another refresh holds the index for\n"
        "longer than `--wait`, `74` the disk is full (nothing was half-written), `1` an unexpected internal\n"
        "error (`QMEM_DEBUG=1` shows its traceback).\n",
    ]
    toc = []
    for title, entries in GROUPS:
        toc.append(f"- **{title}**: " + ", ".join(f"[`{name}`](#qmem-{name})" for name, _ in entries))
    toc.append("- **qmd's command contract**: [`qmem-qmd`](#qmem-qmd)")
    parts.append("\n".join(toc) + "\n")
    parts.append("## qmem\n")
    parts.append(_fence(qmem_help("")))
    for _, entries in GROUPS:
        for name, guide in entries:
            if name not in commands:
                raise DocsError(f"scripts/gen_docs.py: GROUPS names qmem {name}, which the CLI does not have")
            for path, cmd in commands.items():
                if path == name or path.startswith(name + " "):
                    level = "##" if path == name else "###"
                    parts.append(f"{level} qmem {path}\n")
                    parts.append(f"{_summary(cmd)}. Guide: [{guide_title(guide)}]({guide_anchor(guide, path)}).\n")
                    parts.append(_fence(qmem_help(path)))
    qmd = qmd_helps()
    for path, text in qmd:
        level = "##" if not path else "###"
        parts.append(f"{level} qmem-qmd{' ' + path if path else ''}\n")
        if not path:
            parts.append(f"qmd's command contract, for tools configured to run qmd. Guide: "
                         f"[{guide_title(QMD_GUIDE)}]({guide_anchor(QMD_GUIDE, '', 'qmem-qmd')}).\n")
        parts.append(_fence(text))
    return "\n".join(parts)


def stale(current: str, expected: str) -> str:
    """A unified diff of docs/commands.md against what it should be; empty when current."""
    return "".join(difflib.unified_diff(current.splitlines(True), expected.splitlines(True),
                                        "docs/commands.md", "what --help prints now"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/commands.md is stale")
    parser.add_argument("--examples", action="store_true",
                        help="also rewrite the output of every ```console block in README.md and docs/")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))  # tests.project.test_docs, for --examples
    try:
        expected = render()
    except DocsError as exc:
        print(f"gen_docs: {exc}", file=sys.stderr)
        return 2
    current = REFERENCE.read_text(encoding="utf-8") if REFERENCE.exists() else ""
    if args.check:
        diff = stale(current, expected)
        if diff:
            print(diff + "\ndocs/commands.md is stale: run python scripts/gen_docs.py", file=sys.stderr)
            return 1
        return 0
    if current != expected:
        REFERENCE.write_text(expected, encoding="utf-8")
        print(f"wrote {REFERENCE.relative_to(ROOT)}")
    if args.examples:
        from tests.project.test_docs import update_console_blocks

        for path in update_console_blocks():
            print(f"rewrote the console blocks of {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
