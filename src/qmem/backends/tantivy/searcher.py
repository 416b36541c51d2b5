"""The local backend's searcher: the Tantivy index of this config, opened for searching, and
the one place a `QueryForm` becomes a Tantivy query.

One index per config (its data folder), so every section in it belongs to that config and
the scopes a search names need no filter here. A search imports this module and not
`index.py` (the schema, `prepare`, the checks of a damaged folder) nor the writer.
"""

from __future__ import annotations

import marshal
import os

import tantivy

from ...base.errors import IndexMissingError
from ...base.layout import tantivy_dir, version_dir
from ...text import analysis
from ...text.query import HEADING_WEIGHT
from ...text.record import FIELDS, LIST_FIELDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.query import QueryForm, Unit

Q = tantivy.Query
SHOULD = tantivy.Occur.Should
MUST = tantivy.Occur.Must
MUST_NOT = tantivy.Occur.MustNot


class TantivySearcher:
    """Searches on this config's index, opened on first use; kept open (a long-lived face),
    `reload` shows it the latest commit and `close` makes the next use open it afresh."""

    def __init__(self, data_dir: str) -> None:
        self.data_dir = data_dir
        self.location = tantivy_dir(data_dir)
        self._index: tantivy.Index | None = None
        self._searcher: tantivy.Searcher | None = None

    def _open(self) -> tuple[tantivy.Index, tantivy.Searcher]:
        if self._index is None:
            self._index = open_reader(self.data_dir)
        if self._searcher is None:
            self._searcher = self._index.searcher()
        return self._index, self._searcher

    def reload(self) -> None:
        if self._index is not None:
            self._index.reload()
        self._searcher = None

    def close(self) -> None:
        self._index = self._searcher = None

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        index, searcher = self._open()
        compiled = compile_query(form, index.schema)
        if compiled is None:
            return []
        limit = min(limit, searcher.num_docs)  # the top-k heap is sized by the limit
        if limit < 1:
            return []
        return [(score, stored_fields(searcher.doc(address)))
                for score, address in searcher.search(compiled, limit, count=False).hits]

    def frequencies(self, units: list[Unit], scopes: list[str]) -> tuple[int, list[int]]:
        """A term's count is Tantivy's document frequency; a phrase's, the sections that hold it."""
        index, searcher = self._open()
        counts = []
        for unit in units:
            if len(unit.tokens) == 1:
                counts.append(searcher.doc_freq("body", unit.tokens[0]))
            else:
                found = searcher.search(unit_query(index.schema, "body", unit.tokens), 1, count=True)
                counts.append(found.count)  # type: ignore[attr-defined]  # tantivy-py 0.27's stub lacks SearchResult.count
        return searcher.num_docs, counts

    def present(self, units: list[Unit], scopes: list[str]) -> list[Unit]:
        """The units that occur somewhere (body or heading) in the index."""
        index, searcher = self._open()
        return [u for u in units if searcher.search(Q.boolean_query([  # type: ignore[attr-defined]  # as above: .count
            (SHOULD, unit_query(index.schema, "body", u.tokens)),
            (SHOULD, unit_query(index.schema, "heading", u.tokens))]), 1, count=True).count]

    def sections(self, collection: str) -> list[dict]:
        index, searcher = self._open()
        total = searcher.num_docs
        if not total:
            return []
        query = Q.term_query(index.schema, "collection", collection)
        return [stored_fields(searcher.doc(address)) for _, address in searcher.search(query, total).hits]

    def path_problem(self, regex: str) -> str | None:
        return path_regex_problem(regex)

    def health(self, thorough: bool = False) -> tuple[str | None, int]:
        from .index import inspect, verify_checksums

        problem, docs = inspect(self.data_dir)
        if thorough and problem is None and docs >= 0:
            from .seal import sealed_checksums  # doctor only: a search never reads the seal

            problem = verify_checksums(self.data_dir, sealed_checksums(self.data_dir), trust_known=False)[0]
        return problem, (-1 if problem else docs)

    def damage(self, failure: BaseException) -> str | None:
        from .index import damage

        return damage(self.data_dir, failure)


def register(index: tantivy.Index) -> None:
    """Attach the fields' tokenizer to an opened index: tantivy does not store it with the
    index. Only `analysis.index_terms` output is ever indexed, so the regex analyzer
    (compiling its pattern costs ~1.7M instructions) is never needed here."""
    index.register_tokenizer(analysis.TERMS_TOKENIZER_NAME, analysis.terms_analyzer())


