"""The OpenSearch backend: one cluster shared by many agents and machines.

Two indices: `<index>` holds one document per section (the same fields as the local index
plus the scope), `<index>-files` one document per file with its content hash, so any
machine can refresh incrementally against what the cluster holds. Both are routed by
scope, so one agent's memory lives on one shard and a search that names its scopes asks
only their shards.

The analyzer reproduces qmem's tokens with stock parts: a `pattern` tokenizer (each Han,
Kana or Hangul character alone, every other run of letters, digits and marks as one word),
`length` (drops what tantivy's remove_long drops), `lowercase`, and `stemmer` with language
`porter2` (Snowball English; `english` would be the older Porter). The query is compiled
from the same `QueryForm` as the local one: a term per token, phrases for CJK pairs and the
boosted whole run, headings at HEADING_WEIGHT, filters as non-scoring `filter` clauses.

Writes are buffered and sent in bulk; a failed request or item is retried with back-off,
never dropped; when the cluster stays unreachable the refresh stops with
BackendUnavailableError and stores no hash for what it could not finish.
"""

from __future__ import annotations

import time

import xxhash

from ..errors import BackendError, BackendUnavailableError, ConfigError
from ..index import HEADING_WEIGHT, body_hash
from .base import StoredFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..config import Config
    from ..markdown import Section
    from ..query import QueryForm

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
BULK_ACTIONS = 500
BULK_BYTES = 5_000_000
DELETE_BATCH = 200
HASH_PAGE = 1000  # stored hashes read per request (search_after on path)
_RETRY_STATUS = {429, 502, 503, 504}
_U64 = 1 << 64


class Settings:
    """Where the cluster is and how to talk to it; built from the config's [backend] table."""

    __slots__ = ("url", "index", "auth", "username", "password_env", "api_key_env", "verify_tls",
                 "ca_certs", "shards", "replicas", "search_type", "timeout", "retries", "backoff",
                 "refresh")

    def __init__(self, url: str = "http://localhost:9200", index: str = "qmem", auth: str = "none",
                 username: str = "", password_env: str = "QMEM_OPENSEARCH_PASSWORD",
                 api_key_env: str = "QMEM_OPENSEARCH_API_KEY", verify_tls: bool = True,
                 ca_certs: str = "", shards: int = 3, replicas: int = 1,
                 search_type: str = "dfs_query_then_fetch", timeout: float = 30.0, retries: int = 5,
                 backoff: float = 0.5, refresh: bool = True) -> None:
        self.url = url
        self.index = index
        self.auth = auth  # "none", "basic" (username + password from password_env), "api_key"
        self.username = username
        self.password_env = password_env
        self.api_key_env = api_key_env
        self.verify_tls = verify_tls
        self.ca_certs = ca_certs
        self.shards = shards
        self.replicas = replicas
        self.search_type = search_type
        self.timeout = timeout
        self.retries = retries  # per request, after the first try
        self.backoff = backoff  # seconds before the first retry, doubled each time (max 8 s)
        self.refresh = refresh  # refresh the indices after a commit: searchable when it returns

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Settings:
        known = {k: v for k, v in data.items() if k in cls.__slots__}
        return cls(**known)  # type: ignore[arg-type]

    @property
    def files_index(self) -> str:
        return f"{self.index}-files"


# -- what the cluster is told -------------------------------------------------------------

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


# -- QueryForm → query DSL ----------------------------------------------------------------

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
    filters: list[dict] = [{"terms": {"scope": sorted(set(scopes))}}]
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


# -- talking to the cluster ---------------------------------------------------------------

def make_client(settings: Settings):  # noqa: ANN201 - opensearchpy.OpenSearch
    """The official client, with credentials read from the environment at call time."""
    import os

    try:
        from opensearchpy import OpenSearch
    except ImportError:
        raise ConfigError("the OpenSearch backend needs its client: pip install 'qmem[opensearch]'") from None
    kwargs: dict = {
        "hosts": [settings.url],
        "verify_certs": settings.verify_tls,
        "ssl_show_warn": settings.verify_tls,
        "timeout": settings.timeout,
        "max_retries": 0,  # retries are ours: counted, backed off, and reported
        "retry_on_timeout": False,
    }
    if settings.ca_certs:
        kwargs["ca_certs"] = settings.ca_certs
    if settings.auth == "basic":
        password = os.environ.get(settings.password_env)
        if not settings.username or password is None:
            raise ConfigError(f"backend.auth = \"basic\" needs backend.username and the password in ${settings.password_env}")
        kwargs["http_auth"] = (settings.username, password)
    elif settings.auth == "api_key":
        key = os.environ.get(settings.api_key_env)
        if not key:
            raise ConfigError(f"backend.auth = \"api_key\" needs the key in ${settings.api_key_env}")
        kwargs["headers"] = {"Authorization": f"ApiKey {key}"}
    return OpenSearch(**kwargs)


