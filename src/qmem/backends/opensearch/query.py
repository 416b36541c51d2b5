"""The one place a `QueryForm` becomes OpenSearch's query DSL: a term per token, phrases for
CJK pairs and the boosted whole run, headings at HEADING_WEIGHT, scopes and filters as
non-scoring `filter` clauses; plus the few other queries the backend sends. Which indices a
request names (one per scope, see `layout`) is the backend's business: the cluster enforces
that, the scope filter here is a second fence.
"""

from __future__ import annotations

from ...text.query import HEADING_WEIGHT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.query import QueryForm


def _unit(field: str, toks: tuple[str, ...], boost: float = 1.0) -> dict:
    """One token: a `term` (no analysis: it is already a token). Several: a phrase of exactly
    those tokens (the fields' whitespace analyzer splits them back without changing them)."""
    if len(toks) == 1:
        body: dict = {"value": toks[0]}
        kind = "term"
    else:
        body = {"query": " ".join(toks), "analyzer": "whitespace"}
        kind = "match_phrase"
    if boost != 1.0:
        body["boost"] = boost
    return {kind: {field: body}}


def _either_field(toks: tuple[str, ...], boost: float) -> dict:
    both: dict = {"should": [_unit("body_terms", toks), _unit("heading_terms", toks, HEADING_WEIGHT)]}
    if boost != 1.0:
        both["boost"] = boost
    return {"bool": both}


def lucene_regex(regex: str) -> str:
    """A path regex from `search.path_filter_regex` (Rust/Python syntax) in Lucene's syntax:
    `(?:` groups become plain groups and `"` (a string literal in Lucene) is escaped."""
    out: list[str] = []
    i = 0
    while i < len(regex):
        if regex[i] == "\\" and i + 1 < len(regex):
            out.append(regex[i:i + 2])
            i += 2
        elif regex.startswith("(?:", i):
            out.append("(")
            i += 3
        elif regex[i] in '"<>@&~#':
            out.append("\\" + regex[i])
            i += 1
        else:
            out.append(regex[i])
            i += 1
    return "".join(out)


def compile_query(form: QueryForm, scopes: list[str],
                  collections: list[tuple[str, str]] | None = None) -> dict | None:
    """The one place a QueryForm becomes OpenSearch's query DSL; None when nothing can match.
    `collections`: the (scope, collection) pairs a hit may come from (the config's own; a hit
    of another scope's same-named collection would show its heading over a local file)."""
    if not scopes:
        return None
    if collections is not None:
        collections = [(s, c) for s, c in collections if s in scopes]
        if not collections:
            return None
    must: list[dict] = []
    should = [_either_field(u.tokens, u.boost) for u in form.should]
    if should:
        must.append({"bool": {"should": should}})
    must.extend(_either_field(u.tokens, u.boost) for u in form.must)
    if not must:
        if not form.has_filters():
            return None
        must.append({"match_all": {}})
    must_not: list[dict] = []
    for toks in form.must_not:
        must_not += [_unit("body_terms", toks), _unit("heading_terms", toks)]
    filters: list[dict] = [SECTIONS, scope_filter(scopes)]
    if collections is not None:
        filters.append(pairs_filter(collections))
    if form.collections:
        filters.append({"terms": {"collection": list(form.collections)}})
    if form.types:
        filters.append({"terms": {"types": list(form.types)}})
    if form.since or form.until:
        filters.append({"range": {"date": {"gte": form.since or 1, "lte": form.until or 99991231}}})
    if form.path_regex:
        filters.append({"regexp": {"path": {"value": lucene_regex(form.path_regex), "flags": "NONE"}}})
    out: dict = {"must": must, "filter": filters}
    if must_not:
        out["must_not"] = must_not
    return {"bool": out}


# The most hits one request returns: OpenSearch refuses from + size above an index's
# `index.max_result_window` (10,000 unless an admin raised it on every scope's index).
MAX_WINDOW = 10_000
SECTIONS = {"term": {"kind": "section"}}  # a scope's index also holds its file records
# What a hit brings back: its stored fields, not the terms (the snippet is read from the file).
HIT_SOURCE = {"excludes": ["heading_terms", "body_terms"]}


def search_request(form: QueryForm, scopes: list[str], limit: int,
                   collections: list[tuple[str, str]] | None = None) -> dict | None:
    """The body of `POST <aliases>/_search` (search_type goes in the URL)."""
    query = compile_query(form, scopes, collections)
    if query is None:
        return None
    return {"query": query, "size": min(limit, MAX_WINDOW), "track_total_hits": False, "_source": HIT_SOURCE}


def pairs_filter(collections: list[tuple[str, str]]) -> dict:
    """Sections of these (scope, collection) pairs only."""
    by_scope: dict[str, list[str]] = {}
    for scope, name in collections:
        by_scope.setdefault(scope, []).append(name)
    should = [{"bool": {"filter": [{"term": {"scope": scope}}, {"terms": {"collection": sorted(set(names))}}]}}
              for scope, names in sorted(by_scope.items())]
    return {"bool": {"should": should, "minimum_should_match": 1}}


def scope_filter(scopes: list[str]) -> dict:
    """Every query's fence: only sections of the scopes named."""
    return {"terms": {"scope": sorted(set(scopes))}}


def collection_query(scope: str, collection: str, kind: str | None = None) -> dict:
    """One collection of one scope (its sections, its file records, or both), without scoring."""
    filters: list[dict] = [{"term": {"scope": scope}}, {"term": {"collection": collection}}]
    if kind:
        filters.append({"term": {"kind": kind}})
    return {"bool": {"filter": filters}}


def presence_query(tokens: tuple[str, ...], scopes: list[str]) -> dict:
    """Sections of the scopes holding the unit `tokens` in their body or heading."""
    return {"bool": {"should": [_unit("body_terms", tokens), _unit("heading_terms", tokens)], "minimum_should_match": 1,
                     "filter": [SECTIONS, scope_filter(scopes)]}}
