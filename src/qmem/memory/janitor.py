"""`qmem janitor`: move expired entries and sections to memory/archive/YYYY-MM.md.

Expired means a `[P1|expire:D]` or `[P2|expire:D]` tag with D before today, on a list entry
(the entry moves with its indented continuation lines) or on a heading (the whole section
moves). `[P0]` and untagged text are never touched; a malformed tag is reported, not guessed.

Crash safety without a journal: each moved block is written to the archive first, marked
with an id (`<!-- qmem:moved ID -->`), then its source file is rewritten atomically. A crash in
between leaves the block in both places until the next run, which sees the id in the
archive, does not archive it again, and only removes it from the source. Nothing is lost,
and after any run every entry exists exactly once.

Only the moved lines leave a file: every other byte stays as it was (CRLF, a BOM, no final
newline, U+2028 or form feeds inside a line), and a file with nothing to move is not
rewritten. What is not a readable regular UTF-8 file (a FIFO, a binary, latin-1 or UTF-16
text, an unreadable file) is skipped with a problem naming it; a FIFO is never opened.
The rescue folders of `tree rollback` (memory/rescue-*/) are left alone, like the archive.
"""

from __future__ import annotations

import os
from functools import partial
from datetime import date

import xxhash

from ..text import fences, markdown
from ..base.errors import QmemError
from ..base.writes import append_locked, rewrite_locked
from . import entries
from .workspace import Workspace, bare, raw_lines

MOVED_MARK = "<!-- qmem:moved {} -->"


class Move:
    __slots__ = ("source", "line", "count", "text", "expires", "archive", "block_id", "raw")

    def __init__(self, source: str, line: int, count: int, text: str, expires: str, block_id: str) -> None:
        self.source = source  # relative to the workspace
        self.line = line  # 1-based first line in the source
        self.count = count
        self.text = text
        self.expires = expires
        self.archive = ""
        self.block_id = block_id
        self.raw = text  # the moved lines with their own endings

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source, "line": self.line, "lines": self.count, "text": self.text,
                "expires": self.expires, "archive": self.archive}


class JanitorReport:
    def __init__(self, today: date, dry_run: bool) -> None:
        self.today = today.isoformat()
        self.dry_run = dry_run
        self.moved: list[Move] = []
        self.problems: list[str] = []
        self.files: list[str] = []

    def to_dict(self) -> dict[str, object]:
        return {"today": self.today, "dry_run": self.dry_run, "moved": [m.to_dict() for m in self.moved],
                "problems": self.problems, "files": self.files}


def candidate_files(ws: Workspace) -> list[str]:
    """MEMORY.md and memory/**/*.md, without archive/, rescue-*/ and hidden folders."""
    found = [ws.memory_md] if os.path.lexists(ws.memory_md) else []
    for dirpath, dirnames, files in os.walk(ws.memory_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "rescue-")) and
                             os.path.join(dirpath, d) != ws.archive)
        found.extend(os.path.join(dirpath, n) for n in sorted(files) if n.endswith(".md"))
    return found


def _expired(tag_text: str, today: str) -> tuple[bool, str, list[str]]:
    """(expired before `today` (YYYY-MM-DD), the expiry date, problems of the tags)."""
    entry = entries.Entry("")
    for raw in markdown.bracket_tags(tag_text):
        entries.apply_tag(entry, raw)
    expired = entry.priority in ("P1", "P2") and bool(entry.expires) and \
        entry.expires < today
    return expired, entry.expires, entry.problems