class OpenSearchBackend:
    """The Backend protocol on an OpenSearch cluster (see the module docstring)."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep) -> None:  # noqa: ANN001
        self.settings = settings
        self.client = client if client is not None else make_client(settings)
        self._sleep = sleep
        self._ready = False
        self._actions: list[tuple[dict, dict | None]] = []
        self._bytes = 0
        self._trims: list[tuple[str, str, int]] = []  # (scope, key, first ordinal to drop)
        self._files: list[tuple[dict, dict | None]] = []  # file records, written last

    # -- set-up --------------------------------------------------------------------------
    def ensure_indices(self) -> None:
        """Put the template and create both indices when missing; refuse another schema."""
        if self._ready:
            return
        s = self.settings
        self._call(lambda: self.client.indices.put_index_template(name=s.index, body=index_template(s)))
        for name, body in ((s.index, None), (s.files_index, files_index_body(s))):
            if not self._call(lambda: self.client.indices.exists(index=name)):
                self._call(lambda: self.client.indices.create(index=name, body=body), ok={400})
            mapping = self._call(lambda: self.client.indices.get_mapping(index=name))
            meta = next(iter(mapping.values()), {}).get("mappings", {}).get("_meta", {})
            if meta.get("qmem_schema") != SCHEMA_VERSION:
                raise BackendError(
                    f"index {name!r} holds qmem schema {meta.get('qmem_schema')!r}, this qmem writes "
                    f"{SCHEMA_VERSION}: point backend.index at a new name and refresh with --full"
                )
        self._ready = True

    # -- the Backend verbs ---------------------------------------------------------------
    def replace_file(self, scope: str, collection: str, path: str, digest: str, sections: list[Section]) -> None:
        self.ensure_indices()
        key = file_key(scope, collection, path)
        for ordinal, s in enumerate(sections):
            meta = {"index": {"_index": self.settings.index, "_id": section_id(key, ordinal), "routing": scope}}
            self._queue(meta, section_doc(scope, collection, path, key, ordinal, s))
        self._trims.append((scope, key, len(sections)))
        record = {"scope": scope, "collection": collection, "path": path, "digest": digest,
                  "sections": len(sections)}
        self._files.append(({"index": {"_index": self.settings.files_index, "_id": key, "routing": scope}}, record))

    def delete_file(self, scope: str, collection: str, path: str) -> None:
        self.ensure_indices()
        key = file_key(scope, collection, path)
        self._trims.append((scope, key, 0))
        self._files.append(({"delete": {"_index": self.settings.files_index, "_id": key, "routing": scope}}, None))

    def delete_collection(self, scope: str, collection: str) -> None:
        self.ensure_indices()
        self._flush()
        query = {"query": {"bool": {"filter": [{"term": {"scope": scope}}, {"term": {"collection": collection}}]}}}
        for name in (self.settings.index, self.settings.files_index):
            self._call(lambda: self.client.delete_by_query(index=name, body=query, routing=scope,
                                                           conflicts="proceed", refresh=True))

    def stored_hashes(self, scope: str, collection: str) -> dict[str, StoredFile]:
        self.ensure_indices()
        out: dict[str, StoredFile] = {}
        body: dict = {
            "query": {"bool": {"filter": [{"term": {"scope": scope}}, {"term": {"collection": collection}}]}},
            "sort": [{"path": "asc"}],
            "size": HASH_PAGE,
            "_source": ["path", "digest", "sections"],
        }
        while True:
            page = self._call(lambda: self.client.search(index=self.settings.files_index, body=body, routing=scope))
            hits = page["hits"]["hits"]
            for hit in hits:
                src = hit["_source"]
                out[src["path"]] = StoredFile(src["digest"], src["sections"])
            if len(hits) < body["size"]:
                return out
            body["search_after"] = hits[-1]["sort"]

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        body = search_request(form, scopes, limit)
        if body is None:
            return []
        s = self.settings
        page = self._call(lambda: self.client.search(index=s.index, body=body, routing=routing(scopes),
                                                     search_type=s.search_type))
        return [(hit["_score"] or 0.0, stored_fields(hit["_source"])) for hit in page["hits"]["hits"]]

    def count(self, query: dict, scopes: list[str]) -> int:
        s = self.settings
        return self._call(lambda: self.client.count(index=s.index, body={"query": query},
                                                    routing=routing(scopes)))["count"]

    def commit(self) -> None:
        """Sections first, then drop the surplus of shrunk and deleted files, then the hashes."""
        if not (self._actions or self._trims or self._files):
            return
        self._flush()
        index, files_index = self.settings.index, self.settings.files_index
        if self._trims:
            # Sections a killed refresh left unrefreshed must be visible to delete_by_query.
            self._call(lambda: self.client.indices.refresh(index=index))
            by_scope: dict[str, list[tuple[str, int]]] = {}
            for scope, key, first in self._trims:
                by_scope.setdefault(scope, []).append((key, first))
            for scope, trims in by_scope.items():
                for start in range(0, len(trims), DELETE_BATCH):
                    self._delete_surplus(scope, trims[start:start + DELETE_BATCH])
            self._trims.clear()
        if self._files:
            self._bulk(self._files)
            self._files.clear()
        if self.settings.refresh:
            self._call(lambda: self.client.indices.refresh(index=f"{index},{files_index}"))

    # -- plumbing ------------------------------------------------------------------------
    def _delete_surplus(self, scope: str, trims: list[tuple[str, int]]) -> None:
        should = [{"bool": {"filter": [{"term": {"key": key}}, {"range": {"ordinal": {"gte": first}}}]}}
                  for key, first in trims]
        body = {"query": {"bool": {"filter": [{"term": {"scope": scope}}],
                                   "should": should, "minimum_should_match": 1}}}
        self._call(lambda: self.client.delete_by_query(index=self.settings.index, body=body, routing=scope,
                                                       conflicts="proceed"))

    def _queue(self, meta: dict, doc: dict | None) -> None:
        self._actions.append((meta, doc))
        self._bytes += len(doc.get("body", "")) + 400 if doc else 100
        if len(self._actions) >= BULK_ACTIONS or self._bytes >= BULK_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._actions:
            self._bulk(self._actions)
            self._actions.clear()
            self._bytes = 0

    def _bulk(self, actions: list[tuple[dict, dict | None]]) -> None:
        """Send actions; items that failed for a passing reason are sent again, the rest raise."""
        pending = list(actions)
        for attempt in range(self.settings.retries + 1):
            lines: list[dict] = []
            for meta, doc in pending:
                lines.append(meta)
                if doc is not None:
                    lines.append(doc)
            result = self._call(lambda: self.client.bulk(body=lines))
            if not result.get("errors"):
                return
            retry: list[tuple[dict, dict | None]] = []
            for action, item in zip(pending, result["items"]):
                op, outcome = next(iter(item.items()))
                status = outcome.get("status", 500)
                if status < 300 or (op == "delete" and status == 404):
                    continue
                if status in _RETRY_STATUS or status >= 500:
                    retry.append(action)
                    continue
                error = outcome.get("error", {})
                reason = error.get("reason", error) if isinstance(error, dict) else error
                raise BackendError(f"OpenSearch refused a {op} of {outcome.get('_id')}: {status} {reason}")
            if not retry:
                return
            pending = retry
            if attempt < self.settings.retries:
                self._pause(attempt)
        raise BackendUnavailableError(
            f"OpenSearch at {self.settings.url} kept refusing {len(pending)} bulk item(s) after "
            f"{self.settings.retries} retries; nothing was lost, run the refresh again"
        )

    def _pause(self, attempt: int) -> None:
        self._sleep(min(self.settings.backoff * (2 ** attempt), 8.0))

    def _call(self, request, ok: set[int] | frozenset = frozenset()):  # noqa: ANN001, ANN202
        """One request, retried with back-off on connection errors, timeouts, 429 and 5xx."""
        from opensearchpy.exceptions import ConnectionError as OSConnectionError
        from opensearchpy.exceptions import TransportError

        last = ""
        for attempt in range(self.settings.retries + 1):
            try:
                return request()
            except OSConnectionError as exc:
                last = f"cannot reach it ({exc.__class__.__name__})"
            except TransportError as exc:
                status = exc.status_code if isinstance(exc.status_code, int) else 0
                if status in ok:
                    return None
                if status not in _RETRY_STATUS and status < 500:
                    raise BackendError(f"OpenSearch at {self.settings.url}: {status} {exc.error}: "
                                       f"{_reason(exc)}") from None
                last = f"{status} {exc.error}"
            if attempt < self.settings.retries:
                self._pause(attempt)
        raise BackendUnavailableError(
            f"OpenSearch at {self.settings.url}: {last}, still after {self.settings.retries} retries; "
            "what was not finished is redone by the next refresh"
        )


def _reason(exc: Exception) -> str:
    info = getattr(exc, "info", None)
    if isinstance(info, dict):
        error = info.get("error")
        if isinstance(error, dict):
            return str(error.get("reason", error))
    return str(getattr(exc, "error", exc))


# -- what sync and search hold -------------------------------------------------------------

def backend_for(cfg: Config) -> OpenSearchBackend:
    return OpenSearchBackend(Settings.from_dict(cfg.backend))


class OpenSearchWriter:
    """The refresh writer of `sync` on the cluster: each collection's sections go in its
    scope (`[collections.X] scope`, else `[scopes] own`). The local lock keeps two refreshes
    of this config apart; the local manifest stays as a cache of file sizes and times, the
    hashes in the cluster are the truth (`known_files`)."""

    created = False  # no local index to build
    manifest_is_truth = False  # the cluster's hashes are

    def __init__(self, cfg: Config, timeout: float, backend: OpenSearchBackend | None = None) -> None:
        from ..fsutil import FileLock
        from ..layout import lock_path

        self.cfg = cfg
        self.backend = backend or backend_for(cfg)
        self.lock = FileLock(lock_path(cfg.data_dir), timeout)
        self.timeout = timeout

    def __enter__(self) -> OpenSearchWriter:
        from ..errors import IndexBusyError

        if not self.lock.acquire():
            raise IndexBusyError(f"another qmem refresh of this config runs for over {self.timeout:g}s; "
                                 "try again later")
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()

    def _scope(self, collection: str) -> str:
        coll = self.cfg.collections.get(collection)
        return self.cfg.scope_of(coll) if coll is not None else self.cfg.scope

    def known_files(self, collection: str, files: dict[str, list]) -> dict[str, list]:
        stored = self.backend.stored_hashes(self._scope(collection), collection)
        out: dict[str, list] = {}
        for path, held in stored.items():
            local = files.get(path)
            if local is not None and local[2] == held.digest and local[3] == held.sections:
                out[path] = local
            else:  # another machine or an unfinished refresh wrote it: re-hash this file
                out[path] = [-1, 0, held.digest, held.sections]
        return out

    def replace_file(self, collection: str, path: str, sections: list, digest: str = "") -> None:
        self.backend.replace_file(self._scope(collection), collection, path, digest, sections)

    def delete_file(self, collection: str, path: str) -> None:
        self.backend.delete_file(self._scope(collection), collection, path)

    def delete_collection(self, collection: str) -> None:
        self.backend.delete_collection(self._scope(collection), collection)

    def reset(self) -> None:
        pass  # only a local index can be damaged

    def commit(self) -> None:
        self.backend.commit()

    def finish(self) -> None:
        pass


class OpenSearchSearcher:
    def __init__(self, cfg: Config, backend: OpenSearchBackend | None = None) -> None:
        self.backend = backend or backend_for(cfg)

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        return self.backend.search(form, scopes, limit)

    def weights(self, form: QueryForm, weigh=None) -> list[float]:  # noqa: ANN001
        return []  # snippets weigh the query's units alike

    def present(self, units: list, scopes: list[str]) -> list:
        """The units that occur somewhere in what the scopes may see (one count each)."""
        return [u for u in units if self.backend.count({"bool": {
            "should": [_unit("body", u.tokens), _unit("heading", u.tokens)], "minimum_should_match": 1,
            "filter": [{"terms": {"scope": sorted(set(scopes))}}]}}, scopes)]
