"""Search: user text and filters → ranked Hit records with line-anchored snippets.

Filters (`collections`, `types`, `since`/`until`, `path`) are part of the backend's query, so
`-n 10` means ten matching hits, not ten hits of which some are then dropped. The backend is
reached only through the seam (`backends.open_searcher`, `backends.seam.Searcher`).
"""

from __future__ import annotations

import os
import time

from ..text import query as query_mod
from ..base.config import MAX_LIMIT, Config
from ..base.errors import BadInputError, IndexCorruptError, is_engine_panic
from ..base.fsutil import glob_to_regex
from ..backends import open_searcher
from ..base.conventions import parse_type
from ..base.dates import day_number
from .hits import Files, Hit, build_hit  # re-exported: callers import them from search
from . import priors as day_priors
from .priors import ORDER_PRIOR, ORDER_SHARE  # noqa: F401 - re-exported: tests and docs name them here
from ..text import snippets
from ..text.snippets import Snippet

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from datetime import date

    from ..backends.seam import Searcher

_RETRIES = 5
# A section from a day the question names scores (1 + DATE_PRIOR) times its text score, plus
# DATE_BONUS times the weight of the query's best unit (1.5: the text score, an entry's plus
# half the section's, runs ~1.5 times a section's BM25; measured on memorybank-zh-dev's dev users).
DATE_PRIOR = 1.0
DATE_BONUS = 1.5
# A date named without its year ("5月2日", "in May") that no section has this year is looked
# for this many years back (one cheap listing search a year, only while none is found).
YEARS_BACK = 30
# A hit's text score is its best entry's score (a message, a list item, an exchange: see
# text/snippets.entry_weights) plus this share of its section's BM25. The entry says where the
# answer is; the section's score says its day or topic is the right one. (Measured: an
# entry's score alone loses a day's context on memorybank-zh-dev; with a section of one entry
# scored by its own entry-level BM25, SciFact nDCG@10 fell 0.692 -> 0.682.) Sections are ranked by
# BM25 first and this many (or -n, if more) re-ranked, so the first hits of -n 5 and -n 10 agree.
SECTION_SHARE = 0.5
RERANK_DEPTH = 10
# Where the first sections read are long logs (LONG_LOG_ENTRIES entries or more on average), the
# re-ranking reads this many: a section's BM25 says little about its best message there (a day
# whose one message answers often ranks 11th-20th by BM25 in a group log; zh_group tuning seeds
# any@10 0.967/0.965/0.971 -> 0.984/0.971/0.983, the dev sets unchanged). Short sections (notes,
# abstracts) are ranked by BM25 about as their entries would be, and cost no extra reads.
LONG_LOG_DEPTH = 20
LONG_LOG_ENTRIES = 12
BUDGET_POOL = 50  # hits considered for --budget when -n is not given
HIT_OVERHEAD_TOKENS = 24  # path, heading, score and JSON keys of one hit


class SearchOptions:
    __slots__ = ("collections", "limit", "types", "since", "until", "path", "min_score", "snippet_lines",
                 "now", "when", "recency", "explain", "budget", "exact")

    def __init__(
        self,
        collections: list[str] | None = None,
        limit: int = 10,
        types: list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        path: str | None = None,
        min_score: float | None = None,
        snippet_lines: int = 3,
        now: str | None = None,
        when: str | None = None,
        recency: float | None = None,
        explain: bool = False,
        budget: int | None = None,
        exact: bool = False,
    ) -> None:
        self.collections = collections or []
        self.limit = limit
        self.types = types or []
        self.since = since
        self.until = until
        self.path = path
        self.min_score = min_score
        self.snippet_lines = snippet_lines
        self.now = now  # YYYY-MM-DD that relative dates count from (default: today)
        self.when = when  # "last week", "5月2日": an explicit date filter
        self.recency = recency  # half-life in days of a prior for recent dated sections
        self.explain = explain
        self.budget = budget  # LLM tokens the hits may take (instead of a count)
        self.exact = exact  # quoted "phrases" must appear (else they only rank higher)


