"""Writing to the daily log: `remember` (one entry) and `flush` (a batch before compaction).

Appends go through one locked write (`fsutil.append_locked`), so many agents appending at
once lose nothing and never interleave inside a line. A new log starts with `# YYYY-MM-DD`.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

from ..errors import BadInputError
from ..fsutil import append_locked
from . import entries
from .workspace import Workspace, read_text


class Written:
    __slots__ = ("path", "line", "entry")

    def __init__(self, path: str, line: int, entry: str) -> None:
        self.path = path  # relative to the workspace
        self.line = line
        self.entry = entry

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "entry": self.entry}


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    if not flat:
        raise BadInputError("nothing to remember: the text is empty")
    return flat


def make_entry(text: str, type_: str | None, priority: str | None, expire: str | None, ref: str | None,
               day: date) -> entries.Entry:
    """An entry with its lifecycle tag computed: P1 = +90 days, P2 = +30 days, P0 permanent."""
    prio = entries.parse_priority(priority)
    if expire and not prio:
        prio = "P1"
    if prio == "P0" and expire:
        raise BadInputError("P0 entries are permanent: leave out --expire")
    return entries.Entry(_one_line(text), entries.parse_type(type_), prio,
                         entries.expiry_for(prio, day, expire) if prio != "P0" else "", (ref or "").strip())


def remember(ws: Workspace, text: str, *, type_: str | None = None, priority: str | None = None,
             expire: str | None = None, ref: str | None = None, day: date | None = None) -> Written:
    """Append one entry to the day's log; returns where it went."""
    day = day or date.today()
    entry = make_entry(text, type_, priority, expire, ref, day)
    path = ws.daily_log(day)
    line = append_locked(path, entry.render() + "\n", header=f"# {day.isoformat()}\n\n")
    return Written(ws.rel(path), line, entry.render())


class FlushReport:
    def __init__(self) -> None:
        self.path = ""
        self.line = 0
        self.kept: list[str] = []
        self.dropped: list[tuple[str, str]] = []  # (note, why)

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "kept": self.kept,
                "dropped": [{"note": n, "why": w} for n, w in self.dropped]}


def parse_notes(text: str, day: date) -> list[entries.Entry]:
    """Plain lines, `[X]`-typed lines (with or without `- `) or JSON lines {text, type, priority}."""
    notes = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            try:
                row = json.loads(line)
            except ValueError:
                raise BadInputError(f"not a JSON object: {line[:60]}") from None
            if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                raise BadInputError(f"a JSON note needs a \"text\": {line[:60]}")
            notes.append(make_entry(row["text"], row.get("type"), row.get("priority"), row.get("expire"),
                                    row.get("ref"), day))
            continue
        parsed = entries.parse_line(line if line.startswith(("- ", "* ", "+ ")) else f"- {line}")
        if parsed is None or not parsed.text:
            continue
        notes.append(parsed)
    return notes


def known_texts(ws: Workspace, day: date) -> list[str]:
    """Entry texts already kept: today's and yesterday's logs, and the L1 topic files."""
    texts: list[str] = []
    paths = [ws.daily_log(day), ws.daily_log(day - timedelta(days=1))]
    paths += ws.topic_files()
    for path in paths:
        for line in read_text(path).splitlines():
            entry = entries.parse_line(line)
            if entry and entry.text:
                texts.append(entry.text)
    return texts


def flush(ws: Workspace, text: str, *, day: date | None = None) -> FlushReport:
    """Keep the notes that are new; append them to the day's log as one block."""
    day = day or date.today()
    report = FlushReport()
    seen = known_texts(ws, day)
    block: list[str] = []
    for note in parse_notes(text, day):
        rendered = note.render()
        duplicate = next((old for old in seen if entries.similar(note.text, old)), None)
        if duplicate is not None:
            report.dropped.append((rendered, f"already kept: {duplicate[:80]}"))
            continue
        seen.append(note.text)
        block.append(rendered)
        report.kept.append(rendered)
    path = ws.daily_log(day)
    report.path = ws.rel(path)
    if block:
        report.line = append_locked(path, "\n".join(block) + "\n", header=f"# {day.isoformat()}\n\n")
    return report
