"""The Tantivy side of the engine: schema, where the index lives, query compiling (the
refresh's writer is `writer.py`, which imports this module on its first write).

Everything that knows about Tantivy is here, behind three verbs a different engine could
offer too: replace a file's sections, delete a file or a collection, search with an
engine-neutral `QueryForm`. The schema version is part of the folder name, so a schema
change builds a fresh index beside the old one instead of failing to open it.
"""

from __future__ import annotations

import marshal
import os
import time

import tantivy
import xxhash

from ...text import analysis
from ...base.errors import DataFolderError, IndexMissingError
from ...base.fsutil import lock_held
from ...base.layout import lock_path, stale_versions, tantivy_dir, version_dir
from ...text.query import QueryForm

# Weight of a heading match relative to a body match. BM25 already favours matches in the
# short heading field through length normalisation; on BEIR SciFact (title as heading)
# 0.5 gave nDCG@10 0.691 against 0.665 at 1.0 and 0.622 at 2.0.
HEADING_WEIGHT = 0.5
# A writer's heap is split between its threads (tantivy wants >= 15 MB each). Two threads on
# a 2-core machine keep peak RSS low while the Python side prepares documents.
WRITER_HEAP = 96_000_000
WRITER_THREADS = 2
_KEY_SEP = "\x1f"

Q = tantivy.Query
SHOULD = tantivy.Occur.Should
MUST = tantivy.Occur.Must
MUST_NOT = tantivy.Occur.MustNot


def remove_stale_versions(data_dir: str) -> list[str]:
    """Drop old index folders: the index is a cache rebuilt from the Markdown files. Their
    vectors are not (embedding costs minutes) and are keyed by section content, whatever the
    schema: a collection's vectors move to the current folder unless it has its own."""
    import shutil

    removed = stale_versions(data_dir)
    for name in removed:
        old_vectors = os.path.join(data_dir, name, "vectors")
        new_vectors = os.path.join(version_dir(data_dir), "vectors")
        try:
            collections = [c for c in os.listdir(old_vectors) if os.path.isdir(os.path.join(old_vectors, c))]
        except OSError:
            collections = []
        for coll in collections:
            if not os.path.lexists(os.path.join(new_vectors, coll)):
                try:
                    os.makedirs(new_vectors, exist_ok=True)
                    os.replace(os.path.join(old_vectors, coll), os.path.join(new_vectors, coll))
                except OSError:
                    pass  # left behind, removed with the old folder: the next embed rebuilds it
        shutil.rmtree(os.path.join(data_dir, name), ignore_errors=True)
    return removed


# The fields `build_schema` declares: a meta.json with other fields belongs to something else.
FIELD_NAMES = frozenset({"key", "collection", "path", "heading", "body", "types", "date", "expires", "meta"})
_SEGMENT_FILES = (".store", ".term", ".idx", ".pos", ".fast", ".fieldnorm")


def check(data_dir: str) -> str | None:
    """Why the index folder cannot be used, found cheaply (meta.json and the files it names);
    None when it looks whole or does not exist yet. Truncated segment files pass this check:
    `probe` opens them."""
    import json  # here only: json brings `re` and `enum`, which a search never needs

    path = tantivy_dir(data_dir)
    try:
        with open(os.path.join(path, "meta.json"), "rb") as handle:
            raw = handle.read()
    except (FileNotFoundError, NotADirectoryError):
        return None  # not built yet (a data folder that is a file is reported by the writer)
    except OSError as exc:
        return f"meta.json cannot be read ({exc.strerror})"
    if not raw.strip():
        return "meta.json is empty"
    try:
        meta = json.loads(raw)
        fields = {f["name"] for f in meta["schema"]}
        segments = [(s["segment_id"].replace("-", ""), (s.get("deletes") or {}).get("opstamp")) for s in meta["segments"]]
    except (ValueError, KeyError, TypeError, AttributeError):
        return "meta.json is not a Tantivy index description"
    if fields != FIELD_NAMES:
        return "meta.json describes another index (its fields are not qmem's)"
    for segment, deletes in segments:
        names = [segment + ext for ext in _SEGMENT_FILES] + ([f"{segment}.{deletes}.del"] if deletes is not None else [])
        for name in names:
            if not os.path.isfile(os.path.join(path, name)):
                return f"segment file {name} is missing"
    return None


def probe(data_dir: str) -> str | None:
    """Like `check`, then open the index and a searcher (Tantivy checks every segment file's
    footer): why the index is unusable, or None."""
    return inspect(data_dir)[0]


def inspect(data_dir: str) -> tuple[str | None, int]:
    """(why the index is unusable or None, how many documents it holds: -1 when unknown)."""
    problem = check(data_dir)
    if problem or not os.path.exists(os.path.join(tantivy_dir(data_dir), "meta.json")):
        return problem, -1
    try:
        index = tantivy.Index.open(tantivy_dir(data_dir))
        return None, index.searcher().num_docs
    except Exception as exc:  # ValueError, or a pyo3 PanicException from a damaged file
        return reason(exc), -1


def reason(exc: BaseException) -> str:
    text = str(exc).split("\n", 1)[0]
    return f"{type(exc).__name__}: {text[:160]}"


def first_build_running(data_dir: str, collections: list[str]) -> bool:
    """True while another process builds this index for the first time: it holds the write
    lock and none of `collections` has a manifest yet, so nothing is committed to search."""
    from ...base.layout import manifest_path  # not .manifest: an empty search would import json and re

    if any(os.path.exists(manifest_path(data_dir, name)) for name in collections):
        return False
    return lock_held(lock_path(data_dir))


