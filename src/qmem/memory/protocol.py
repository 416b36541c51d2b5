"""The memory protocol an agent follows (`qmem protocol`): to paste into the agent's AGENTS.md,
or as an OpenClaw / AgentSkills skill (`qmem protocol --skill`, a SKILL.md).

Every command that reads or writes the workspace names it (`-w /abs/path`, `qmem boot /abs/path`):
an agent's shell runs wherever its harness started it, and a bare `qmem remember` there would
be refused (see `workspace.resolve`), or worse, write where nothing indexes it."""

from __future__ import annotations

import shlex

SKILL_NAME = "qmem-memory"
SKILL_DESCRIPTION = ("Long-term memory kept as Markdown and searched with qmem. Boot at session start, search "
                     "before answering from memory, remember facts, forget wrong ones.")

PROTOCOL = """\
## Memory protocol (qmem)

Long-term memory is Markdown in the workspace {folder}; qmem searches it. No need to load it all.

1. **Session start:** run `qmem boot{at}` and read what it prints (the memory index, the session
   buffer, the last two daily logs, within a token budget). In a group chat run
   `qmem boot{at} --scope shared`: private memory stays out.
2. **Before answering from memory:** `qmem search "<words>" --json -n 5`; Chinese, English and
   mixed queries all work. Then read the exact section: `qmem get <path>#<anchor>` or
   `qmem get <path>:<line>:<count>`. Quote the path and line you used.
3. **During work:** save what will matter later, one fact per call:
   `qmem remember "<fact>" --type K{w}` (types: P profile, E event, K knowledge, B behaviour,
   S skill, ! security; add `--priority P2` for things that go stale in a month,
   `--expire 30d` for a date of your own, `--ref <file.md#anchor>` to link). Keep the working
   state of a long task in `qmem state set "<what I am doing>"{w}` and add to it with
   `qmem state append "<what is next>"{w}`.
4. **When memory is wrong:** `qmem remember "<the right fact>" --replace <ref>{w}` corrects
   an entry; `qmem forget <ref>{w}` takes one out (both keep the old text in memory/archive/,
   nothing is deleted). A ref is `<path>:<line>@<id>` as remember printed it, or
   `"<path>:<line> <words of the entry>"`, or just words of it: a line alone may have moved.
5. **Before the context is compacted:** write every note worth keeping, one per line, to
   `qmem flush{w}` (stdin). Duplicates are dropped for you.
6. **Never** paste secrets (keys, seed phrases, passwords) into memory.
"""


def protocol(workspace: str) -> str:
    """The steps, each workspace command naming `workspace` (an absolute folder)."""
    folder = shlex.quote(workspace)
    return PROTOCOL.format(folder=folder, at=f" {folder}", w=f" -w {folder}")


def skill(workspace: str) -> str:
    """The protocol as a SKILL.md: YAML front matter (name, one-line description), then the steps."""
    return f"---\nname: {SKILL_NAME}\ndescription: {SKILL_DESCRIPTION}\n---\n\n{protocol(workspace)}"
