"""Writing to the daily log: `remember` (one entry) and `flush` (a batch before compaction).

Appends go through one locked write (`writes.append_locked`), so many agents appending at
once lose nothing and never interleave inside a line. A new log starts with `# YYYY-MM-DD`.

What an agent sends cannot forge or drop memory: an entry stays on one line (line breaks
become spaces), control characters (NUL, escape, …) are removed, a `--ref` must be one word,
an unknown tag such as `[Q]` stays in the text, and a bad line of a flush batch is reported
by its number while the good ones are kept. The log must be a regular file inside the
workspace (a link to a file elsewhere is refused). `refresh_written` re-indexes what was
written, so remember-then-search works.
"""

from __future__ import annotations

import os
import unicodedata
from datetime import date, timedelta

from ..base.errors import BadInputError, IndexBusyError, QmemError
from ..base.writes import append_locked
from ..text import fences
from . import entries
from .workspace import Workspace, bare, collection_holding, raw_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..base.config import Config


class Written:
    __slots__ = ("path", "line", "entry", "duplicate_of", "duplicate_at", "indexed")

    def __init__(self, path: str, line: int, entry: str, duplicate_of: str = "", duplicate_at: str = "") -> None:
        self.path = path  # relative to the workspace
        self.line = line  # 0 when nothing was written (a duplicate)
        self.entry = entry
        self.duplicate_of = duplicate_of  # the entry already kept, when this one was one
        self.duplicate_at = duplicate_at  # ... and where: its ref, path:LINE@ID
        self.indexed = ""  # what refresh_written said: "", "indexed" or why not

    @property
    def ref(self) -> str:
        """`path:LINE@ID`, what forget and `remember --replace` take ("" when nothing was written)."""
        return f"{self.path}:{self.line}@{entries.entry_id(self.entry)}" if self.line else ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path, "line": self.line, "entry": self.entry}
        if self.line:
            out["ref"] = self.ref
        if self.duplicate_of:
            out["duplicate_of"] = self.duplicate_of
            out["duplicate_at"] = self.duplicate_at
        if self.indexed:
            out["indexed"] = self.indexed
        return out


def clean_text(text: str) -> str:
    """One line: every run of white space (line breaks, U+2028, tabs…) becomes one space and
    control characters (NUL, escape, DEL…) go, so an entry can neither break the log's lines
    nor make it look binary."""
    flat = " ".join(text.split())
    return "".join(ch for ch in flat if unicodedata.category(ch) != "Cc")


def _one_line(text: str) -> str:
    flat = clean_text(text)
    if not flat:
        raise BadInputError("nothing to remember: the text is empty")
    return flat


def _ref(ref: str | None) -> str:
    """A cross-reference is one word (`file.md#anchor`): anything else could forge lines."""
    value = (ref or "").strip()
    if value and (len(value.split()) != 1 or any(unicodedata.category(ch) == "Cc" for ch in value)):
        raise BadInputError(f"bad --ref {value[:60]!r}: one target such as knowledge.md#bsc, no spaces or line breaks")
    return value


def make_entry(text: str, type_: str | None, priority: str | None, expire: str | None, ref: str | None,
               day: date) -> entries.Entry:
    """An entry with its lifecycle tag computed: P1 = +90 days, P2 = +30 days, P0 permanent."""
    prio = entries.parse_priority(priority)
    if expire and not prio:
        prio = "P1"
    if prio == "P0" and expire:
        raise BadInputError("P0 entries are permanent: leave out --expire")
    return entries.Entry(_one_line(text), entries.parse_type(type_), prio,
                         entries.expiry_for(prio, day, expire) if prio != "P0" else "", _ref(ref))


def remember(ws: Workspace, text: str, *, type_: str | None = None, priority: str | None = None,
             expire: str | None = None, ref: str | None = None, day: date | None = None) -> Written:
    """Append one entry to the day's log; returns where it went. An entry like one already kept
    (the rule `flush` uses: `entries.similar`) is not written again, whichever face asks:
    `line` is 0, `duplicate_of` names the kept text and `duplicate_at` its ref (path:LINE@ID)."""
    day = day or date.today()
    entry = make_entry(text, type_, priority, expire, ref, day)
    path = ws.check_write(ws.daily_log(day))
    duplicate = next((old for old in known_entries(ws, day) if entries.similar(entry.text, old[0])), None)
    if duplicate is not None:
        return Written(ws.rel(path), 0, entry.render(), duplicate[0], duplicate[2])
    line = append_locked(path, entry.render() + "\n", header=f"# {day.isoformat()}\n\n", like=_new_log_like(ws, path))
    return Written(ws.rel(path), line, entry.render())


def _new_log_like(ws: Workspace, path: str) -> list[str] | None:
    """A new daily log takes the workspace's mode; an existing one keeps its own."""
    return None if os.path.exists(path) else ws.new_file_like()


