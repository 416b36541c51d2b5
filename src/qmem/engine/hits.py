"""A hit: the record a search returns, built from a section's stored fields and the file itself.

The index stores no text: each hit's file is read (once per search, `Files`) and its section
checked against the stored hash; an edited file's section is found again by its anchor."""

from __future__ import annotations

import os

from ..base.config import Config
from ..base.conventions import is_archived
from ..base.dates import iso_from_number
from ..base.fsutil import Files
from ..text.record import body_hash
from ..text.snippets import Snippet, entry_weights, make_snippet


class Hit:
    """One ranked section. Keyword parameters, not `**fields`: a misspelt name is a TypeError,
    not a silent None (a dataclass would do the same, but importing `dataclasses` brings
    `inspect`, `re` and `enum` into every search)."""

    __slots__ = (
        "collection", "path", "abs_path", "anchor", "heading", "line_start", "line_end",
        "score", "snippet", "date", "types", "body", "body_line", "stale", "ranks", "explain",
    )

    def __init__(self, *, collection: str, path: str, abs_path: str, anchor: str, heading: str, line_start: int,
                 line_end: int, score: float, snippet: Snippet, date: str | None = None,
                 types: list[str] | None = None, body: str = "", body_line: int = 0, stale: bool = False,
                 ranks: dict[str, int | None] | None = None, explain: dict[str, object] | None = None) -> None:
        self.collection = collection
        self.path = path  # relative to the collection root
        self.abs_path = abs_path
        self.anchor = anchor
        self.heading = heading
        self.line_start = line_start
        self.line_end = line_end
        self.score = score
        self.snippet = snippet
        self.date = date  # YYYY-MM-DD or None
        self.types = types if types is not None else []
        self.body = body
        self.body_line = body_line
        self.stale = stale  # the file changed since the last refresh: the section as it is now
        self.ranks = ranks  # only hybrid search sets them
        self.explain = explain  # only --explain sets it

    @property
    def shown_lines(self) -> tuple[int, int]:
        """First and last line of what a hit shows: its snippet, or the section without one."""
        snippet: Snippet = self.snippet
        if snippet.lines:
            return snippet.line, snippet.last
        return self.line_start, self.line_end

    @property
    def expired(self) -> bool:
        """From the janitor's archive (only found when a collection's exclude lets it in)."""
        return is_archived(self.path)

    @property
    def line(self) -> int:
        """The reported line: the best-matching line of the snippet (the section's first
        body line when nothing is shown)."""
        snippet: Snippet = self.snippet
        if snippet.lines:
            return snippet.best
        return self.body_line or self.line_start

    def to_dict(self, full: bool = False) -> dict[str, object]:
        snippet: Snippet = self.snippet
        out: dict[str, object] = {
            "collection": self.collection,
            "path": self.path,
            "abs_path": self.abs_path,
            "anchor": self.anchor,
            "heading": self.heading,
            "line": self.line,
            "line_start": self.line_start,
            "line_end": self.line_end,
            "score": round(self.score, 4),
            "snippet": snippet.text,
            "snippet_line": snippet.line,
            "date": self.date,
            "types": self.types,
            "stale": self.stale,
            "expired": self.expired,
        }
        if self.ranks:
            out["ranks"] = self.ranks
        if self.explain:
            out["explain"] = self.explain
        if full:
            out["body"] = self.body
        return out


def build_hit(cfg: Config, doc: dict, score: float, units: list[tuple[str, ...]], snippet_lines: int,
              files: Files, weights: list[float] | None = None, weigh: bool = False, read: bool = False) -> Hit | None:
    """A Hit from a document's stored fields, its text read from the file (None when the
    collection is gone from the config or the file from the disk). Its snippet's `weight` is
    the section's best entry's score; `weigh` reads the text for it even without a snippet.
    `read`: the text only, with an empty snippet (the caller makes it: see `engine.search`)."""
    coll = doc["collection"][0]
    if coll not in cfg.collections:
        return None  # removed from the config; the next refresh purges it
    path = doc["path"][0]
    abs_path = os.path.join(cfg.collections[coll].path, path)
    anchor = doc["anchor"][0]
    line_start, line_end, body_line = doc["line_start"][0], doc["line_end"][0], doc["body_line"][0]
    body, stale = "", False
    if snippet_lines > 0 or weigh or read:
        lines = files.lines(abs_path, cfg.collections[coll].path)
        if lines is None:
            return None  # deleted since the last refresh: never show what is gone
        body = "\n".join(lines[body_line - 1:line_end])
        if body_hash(body) != doc["body_hash"][0]:
            stale = True  # edited since the last refresh: show the section as it is now
            line_start, line_end, body_line, body = _relocate(lines, anchor, line_start, line_end)
    elif not os.path.isfile(abs_path):
        return None  # no snippet wanted, but a deleted file is still never a hit
    day = doc["date"][0]
    return Hit(
        collection=coll,
        path=path,
        abs_path=abs_path,
        anchor=anchor,
        heading=doc.get("heading", [""])[0],
        line_start=line_start,
        line_end=line_end,
        score=score,
        snippet=Snippet(body_line, [], []) if read else make_snippet(body, body_line, units, snippet_lines, weights)
        if snippet_lines > 0 else _bare(body, body_line, units, weights, weigh),
        date=iso_from_number(day) if day else None,
        types=doc.get("types", []),
        body=body,
        body_line=body_line,
        stale=stale,
    )


def _bare(body: str, body_line: int, units: list[tuple[str, ...]], weights: list[float] | None,
          weigh: bool) -> Snippet:
    """No snippet wanted: an empty one, weighed when asked (ranking does not depend on -l)."""
    snippet = Snippet(body_line, [], [])
    if weigh:
        snippet.weight, snippet.entries = entry_weights(body, units, weights)
    return snippet


def _relocate(lines: list[str], anchor: str, line_start: int, line_end: int) -> tuple[int, int, int, str]:
    """Where a section of an edited file is now: same anchor, nearest to its old place."""
    from ..text.markdown import parse

    sections = [s for s in parse("\n".join(lines)) if s.anchor == anchor]
    if sections:
        best = min(sections, key=lambda s: abs(s.line_start - line_start))
        return best.line_start, best.line_end, best.body_line, best.body
    end = min(line_end, len(lines))
    start = min(line_start, end)
    return start, end, start, "\n".join(lines[start - 1:end])