def parse_day(value: str, today: date | None = None) -> int:
    """`YYYY-MM-DD`, `today`, `yesterday` or `Nd` (N days ago) → YYYYMMDD."""
    from datetime import date, timedelta

    v = value.strip().lower()
    today = today or date.today()
    try:
        if v == "today":
            day = today
        elif v == "yesterday":
            day = today - timedelta(days=1)
        elif v.endswith("d") and v[:-1].isdigit():
            day = today - timedelta(days=int(v[:-1]))
        else:
            day = date.fromisoformat(v)
    except (ValueError, OverflowError):
        raise BadInputError(f"bad date {value!r}: use YYYY-MM-DD, today, yesterday or Nd (days ago)") from None
    return day_number(day)


def path_filter_regex(glob: str) -> str:
    """A path glob as an anchored regex; a glob without '/' matches in any folder."""
    regex = glob_to_regex(glob)
    return regex if "/" in glob else f"(?:.*/)?{regex}"


def check_path_filter(searcher: Searcher, glob: str | None, form: query_mod.QueryForm) -> None:
    """BadInputError when the backend cannot run the --path glob's regex (too complex)."""
    problem = searcher.path_problem(form.path_regex) if glob and form.path_regex else None
    if problem:
        raise BadInputError(f"--path {glob!r}: the index cannot use this glob ({problem}); simplify it")


_DATE_HINTS = ("today", "yesterday", "tonight", "ago", "last", "this", "past", "previous", "week", "month", "year",
               "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
               "mon", "tue", "wed", "thu", "fri", "sat", "sun",
               "天", "周", "月", "年", "星期", "礼拜", "号")


def maybe_dated(text: str) -> bool:
    """A cheap test before importing the date parser: a digit or a date word."""
    lower = text.lower()
    return any(ch.isdigit() for ch in lower) or any(hint in lower for hint in _DATE_HINTS)


def today(options: SearchOptions) -> date:
    from datetime import date

    if not options.now:
        return date.today()
    try:
        return date.fromisoformat(options.now.strip())
    except ValueError:
        raise BadInputError(f"bad --now {options.now!r}: use YYYY-MM-DD") from None


def build_form(text: str, options: SearchOptions) -> query_mod.QueryForm:
    """The query form of `text` and the options. A date the text names becomes a prior (see
    `settle_dates`), its words taken out of the text unless nothing else is left."""
    date_options: list[list[tuple[int, int]]] = []
    date_text = ""
    if text and maybe_dated(text):
        from ..text import when

        ranges, rest = when.find(text, today(options))
        for found in ranges:
            earlier = [found.earlier(n) for n in range(1, YEARS_BACK + 1)] if found.yearly else []
            date_options.append([found.ints(), *(r for r in earlier if r is not None)])
        if ranges and rest.strip():
            text, date_text = rest, " ".join(r.text for r in ranges)
    form = query_mod.parse(text, options.exact)
    form.order = query_mod.ordinal(text)
    form.side = query_mod.speaker_side(text)
    form.date_options = date_options
    form.date_priors = [options[0] for options in date_options]  # until a search settles them
    form.date_units = query_mod.units_for(date_text) if date_text else []
    form.collections = list(options.collections)
    form.types = sorted({parse_type(t) for t in options.types})
    now = today(options) if (options.now or options.when or options.since or options.until) else None
    form.since = parse_day(options.since, now) if options.since else 0
    form.until = parse_day(options.until, now) if options.until else 0
    if options.when:
        from ..text import when

        try:
            assert now is not None  # set above whenever options.when is
            low, high = when.parse_when(options.when, now)
        except ValueError:
            raise BadInputError(f"--when {options.when!r}: no date found (try 'last week', 'yesterday', "
                                "'2026-05-02', '5月2日', '上周')") from None
        form.since, form.until = max(form.since, low), min(form.until or high, high)
    if form.since and form.until and form.since > form.until:
        raise BadInputError("--since is after --until")
    form.path_regex = path_filter_regex(options.path) if options.path else ""
    return form


def search(cfg: Config, text: str, options: SearchOptions | None = None,
           searcher: Searcher | None = None) -> list[Hit]:
    """Ranked hits for `text` across the selected collections (all by default). `searcher`:
    one a long-lived face keeps open between searches (`backends.open_searcher`)."""
    return ranked_search(cfg, text, options, searcher)[0]