def refresh_written(cfg: Config, paths: list[str]) -> str:
    """Re-index the files a writer just touched, without waiting for another writer: "indexed",
    "" when the collections holding them are not indexed yet (the next `qmem index` builds them),
    or a one-line reason starting "not" (no collection holds them, the index is busy)."""
    from ..engine.sync import refresh_files

    unheld = [p for p in paths if collection_holding(cfg, os.path.dirname(p)) is None]
    if unheld:
        return (f"not indexed: no collection holds {unheld[0]}, so search cannot find it "
                "(qmem collection create NAME WORKSPACE)")

    from ..base.conventions import MAX_FILE_BYTES, too_large

    large = next((p for p in paths if os.path.isfile(p) and os.path.getsize(p) > MAX_FILE_BYTES), None)
    if large is not None:  # written all the same; the index skips a file this large
        return f"not indexed: {os.path.basename(large)} is {too_large(os.path.getsize(large))}, which the index skips"
    try:
        done = refresh_files(cfg, paths)
    except IndexBusyError:
        return "not indexed yet: another qmem refresh holds the index (the next qmem index picks it up)"
    except QmemError as exc:
        return f"not indexed: {exc}"
    return "indexed" if done else ""


class FlushReport:
    def __init__(self) -> None:
        self.path = ""
        self.line = 0
        self.kept: list[str] = []
        self.dropped: list[tuple[str, str]] = []  # (note, why)
        self.rejected: list[tuple[int, str]] = []  # (line number in the batch, why)
        self.indexed = ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path, "line": self.line, "kept": self.kept,
                                  "dropped": [{"note": n, "why": w} for n, w in self.dropped],
                                  "rejected": [{"line": n, "why": w} for n, w in self.rejected]}
        if self.indexed:
            out["indexed"] = self.indexed
        return out


def parse_notes(text: str, day: date, rejected: list[tuple[int, str]] | None = None) -> list[entries.Entry]:
    """Plain lines, `[X]`-typed lines (with or without `- `) or JSON lines {text, type, priority}.

    A bad line is added to `rejected` with its number (1-based) and the rest are kept; without
    a `rejected` list the first bad line raises BadInputError."""
    notes = []
    for number, raw in enumerate(raw_lines(text), 1):
        line = bare(raw).strip()
        if not line or line.startswith("#"):
            continue
        try:
            note = _note(line, day)
        except BadInputError as exc:
            if rejected is None:
                raise BadInputError(f"line {number}: {exc}") from None
            rejected.append((number, str(exc)))
            continue
        if note is not None:
            notes.append(note)
    return notes


def _note(line: str, day: date) -> entries.Entry | None:
    if line.startswith("{"):
        from ..base import jsonio

        try:
            row = jsonio.loads(line)
        except ValueError:
            raise BadInputError(f"not a JSON object: {line[:60]}") from None
        if not isinstance(row, dict) or not isinstance(row.get("text"), str):
            raise BadInputError(f"a JSON note needs a \"text\": {line[:60]}")
        fields = {k: row.get(k) for k in ("type", "priority", "expire", "ref")}
        if not all(v is None or isinstance(v, str) for v in fields.values()):
            raise BadInputError(f"type, priority, expire and ref must be strings: {line[:60]}")
        return make_entry(row["text"], fields["type"], fields["priority"], fields["expire"], fields["ref"], day)
    line = clean_text(line)
    parsed = entries.parse_line(line if line.startswith(("- ", "* ", "+ ")) else f"- {line}")
    if parsed is None or not parsed.text:
        return None
    return parsed


def known_entries(ws: Workspace, day: date) -> list[tuple[str, str, str]]:
    """(text, path relative to the workspace, its ref `path:LINE@ID`) of every entry already
    kept: today's and yesterday's logs, and the L1 topic files."""
    found: list[tuple[str, str, str]] = []
    paths = [ws.daily_log(day), ws.daily_log(day - timedelta(days=1))]
    paths += ws.topic_files()
    for path in paths:
        text, _ = ws.read(path)
        lines = [bare(line) for line in raw_lines(text or "")]
        rel = ws.rel(path)  # once a file: a day's log of 800 entries made 1,600 relpath calls a remember
        for number, (line, code) in enumerate(zip(lines, fences.fenced(lines)), 1):
            entry = None if code else entries.parse_line(line)
            if entry and entry.text:
                found.append((entry.text, rel, f"{rel}:{number}@{entries.entry_id(line)}"))
    return found


def known_texts(ws: Workspace, day: date) -> list[str]:
    """The texts of `known_entries`: what flush and remember compare a new note with."""
    return [text for text, _, _ in known_entries(ws, day)]


def flush(ws: Workspace, text: str, *, day: date | None = None) -> FlushReport:
    """Keep the notes that are new; append them to the day's log as one block. Bad lines are
    reported by number in `rejected`; the good ones are kept all the same (a batch with no
    good line at all is a BadInputError)."""
    day = day or date.today()
    report = FlushReport()
    path = ws.check_write(ws.daily_log(day))
    seen = known_texts(ws, day)
    block: list[str] = []
    notes = parse_notes(text, day, report.rejected)
    if report.rejected and not notes:
        raise BadInputError("; ".join(f"line {n}: {why}" for n, why in report.rejected[:5]) + " (nothing saved)")
    for note in notes:
        rendered = note.render()
        duplicate = next((old for old in seen if entries.similar(note.text, old)), None)
        if duplicate is not None:
            report.dropped.append((rendered, f"already kept: {duplicate[:80]}"))
            continue
        seen.append(note.text)
        block.append(rendered)
        report.kept.append(rendered)
    report.path = ws.rel(path)
    if block:
        report.line = append_locked(path, "\n".join(block) + "\n", header=f"# {day.isoformat()}\n\n",
                                    like=_new_log_like(ws, path))
    return report
