"""`qmem get`: a section by anchor or a window of lines, never outside a collection root.

Reads the file itself (not the index), so what an agent gets is what is on disk now. Only
files a collection's patterns select can be read: a workspace root often holds files that
are not memory (`.env`, keys), and `get` must not become a way to read them.
"""

from __future__ import annotations

import os
import re

from . import manifest as manifests
from ..base.config import Collection, Config
from ..base.errors import BadInputError, NotFoundError, UnsafePathError
from ..base.fsutil import decode_text, is_inside, read_inside, resolve_inside
from ..text.markdown import HEADING_SEPARATOR, front_matter, headings, list_anchors, section_span, split_lines, strip_tags
from .scan import Matcher

DEFAULT_WINDOW = 20
_LINE_SPEC = re.compile(r"^(.*?):(\d+)(?::(\d+))?$")


class Target:
    """What `get` was asked for: a path plus an anchor or a line window."""

    __slots__ = ("path", "anchor", "start", "count")

    def __init__(self, path: str, anchor: str | None = None, start: int | None = None, count: int | None = None) -> None:
        self.path = path
        self.anchor = anchor
        self.start = start
        self.count = count


class Excerpt:
    """What `get` returns: lines `line_start`..`line_end` of a file in a collection (and the
    anchor and heading breadcrumb they were found by, empty for a line window)."""

    __slots__ = ("collection", "path", "abs_path", "anchor", "heading", "line_start", "line_end", "lines", "total_lines")

    def __init__(self, *, collection: str, path: str, abs_path: str, anchor: str, heading: str,
                 line_start: int, line_end: int, lines: list[str], total_lines: int) -> None:
        self.collection, self.path, self.abs_path = collection, path, abs_path
        self.anchor, self.heading = anchor, heading
        self.line_start, self.line_end, self.lines, self.total_lines = line_start, line_end, lines, total_lines

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def to_dict(self) -> dict[str, object]:
        out = {name: getattr(self, name) for name in self.__slots__ if name != "lines"}
        out["text"] = self.text
        return out


def parse_target(spec: str) -> Target:
    """`path#anchor`, `path:LINE`, `path:LINE:COUNT` or a bare `path`."""
    spec = spec.strip()
    if not spec:
        raise BadInputError("empty path")
    if "#" in spec:
        path, anchor = spec.split("#", 1)
        if not path:
            raise BadInputError(f"no file before '#' in {spec!r}")
        return Target(path, anchor=anchor.strip().lower())
    match = _LINE_SPEC.match(spec)
    if match:
        start = int(match.group(2))
        count = int(match.group(3)) if match.group(3) else DEFAULT_WINDOW
        if start < 1 or count < 1:
            raise BadInputError(f"line numbers start at 1 and the count must be at least 1: {spec!r}")
        return Target(match.group(1), start=start, count=count)
    return Target(spec)


def _locate(cfg: Config, path: str, names: list[str] | None) -> tuple[Collection, str, str]:
    """(collection, relative path, real path) for `path`, refusing anything outside the roots."""
    candidates = cfg.select(names)
    if not candidates:
        raise NotFoundError("no collections yet: qmem collection create NAME PATH")
    if os.path.isabs(path) or path.startswith("~"):
        real = os.path.realpath(os.path.expanduser(path))
        for coll in candidates:
            root = os.path.realpath(coll.path)
            if is_inside(root, real) and real != root:
                return coll, os.path.relpath(real, root).replace(os.sep, "/"), real
        raise UnsafePathError(f"{path}: outside every collection root; give a path relative to a collection")
    rel = os.path.normpath(path).replace(os.sep, "/")
    found: list[tuple[Collection, str, str]] = []
    escaped = False
    for coll in candidates:
        inside = resolve_inside(coll.path, rel)
        if inside is None:
            escaped = True
            continue
        if os.path.isfile(inside):
            found.append((coll, rel, inside))
    if not found:
        if escaped or rel.startswith(".."):
            raise UnsafePathError(f"{path}: resolves outside the collection root (traversal or symlink); refused")
        raise NotFoundError(f"{path}: no such file in {_names(candidates)}{_suggest(cfg, rel, candidates)}")
    if len(found) > 1:
        # Overlapping collections (`main` and `all` on one root) share files: one file is one
        # answer, from a collection whose patterns select it. Only different files ask for -c.
        wanted = [f for f in found if Matcher(f[0].patterns, f[0].exclude).wants(f[1])] or found
        if len({real for _, _, real in wanted}) > 1:
            both = ", ".join(c.name for c, _, _ in wanted)
            raise BadInputError(f"{path}: different files in several collections ({both}); pick one with -c")
        return wanted[0]
    return found[0]


