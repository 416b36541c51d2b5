"""What the OpenSearch cluster is told and what it holds: the analyzer that reproduces qmem's
tokens, the strict mapping of a scope's index (its sections, and one record per file with its
hash), and a section or a file record as a document (deterministic ids) and back.
"""

from __future__ import annotations

import xxhash

from ...text.analysis import TERM_LIMIT, heading_terms, index_terms
from ...text.record import body_hash

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.markdown import Section

SCHEMA_VERSION = 2  # 2: an index per scope, file records beside the sections, routing by file
ANALYZER = "qmem_terms"
_U64 = 1 << 64


def analysis_settings() -> dict:
    """The fields' analyzer: split qmem's own index terms on spaces, nothing else.

    qmem analyzes the text itself (`text.analysis.index_terms`, the local index's exact
    terms) and sends the terms: the cluster never tokenizes or stems. A stock chain (a
    `pattern` tokenizer, `lowercase`, the `porter2` stemmer) came close but not exactly:
    Lucene 9's Snowball English stems `organization` to `organ` where qmem says `organiz`,
    so a search for it found nothing on the cluster (shown on the real engine); and the
    JDK's Unicode tables would have decided what a letter is."""
    return {"analyzer": {ANALYZER: {"type": "custom", "tokenizer": "whitespace", "filter": []}}}


def terms_of(text: str) -> str:
    """What a searched field holds: `index_terms`, less the terms the local index drops as
    too long (its field analyzer's remove_long)."""
    terms = index_terms(text)
    if any(len(t) * 4 >= TERM_LIMIT for t in terms.split()):
        terms = " ".join(t for t in terms.split() if len(t.encode("utf-8")) < TERM_LIMIT)
    return terms


def scope_mappings() -> dict:
    """One scope's index holds its sections (`kind` "section") and one record per file
    (`kind` "file": the content hash, the section count, and where it was written from).
    Every document is routed by its file's key (`_routing` required): a file's sections and
    record share a shard, and a write without routing is refused instead of going astray."""
    keyword = {"type": "keyword"}
    text = {"type": "text", "analyzer": ANALYZER}
    stored_int = {"type": "integer", "index": False}
    return _strict({
        "kind": keyword,
        "scope": keyword,
        "collection": keyword,
        "path": keyword,
        "key": keyword,  # collection and path: the routing and the id stem of a file's documents
        "ordinal": {"type": "integer"},
        "anchor": keyword,
        "heading": {"type": "keyword", "index": False, "doc_values": False},  # shown, not searched
        "heading_terms": text,  # qmem's terms of the heading, then of the body (`terms_of`)
        "body_terms": text,
        "body_hash": {"type": "long", "index": False},
        "types": keyword,
        "line_start": stored_int,
        "line_end": stored_int,
        "body_line": stored_int,
        "date": {"type": "integer"},
        "expires": {"type": "integer"},
        "priority": {"type": "integer"},
        # file records
        "digest": {"type": "keyword", "index": False},
        "sections": stored_int,
        "high": stored_int,  # sections ids up to this may exist (written before the record)
        "origin": keyword,  # host and folder of the writer: only it deletes files it never saw here
    })


def _strict(properties: dict) -> dict:
    """Mappings that refuse unknown fields, need routing, and carry the schema version."""
    return {"dynamic": "strict", "_routing": {"required": True}, "_meta": {"qmem_schema": SCHEMA_VERSION},
            "properties": properties}


def scope_index_body(shards: int, replicas: int, alias: str) -> dict:
    """`PUT <prefix>-<scope>+v<schema>`: settings, mappings and the scope's alias (no template:
    nothing is put on the cluster-manager for each write, and no agent needs that privilege)."""
    return {
        "settings": {
            "number_of_shards": shards,
            "number_of_replicas": replicas,
            "analysis": analysis_settings(),
        },
        "mappings": scope_mappings(),
        "aliases": {alias: {"is_write_index": True}},
    }


def file_key(scope: str, collection: str, path: str) -> str:
    """A file's documents' id stem and routing: unique across scopes, so ids never collide
    even where one index were to hold several scopes."""
    return xxhash.xxh3_128_hexdigest(f"{scope}\x1f{collection}\x1f{path}".encode("utf-8"))


def section_id(key: str, ordinal: int) -> str:
    """Deterministic: re-sending a file overwrites its sections instead of adding copies."""
    return f"{key}-{ordinal}"


def section_doc(scope: str, collection: str, path: str, key: str, ordinal: int, s: Section) -> dict:
    digest = body_hash(s.body)
    return {
        "kind": "section",
        "scope": scope,
        "collection": collection,
        "path": path,
        "key": key,
        "ordinal": ordinal,
        "anchor": s.anchor,
        "heading": s.heading,
        "heading_terms": heading_terms(s.heading),
        "body_terms": terms_of(s.body),
        "body_hash": digest - _U64 if digest >= _U64 >> 1 else digest,  # a signed long
        "types": list(s.types),
        "line_start": s.line_start,
        "line_end": s.line_end,
        "body_line": s.body_line,
        "date": s.date,
        "expires": s.expires,
        "priority": s.priority,
    }


def file_doc(scope: str, collection: str, path: str, key: str, digest: str, sections: int, high: int,
             origin: str) -> dict:
    """A file's record: its content hash ("" while its sections are being replaced) and how
    many sections it has (`high`: how many may exist, counting a replacement under way)."""
    return {"kind": "file", "scope": scope, "collection": collection, "path": path, "key": key,
            "digest": digest, "sections": sections, "high": high, "origin": origin}


def stored_fields(source: dict) -> dict:
    """A hit's _source in the shape the local index returns: field → list of values."""
    out = {name: (value if isinstance(value, list) else [value]) for name, value in source.items()
           if not name.endswith("_terms")}
    if "body_hash" in out:
        out["body_hash"] = [h % _U64 for h in out["body_hash"]]
    out.setdefault("types", [])
    return out
