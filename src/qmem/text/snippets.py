"""Evidence snippets: the entries of a section that match the query best.

The section body is tokenized with the index's own analyzer (character offsets) and tokens
are marked where they form a query term or phrase. Lines are grouped into entries (a list
item with its continuation lines, a paragraph, a message line). Each entry is scored like a
small BM25 document: every query unit it holds counts with the unit's weight (its rarity in
the index, so "what", "我", "的" count little and a rare bigram counts a lot), saturated by
frequency and mildly normalised by the entry's length. The best entry is shown; a second
strong entry elsewhere in the section is shown too, with a `…` line between. The reported
line (`Snippet.best`) is the best-matching line. An overlong line keeps its lead (list marker,
`[tags]`, `speaker:`) and the stretch around its densest highlights. In a group log, when the
question names some of its people, a line about none of them is another conversation: it is
neither context nor a reply shown (see `named_units`).
"""

from __future__ import annotations

from _bisect import bisect_right  # the C module: bisect.py only re-exports it (~0.35M instructions)

from . import analysis
from .entries import SIDE_OTHER, lead_end, replies, side_factors, speaker  # noqa: F401 - SIDE_OTHER re-exported
from .entries import spans as entry_spans

MAX_LINE_CHARS = 240
# Lines outside the best entry (context, a second entry) are clipped shorter.
OTHER_LINE_CHARS = 60
# Characters a snippet may hold beyond its best entry (context lines, a second entry).
SNIPPET_CHARS = 400
# Lines without a query unit are added as context while the snippet stays this short.
CONTEXT_CHARS = 240
# A second entry is shown when it scores at least this share of the best one.
SECOND_SHARE = 0.3
# Long entries are weighed by their best stretch of this many lines, whatever a snippet shows.
RANK_LINES = 8
GAP = "…"
_K1 = 1.2
_B = 0.5
_ASKS = ("?", "？")
# An occurrence of a query unit as a message's speaker counts this many times (see `_credit_speakers`).
SPEAKER_COUNT = 3
# In a log of at least GROUP_SPEAKERS people (at least MESSAGE_SHARE of its entries are
# `speaker: …` messages), a question that names one of them (a query unit that speaks a message
# there) asks about that person: an entry of such a log that neither names nor is spoken by any
# person the question names scores NAMELESS of its score (see `named_units`).
GROUP_SPEAKERS = 3
MESSAGE_SHARE = 0.8
NAMELESS = 0.2


class Snippet:
    __slots__ = ("line", "lines", "spans", "numbers", "best", "why", "weight", "entries", "matched")

    def __init__(self, line: int, lines: list[str], spans: list[list[tuple[int, int]]],
                 numbers: list[int | None] | None = None, best: int | None = None, why: str = "") -> None:
        self.line = line  # file line number of lines[0]
        self.lines = lines
        self.spans = spans  # per line, highlighted [start, end) character ranges
        # file line number of each shown line; None for the `…` between two entries
        self.numbers = numbers if numbers is not None else [line + k for k in range(len(lines))]
        self.best = best if best is not None else line  # the best-matching line
        self.why = why  # how the window was chosen (for --explain)
        self.weight = 0.0  # the best entry's score (see `entry_weights`)
        self.entries = 0  # how many entries the section has
        self.matched: set[int] = set()  # query units found anywhere in the section

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def last(self) -> int:
        """The last file line shown."""
        shown = [n for n in self.numbers if n is not None]
        return shown[-1] if shown else self.line


