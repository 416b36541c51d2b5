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
import stat
from datetime import date

from ..base.conventions import MAX_FILE_BYTES, too_large
from ..base.errors import BadInputError, UnsafePathError
from ..base.fsutil import is_inside, write_problem

_DAILY = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
# Blocks and lines that qmem itself writes into memory files (distill's summaries and stats).
SUMMARY_START, SUMMARY_END = "<!-- qmem:summary -->", "<!-- /qmem:summary -->"
STATS_START, STATS_END = "<!-- qmem:stats -->", "<!-- /qmem:stats -->"
DISTILLED_SUFFIX = "-distilled.md"  # distill's topic file beside a tree leaf of the same name
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
PROVENANCE = re.compile(r"\s\((\d{4}-\d{2}-\d{2}(?:, \d{4}-\d{2}-\d{2})*)\) \[log\]\(([^)\s]+)\)$")


class Workspace:
    """The folder that holds MEMORY.md and memory/."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(os.path.expanduser(root))
        self.source = ""  # which rule of `resolve` chose it ("" when built directly)
        self.memory_md = os.path.join(self.root, "MEMORY.md")
        self.memory_dir = os.path.join(self.root, "memory")
        self.domains = os.path.join(self.memory_dir, "domains")
        self.archive = os.path.join(self.memory_dir, "archive")
        self.session_state = os.path.join(self.root, "SESSION-STATE.md")
        self.abstract = os.path.join(self.memory_dir, ".abstract")

    def new_file_like(self) -> list[str]:
        """Where a new file of text that came from no memory file (an agent's entry) takes its
        mode from: MEMORY.md, else the workspace folder (see writes.atomic_write's `like`)."""
        return [self.memory_md if os.path.isfile(self.memory_md) else self.root]

    def rel(self, path: str) -> str:
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def check_write(self, path: str) -> str:
        """`path`, once sure that writing it stays inside the workspace and hits a regular file
        (or nothing yet); otherwise UnsafePathError naming it."""
        problem = write_problem(self.root, path)
        if problem:
            raise UnsafePathError(f"{self.rel(path)}: {problem}; refusing to write there")
        return path

    def read(self, path: str) -> tuple[str | None, str]:
        """(text, "") for a readable regular UTF-8 text file inside the workspace, ("", "") for
        a missing one, (None, why) for anything else: a FIFO, a device or a folder (never
        opened), a link leading outside, a binary, non-UTF-8 or unreadable file."""
        try:
            st = os.stat(path)
            mode = st.st_mode
        except FileNotFoundError:
            return "", ""
        except OSError as exc:
            return None, f"cannot be read ({exc.strerror})"
        if not stat.S_ISREG(mode):
            return None, "not a regular file"
        if st.st_size > MAX_FILE_BYTES:  # a memory file nobody loads whole: never read in full
            return None, too_large(st.st_size)
        if not is_inside(os.path.realpath(self.root), os.path.realpath(path)):
            return None, "a link to a file outside the workspace"
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    return None, "not a regular file"
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            return None, f"cannot be read ({exc.strerror})"
        if len(data) > MAX_FILE_BYTES:  # it grew since the stat
            return None, too_large(len(data))
        if b"\x00" in data:
            return None, "binary (contains NUL bytes)"
        try:
            return data.decode("utf-8"), ""
        except UnicodeDecodeError as exc:
            return None, f"not UTF-8 (byte {exc.start})"

    def require_memory(self) -> bytes:
        """MEMORY.md's bytes; BadInputError when there is none, or when it is larger than qmem
        reads (one line, before reading any of it)."""
        try:
            size = os.stat(self.memory_md).st_size
            if size > MAX_FILE_BYTES:
                raise BadInputError(f"MEMORY.md in {self.root} is {too_large(size)}: too large to load or "
                                    f"restructure; move most of it into files under memory/ (searched, not loaded)")
            with open(self.memory_md, "rb") as handle:
                return handle.read(MAX_FILE_BYTES + 1)
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
        """The last `days` daily logs dated up to `today`, newest first (however old they are)."""
        return [(d, p) for d, p in reversed(self.daily_logs()) if d <= today][:max(days, 0)]

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


def resolve(explicit: str | None, cfg: object = None) -> Workspace:
    """The one rule every command and face uses for where memory lives, first that applies:

    1. `explicit` (--workspace / -w, or a command's workspace argument);
    2. `$QMEM_WORKSPACE`;
    3. `[memory] workspace` in the config;
    4. the collection whose root holds the current folder (the innermost, when roots nest), so
       `qmem remember` run anywhere inside an indexed workspace writes where it is indexed;
    5. the current folder itself when it holds a MEMORY.md (a workspace not indexed yet).

    A named folder that does not exist is refused (writers would create it), and so is a
    current folder none of the rules claims: memory is never written into whatever folder
    a command happens to run in (`memory/memory/…`, a stray `SESSION-STATE.md`)."""
    extra = getattr(cfg, "extra", None) or {}
    memory_config = extra.get("memory", {}) if isinstance(extra, dict) else {}
    configured = memory_config.get("workspace") if isinstance(memory_config, dict) else None
    for chosen, source in ((explicit, "--workspace"), (os.environ.get("QMEM_WORKSPACE"), "$QMEM_WORKSPACE"),
                           (configured, "[memory] workspace")):
        if chosen:
            ws = Workspace(str(chosen))
            if not os.path.isdir(ws.root):  # a typo must not become a new folder of memory
                raise BadInputError(f"workspace {ws.root} ({source}) is not a folder; create it first or fix the path")
            ws.source = source
            return ws
    here = os.getcwd()
    holder = collection_holding(cfg, here)
    if holder is not None:
        ws = Workspace(holder[1])
        ws.source = f"collection {holder[0]}"
        return ws
    if os.path.isfile(os.path.join(here, "MEMORY.md")):
        ws = Workspace(here)
        ws.source = "the current folder (it holds MEMORY.md)"
        return ws
    raise BadInputError(no_workspace_message(cfg, here))


def collection_holding(cfg: object, folder: str) -> tuple[str, str] | None:
    """(name, root) of the innermost collection whose root holds `folder` (or is it)."""
    real = os.path.realpath(folder)
    best: tuple[str, str] | None = None
    for coll in (getattr(cfg, "collections", None) or {}).values():
        root = os.path.realpath(coll.path)
        if is_inside(root, real) and (best is None or len(root) > len(os.path.realpath(best[1]))):
            best = (coll.name, coll.path)
    return best


def no_workspace_message(cfg: object, here: str) -> str:
    """One line: why there is no workspace, and the ways to name one."""
    roots = sorted(c.path for c in (getattr(cfg, "collections", None) or {}).values())
    example = f" (e.g. -w {roots[0]})" if len(roots) == 1 else ""
    return (f"no workspace: {here} is in no collection and holds no MEMORY.md; run inside a workspace, "
            f"give -w DIR{example}, or set $QMEM_WORKSPACE or [memory] workspace in the config")


def without_block(lines: list[str], start: str, end: str) -> list[str]:
    """`lines` minus a marked block qmem wrote (both marker lines included), if there is one."""
    if start in lines and end in lines[lines.index(start):]:
        a = lines.index(start)
        return lines[:a] + lines[lines.index(end, a) + 1:]
    return lines


def distilled_only(text: str) -> bool:
    """True when every line of a topic file is one `distill` writes: its title, its summary
    block, blank lines and entries carrying their `(dates) [log](…)` provenance."""
    lines = without_block(text.splitlines(), SUMMARY_START, SUMMARY_END)
    body = [line for line in lines if line.strip()]
    if not body:
        return False
    if body[0].startswith("# "):
        body = body[1:]
    return bool(body) and all(PROVENANCE.search(line) for line in body)


def raw_lines(text: str) -> list[str]:
    """Lines with their endings, split only at `\\n`, `\\r\\n` and `\\r` (never at U+2028, U+0085,
    form feed or FS as `str.splitlines` does): `"".join(raw_lines(t)) == t` always."""
    return _LINE.findall(text)


def bare(line: str) -> str:
    """A raw line without its ending."""
    return line.rstrip("\r\n")


def line_ending(raw: list[str]) -> str:
    """The ending new lines should get: the file's first one, else `\\n`."""
    first = next((line for line in raw if line.endswith(("\n", "\r"))), "\n")
    return "\r\n" if first.endswith("\r\n") else "\r" if first.endswith("\r") else "\n"
