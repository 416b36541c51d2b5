"""`qmem forget` and `qmem remember --replace`: take a remembered entry out of memory, or
correct it, without deleting anything.

An entry is named by a ref (`memory/2026-02-28.md:7`, as `remember` prints it) or by words of
its text (case, punctuation and spacing ignored). Forgetting moves the entry, with its indented
continuation lines, to memory/archive/YYYY-MM.md under a heading that says where it came from.
Replacing moves the old entry there the same way and writes the corrected one on its line.

Crash safety is the janitor's: the archive is written first, the block marked with an id
(`<!-- qmem:moved ID -->`), then the source is rewritten under the lock appenders take (bytes
of every other line unchanged). A crash in between leaves the entry in both places, never in
none; the next run sees the id and does not archive it twice.
"""

from __future__ import annotations

import os
from functools import partial
import re
from datetime import date

import xxhash

from ..base.errors import BadInputError, NotFoundError, brief
from ..base.fsutil import resolve_inside
from ..base.writes import append_locked, rewrite_locked
from . import entries
from .daily import make_entry
from ..text import fences
from .janitor import MOVED_MARK, _archived_ids, candidate_files
from .workspace import Workspace, bare, raw_lines

# path:LINE, path:LINE@ID (as remember prints it) or path:LINE WORDS (words of the entry)
_REF = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?:@(?P<id>[0-9a-fA-F]{8}))?(?:\s+(?P<words>\S.*))?$")
SHOWN_CHOICES = 8


class Found:
    """One entry block in a memory file."""

    __slots__ = ("path", "line", "count", "text", "entry")

    def __init__(self, path: str, line: int, count: int, text: str, entry: entries.Entry) -> None:
        self.path = path  # relative to the workspace
        self.line = line  # 1-based
        self.count = count  # lines in the block (the entry and its continuation lines)
        self.text = text
        self.entry = entry

    @property
    def id(self) -> str:
        return entries.entry_id(self.text.split("\n", 1)[0])

    @property
    def ref(self) -> str:
        """`path:LINE@ID`: the line it is on now, and which entry it is wherever its line moves."""
        return f"{self.path}:{self.line}@{self.id}"

    @property
    def block_id(self) -> str:
        return xxhash.xxh3_64_hexdigest(f"{self.path}\n{self.text}".encode("utf-8"))

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "lines": self.count, "text": self.text, "ref": self.ref}


class ForgetResult:
    def __init__(self, archive: str) -> None:
        self.archive = archive  # where the old entries went, relative to the workspace
        self.forgotten: list[Found] = []
        self.written: dict[str, object] | None = None  # the corrected entry (replace only)

    def to_dict(self) -> dict[str, object]:
        return {"archive": self.archive, "forgotten": [f.to_dict() for f in self.forgotten], "written": self.written}


def _blocks(ws: Workspace, path: str) -> list[Found]:
    """Every list entry of a file, with its indented continuation lines (none in a file that is
    not readable UTF-8 text: forget never touches what it cannot read)."""
    text, _ = ws.read(path)
    lines = [bare(line) for line in raw_lines(text or "")]
    fenced = fences.fenced(lines)
    found, i = [], 0
    while i < len(lines):
        entry = None if fenced[i] else entries.parse_line(lines[i])
        if entry is None or not entry.text:
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        end = i + 1
        while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > indent \
                and (fenced[end] or entries.parse_line(lines[end]) is None):
            end += 1
        found.append(Found(ws.rel(path), i + 1, end - i, "\n".join(lines[i:end]), entry))
        i = end
    return found


def find(ws: Workspace, what: str) -> list[Found]:
    """The entries `what` names: a ref (`path:LINE@ID` as remember printed it, or `path:LINE
    WORDS`), or words their text holds (whole words). A line alone names no entry: lines move
    (janitor, forget, edits), and the entry on it now may be another."""
    what = what.strip()
    if not what:
        raise BadInputError("name the entry: words of its text, or path:LINE@ID as remember printed it")
    ref = _REF.match(what)
    if ref and (ref.group("path").endswith(".md") or os.path.isfile(os.path.join(ws.root, ref.group("path")))):
        path = resolve_inside(ws.root, ref.group("path"))
        if path is None or not os.path.isfile(path):
            raise NotFoundError(f"{ref.group('path')}: no such file in the workspace {ws.root}")
        if path not in {os.path.realpath(p) for p in candidate_files(ws)}:
            raise BadInputError(f"{ws.rel(path)}: not a memory file (MEMORY.md or memory/**/*.md outside archive/)")
        return [_at_ref(ws, path, int(ref.group("line")), (ref.group("id") or "").lower(), ref.group("words") or "")]
    if not entries.normalise(what):
        raise BadInputError(f"{brief(what)} has no words to look for")
    return [b for path in candidate_files(ws) for b in _blocks(ws, path) if entries.has_words(b.entry.text, what)]


