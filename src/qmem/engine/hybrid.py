"""Vector search over the stored embeddings, and BM25 + vectors fused by weighted RRF.

Fusion: each list contributes weight / (k + rank) for every section it ranks; the sums
order the result. Guards keep a weak dense list from hurting: its weight is below BM25's
(chosen on the shared data sets, see README); a clear BM25 winner (top score at least
CLEAR_RATIO times the second's) stays first; and BM25's first KEEP hits always stay in the
first KEEP places, in BM25's order (see `hybrid`): fusion never does worse there.
"""

from __future__ import annotations

import copy
import os

from ..vector import similarity  # the tier names its extra when numpy is missing

from ..text import query as query_mod
from . import search as search_mod
from ..backends import open_searcher
from ..base.config import Config
from ..base.errors import QmemError
from .search import Files, Hit, SearchOptions, build_form, build_hit, copies, real_roots
from ..vector import rowfile, store
from ..vector.models import Embedder

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from ..backends.seam import Searcher

RRF_K = 60
BM25_WEIGHT = 1.0
VECTOR_WEIGHT = 0.75  # measured: see README "Semantic search" (0.25–1.0 all beat BM25; 0.75 balanced)
CLEAR_RATIO = 1.5
DEPTH = 50
KEEP = 5  # BM25's first hits, which hybrid always shows first in BM25's order


def model_for(cfg: Config, collections: list[str] | None = None) -> Embedder:
    """The model the selected collections were embedded with (loaded now), or a clear error."""
    from ..base.errors import BadInputError
    from ..vector import models

    chosen = cfg.select(collections)
    stored = next((s for s in (store.load(cfg.data_dir, c.name) for c in chosen) if s is not None), None)
    if stored is None:
        from ..base.install import install_hint

        damaged = next((p for p in (store.problem(cfg.data_dir, c.name) for c in chosen) if p), None)
        raise BadInputError(damaged or f"no vectors yet: run qmem embed ({install_hint('vector')} first)")
    return models.load(models.name_of(stored.model))


def _as_doc(collection: str, row: dict) -> dict:
    """A stored-vector row in the shape of the index's stored fields (for search.build_hit)."""
    return {
        "collection": [collection], "path": [row["path"]], "anchor": [row["anchor"]], "heading": [row["heading"]],
        "line_start": [row["line_start"]], "line_end": [row["line_end"]], "body_line": [row["body_line"]],
        "body_hash": [row["body_hash"]], "types": list(row.get("types", [])), "date": [row["date"]],
    }


def _passes(rows: rowfile.Rows, i: int, form: query_mod.QueryForm, path_re: re.Pattern[str] | None) -> bool:
    """Whether row i meets the query's filters (reading only the fields they name)."""
    if form.types and not set(form.types) & set(rows.types(i)):
        return False
    if form.since or form.until:
        date = rows.date(i)
        if form.since and date < form.since:
            return False
        if form.until and (not date or date > form.until):
            return False
    return not (path_re and not path_re.fullmatch(rows.path(i)))


def ranked_vectors(cfg: Config, text: str, options: SearchOptions, model: Embedder, limit: int) -> list[tuple[float, dict]]:
    """(cosine, fields) of the `limit` nearest sections across the selected collections."""
    form = build_form(text, options)
    path_re = None
    if form.path_regex:
        import re  # only here: a hybrid query's own words need no regex

        path_re = re.compile(form.path_regex)
    filtered = bool(form.types or form.since or form.until or path_re)
    q = model.query(text)
    found: list[tuple[float, dict]] = []
    for coll in cfg.select(options.collections):
        stored = store.load(cfg.data_dir, coll.name)
        if stored is None or not stored.rows:
            continue
        store.check_model(stored, model, coll.name)
        scores = similarity.dots(stored.matrix, q)
        rows = stored.rows
        wanted = (lambda i, rows=rows: _passes(rows, i, form, path_re)) if filtered else None
        try:
            found.extend((scores[i], _as_doc(coll.name, rows[i])) for i in similarity.best(scores, limit, wanted))
        except rowfile.Damaged as exc:  # bytes changed in place (a cut-short file reads as no store)
            raise rowfile.Damaged(f"the vector store of collection {coll.name} is damaged ({exc}): "
                                  f"run qmem embed {coll.name}") from None
    found.sort(key=lambda pair: -pair[0])
    return found[:limit]


def _hits(cfg: Config, ranked: list[tuple[float, dict]], text: str, options: SearchOptions,
          ranks: dict[tuple, dict] | None = None, searcher: Searcher | None = None,
          seen: set[tuple[str, int]] | None = None) -> list[Hit]:
    form = build_form(text, options)
    units = form.highlight_units()
    try:  # snippets weigh the query's words by their rarity, as `qmem search` does
        unit_weights: list[float] | None = search_mod.unit_weights(searcher or open_searcher(cfg), form, cfg.sees)
    except (QmemError, ValueError):
        unit_weights = None
    files = Files()
    hits = []
    roots = real_roots(cfg)
    seen = set() if seen is None else seen  # (real file, line) already shown
    for score, doc in ranked:
        if options.min_score is not None and score < options.min_score:
            continue
        where = (os.path.join(roots.get(doc["collection"][0], ""), doc["path"][0]), doc["line_start"][0])
        if where in seen:
            continue  # the same section through overlapping collections: one hit
        seen.add(where)
        hit = build_hit(cfg, doc, score, units, options.snippet_lines, files, unit_weights)
        if hit is None:
            continue
        if ranks is not None:
            hit.ranks = ranks[_key(doc)]
        hits.append(hit)
        if len(hits) == options.limit:
            break
    return hits