def ranked_search(cfg: Config, text: str, options: SearchOptions | None = None, searcher: Searcher | None = None,
                  depth: int = 0) -> tuple[list[Hit], list[tuple[float, dict]]]:
    """`search`'s hits and, `depth` sections deep, the order they come from as (score, stored
    fields): the sections read to rank (entries, the date, speaker and first/last-time priors)
    first, then the rest by BM25 and the date prior. `qmem query` fuses this order with the
    vectors', so the places it fills rank as `qmem search` would."""
    options = options or SearchOptions()
    check_limit(options.limit)
    cfg.select(options.collections)  # unknown names fail before touching the index
    form = build_form(text, options)
    searcher = searcher or open_searcher(cfg)
    check_path_filter(searcher, options.path, form)
    last_error: BaseException | None = None
    for attempt in range(_RETRIES):
        try:
            searcher.reload()  # a searcher kept open sees the latest commit
            return _run(cfg, form, options, searcher, depth)
        except BaseException as exc:
            # A refresh in another process may delete a segment between our reading
            # meta.json and opening the segment; the next attempt sees the new commit.
            if not isinstance(exc, ValueError) and not is_engine_panic(exc):
                raise
            last_error = exc
            searcher.close()
            if is_engine_panic(exc):
                break  # no refresh makes the engine panic: asking again only panics again
            time.sleep(0.02 * (attempt + 1))
    assert last_error is not None  # the loop returns, raises, or sets it on every attempt
    problem = searcher.damage(last_error)  # still failing: damaged?
    if problem:
        raise IndexCorruptError(f"the index in {searcher.location} is damaged ({problem})")
    raise last_error


def real_roots(cfg: Config) -> dict[str, str]:
    """Each collection's root with links resolved: the same file under two collections is one file."""
    return {name: os.path.realpath(coll.path) for name, coll in cfg.collections.items()}


def copies(cfg: Config, names: list[str] | None = None) -> int:
    """The most collections among `names` (all by default) that can index one file: 1 unless
    roots overlap (`main` and `all` on one folder, or a root inside another)."""
    from ..base.fsutil import is_inside

    roots = [os.path.realpath(c.path) for c in cfg.select(names)]
    return max((sum(is_inside(other, root) for other in roots) for root in roots), default=1)


def never_indexed(cfg: Config, names: list[str] | None = None) -> list[str]:
    """The selected collections that no refresh has indexed yet (created with --no-index, or
    added to the config by hand): a search finds nothing in them and should say so."""
    from ..base.layout import manifest_path

    return [c.name for c in cfg.select(names) if not os.path.exists(manifest_path(cfg.data_dir, c.name))]


def check_limit(limit: int) -> None:
    """Refuse a result count below 1 or above MAX_LIMIT (a huge count would size the engine's
    top-k heap, or overflow its unsigned argument)."""
    if limit < 1 or limit > MAX_LIMIT:
        raise BadInputError(f"the number of results must be between 1 and {MAX_LIMIT}, got {limit}")


def ranked_docs(cfg: Config, form: query_mod.QueryForm, limit: int,
                searcher: Searcher | None = None) -> list[tuple[float, dict]]:
    """(BM25 score, stored fields) of the best `limit` sections for a query form."""
    return _ranked(cfg, form, limit, searcher or open_searcher(cfg))[0]


def _ranked(cfg: Config, form: query_mod.QueryForm, limit: int, searcher: Searcher
            ) -> tuple[list[tuple[float, dict]], list[float], tuple[int, list[int]] | None]:
    """The best sections the config's scopes may see, the weight of each highlight unit (see
    `unit_weights`) and the counts they come from (None: the backend has none), from
    whichever backend the config names."""
    docs = settle_dates(searcher, cfg, form, limit)
    docs.extend(searcher.search(form, cfg.sees, limit))
    if not docs:
        return docs, [], None
    counts = searcher.frequencies([*form.should, *form.must], cfg.sees)
    return docs, weights_of(form, counts), counts