class _Scorer:
    """A section body marked for a query: its lines' units, its entries and exchanges, and
    each candidate's score as a small BM25 document (every unit it holds, with the unit's
    weight, saturated by frequency, mildly normalised by the candidate's length against the
    section's mean entry)."""

    __slots__ = ("lines", "line_units", "spans", "line_len", "entries", "replies", "avg_len", "weights", "speakers",
                 "named", "factors")

    def __init__(self, body: str, units: list[tuple[str, ...]], weights: list[float] | None, side: str = "") -> None:
        self.lines = body.split("\n")
        self.weights = weights if weights is not None and len(weights) == len(units) else [1.0] * len(units)
        self.line_units, self.spans, self.line_len = _mark(body, self.lines, units)
        # the units that speak a message here, and how many people speak
        self.speakers = _credit_speakers(self.lines, self.line_units, self.spans)
        self.named: set[int] = set()  # the people the question names, in a group log (`named_units`)
        self.entries = entry_spans(self.lines)
        self.replies = replies(self.entries, self.lines)
        self.avg_len = max(1.0, sum(self.line_len) / max(1, len(self.entries)))
        # per line, how much an occurrence counts for a question about one side (None: once everywhere)
        self.factors = side_factors(self.lines, self.entries, side) if side else None

    def bm25(self, first: int, last: int) -> float:
        counts: dict[int, float] = {}
        length = 0
        line_units, line_len, factors = self.line_units, self.line_len, self.factors
        for row in range(first, last + 1):
            length += line_len[row]
            if factors is None:
                for unit_id, n in line_units[row].items():
                    counts[unit_id] = counts.get(unit_id, 0) + n
            else:
                f = factors[row]
                for unit_id, n in line_units[row].items():
                    counts[unit_id] = counts.get(unit_id, 0) + n * f
        if not counts:
            return 0.0
        norm = _K1 * (1 - _B + _B * length / self.avg_len)
        weights = self.weights
        score = sum(weights[u] * n * (_K1 + 1) / (n + norm) for u, n in counts.items())
        return score * NAMELESS if self.named and self.named.isdisjoint(counts) else score

    def nameless(self, first: int, last: int) -> bool:
        """These rows hold none of the people the question names (`named`)."""
        return all(self.named.isdisjoint(self.line_units[r]) for r in range(first, last + 1))

    def scored(self, width: int) -> list[tuple[float, int, int]]:
        """(score, first row, last row) of every entry and exchange, best first; a candidate
        longer than `width` lines is its best stretch of `width` lines."""
        entries = self.entries
        out: list[tuple[float, int, int]] = []
        # in a group log a reply that names none of the people asked about is another conversation
        exchanges = [(entries[k][0], reply[1]) for k, reply in self.replies.items()
                     if not self.named or not self.nameless(reply[0], reply[1])]
        for first, last in [*entries, *exchanges]:
            if not any(self.line_units[r] for r in range(first, last + 1)):
                continue  # holds no unit: scores 0
            if last - first + 1 > width:
                best_sub = max((self.bm25(s, s + width - 1), -s) for s in range(first, last - width + 2))
                first = -best_sub[1]
                last = first + width - 1
            out.append((self.bm25(first, last), first, last))
        out.sort(key=lambda e: (-e[0], e[1], e[2]))
        return out


def _credit_speakers(lines: list[str], line_units: list[dict[int, int]],
                     spans: list[list[tuple[int, int, int]]]) -> tuple[set[int], int]:
    """A query unit that is a message's speaker (`- [13:10] 小罗: …`) counts SPEAKER_COUNT times
    there: a question that names a person asks about that person's own messages, and in a log
    of many people the name is in nearly every section (a low weight) but in few lines.
    Returns the units that speak somewhere and how many people speak in these lines."""
    spoken: set[int] = set()
    people: set[str] = set()
    for row, units in enumerate(line_units):
        line = lines[row]
        name = speaker(line) if units or len(people) < GROUP_SPEAKERS else ""
        if not name:
            continue
        people.add(name)
        if not units:
            continue
        start = line.find(name, 0, lead_end(line))
        end = start + len(name)
        inside = [(s, e, u) for s, e, u in spans[row] if start <= s and e <= end]
        for unit in {u for _, _, u in inside}:
            if unit in units:
                units[unit] *= SPEAKER_COUNT
        # a unit of two or more characters of the name names the person (阿强, not 阿 of 阿芳)
        wide: dict[int, int] = {}
        for s, e, u in inside:
            wide[u] = wide.get(u, 0) + (e - s)
        spoken.update(u for u, n in wide.items() if n >= 2)
    return spoken, len(people)


def named_units(scorers: list[_Scorer]) -> set[int]:
    """The query units that speak a message in a group log (`_group_log`) among these
    sections: the people the question is about. Each group log then weighs an entry that holds
    none of them by NAMELESS (another person's look-alike message: `阿芳: 欣欣你新车什么牌子？`
    for `静静买了什么牌子的车？`). A two-party log (user and assistant: roles, not people a
    question is about) and notes whose items carry labels (`- Note: …`) are no group logs."""
    logs = [sc for sc in scorers if _group_log(sc)]
    named: set[int] = set()
    for sc in logs:
        named |= sc.speakers[0]
    for sc in logs:
        sc.named = named
    return named


def _group_log(sc: _Scorer) -> bool:
    """At least GROUP_SPEAKERS people speak, and MESSAGE_SHARE of the entries are messages."""
    if sc.speakers[1] < GROUP_SPEAKERS or not sc.entries:
        return False
    messages = sum(1 for first, _ in sc.entries if speaker(sc.lines[first]))
    return messages >= MESSAGE_SHARE * len(sc.entries)