def find_moves(ws: Workspace, path: str, lines: list[str], today: date, report: JanitorReport) -> list[Move]:
    rel = ws.rel(path)
    today_iso = today.isoformat()
    fenced = fences.fenced(lines)  # tags in code are examples, not entries
    taken = [False] * len(lines)
    moves: list[Move] = []
    heads = markdown.headings(lines, markdown.front_matter(lines)[1])
    for k, head in enumerate(heads):
        lead = markdown.heading_tag_run(head.title)
        if not lead:
            continue
        expired, expires, problems = _expired(lead, today_iso)
        report.problems.extend(f"{rel}:{head.line + 1}: {p}" for p in problems)
        if not expired or taken[head.line]:
            continue
        end = next((h.line for h in heads[k + 1:] if h.level <= head.level), len(lines))
        for i in range(head.line, end):
            taken[i] = True
        moves.append(_move(rel, head.line, end, lines, expires))
    for i, line in enumerate(lines):
        if taken[i] or fenced[i] or "[" not in line:
            continue
        run = markdown.entry_tag_run(line)
        if not run:
            continue
        expired, expires, problems = _expired(run, today_iso)
        report.problems.extend(f"{rel}:{i + 1}: {p}" for p in problems)
        if not expired:
            continue
        indent = len(line) - len(line.lstrip())
        end = i + 1
        while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > indent \
                and not taken[end]:
            end += 1
        for j in range(i, end):
            taken[j] = True
        moves.append(_move(rel, i, end, lines, expires))
    return sorted(moves, key=lambda m: m.line)


def _move(rel: str, start: int, end: int, lines: list[str], expires: str) -> Move:
    text = "\n".join(lines[start:end])
    block_id = xxhash.xxh3_64_hexdigest(f"{rel}\n{text}".encode("utf-8"))
    return Move(rel, start + 1, end - start, text, expires, block_id)


def janitor(ws: Workspace, *, today: date | None = None, dry_run: bool = False) -> JanitorReport:
    today = today or date.today()
    report = JanitorReport(today, dry_run)
    archive = os.path.join(ws.archive, f"{today.year:04d}-{today.month:02d}.md")
    archived_ids = _archived_ids(ws)
    for path in candidate_files(ws):
        text, problem = ws.read(path)
        if text is None:
            report.problems.append(f"{ws.rel(path)}: {problem}, skipped")
            continue
        raw = raw_lines(text)
        moves = find_moves(ws, path, [bare(line) for line in raw], today, report)
        if not moves:
            continue
        for move in moves:
            move.archive = ws.rel(archive)
            move.raw = "".join(raw[move.line - 1:move.line - 1 + move.count])
        report.moved.extend(moves)
        report.files.append(ws.rel(path))
        if dry_run:
            continue
        try:
            ws.check_write(path)
            ws.check_write(archive)
        except QmemError as exc:
            report.problems.append(f"{exc} (nothing moved out of it)")
            continue
        fresh = [m for m in moves if m.block_id not in archived_ids]
        if fresh:
            block = "".join(
                f"\n## From {m.source} (expired {m.expires}, archived {today.isoformat()})\n"
                f"{MOVED_MARK.format(m.block_id)}\n{_ended(m.raw)}" for m in fresh)
            append_locked(archive, block, header=f"# Archive {today.year:04d}-{today.month:02d}\n", like=path)
            archived_ids.update(m.block_id for m in fresh)
        try:
            rewrite_locked(path, partial(_without, ws, path, today=today, archived=archived_ids))
        except UnicodeDecodeError:
            report.problems.append(f"{ws.rel(path)}: no longer UTF-8, left as it was")
    return report


def _ended(text: str) -> str:
    return text if text.endswith(("\n", "\r")) else text + "\n"


def _without(ws: Workspace, path: str, text: str, today: date, archived: set[str]) -> str:
    """The file minus the expired blocks already in the archive (found again under the lock:
    the file may have grown since it was first read). Every other byte stays."""
    raw = raw_lines(text)
    scratch = JanitorReport(today, True)
    drop = {i for m in find_moves(ws, path, [bare(line) for line in raw], today, scratch) if m.block_id in archived
            for i in range(m.line - 1, m.line - 1 + m.count)}
    return "".join(line for i, line in enumerate(raw) if i not in drop)


def _archived_ids(ws: Workspace) -> set[str]:
    ids: set[str] = set()
    if not os.path.isdir(ws.archive):
        return ids
    prefix, suffix = MOVED_MARK.split("{}")
    for name in os.listdir(ws.archive):
        if name.endswith(".md"):
            text, _ = ws.read(os.path.join(ws.archive, name))
            for line in raw_lines(text or ""):
                line = bare(line)
                if line.startswith(prefix) and line.endswith(suffix):
                    ids.add(line[len(prefix):-len(suffix)])
    return ids