def settle_dates(searcher: Searcher, cfg: Config, form: query_mod.QueryForm, limit: int) -> list[tuple[float, dict]]:
    """Fix `form.date_priors` to the ranges that hold sections and return the named days'
    sections, so they compete even when the text ranks them low.

    A date named without its year means the latest such day the memory has: this year's
    first, then earlier years' (`form.date_options`). A date that holds no section anywhere
    (a relative date counted from today in an old memory) gives no prior, and its words go
    back into the query: they are all the question says about when."""
    docs: list[tuple[float, dict]] = []
    if not form.date_options:
        return docs
    settled: list[tuple[int, int]] = []
    for options in form.date_options:
        for low, high in options:
            dated = form.within(low, high)
            if dated is None:
                continue
            listing = dated.within(low, high)
            assert listing is not None  # `dated` already lies within low..high
            listing.should, listing.must = [], []  # the named days' sections, whatever their words
            found = searcher.search(listing, cfg.sees, limit)
            if found:
                settled.append((low, high))
                docs.extend((0.0, doc) for _, doc in found)
                docs.extend(searcher.search(dated, cfg.sees, limit))
                break
    form.date_priors, form.date_options = settled, []
    if not settled and form.date_units:
        form.should = query_mod.merge_units(form.should, form.date_units)
    form.date_units = []
    return docs


def unit_weights(searcher: Searcher, form: query_mod.QueryForm, scopes: list[str]) -> list[float]:
    """Each highlight unit's BM25 IDF among the sections the scopes may see (a phrase counted
    by the sections that hold it), times its query boost: what a snippet line earns for
    holding it. Empty when the backend has no cheap counts (snippets weigh units alike)."""
    return weights_of(form, searcher.frequencies([*form.should, *form.must], scopes))


def weights_of(form: query_mod.QueryForm, counts: tuple[int, list[int]] | None) -> list[float]:
    """`unit_weights` from the backend's counts: (sections in all, sections holding each unit)."""
    if counts is None:
        return []
    units = [*form.should, *form.must]
    total = max(1, counts[0])
    return [_idf(total, df) * unit.boost for unit, df in zip(units, counts[1])]


def _idf(total: float, df: float) -> float:
    import math

    return math.log(1 + (total - df + 0.5) / (df + 0.5))


def entry_rarity(counts: tuple[int, list[int]], units: list[query_mod.Unit], scorers: list) -> list[float]:
    """Each unit's IDF among entries (messages, list items, paragraphs) rather than sections,
    times its query boost, estimated from the sections a search reads (`snippets.scorer` of
    each): a unit that `df` sections hold is held by about `df` times as many entries as it
    is in each candidate section that has it, out of about `sections` times the candidates'
    mean number of entries. In a log of many people a name is in nearly every day (a
    section-level weight near 0) but in few of its messages. Empty when no candidate has an entry."""
    stats = [snippets.entry_counts(sc) for sc in scorers]
    stats = [(n, held) for n, held in stats if n]
    if not stats:
        return []
    total = max(1, counts[0]) * sum(n for n, _ in stats) / len(stats)
    out = []
    for u, (unit, df) in enumerate(zip(units, counts[1])):
        holders = [held[u] for _, held in stats if u in held]
        entries = min(total, df * (sum(holders) / len(holders) if holders else 1.0))
        out.append(_idf(total, entries) * unit.boost)
    return out


def show_weights(counts: tuple[int, list[int]], units: list[query_mod.Unit], scorers: list,
                 weights: list[float]) -> list[float]:
    """The weights that choose what a snippet shows: the geometric mean of each unit's
    section-level weight and its rarity among entries (`entry_rarity`). Measured: entry rarity
    alone in ranking lost LongMemEval turn@5 (0.901 -> 0.877); choosing the window with it
    alone cost ~11 characters a hit there; the mean keeps both (see /work/coord/notes)."""
    rare = entry_rarity(counts, units, scorers)
    if len(rare) != len(weights):
        return weights
    # a weight below 0 (a unit's count of deleted sections not yet merged away can pass the
    # live total) counts as 0: the root of a negative product is complex
    return [(max(0.0, a) * max(0.0, b)) ** 0.5 for a, b in zip(rare, weights)]