def scorer(body: str, units: list[tuple[str, ...]], side: str = "") -> _Scorer:
    """`body` marked for the query `units` once, for `entry_counts`, `entry_weights` and
    `make_snippet` to share; `side`: the question asks about that side's words (see SIDE_OTHER)."""
    return _Scorer(body, units, None, side)


def entry_counts(sc: _Scorer) -> tuple[int, dict[int, int]]:
    """(how many entries the section has, unit → how many of them hold the unit)."""
    held_by: dict[int, int] = {}
    line_units = sc.line_units
    for first, last in sc.entries:
        held: set[int] = set()
        for row in range(first, last + 1):
            held.update(line_units[row])
        for unit in held:
            held_by[unit] = held_by.get(unit, 0) + 1
    return len(sc.entries), held_by


def _weighed(sc: _Scorer, units: list[tuple[str, ...]], weights: list[float] | None) -> _Scorer:
    sc.weights = weights if weights is not None and len(weights) == len(units) else [1.0] * len(units)
    return sc


def entry_weights(body: str, units: list[tuple[str, ...]], weights: list[float] | None = None,
                  sc: _Scorer | None = None) -> tuple[float, int]:
    """The score of the best entry or exchange of `body`, whatever the snippet's size (what
    ranking adds to a section's BM25: see `engine.search`), and how many entries it has.
    `sc`: the body already marked for `units` (`scorer`)."""
    if not body:
        return 0.0, 0
    sc = _Scorer(body, units, weights) if sc is None else _weighed(sc, units, weights)
    scored = sc.scored(RANK_LINES) if units else []
    return (scored[0][0] if scored else 0.0), len(sc.entries)


def make_snippet(body: str, body_line: int, units: list[tuple[str, ...]], max_lines: int,
                 weights: list[float] | None = None, sc: _Scorer | None = None,
                 rank_weights: list[float] | None = None, ranked: tuple[float, int] | None = None) -> Snippet:
    """The best entries of `body` for the query `units`, at most `max_lines` lines of text;
    `Snippet.weight` and `Snippet.entries` are `entry_weights`. `weights` choose what is shown;
    `rank_weights`, when given, are the ones `Snippet.weight` is scored with; `ranked`, when
    given, is that (weight, entries) already computed. `sc`: the body already marked for
    `units` (`scorer`)."""
    if not body:
        return Snippet(body_line, [], [])
    sc = _Scorer(body, units, weights) if sc is None else _weighed(sc, units, weights)
    lines, line_units, spans, entries, weights = sc.lines, sc.line_units, sc.spans, sc.entries, sc.weights
    if not entries:
        return Snippet(body_line, [], [])
    width = max(1, max_lines)
    ranking_factors, sc.factors = sc.factors, None  # the side weighs the ranking, not the window
    scored = sc.scored(width)
    sc.factors = ranking_factors
    if not scored:  # nothing matches: the first text lines
        b_first = entries[0][0]
        rows = list(range(b_first, min(b_first + width, len(lines))))
        empty = _build(lines, spans, rows, body_line, b_first, "no query unit in this section; its first lines")
        empty.entries = len(entries)
        return empty
    best_score, b_first, b_last = scored[0]

    chosen: set[int] = set()
    why = f"best entry L{body_line + b_first}" + (f"-{body_line + b_last}" if b_last > b_first else "")
    why += f" (weight {best_score:.2f})"
    best_rows = range(b_first, b_last + 1)

    def size(rows: set[int]) -> int:
        return sum(_shown_len(len(lines[r]), MAX_LINE_CHARS if r in best_rows else OTHER_LINE_CHARS) for r in rows)

    budget = size(set(best_rows)) + SNIPPET_CHARS
    reply_of = {entries[k][1]: reply for k, reply in sc.replies.items()}  # an entry's last row → its reply
    answer_of = {entries[k][1]: entries[k + 1] for k in range(len(entries) - 1)}  # an entry's last row → the next one

    def take(first: int, last: int) -> bool:
        """Show these rows, then the reply that follows them, while they fit."""
        rows = set(range(first, last + 1))
        if rows <= chosen or len(chosen | rows) > width or size(chosen | rows) > budget:
            return False
        chosen.update(rows)
        reply = reply_of.get(last)
        if reply and not (sc.named and sc.nameless(*reply)):
            rows = set(range(reply[0], min(reply[1], reply[0] + width - 1) + 1))
            if len(chosen | rows) <= width and size(chosen | rows) <= budget:
                chosen.update(rows)
                last = max(rows)
        # a message that ends on a question is answered by the entry after it, which need hold
        # none of the query's words ("where will you travel?" → "to Spain, next month")
        answer = answer_of.get(last)
        if answer and lines[last].rstrip().endswith(_ASKS):
            rows = set(range(answer[0], answer[1] + 1))
            if len(chosen | rows) <= width and size(chosen | rows) <= budget:
                chosen.update(rows)
        return True

    take(b_first, b_last)
    # other strong entries (each with its reply), best first, while they fit
    for score, first, last in scored[1:]:
        if score < SECOND_SHARE * best_score or len(chosen) >= width:
            break
        if take(first, last):
            why += f"; also L{body_line + first} (weight {score:.2f})"
    # context: the lines that follow, then precede, the chosen lines while they fit; a line
    # without a query unit only while the snippet stays short
    low, high = min(chosen), max(chosen)
    for row in [*range(high + 1, len(lines)), *range(low - 1, -1, -1)]:
        if len(chosen) >= width:
            break
        if not lines[row].strip():
            continue
        if sc.named and sc.nameless(row, row) and not _asks_chosen(row, chosen, lines):
            continue  # a group log's line about none of the people asked about is another conversation
        room = budget if line_units[row] else CONTEXT_CHARS
        if size(chosen | {row}) > room or not _touches(chosen, row, lines):
            continue
        chosen.add(row)
    best_row = max(best_rows, key=lambda r: (sum(weights[u] for u in line_units[r]), -r))
    snippet = _build(lines, spans, sorted(chosen), body_line, best_row, why, weights, best_rows)
    if ranked is not None:
        snippet.weight = ranked[0]
    elif rank_weights is not None:
        snippet.weight = entry_weights(body, units, rank_weights, sc)[0]
    else:
        snippet.weight = best_score if width == RANK_LINES else (sc.scored(RANK_LINES) or [(0.0, 0, 0)])[0][0]
    snippet.entries = len(entries)
    snippet.matched = {u for row in line_units for u in row}
    return snippet