def _at_ref(ws: Workspace, path: str, line: int, want: str, words: str) -> Found:
    """The entry a ref names: by its id (on LINE, or where its line moved within the file),
    or on LINE holding WORDS (else the one entry of the file that holds them)."""
    blocks = _blocks(ws, path)
    rel = ws.rel(path)
    here = next((b for b in blocks if b.line == line), None)
    if want:
        same = [b for b in blocks if b.id == want]
        if not same:
            raise NotFoundError(f"{rel}:{line}@{want}: that entry is no longer in {rel} (forgotten, replaced or "
                                f"edited since); qmem search finds what it says now")
        return min(same, key=lambda b: abs(b.line - line))
    if words:
        def holds(b: Found) -> bool:  # the words, or the line as remember printed it (tags and all)
            return entries.has_words(b.entry.text, words) or entries.has_words(b.text.split("\n", 1)[0], words)

        if here is not None and holds(here):
            return here
        holding = [b for b in blocks if holds(b)]
        if len(holding) == 1:
            return holding[0]
        where = f"{len(holding)} entries of {rel} hold {words!r}" if holding else f"no entry of {rel} holds {words!r}"
        raise NotFoundError(f"{where}, and {rel}:{line} is not one of them; name it as remember printed it "
                            f"(path:LINE@ID)")
    if here is None:
        raise BadInputError(f"{rel}:{line} is not a list entry (`- text`); "
                            f"qmem get {rel}:{max(1, line - 2)}:5 shows the lines around it")
    raise BadInputError(f"{rel}:{line} names a line, and lines move: name the entry with its id, "
                        f"{here.ref} ({here.entry.text[:60]}), or add words of it ({rel}:{line} WORDS)")


def _one_or_all(ws: Workspace, matches: list[Found], what: str, all_matches: bool, verb: str) -> list[Found]:
    if not matches:
        unread = [f"{ws.rel(p)}: {why}" for p in candidate_files(ws) for text, why in [ws.read(p)] if text is None]
        note = f"; not searched: {'; '.join(unread[:3])}" if unread else ""
        raise NotFoundError(f"no remembered entry matches {brief(what)} (qmem search finds sections){note}")
    if len(matches) > 1 and not all_matches:
        shown = "; ".join(f"{m.ref} {m.entry.text[:60]}" for m in matches[:SHOWN_CHOICES])
        more = f" and {len(matches) - SHOWN_CHOICES} more" if len(matches) > SHOWN_CHOICES else ""
        raise BadInputError(f"{len(matches)} entries match {brief(what)}: {shown}{more}; "
                            f"name one (qmem {verb} PATH:LINE@ID){' or use --all' if verb == 'forget' else ''}")
    return matches


def _archive_path(ws: Workspace, today: date) -> str:
    return os.path.join(ws.archive, f"{today.year:04d}-{today.month:02d}.md")


def _archive(ws: Workspace, blocks: list[Found], today: date, why: str) -> str:
    archive = ws.check_write(_archive_path(ws, today))
    for block in blocks:
        ws.check_write(os.path.join(ws.root, block.path))
    known = _archived_ids(ws)
    fresh = [b for b in blocks if b.block_id not in known]
    if fresh:
        text = "".join(f"\n## {why} {b.ref} ({today.isoformat()})\n{MOVED_MARK.format(b.block_id)}\n{b.text}\n"
                       for b in fresh)  # the block's lines without their own endings: the archive is LF
        append_locked(archive, text, header=f"# Archive {today.year:04d}-{today.month:02d}\n",
                      like=[os.path.join(ws.root, b.path) for b in fresh])
    return archive


def _swap(text: str, block: Found, new_line: str | None) -> str | None:
    """`text` with the block's lines replaced by `new_line` (or removed); every other byte kept.
    The block is looked for at its line first, then anywhere (the file may have changed)."""
    raw = raw_lines(text)
    lines = [bare(line) for line in raw]
    want = block.text.split("\n")
    starts = [block.line - 1] + [i for i in range(len(lines)) if i != block.line - 1]
    at = next((i for i in starts if lines[i:i + len(want)] == want), None)
    if at is None:
        return None  # already gone: someone else moved it
    if new_line is None:
        return "".join(raw[:at] + raw[at + len(want):])
    ending = raw[at + len(want) - 1][len(lines[at + len(want) - 1]):]
    return "".join(raw[:at] + [new_line + ending] + raw[at + len(want):])


def forget(ws: Workspace, what: str, *, all_matches: bool = False, today: date | None = None) -> ForgetResult:
    """Move the entries `what` names to memory/archive/YYYY-MM.md."""
    today = today or date.today()
    blocks = _one_or_all(ws, find(ws, what), what, all_matches, "forget")
    result = ForgetResult(ws.rel(_archive(ws, blocks, today, "Forgotten from")))
    for block in sorted(blocks, key=lambda b: (b.path, -b.line)):  # bottom-up: earlier line numbers stay valid
        rewrite_locked(os.path.join(ws.root, block.path), partial(_swap, block=block, new_line=None))
        result.forgotten.append(block)
    result.forgotten.sort(key=lambda b: (b.path, b.line))
    return result


def replace(ws: Workspace, what: str, text: str, *, type_: str | None = None, priority: str | None = None,
            expire: str | None = None, ref: str | None = None, today: date | None = None) -> ForgetResult:
    """Correct one entry in place: the old one goes to the archive, the new one takes its line.
    Type, lifecycle tag and cross-reference are kept unless given anew."""
    today = today or date.today()
    old = _one_or_all(ws, find(ws, what), what, False, "remember --replace")[0]
    if priority or expire:
        new = make_entry(text, type_ or old.entry.type, priority, expire, ref if ref is not None else old.entry.ref,
                         today)
    else:
        new = make_entry(text, type_ or old.entry.type, None, None, ref if ref is not None else old.entry.ref, today)
        new.priority, new.expires = old.entry.priority, old.entry.expires
    first = old.text.split("\n", 1)[0]
    line = first[:len(first) - len(first.lstrip())] + new.render()
    result = ForgetResult(ws.rel(_archive(ws, [old], today, "Replaced at")))
    rewrite_locked(os.path.join(ws.root, old.path), lambda body: _swap(body, old, line))
    result.forgotten.append(old)
    result.written = {"path": old.path, "line": old.line, "entry": line.strip(),
                      "ref": f"{old.path}:{old.line}@{entries.entry_id(line)}"}
    return result
