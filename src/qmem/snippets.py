"""Line-anchored snippets: the few lines of a section that match the query best.

The section body is tokenized with the index's own analyzer (character offsets), tokens
are marked when they form a query term or phrase, and the window of lines that covers the
most distinct query units wins. Highlights of neighbouring CJK characters merge into one.
"""

from __future__ import annotations

from bisect import bisect_right

from . import analysis

MAX_LINE_CHARS = 240


class Snippet:
    __slots__ = ("line", "lines", "spans")

    def __init__(self, line: int, lines: list[str], spans: list[list[tuple[int, int]]]) -> None:
        self.line = line  # file line number of lines[0]
        self.lines = lines
        self.spans = spans  # per line, highlighted [start, end) character ranges

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def make_snippet(body: str, body_line: int, units: list[tuple[str, ...]], max_lines: int) -> Snippet:
    """The best window of at most `max_lines` lines of `body` for the query `units`."""
    lines = body.split("\n")
    if not body:
        return Snippet(body_line, [], [])
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    toks = analysis.tokens(body) if units else []
    texts = [t.text for t in toks]
    singles = {u[0]: k for k, u in enumerate(units) if len(u) == 1}
    phrases = [(k, u) for k, u in enumerate(units) if len(u) > 1]

    line_units: list[set[int]] = [set() for _ in lines]
    spans: list[list[tuple[int, int]]] = [[] for _ in lines]

    def mark(i: int, unit_id: int) -> None:
        tok = toks[i]
        row = bisect_right(starts, tok.char_offset_from) - 1
        line_units[row].add(unit_id)
        base = starts[row]
        spans[row].append((tok.char_offset_from - base, min(tok.char_offset_to - base, len(lines[row]))))

    wanted = {tok for unit in units for tok in unit}
    where: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        if text in wanted:
            where.setdefault(text, []).append(i)
    for text, unit_id in singles.items():
        for i in where.get(text, ()):
            mark(i, unit_id)
    for unit_id, phrase in phrases:
        n = len(phrase)
        for i in where.get(phrase[0], ()):
            if tuple(texts[i:i + n]) == phrase and _consecutive(toks, i, n):
                for j in range(i, i + n):
                    mark(j, unit_id)

    best, best_score = 0, (-1, -1)
    width = max(1, max_lines)
    for start in range(len(lines)):
        covered: set[int] = set()
        hits = 0
        for row in range(start, min(start + width, len(lines))):
            covered |= line_units[row]
            hits += len(spans[row])
        score = (len(covered), hits)
        if score > best_score:
            best, best_score = start, score
    if best_score[0] <= 0:
        best = next((i for i, line in enumerate(lines) if line.strip()), 0)
    rows = range(best, min(best + width, len(lines)))
    out_lines: list[str] = []
    out_spans: list[list[tuple[int, int]]] = []
    for row in rows:
        text, row_spans = _clip(lines[row], _merge(spans[row]))
        out_lines.append(text)
        out_spans.append(row_spans)
    while out_lines and not out_lines[-1].strip():
        out_lines.pop()
        out_spans.pop()
    return Snippet(body_line + best, out_lines, out_spans)


def _consecutive(toks: list, i: int, n: int) -> bool:
    first = toks[i].position
    return all(toks[i + j].position == first + j for j in range(1, n))


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort and join touching or overlapping ranges (per-character CJK marks → one run)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _clip(line: str, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Cut an overlong line to a window around its first highlight, marked with '…'."""
    if len(line) <= MAX_LINE_CHARS:
        return line, spans
    center = spans[0][0] if spans else 0
    start = max(0, min(center - MAX_LINE_CHARS // 3, len(line) - MAX_LINE_CHARS))
    end = start + MAX_LINE_CHARS
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(line) else ""
    shift = len(prefix) - start
    kept = [(max(s, start) + shift, min(e, end) + shift) for s, e in spans if e > start and s < end]
    return prefix + line[start:end] + suffix, kept