def vsearch(cfg: Config, text: str, options: SearchOptions, model: Embedder,
            searcher: Searcher | None = None) -> list[Hit]:
    """Nearest sections by embedding alone (`searcher`: one a long-lived process keeps open)."""
    wanted = options.limit * 2 * copies(cfg, options.collections)
    return _hits(cfg, ranked_vectors(cfg, text, options, model, wanted), text, options, searcher=searcher)


def _key(doc: dict) -> tuple:
    return (doc["collection"][0], doc["path"][0], doc["anchor"][0], doc["line_start"][0])


def fuse(bm25: list[tuple[float, dict]], dense: list[tuple[float, dict]], *, k: int = RRF_K,
         bm25_weight: float = BM25_WEIGHT, vector_weight: float = VECTOR_WEIGHT,
         clear_ratio: float = CLEAR_RATIO) -> tuple[list[tuple[float, dict]], dict[tuple, dict]]:
    """Weighted reciprocal-rank fusion of two ranked lists of (score, fields)."""
    scores: dict[tuple, float] = {}
    docs: dict[tuple, dict] = {}
    ranks: dict[tuple, dict] = {}
    for name, ranked, weight in (("bm25", bm25, bm25_weight), ("vector", dense, vector_weight)):
        for rank, (_, doc) in enumerate(ranked, 1):
            key = _key(doc)
            docs.setdefault(key, doc)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
            ranks.setdefault(key, {"bm25": None, "vector": None})[name] = rank
    order = sorted(scores, key=lambda key: -scores[key])
    clear = len(bm25) == 1 or (len(bm25) >= 2 and bm25[0][0] >= clear_ratio * bm25[1][0] > 0)
    if bm25 and clear:
        winner = _key(bm25[0][1])
        order.remove(winner)
        order.insert(0, winner)
    return [(scores[key], docs[key]) for key in order], ranks


def weights(cfg: Config) -> dict[str, float]:
    """Fusion settings from `[vector]` (rrf_k, bm25_weight, vector_weight, clear_ratio, keep_bm25)."""
    settings = cfg.extra.get("vector", {})
    settings = settings if isinstance(settings, dict) else {}
    out = {"k": RRF_K, "bm25_weight": BM25_WEIGHT, "vector_weight": VECTOR_WEIGHT, "clear_ratio": CLEAR_RATIO,
           "keep": KEEP}
    for name, key in (("k", "rrf_k"), ("bm25_weight", "bm25_weight"), ("vector_weight", "vector_weight"),
                      ("clear_ratio", "clear_ratio"), ("keep", "keep_bm25")):
        value = settings.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
            out[name] = float(value)
    return out


def hybrid(cfg: Config, text: str, options: SearchOptions, model: Embedder, searcher: Searcher | None = None,
           **overrides: float) -> list[Hit]:
    """BM25 and vectors, fused; each hit carries both component ranks.

    BM25 keeps its ground: the first `keep` hits are exactly the first hits `qmem search`
    returns (same sections, same order, same evidence snippets); the fused order (weighted
    RRF: sections both lists rank high first, then either list's) fills the places after
    them. So hybrid equals BM25 at `keep` on every data set, and what the vectors add shows
    further down, where a weak or off-topic dense list cannot push BM25's answer out
    (measured: fusion alone lowered recall@5 on LongMemEval's long conversational sections)."""
    settings = {**weights(cfg), **overrides}
    keep = int(settings.pop("keep"))
    settings["k"] = int(settings["k"])
    depth = max(DEPTH, options.limit * 3) * copies(cfg, options.collections)
    searcher = searcher or open_searcher(cfg)
    # what BM25 alone answers (snippets included), and the order it ranks `depth` deep: search's
    # own (entries, the date, speaker and first/last-time priors), not the index's raw BM25
    bm25_hits, bm25 = search_mod.ranked_search(cfg, text, options, searcher, depth)
    dense = ranked_vectors(cfg, text, options, model, depth)
    # `settings` holds fuse's keyword names (weights() reads only those, k made whole above); mypy
    # cannot match a dict's values to the keyword parameters
    fused, ranks = fuse(bm25, dense, **settings)  # type: ignore[arg-type]

    def hit_key(hit: Hit) -> tuple:
        return (hit.collection, hit.path, hit.anchor, hit.line_start)

    held = bm25_hits[:keep]
    for rank, hit in enumerate(bm25_hits, 1):
        hit.ranks = dict(ranks.get(hit_key(hit), {"bm25": rank, "vector": None}))
    taken = {hit_key(hit) for hit in held}
    rest = [(score, doc) for score, doc in fused if _key(doc) not in taken]
    if options.min_score is not None:  # a minimum is a BM25 score: fill only with BM25's own hits
        allowed = {hit_key(hit) for hit in bm25_hits}
        rest = [(score, doc) for score, doc in rest if _key(doc) in allowed]
    more: list[Hit] = []
    if options.limit > len(held):
        fill = copy.copy(options)
        fill.limit, fill.min_score = options.limit - len(held), None
        roots = real_roots(cfg)
        shown = {(os.path.join(roots.get(h.collection, ''), h.path), h.line_start) for h in held}
        more = _hits(cfg, rest, text, fill, ranks, searcher, shown)
    return (held + more)[:options.limit]