def _run(cfg: Config, form: query_mod.QueryForm, options: SearchOptions, searcher: Searcher,
         depth: int = 0) -> tuple[list[Hit], list[tuple[float, dict]]]:
    """Top sections by BM25, re-ranked by their best entries; a date named in the query and
    `--recency` re-weigh each hit on its own (a hit's score never depends on the other hits
    or on a filter), except that a question about the first or the last time favours the
    earliest or latest of the candidates that match it (`day_priors.order_day`). With the
    hits, the order `depth` deep (see `ranked_search`)."""
    files = Files()
    priors = bool(form.date_priors or options.recency)
    # overlapping collections index a file more than once; a prior (a named day, recency, the
    # first or last time) may lift a section from deeper down
    scale = (2 if priors or form.order else 1) * copies(cfg, form.collections)
    pool = max(options.limit, RERANK_DEPTH) * scale
    if options.budget:
        pool = max(pool, BUDGET_POOL)
    deep = max(pool, max(options.limit, LONG_LOG_DEPTH) * scale)  # the pool where sections are long logs
    docs, weights, counts = _ranked(cfg, form, max(deep, depth), searcher)
    units = form.highlight_units()  # after `_ranked`: settling the dates may put date words back
    now = day_number(today(options)) if priors else 0
    # a named day's section also earns a share of the weight of the query's best unit, so the
    # day shows up even when its words differ from the question's (the same for every hit)
    date_bonus = DATE_BONUS * max(weights, default=0.0) if form.date_priors else 0.0
    seen: set[tuple[str, int]] = set()
    # a section listed twice keeps its text score; one in several overlapping collections is
    # one hit, credited to the first collection by name
    docs.sort(key=lambda row: (-row[0], row[1]["collection"][0]))
    roots = real_roots(cfg)
    ranked: list[tuple[float, float, float, dict]] = []
    for score, doc in docs:
        key = (os.path.join(roots.get(doc["collection"][0], doc["collection"][0]), doc["path"][0]), doc["line_start"][0])
        if key in seen:
            continue
        seen.add(key)
        day = doc["date"][0]
        in_range = any(low <= day <= high for low, high in form.date_priors)
        date_factor = 1.0 + DATE_PRIOR if in_range else 1.0
        recency_factor = day_priors.recency(day, now, options.recency) if options.recency else 1.0
        final = (score * date_factor + (date_bonus if in_range else 0.0)) * recency_factor
        ranked.append((final, date_factor, recency_factor, {**doc, "_bm25": score}))
    ranked.sort(key=lambda row: -row[0])
    hits: list[Hit] = []
    wanted = pool if options.budget else options.limit
    rescored: list[tuple[float, float, float, dict, Hit, int]] = []
    read: list[tuple[float, float, dict, Hit]] = []
    scorers: list = []
    rows = iter(ranked)

    def read_up_to(size: int) -> None:
        for score, date_factor, recency_factor, doc in rows:
            hit = build_hit(cfg, doc, score, units, 0, files, weights, read=True)
            if hit is not None:
                read.append((date_factor, recency_factor, doc, hit))
                scorers.append(snippets.scorer(hit.body, units, form.side))
                if len(read) >= size:
                    return

    read_up_to(pool)
    if deep > pool and scorers and sum(len(sc.entries) for sc in scorers) >= LONG_LOG_ENTRIES * len(scorers):
        read_up_to(deep)
    snippets.named_units(scorers)
    # what a snippet shows is chosen with each unit's rarity among entries too (see
    # `entry_rarity`); ranking keeps the section-level weights
    shown = show_weights(counts, [*form.should, *form.must], scorers, weights) if counts is not None else weights
    for k, ((date_factor, recency_factor, doc, hit), sc) in enumerate(zip(read, scorers)):
        weight, entries = snippets.entry_weights(hit.body, units, weights, sc)
        # a section of one entry is its own best entry, and the index's BM25 (IDF and length
        # over the whole collection, heading included) is the better score of it
        entry = weight if entries > 1 else doc["_bm25"]
        text = entry + SECTION_SHARE * doc["_bm25"]
        final = (text * date_factor + (date_bonus if date_factor > 1.0 else 0.0)) * recency_factor
        hit.score = final
        hit.snippet.weight, hit.snippet.entries = weight, entries
        doc["_entry"] = entry
        doc["_text"] = text
        rescored.append((final, date_factor, recency_factor, doc, hit, k))
    if form.order:
        rescored = day_priors.order_prior(rescored, form.order)
    rescored.sort(key=lambda row: -row[0])
    # only the hits returned get a snippet (the pool is read to rank, not to show)
    for score, date_factor, recency_factor, doc, hit, k in rescored:
        if len(hits) >= wanted:
            break
        if options.min_score is not None and score < options.min_score:
            continue
        if options.snippet_lines > 0:
            hit.snippet = snippets.make_snippet(hit.body, hit.body_line, units, options.snippet_lines, shown,
                                                scorers[k], ranked=(hit.snippet.weight, hit.snippet.entries))
        if options.explain:
            hit.explain = _explain(form, hit, weights, doc["_bm25"], date_factor, recency_factor, doc["_entry"],
                                   doc.get("_order", 1.0), scorers[k].factors is not None)
        hits.append(hit)
    order = [(row[0], row[3]) for row in rescored] if depth else []
    for score, _, _, doc in rows:  # the sections not read rank below those read
        if len(order) >= depth:
            break
        order.append((score, doc))
    if options.budget:
        return fit_budget(hits, options.budget, options.limit), order
    return hits[:options.limit], order


