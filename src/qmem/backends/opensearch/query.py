"""The one place a `QueryForm` becomes OpenSearch's query DSL: a term per token, phrases for
CJK pairs and the boosted whole run, headings at HEADING_WEIGHT, scopes and filters as
non-scoring `filter` clauses; plus the few other queries the backend sends.
"""

from __future__ import annotations

from ...text.query import HEADING_WEIGHT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.query import QueryForm


def _unit(field: str, toks: tuple[str, ...], boost: float = 1.0) -> dict:
    """One token: a `term` (no analysis: it is already a token). Several: a phrase of exactly
    those tokens (the whitespace analyzer splits them back without changing them)."""
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
    both: dict = {"should": [_unit("body", toks), _unit("heading", toks, HEADING_WEIGHT)]}
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


def compile_query(form: QueryForm, scopes: list[str]) -> dict | None:
    """The one place a QueryForm becomes OpenSearch's query DSL; None when nothing can match."""
    if not scopes:
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
        must_not += [_unit("body", toks), _unit("heading", toks)]
    filters: list[dict] = [scope_filter(scopes)]
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


def search_request(form: QueryForm, scopes: list[str], limit: int) -> dict | None:
    """The body of `POST <index>/_search` (routing and search_type go in the URL)."""
    query = compile_query(form, scopes)
    if query is None:
        return None
    return {"query": query, "size": limit, "track_total_hits": False}


def routing(scopes: list[str]) -> str:
    return ",".join(sorted(set(scopes)))


def scope_filter(scopes: list[str]) -> dict:
    """Every query's fence: only sections of the scopes named."""
    return {"terms": {"scope": sorted(set(scopes))}}


def collection_query(scope: str, collection: str) -> dict:
    """One collection of one scope (its sections or its file records), without scoring."""
    return {"bool": {"filter": [{"term": {"scope": scope}}, {"term": {"collection": collection}}]}}


def presence_query(tokens: tuple[str, ...], scopes: list[str]) -> dict:
    """Sections of the scopes holding the unit `tokens` in their body or heading."""
    return {"bool": {"should": [_unit("body", tokens), _unit("heading", tokens)], "minimum_should_match": 1,
                     "filter": [scope_filter(scopes)]}}
