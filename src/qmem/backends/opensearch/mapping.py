"""What the OpenSearch cluster is told and what it holds: the analyzer that reproduces qmem's
tokens, the strict mappings of both indices (sections, and one record per file with its hash),
the template, and a section as a document (its deterministic id and signed hash) and back.
"""

from __future__ import annotations

import xxhash

from ...text.record import body_hash

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.markdown import Section
    from .client import Settings

SCHEMA_VERSION = 1
ANALYZER = "qmem_v1"
# Java regex (what OpenSearch runs). A token is one CJK character, or a run of anything
# that is not punctuation, a symbol, a separator, an "other" (control, format, unassigned)
# or CJK: the same set as tantivy's `[\p{L}\p{N}\p{M}--CJK]+` because the general categories
# partition Unicode.
_CJK_JAVA = r"\p{IsHan}\p{IsHiragana}\p{IsKatakana}\p{IsHangul}"
TOKEN_PATTERN = rf"[{_CJK_JAVA}]|[^\p{{P}}\p{{S}}\p{{Z}}\p{{C}}{_CJK_JAVA}]+"
# tantivy's remove_long(256) keeps tokens under 256 UTF-8 bytes; Lucene counts UTF-16 units.
MAX_TOKEN_CHARS = 255
_U64 = 1 << 64


def analysis_settings() -> dict:
    return {
        "tokenizer": {"qmem_tokens": {"type": "pattern", "pattern": TOKEN_PATTERN, "group": 0}},
        "filter": {
            "qmem_max_length": {"type": "length", "min": 0, "max": MAX_TOKEN_CHARS},
            "qmem_porter2": {"type": "stemmer", "language": "porter2"},
        },
        "analyzer": {
            ANALYZER: {
                "type": "custom",
                "tokenizer": "qmem_tokens",
                "filter": ["qmem_max_length", "lowercase", "qmem_porter2"],
            },
        },
    }


def section_mappings() -> dict:
    keyword = {"type": "keyword"}
    text = {"type": "text", "analyzer": ANALYZER}
    stored_int = {"type": "integer", "index": False}
    return _strict({
        "scope": keyword,
        "collection": keyword,
        "path": keyword,
        "key": keyword,  # scope, collection and path: the delete key of a file's sections
        "ordinal": {"type": "integer"},
        "anchor": keyword,
        "heading": text,
        "body": text,
        "body_hash": {"type": "long", "index": False},
        "types": keyword,
        "line_start": stored_int,
        "line_end": stored_int,
        "body_line": stored_int,
        "date": {"type": "integer"},
        "expires": {"type": "integer"},
        "priority": {"type": "integer"},
    })


def files_mappings() -> dict:
    keyword = {"type": "keyword"}
    return _strict({
        "scope": keyword,
        "collection": keyword,
        "path": keyword,
        "digest": {"type": "keyword", "index": False},
        "sections": {"type": "integer", "index": False},
    })


def _strict(properties: dict) -> dict:
    """Mappings that refuse unknown fields and carry the schema version."""
    return {"dynamic": "strict", "_meta": {"qmem_schema": SCHEMA_VERSION}, "properties": properties}


def index_template(settings: Settings) -> dict:
    """The composable template for the sections index (`PUT _index_template/<index>`)."""
    return {
        "index_patterns": [settings.index],
        "priority": 100,
        "template": {
            "settings": {
                "number_of_shards": settings.shards,
                "number_of_replicas": settings.replicas,
                "analysis": analysis_settings(),
            },
            "mappings": section_mappings(),
        },
        "_meta": {"qmem_schema": SCHEMA_VERSION},
    }


def files_index_body(settings: Settings) -> dict:
    return {
        "settings": {"number_of_shards": settings.shards, "number_of_replicas": settings.replicas},
        "mappings": files_mappings(),
    }


def file_key(scope: str, collection: str, path: str) -> str:
    return xxhash.xxh3_128_hexdigest(f"{scope}\x1f{collection}\x1f{path}".encode("utf-8"))


def section_id(key: str, ordinal: int) -> str:
    """Deterministic: re-sending a file overwrites its sections instead of adding copies."""
    return f"{key}-{ordinal}"


def section_doc(scope: str, collection: str, path: str, key: str, ordinal: int, s: Section) -> dict:
    digest = body_hash(s.body)
    return {
        "scope": scope,
        "collection": collection,
        "path": path,
        "key": key,
        "ordinal": ordinal,
        "anchor": s.anchor,
        "heading": s.heading,
        "body": s.body,
        "body_hash": digest - _U64 if digest >= _U64 >> 1 else digest,  # a signed long
        "types": list(s.types),
        "line_start": s.line_start,
        "line_end": s.line_end,
        "body_line": s.body_line,
        "date": s.date,
        "expires": s.expires,
        "priority": s.priority,
    }


def stored_fields(source: dict) -> dict:
    """A hit's _source in the shape the local index returns: field → list of values."""
    out = {name: (value if isinstance(value, list) else [value]) for name, value in source.items()}
    if "body_hash" in out:
        out["body_hash"] = [h % _U64 for h in out["body_hash"]]
    out.setdefault("types", [])
    return out