def _explain(form: query_mod.QueryForm, hit: Hit, weights: list[float], bm25: float, date_factor: float,
             recency_factor: float, entry: float = 0.0, order_factor: float = 1.0,
             sided: bool = False) -> dict[str, object]:
    """Why a hit ranks where it does: the units it holds with their weights, the priors,
    the snippet window. `sided`: the question asks about one side's words and this section is
    a two-party log (its other side's lines weigh less)."""
    snippet: Snippet = hit.snippet
    units = [*form.should, *form.must]
    matched = {" ".join(units[u].tokens) if len(units[u].tokens) > 1 and not all(len(t) == 1 for t in units[u].tokens)
               else "".join(units[u].tokens): round(weights[u], 3) for u in sorted(snippet.matched) if u < len(weights)}
    out: dict[str, object] = {"bm25": round(bm25, 4), "entry": round(entry, 4), "units": matched}
    if form.date_priors:
        out["date_prior"] = {"ranges": [f"{low}-{high}" for low, high in form.date_priors],
                             "factor": round(date_factor, 3)}
    if recency_factor != 1.0:
        out["recency"] = round(recency_factor, 3)
    if form.order:
        out["order_prior"] = {"order": form.order, "factor": round(order_factor, 3)}
    if form.side and sided:  # only where it applies: a note has no sides
        out["speaker_prior"] = {"side": form.side, "other_side": snippets.SIDE_OTHER}
    out["window"] = snippet.why
    return out


def empty_reason(cfg: Config, text: str, options: SearchOptions, searcher: Searcher | None = None) -> str:
    """Why a search found nothing, in one phrase (for an empty answer); `searcher`: the one a
    long-lived face keeps (else one is opened)."""
    form = build_form(text, options)
    if not form.should and not form.must:
        return "the query has no searchable words"
    present = (searcher or open_searcher(cfg)).present([*form.should, *form.must], cfg.sees)
    if not present:
        return "no word of the query occurs in the indexed collections"
    if form.must and any(u not in present for u in form.must):
        return "a quoted phrase occurs nowhere"
    return "the filters (collection, --type, --since/--until/--when, --path) or -exclusions leave no match"


def fit_budget(hits: list[Hit], budget: int, limit: int) -> list[Hit]:
    """As many hits as fit in `budget` LLM tokens (estimated), best first; a hit that does not
    fit whole is cut to its best entry's line when that fits."""
    from ..text.analysis import estimate_tokens

    kept: list[Hit] = []
    used = 0
    for hit in hits:
        if len(kept) >= limit:
            break
        snippet: Snippet = hit.snippet
        cost = estimate_tokens(snippet.text) + HIT_OVERHEAD_TOKENS
        if used + cost > budget and snippet.lines:
            row = next((k for k, n in enumerate(snippet.numbers) if n == snippet.best), 0)
            hit.snippet = Snippet(snippet.best, [snippet.lines[row]], [snippet.spans[row]], [snippet.best],
                                  snippet.best, snippet.why + "; cut to the best line for --budget")
            hit.snippet.matched = snippet.matched
            cost = estimate_tokens(snippet.lines[row]) + HIT_OVERHEAD_TOKENS
        if used + cost > budget:
            break
        kept.append(hit)
        used += cost
    return kept
