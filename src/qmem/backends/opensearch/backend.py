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

This module holds the cluster's verbs by scope (`OpenSearchBackend`) and, on top of them,
the seam's writer and searcher (`OpenSearchWriter`, `OpenSearchSearcher`) that the engine
uses; `mapping` holds the analyzer and mappings, `query` the query compiler, `client` the
settings, the client and the retried requests.
"""

from __future__ import annotations

import time

from ...base.errors import BackendError, QmemError
from ...text.record import body_hash  # noqa: F401 - re-exported (tests compare hashes as osb.body_hash)
from . import mapping as schema
from ..seam import StoredFile
from .client import ClusterTransport, Settings, make_client  # noqa: F401 - re-exported
from .mapping import (  # noqa: F401 - re-exported for callers and tests of this module
    ANALYZER, MAX_TOKEN_CHARS, SCHEMA_VERSION, TOKEN_PATTERN, file_key, files_index_body, index_template,
    section_doc, section_id, stored_fields,
)
from .query import (  # noqa: F401 - re-exported for callers and tests of this module
    collection_query, compile_query, lucene_regex, presence_query, routing, scope_filter, search_request,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...base.config import Config
    from ...text.markdown import Section
    from ...text.query import QueryForm, Unit

BULK_ACTIONS = 500
BULK_BYTES = 5_000_000
DELETE_BATCH = 200
HASH_PAGE = 1000  # stored hashes read per request (search_after on path)


class OpenSearchBackend(ClusterTransport):
    """The cluster's verbs, each within one scope (see the module docstring); the seam's
    writer and searcher below map a config's collections onto them."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep) -> None:
        super().__init__(settings, client, sleep)
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
            if meta.get("qmem_schema") != schema.SCHEMA_VERSION:
                raise BackendError(
                    f"index {name!r} holds qmem schema {meta.get('qmem_schema')!r}, this qmem writes "
                    f"{schema.SCHEMA_VERSION}: point backend.index at a new name and refresh with --full"
                )
        self._ready = True

    # -- the verbs -----------------------------------------------------------------------
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
        query = {"query": collection_query(scope, collection)}
        for name in (self.settings.index, self.settings.files_index):
            self._call(lambda: self.client.delete_by_query(index=name, body=query, routing=scope,
                                                           conflicts="proceed", refresh=True))

    def stored_hashes(self, scope: str, collection: str) -> dict[str, StoredFile]:
        self.ensure_indices()
        out: dict[str, StoredFile] = {}
        body: dict = {
            "query": collection_query(scope, collection),
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

    def sections(self, scope: str, collection: str) -> list[dict]:
        """The stored fields of every section of one collection of one scope."""
        body: dict = {
            "query": collection_query(scope, collection),
            "sort": [{"key": "asc"}, {"ordinal": "asc"}],
            "size": HASH_PAGE,
            "_source": {"excludes": ["body"]},
        }
        out: list[dict] = []
        while True:
            page = self._call(lambda: self.client.search(index=self.settings.index, body=body, routing=scope),
                              ok={404})
            hits = page["hits"]["hits"] if page else []
            out.extend(stored_fields(hit["_source"]) for hit in hits)
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
        """Sections of the scopes matching `query`; -1 when the sections index does not exist."""
        s = self.settings
        found = self._call(lambda: self.client.count(index=s.index, body={"query": query}, routing=routing(scopes)),
                           ok={404})
        return -1 if found is None else found["count"]

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


# -- what sync and search hold -------------------------------------------------------------

def backend_for(cfg: Config) -> OpenSearchBackend:
    return OpenSearchBackend(Settings.from_dict(cfg.backend))


def scope_of(cfg: Config, collection: str) -> str:
    """The scope a collection's sections live in: `[collections.X] scope`, else `[scopes] own`."""
    coll = cfg.collections.get(collection)
    return cfg.scope_of(coll) if coll is not None else cfg.scope


class OpenSearchWriter:
    """The seam's writer on the cluster: each collection's sections go in its scope
    (`scope_of`). The local lock keeps two refreshes of this config apart; the local manifest
    stays as a cache of file sizes and times, the hashes in the cluster are the truth
    (`known_files`)."""

    created = False  # no local index to build
    manifest_is_truth = False  # the cluster's hashes are
    preparer = ""  # sections go to the cluster as they are: nothing for worker processes to prepare

    def __init__(self, cfg: Config, timeout: float, backend: OpenSearchBackend | None = None) -> None:
        from ...base.fsutil import FileLock
        from ...base.layout import lock_path

        self.cfg = cfg
        self.backend = backend or backend_for(cfg)
        self.lock = FileLock(lock_path(cfg.data_dir), timeout)
        self.timeout = timeout

    def __enter__(self) -> OpenSearchWriter:
        from ...base.errors import IndexBusyError

        if not self.lock.acquire():
            raise IndexBusyError(f"another qmem refresh of this config runs for over {self.timeout:g}s; "
                                 "try again later")
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()

    def _scope(self, collection: str) -> str:
        return scope_of(self.cfg, collection)

    def health(self) -> tuple[str | None, int]:
        """Nothing local to check; the count of what the cluster holds is not compared with
        the manifests (other machines write there too): unknown."""
        return None, -1

    def adopt_legacy(self, folder: str, collections: list[str]) -> list[str]:
        return []  # a legacy folder holds a local index; the cluster is built from the files

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

    def replace_file(self, collection: str, path: str, sections: list, digest: str) -> None:
        self.backend.replace_file(self._scope(collection), collection, path, digest, sections)

    def replace_prepared(self, collection: str, path: str, prepared: list) -> None:
        raise TypeError("the OpenSearch writer has no preparer: it takes sections (replace_file)")

    add_prepared = replace_prepared

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
    """The seam's searcher on the cluster: every request names the scopes it may see."""

    def __init__(self, cfg: Config, backend: OpenSearchBackend | None = None) -> None:
        self.cfg = cfg
        self._backend = backend
        settings = Settings.from_dict(cfg.backend)
        self.location = f"OpenSearch index {settings.index!r} at {settings.url}"

    @property
    def backend(self) -> OpenSearchBackend:
        """Made on first use (building the client imports opensearch-py)."""
        if self._backend is None:
            self._backend = backend_for(self.cfg)
        return self._backend

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        return self.backend.search(form, scopes, limit)

    def frequencies(self, units: list[Unit], scopes: list[str]) -> None:
        return None  # no cheap document counts: snippets weigh the query's units alike

    def present(self, units: list[Unit], scopes: list[str]) -> list[Unit]:
        """The units that occur somewhere in what the scopes may see (one count each)."""
        return [u for u in units if self.backend.count(presence_query(u.tokens, scopes), scopes) > 0]

    def sections(self, collection: str) -> list[dict]:
        return self.backend.sections(scope_of(self.cfg, collection), collection)

    def path_problem(self, regex: str) -> str | None:
        return None  # the cluster checks its regexp itself (a refused one is a one-line BackendError)

    def health(self, thorough: bool = False) -> tuple[str | None, int]:
        """One count of what this config's scopes may see: -1 before the first refresh
        created the index, the error in one line when the cluster refuses or is unreachable
        (the cluster keeps its own checksums: `thorough` asks nothing more)."""
        try:
            return None, self.backend.count(scope_filter(self.cfg.sees), self.cfg.sees)
        except QmemError as exc:  # unreachable, refused, no client or no credentials
            return str(exc), -1

    def damage(self, failure: BaseException) -> str | None:
        return None  # nothing local to be damaged: the cluster's errors are typed (BackendError)

    def reload(self) -> None:
        pass  # every request sees the cluster's latest refresh

    def close(self) -> None:
        pass
