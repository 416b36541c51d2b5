"""Where an agent's memory lives: the workspace folder and its well-known files.

    MEMORY.md                  L0: loaded at every session start (a root index after `tree migrate`)
    SESSION-STATE.md           the working buffer of the current session
    memory/YYYY-MM-DD.md       L2: daily logs (OpenClaw reads and appends these; never moved)
    memory/<topic>.md          L1: topic files filled by `distill`
    memory/archive/YYYY-MM.md  where the janitor moves expired entries
"""

from __future__ import annotations

import os
import re
from datetime import date, timedelta

from ..errors import BadInputError

_DAILY = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")


class Workspace:
    """The folder that holds MEMORY.md and memory/."""

    def __init__(self, root: str | None = None) -> None:
        self.root = os.path.abspath(os.path.expanduser(root or os.getcwd()))
        self.memory_md = os.path.join(self.root, "MEMORY.md")
        self.memory_dir = os.path.join(self.root, "memory")
        self.domains = os.path.join(self.memory_dir, "domains")
        self.archive = os.path.join(self.memory_dir, "archive")
        self.session_state = os.path.join(self.root, "SESSION-STATE.md")
        self.abstract = os.path.join(self.memory_dir, ".abstract")

    def rel(self, path: str) -> str:
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def require_memory(self) -> bytes:
        try:
            with open(self.memory_md, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            raise BadInputError(f"no MEMORY.md in {self.root}; give the workspace folder") from None

    def daily_log(self, day: date) -> str:
        return os.path.join(self.memory_dir, f"{day.isoformat()}.md")

    def daily_logs(self) -> list[tuple[date, str]]:
        """Every `memory/YYYY-MM-DD.md`, oldest first."""
        found = []
        try:
            names = os.listdir(self.memory_dir)
        except OSError:
            return []
        for name in names:
            match = _DAILY.match(name)
            if match:
                try:
                    found.append((date.fromisoformat(match.group(1)), os.path.join(self.memory_dir, name)))
                except ValueError:
                    continue
        return sorted(found)

    def recent_logs(self, days: int, today: date) -> list[tuple[date, str]]:
        """Daily logs of the last `days` days up to `today`, newest first."""
        first = today - timedelta(days=days - 1)
        return [(d, p) for d, p in reversed(self.daily_logs()) if first <= d <= today]

    def topic_files(self) -> list[str]:
        """L1: `memory/*.md` that are not daily logs, and the bonsai tree's leaves."""
        daily = {p for _, p in self.daily_logs()}
        found = []
        try:
            names = sorted(os.listdir(self.memory_dir))
        except OSError:
            names = []
        for name in names:
            path = os.path.join(self.memory_dir, name)
            if name.endswith(".md") and path not in daily and os.path.isfile(path):
                found.append(path)
        for dirpath, dirnames, files in os.walk(self.domains):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            found.extend(os.path.join(dirpath, n) for n in sorted(files) if n.endswith(".md") and n != "_index.md")
        return found

    @property
    def has_tree(self) -> bool:
        return os.path.exists(os.path.join(self.domains, ".qmem-tree.json"))


def resolve(explicit: str | None, memory_config: dict[str, object] | None = None) -> Workspace:
    """--workspace, else $QMEM_WORKSPACE, else `[memory] workspace` in the config, else the current folder."""
    chosen = explicit or os.environ.get("QMEM_WORKSPACE") or (memory_config or {}).get("workspace")
    return Workspace(str(chosen) if chosen else None)


def read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return ""