def _asks_chosen(row: int, chosen: set[int], lines: list[str]) -> bool:
    """`row` is a question that the chosen message after it answers (another speaker, the next
    line): the exchange is read together even when only the reply names the person asked about."""
    after = row + 1
    return (after in chosen and lines[row].rstrip().endswith(_ASKS)
            and speaker(lines[row]) != speaker(lines[after]) != "")


def _shown_len(length: int, limit: int) -> int:
    """The characters `_clip` shows of a line this long."""
    return length if length <= limit + limit // 4 else limit


def _touches(chosen: set[int], row: int, lines: list[str]) -> bool:
    """True when `row` is next to a chosen line, blank lines in between allowed."""
    for step in (-1, 1):
        r = row + step
        while 0 <= r < len(lines) and not lines[r].strip():
            r += step
        if r in chosen:
            return True
    return False


def _mark(body: str, lines: list[str], units: list[tuple[str, ...]]
          ) -> tuple[list[dict[int, int]], list[list[tuple[int, int, int]]], list[int]]:
    """Per line: {unit: occurrences}, highlight spans (start, end, unit), length in characters."""
    line_units: list[dict[int, int]] = [{} for _ in lines]
    spans: list[list[tuple[int, int, int]]] = [[] for _ in lines]
    line_len = [len(line) for line in lines]  # characters: the entry length for normalisation
    if not units:
        return line_units, spans, line_len
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    cjk = [all(analysis.is_cjk(t) for t in unit) for unit in units]
    if all(cjk):
        _mark_cjk(body, lines, units, starts, line_units, spans)
    else:
        _mark_tokens(body, lines, units, starts, line_units, spans)
    return line_units, spans, line_len


def _mark_cjk(body: str, lines: list[str], units: list[tuple[str, ...]], starts: list[int],
              line_units: list[dict[int, int]], spans: list[list[tuple[int, int, int]]]) -> None:
    """`_mark_tokens` for units made only of CJK characters, without tokenizing the body: each
    CJK character is a token of its own, unchanged by the analyzer, so a unit occurs exactly
    where its characters do, side by side (~50x cheaper than the analyzer on a Chinese day)."""
    for unit_id, unit in enumerate(units):
        needle = "".join(unit)
        n = len(needle)
        pos = body.find(needle)
        while pos >= 0:
            row = bisect_right(starts, pos) - 1
            line_units[row][unit_id] = line_units[row].get(unit_id, 0) + 1
            at = pos - starts[row]
            spans[row].extend((at + j, at + j + 1, unit_id) for j in range(n))
            pos = body.find(needle, pos + 1)