def open_reader(data_dir: str) -> tantivy.Index:
    """Open the index for searching; IndexMissingError when it was never built."""
    path = tantivy_dir(data_dir)
    if not os.path.exists(os.path.join(path, "meta.json")):
        raise IndexMissingError(f"no index in {version_dir(data_dir)} yet")
    index = tantivy.Index.open(path)  # ValueError when damaged (or a segment just merged away)
    register(index)
    return index


def stored_fields(doc: tantivy.Document) -> dict[str, list]:
    """A hit's stored fields (`text.record.FIELDS`), from its one `meta` value."""
    meta = doc.get_first("meta")
    assert meta is not None, "every section stores its meta"
    values = marshal.loads(meta)
    return {name: value if name in LIST_FIELDS else [value] for name, value in zip(FIELDS, values)}


def compile_query(form: QueryForm, schema: tantivy.Schema) -> tantivy.Query | None:
    """The one place a QueryForm becomes a Tantivy query; None when nothing can match.

    The ranked words are one flat disjunction of single-field clauses (each unit's body
    clause, its heading clause at HEADING_WEIGHT), every boost carried by the clause itself.
    A sum of the same clauses scores exactly as a clause per unit holding both fields did, but
    a flat union of term clauses is what Tantivy's block-max WAND prunes: with no count asked
    (`search(..., count=False)`) it skips blocks of postings that cannot enter the top k, so a
    search on common words costs about the same at 10k and at 1M sections. A nested boolean, a
    MUST around the union or a count make it score every matching section."""
    ranked = _disjunction(schema, form.should)
    clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
    if ranked is not None:
        clauses.append((MUST, ranked))
    for u in form.must:
        clauses.append((MUST, _disjunction(schema, [u])))  # type: ignore[arg-type]  # None only for no units
    if not clauses:
        if not form.has_filters():
            return None
        clauses.append((MUST, Q.all_query()))
    for toks in form.must_not:
        clauses.append((MUST_NOT, unit_query(schema, "body", toks)))
        clauses.append((MUST_NOT, unit_query(schema, "heading", toks)))
    # Filters never score (a hit's score is the same with or without them): each is a
    # MUST clause wrapped in a constant score of 0.
    filters: list[tantivy.Query] = []
    if form.collections:
        filters.append(_any_of(schema, "collection", form.collections))
    if form.types:
        filters.append(_any_of(schema, "types", form.types))
    if form.since or form.until:
        low = form.since or 1
        high = form.until or 99991231
        filters.append(Q.range_query(schema, "date", tantivy.FieldType.Unsigned, low, high))
    if form.path_regex:
        filters.append(Q.regex_query(schema, "path", form.path_regex))
    clauses.extend((MUST, Q.const_score_query(f, 0.0)) for f in filters)
    if len(clauses) == 1 and clauses[0][0] is MUST:
        return clauses[0][1]
    return Q.boolean_query(clauses)


def _disjunction(schema: tantivy.Schema, units: list[Unit]) -> tantivy.Query | None:
    """Each unit's body and heading clauses side by side in one SHOULD list (None for no units)."""
    clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
    for u in units:
        for field, weight in (("body", 1.0), ("heading", HEADING_WEIGHT)):
            query = unit_query(schema, field, u.tokens)
            boost = u.boost * weight
            clauses.append((SHOULD, Q.boost_query(query, boost) if boost != 1.0 else query))
    return Q.boolean_query(clauses) if clauses else None


def unit_query(schema: tantivy.Schema, field: str, toks: tuple[str, ...]) -> tantivy.Query:
    """A term, or a phrase of consecutive tokens."""
    if len(toks) == 1:
        return Q.term_query(schema, field, toks[0])
    return Q.phrase_query(schema, field, list(toks))


def _any_of(schema: tantivy.Schema, field: str, values: list[str]) -> tantivy.Query:
    if len(values) == 1:
        return Q.term_query(schema, field, values[0])
    return Q.boolean_query([(SHOULD, Q.term_query(schema, field, v)) for v in values])


def path_regex_problem(regex: str) -> str | None:
    """Why the index cannot run `regex` on paths (too many automaton states, bad syntax), or None."""
    try:
        Q.regex_query(_path_schema(), "path", regex)
    except ValueError as exc:
        return str(exc).split("RegexQueryError: ", 1)[-1].strip("'").splitlines()[0]
    return None


def _path_schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("path", tokenizer_name="raw")
    return builder.build()