def _names(colls: list[Collection]) -> str:
    return "collection " + colls[0].name if len(colls) == 1 else "collections " + ", ".join(c.name for c in colls)


def _suggest(cfg: Config, rel: str, colls: list[Collection]) -> str:
    import difflib

    known: list[str] = []
    for coll in colls:
        known.extend(manifests.load(cfg.data_dir, coll.name).files)
    close = difflib.get_close_matches(rel, known, n=3, cutoff=0.5)
    return f"; closest: {', '.join(close)}" if close else ""


def get(cfg: Config, spec: str, collections: list[str] | None = None) -> Excerpt:
    """The text `spec` points at (see `parse_target`), with its line numbers."""
    target = parse_target(spec)
    coll, rel, real = _locate(cfg, target.path, collections)
    if not Matcher(coll.patterns, coll.exclude).wants(rel):
        raise UnsafePathError(
            f"{rel}: not part of collection {coll.name} (patterns: {', '.join(coll.patterns)}); refused"
        )
    try:
        text = decode_text(read_inside(coll.path, real))
    except UnicodeDecodeError:
        raise BadInputError(f"{rel}: not UTF-8 text") from None
    except OSError as exc:
        raise NotFoundError(f"{rel}: cannot read: {exc.strerror}") from None
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    total = len(lines)
    anchor, heading = "", ""
    if target.anchor is not None:
        span = section_span(lines, target.anchor)
        if span is None:
            import difflib

            known = list_anchors(lines)
            close = difflib.get_close_matches(target.anchor, known, n=3, cutoff=0.4)
            hint = f"; closest: {', '.join('#' + a for a in close)}" if close else (
                f"; anchors: {', '.join('#' + a for a in known[:8])}" if known else "; the file has no headings")
            raise NotFoundError(f"{rel}: no heading with anchor #{target.anchor}{hint}")
        first, end = span
        anchor = target.anchor
        heading = _heading_path(lines, first)
    elif target.start is not None:
        if target.start > max(total, 1):
            raise BadInputError(f"{rel} has {total} lines; line {target.start} is past the end")
        first, end = target.start - 1, min(total, target.start - 1 + (target.count or DEFAULT_WINDOW))
    else:
        first, end = 0, total
    return Excerpt(
        collection=coll.name, path=rel, abs_path=real, anchor=anchor, heading=heading,
        line_start=first + 1, line_end=max(end, first + 1), lines=lines[first:end], total_lines=total,
    )


def _heading_path(lines: list[str], line: int) -> str:
    """The breadcrumb of the heading on `line`."""
    stack: list[tuple[int, str]] = []
    for head in headings(lines, front_matter(lines)[1]):
        if head.line > line:
            break
        while stack and stack[-1][0] >= head.level:
            stack.pop()
        stack.append((head.level, strip_tags(head.title) or head.title))
    return HEADING_SEPARATOR.join(title for _, title in stack)


OPENCLAW_LINES = 120


def window(cfg: Config, spec: str, start: int | None = None, count: int | None = None,
           collections: list[str] | None = None) -> dict[str, object]:
    """A bounded excerpt in OpenClaw's `memory_get` shape:
    `{text, path, from, lines, truncated, nextFrom}`. `spec` may carry `#anchor` (the section)
    or `:LINE[:COUNT]`; `start`/`count` override. At most `count` (default 120) lines come back;
    a truncated excerpt ends with a line saying how to continue."""
    target = parse_target(spec)
    if start is not None and target.anchor is None:
        target = Target(target.path, start=start, count=count or OPENCLAW_LINES)
    excerpt = get(cfg, _spec_of(target), collections)
    limit = count or target.count or OPENCLAW_LINES
    first = excerpt.line_start
    shown = excerpt.lines[:limit]
    end = first + len(shown) - 1
    section_end = excerpt.line_end if target.anchor is not None else excerpt.total_lines
    truncated = end < section_end
    text = "\n".join(shown)
    if truncated:
        text += f"\n[… {section_end - end} more lines: memory_get path={excerpt.path} from={end + 1}]"
    return {"text": text, "path": excerpt.path, "from": first, "lines": len(shown), "truncated": truncated,
            "nextFrom": end + 1 if truncated else None}


def _spec_of(target: Target) -> str:
    if target.anchor is not None:
        return f"{target.path}#{target.anchor}"
    if target.start is not None:
        return f"{target.path}:{target.start}:{target.count or OPENCLAW_LINES}"
    return f"{target.path}:1:{OPENCLAW_LINES + 1}"