def _mark_tokens(body: str, lines: list[str], units: list[tuple[str, ...]], starts: list[int],
                 line_units: list[dict[int, int]], spans: list[list[tuple[int, int, int]]]) -> None:
    """Mark the units where the index's own analyzer finds their tokens."""
    toks = analysis.tokens(body)
    texts = [t.text for t in toks]

    def mark(i: int, unit_id: int, count: bool) -> None:
        tok = toks[i]
        row = bisect_right(starts, tok.char_offset_from) - 1
        if count:
            line_units[row][unit_id] = line_units[row].get(unit_id, 0) + 1
        base = starts[row]
        spans[row].append((tok.char_offset_from - base, min(tok.char_offset_to - base, len(lines[row])), unit_id))

    wanted = {tok for unit in units for tok in unit}
    where: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        if text in wanted:
            where.setdefault(text, []).append(i)
    for unit_id, unit in enumerate(units):
        n = len(unit)
        for i in where.get(unit[0], ()):
            if n == 1 or tuple(texts[i:i + n]) == unit and _consecutive(toks, i, n):
                for j in range(i, i + n):
                    mark(j, unit_id, j == i)


def _build(lines: list[str], spans: list[list[tuple[int, int, int]]], rows: list[int], body_line: int,
           best_row: int, why: str, weights: list[float] | None = None, best_rows: range | None = None) -> Snippet:
    out_lines: list[str] = []
    out_spans: list[list[tuple[int, int]]] = []
    numbers: list[int | None] = []
    previous = None
    for row in rows:
        if previous is not None and any(lines[r].strip() for r in range(previous + 1, row)):
            out_lines.append(GAP)
            out_spans.append([])
            numbers.append(None)
        previous = row
        text, row_spans = _clip(lines[row], spans[row], weights,
                                MAX_LINE_CHARS if best_rows is None or row in best_rows else OTHER_LINE_CHARS)
        out_lines.append(text)
        out_spans.append(row_spans)
        numbers.append(body_line + row)
    while out_lines and not out_lines[-1].strip():
        out_lines.pop()
        out_spans.pop()
        numbers.pop()
    first = numbers[0] if numbers else body_line
    return Snippet(first if first is not None else body_line, out_lines, out_spans, numbers, body_line + best_row, why)


def _consecutive(toks: list, i: int, n: int) -> bool:
    """Consecutive positions; CJK characters also touching (`私 钥` is not `私钥`)."""
    first = toks[i].position
    for j in range(1, n):
        tok = toks[i + j]
        if tok.position != first + j:
            return False
        if tok.char_offset_from != toks[i + j - 1].char_offset_to and analysis.is_cjk(tok.text):
            return False
    return True


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort and join touching or overlapping ranges (per-character CJK marks → one run)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _clip(line: str, marks: list[tuple[int, int, int]], weights: list[float] | None = None,
          limit: int = MAX_LINE_CHARS) -> tuple[str, list[tuple[int, int]]]:
    """Cut an overlong line to its lead and the stretch with the most highlight weight,
    marked with '…'."""
    spans = _merge([(s, e) for s, e, _ in marks])
    if len(line) <= limit + limit // 4:  # a line a little over is shown whole, not cut near its end
        return line, spans
    lead = lead_end(line)
    lead = lead if lead <= limit // 2 else 0
    room = limit - lead - 1

    def weight(mark: tuple[int, int, int]) -> float:
        return weights[mark[2]] if weights and mark[2] < len(weights) else 1.0

    # the stretch of `room` characters, starting a little before a highlight, that holds the
    # most highlight weight (sliding window over the highlights in order)
    ordered = sorted(marks)
    best_start, best, total, left, right = 0, -1.0, 0.0, 0, 0
    for mark in ordered:
        start = max(0, mark[0] - room // 6)
        while right < len(ordered) and ordered[right][1] <= start + room:
            total += weight(ordered[right])
            right += 1
        while left < right and ordered[left][0] < start:
            total -= weight(ordered[left])
            left += 1
        if total > best + 1e-9:
            best_start, best = start, total
    if best_start <= lead + room // 6:  # the best stretch is near the start: no cut inside
        start, end, head = 0, limit, ""
    else:
        start = min(best_start, len(line) - room)
        end = start + room
        head = line[:lead] + "…"
    tail = "…" if end < len(line) else ""
    shift = len(head) - start
    kept = [(max(s, start) + shift, min(e, end) + shift) for s, e in spans if e > start and s < end]
    lead_spans = [(s, min(e, lead)) for s, e in spans if head and s < lead]
    return head + line[start:end] + tail, lead_spans + kept