def reset(data_dir: str) -> None:
    """Remove this config's Tantivy folder (a cache) so the next writer creates it afresh."""
    import shutil

    path = tantivy_dir(data_dir)
    for attempt in range(5):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.isdir(path) or os.path.islink(path):
            break
        # A Tantivy thread of a writer just dropped may still create or release a file in
        # the folder (rmtree then fails on a non-empty folder): give it a moment.
        time.sleep(0.05 * (attempt + 1))
    if os.path.lexists(path):  # a file, or something rmtree could not remove
        raise DataFolderError(f"{tantivy_dir(data_dir)} cannot be removed; remove it by hand and run qmem index")


def build_schema() -> tantivy.Schema:
    """Indexed fields for matching and filtering, and one stored `meta` field for display.

    Nothing text-like is stored field by field: per stored field Tantivy's document store
    costs ~2 µs a section, so what a hit shows (path, anchor, heading, lines, dates…) is one
    marshalled tuple (`META_FIELDS`). The body is not stored at all: snippets are read from the file
    itself (the source of truth), checked against `body_hash`. Heading and body are indexed
    as `analysis.index_terms` (the query analyzer's exact tokens, ~4× cheaper to make)."""
    terms = analysis.TERMS_TOKENIZER_NAME
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("key", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("collection", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("path", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("heading", stored=False, tokenizer_name=terms, index_option="position")
    sb.add_text_field("body", stored=False, tokenizer_name=terms, index_option="position")
    sb.add_text_field("types", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_unsigned_field("date", stored=False, indexed=True, fast=True)
    sb.add_unsigned_field("expires", stored=False, indexed=True, fast=True)
    sb.add_bytes_field("meta", stored=True)
    return sb.build()


# What a hit's stored `meta` holds, in order; `stored_fields` gives them back as
# {name: [value]} (types: [letters]), the shape every reader of hits takes.
META_FIELDS = ("collection", "path", "anchor", "heading", "body_hash", "types", "line_start", "line_end",
               "body_line", "date", "expires", "priority")
_META_LISTS = frozenset({"types"})
# marshal: built in (nothing to import on the search path), ~0.3 µs a hit; format 4 is read
# by every Python since 3.4. The index is a cache: a Python that cannot read it rebuilds it.
META_MARSHAL = 4


def stored_fields(doc: tantivy.Document) -> dict[str, list]:
    """A hit's stored fields, from its one `meta` value."""
    values = marshal.loads(doc.get_first("meta"))
    return {name: value if name in _META_LISTS else [value] for name, value in zip(META_FIELDS, values)}


# A section ready for the index: (heading terms, body terms, types, date, expires, meta).
Prepared = tuple[str, str, list[str], int, int, bytes]


def prepare(collection: str, path: str, sections: list) -> list[Prepared]:
    """What `Writer.add_prepared` needs of each section: the Python half of indexing, which a
    worker process can do while the main process feeds Tantivy (see `parallel`)."""
    index_terms = analysis.index_terms
    heading_terms = analysis.heading_terms
    dumps = marshal.dumps
    out = []
    for s in sections:
        heading = s.heading
        out.append((heading_terms(heading), index_terms(s.body), s.types, s.date, s.expires, dumps((
            collection, path, s.anchor, heading, body_hash(s.body), s.types, s.line_start, s.line_end,
            s.body_line, s.date, s.expires, s.priority), META_MARSHAL)))
    return out


def body_hash(body: str) -> int:
    """Fingerprint of a section's text, to tell at search time whether the file still has it."""
    return xxhash.xxh3_64_intdigest(body.encode("utf-8"))


def doc_key(collection: str, path: str) -> str:
    """The delete key of a file's sections: two collections may share a relative path."""
    return f"{collection}{_KEY_SEP}{path}"


def open_reader(data_dir: str) -> tantivy.Index:
    """Open the index for searching; IndexMissingError when it was never built."""
    path = tantivy_dir(data_dir)
    if not os.path.exists(os.path.join(path, "meta.json")):
        raise IndexMissingError(f"no index in {version_dir(data_dir)} yet")
    index = tantivy.Index.open(path)  # ValueError when damaged (or a segment just merged away)
    analysis.register(index)
    return index


def compile_query(form: QueryForm, schema: tantivy.Schema) -> tantivy.Query | None:
    """The one place a QueryForm becomes a Tantivy query; None when nothing can match."""

    def unit(field: str, toks: tuple[str, ...]) -> tantivy.Query:
        return unit_query(schema, field, toks)

    def either_field(toks: tuple[str, ...], boost: float) -> tantivy.Query:
        both = Q.boolean_query([
            (SHOULD, unit("body", toks)),
            (SHOULD, Q.boost_query(unit("heading", toks), HEADING_WEIGHT)),
        ])
        return Q.boost_query(both, boost) if boost != 1.0 else both

    clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
    should = [(SHOULD, either_field(u.tokens, u.boost)) for u in form.should]
    if should:
        clauses.append((MUST, Q.boolean_query(should)))
    for u in form.must:
        clauses.append((MUST, either_field(u.tokens, u.boost)))
    if not clauses:
        if not form.has_filters():
            return None
        clauses.append((MUST, Q.all_query()))
    for toks in form.must_not:
        clauses.append((MUST_NOT, unit("body", toks)))
        clauses.append((MUST_NOT, unit("heading", toks)))
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
