"""The OpenSearch backend: one cluster shared by many agents and machines.

Layout (`layout`): an index per scope, behind an alias, holding the scope's sections and one
record per file (its content hash and section count), so any machine refreshes
incrementally against what the cluster holds. The cluster's index permissions decide who
reads and who writes each scope (`security` makes the roles); BM25 statistics stay inside
the scopes a search names. Every document is routed by its file's key.

qmem analyzes the text itself and sends its terms, the local index's exact terms, which the
cluster only splits on spaces (`mapping`); the query is compiled from the same `QueryForm`
as the local one (`query`).

A commit writes in three steps, each in bulk requests whose failed items are retried,
never dropped: (1) the record of every file it replaces or deletes, marked unfinished
(digest "") with how many sections may exist (`high`); (2) the sections, by id (key and
ordinal), and the deletes of ids past a file's new count; (3) the final records, the last
request with refresh=wait_for, so the writes are searchable when the commit returns. A
refresh killed at any point leaves records that make the next one redo exactly the
unfinished files, whatever they hold by then; no delete_by_query, no forced refresh, no
template on the refresh path. Around its writes a commit opens and closes each collection's
change mark (`marks`), which lets a refresh that finds nothing to do skip reading every record.
A search tries briefly (the read policy) and refuses an answer that misses a shard (exit 69)
rather than show it as complete.

This module holds the cluster's verbs by scope (`OpenSearchBackend`); `adapters` holds, on
top of them, the writer and searcher that sync and search use; `client` holds the settings,
the client and the request policies.
"""

from __future__ import annotations

import random
import time

from ...base.errors import BackendError, BackendUnavailableError
from ...text.record import body_hash  # noqa: F401 - re-exported (tests compare hashes as osb.body_hash)
from ..seam import StoredFile
from . import layout
from . import mapping as schema
from .client import ClusterTransport, Settings, make_client  # noqa: F401 - re-exported
from .marks import Mark, Marks
from .mapping import (  # noqa: F401 - re-exported for callers and tests of this module
    ANALYZER, SCHEMA_VERSION, file_doc, file_key, scope_index_body, terms_of,
    section_doc, section_id, stored_fields,
)
from .query import (  # noqa: F401 - re-exported for callers and tests of this module
    HIT_SOURCE, MAX_WINDOW, SECTIONS, collection_query, compile_query, lucene_regex, presence_query, scope_filter,
    search_request,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from ...text.markdown import Section
    from ...text.query import QueryForm

BULK_ACTIONS = 500
BULK_BYTES = 5_000_000
BULK_RECORDS = 5000  # final file records per request (small, and each request waits for a refresh)
HASH_PAGE = 10_000  # records read per request (search_after): OpenSearch's default result window
_RECORD = ["path", "digest", "sections", "high", "origin"]


class Held:
    """What the cluster holds for one file: its record (`high`: how many section ids may
    exist; `origin`: the host and folder that wrote it)."""

    __slots__ = ("digest", "sections", "high", "origin")

    def __init__(self, digest: str, sections: int, high: int, origin: str) -> None:
        self.digest = digest
        self.sections = sections
        self.high = high
        self.origin = origin

    @classmethod
    def of(cls, source: dict) -> Held:
        sections = int(source.get("sections", 0))
        return cls(source.get("digest", ""), sections, int(source.get("high", sections)), source.get("origin", ""))


class _Op:
    """One file's pending change: its new sections, or None to delete it."""

    __slots__ = ("scope", "collection", "path", "key", "digest", "sections", "origin", "high")

    def __init__(self, scope: str, collection: str, path: str, digest: str, sections: list | None,
                 origin: str) -> None:
        self.scope = scope
        self.collection = collection
        self.path = path
        self.key = file_key(scope, collection, path)
        self.digest = digest
        self.sections = sections
        self.origin = origin
        self.high = 0


def partial_reason(page: dict) -> str | None:
    """Why a search or count answer does not cover every shard it asked, or None."""
    shards = page.get("_shards") or {}
    failed = shards.get("failed") or 0
    if failed:
        failures = shards.get("failures") or [{}]
        reason = (failures[0].get("reason") or {}).get("reason", "") if isinstance(failures[0], dict) else ""
        return f"{failed} of {shards.get('total', '?')} shards failed" + (f" ({reason})" if reason else "")
    total, answered = shards.get("total"), (shards.get("successful") or 0) + (shards.get("skipped") or 0)
    if isinstance(total, int) and answered < total:  # a shard with no copy left: not "failed", just missing
        return f"{total - answered} of {total} shards have no copy that answers"
    if page.get("timed_out"):
        return "the cluster timed out before every shard answered"
    return None


def _result_window(message: str) -> int | None:
    """The window in OpenSearch's "Result window is too large, from + size must be less than or
    equal to: [N] but was [M]" refusal, or None for another refusal."""
    import re

    found = re.search(r"Result window is too large.*?less than or equal to: \[(\d+)\]", message)
    return int(found.group(1)) if found else None


def _dbq_problem(result: dict) -> str | None:
    """Why a delete_by_query did not delete everything it matched, or None."""
    if result.get("failures"):
        first = result["failures"][0]
        cause = first.get("cause", first) if isinstance(first, dict) else first
        reason = cause.get("reason", cause) if isinstance(cause, dict) else cause
        return f"{len(result['failures'])} failure(s): {reason}"
    if result.get("timed_out"):
        return "it timed out"
    if result.get("version_conflicts"):
        return f"{result['version_conflicts']} document(s) changed meanwhile"
    return None


class OpenSearchBackend(ClusterTransport):
    """The cluster's verbs, each within one scope (see the module docstring)."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep, rand=random.random,
                 origin: str = "") -> None:
        super().__init__(settings, client, sleep, rand)
        self.origin = origin  # written into file records unless a write names its own
        self._checked: set[str] = set()  # scopes whose index exists with this schema
        self._held: dict[tuple[str, str], dict[str, Held]] = {}  # (scope, collection) -> path -> record
        self._batch: list[_Op] = []
        self._batch_actions = 0
        self._batch_bytes = 0
        self._finals: list[_Op] = []
        self.marks = Marks(self)
        # (scope, collection) -> a mark state under which what this backend knows of the collection
        # is exact, and when its records were last read in full (`marks`); collections read or
        # written, whose trust the writer records at the end; marks this commit holds open.
        self.trusted: dict[tuple[str, str], tuple[Mark, float]] = {}
        self.touched: set[tuple[str, str]] = set()
        self._opened: dict[tuple[str, str], tuple[Mark, bool, float | None]] = {}

    def alias(self, scope: str) -> str:
        return layout.alias(self.settings.index, scope)

    def _aliases(self, scopes: list[str]) -> str:
        return ",".join(self.alias(s) for s in sorted(set(scopes)))

    # -- set-up --------------------------------------------------------------------------
    def ensure_scope(self, scope: str, create: bool = True) -> bool:
        """The scope's index exists with this schema (created, with its alias, when missing
        and `create`); False when it is missing and not created. BackendError names another
        schema, or why the cluster would not create it."""
        if scope in self._checked:
            return True
        name = self.alias(scope)
        found = self._call(lambda t: self.client.indices.get_mapping(index=name, request_timeout=t), ok={404})
        if found is None:
            if not create:
                return False
            concrete = layout.concrete(self.settings.index, scope, schema.SCHEMA_VERSION)
            body = scope_index_body(self.settings.shards, self.settings.replicas, name)
            try:
                self._call(lambda t: self.client.indices.create(index=concrete, body=body, request_timeout=t),
                           ok={(400, "resource_already_exists_exception")})
            except BackendError as exc:
                if getattr(exc, "status", 0) == 403:
                    raise BackendError(f"scope {scope!r} has no index on the cluster and this user may not create "
                                       "one: an admin applies the deployment (`qmem opensearch setup`)") from None
                raise
            found = self._call(lambda t: self.client.indices.get_mapping(index=name, request_timeout=t))
        for concrete, body in found.items():
            meta = (body.get("mappings") or {}).get("_meta") or {}
            if meta.get("qmem_schema") != schema.SCHEMA_VERSION:
                raise BackendError(
                    f"index {concrete!r} of scope {scope!r} holds qmem schema {meta.get('qmem_schema')!r}, this "
                    f"qmem writes {schema.SCHEMA_VERSION}: migrate it (docs/opensearch.md, \"Schema changes\")"
                )
        self._checked.add(scope)
        return True

    # -- writes --------------------------------------------------------------------------
    def replace_file(self, scope: str, collection: str, path: str, digest: str, sections: list[Section],
                     origin: str = "") -> None:
        """The file's sections become `sections` at the next commit."""
        self.ensure_scope(scope)
        self._add(_Op(scope, collection, path, digest, list(sections), origin or self.origin),
                  sum(len(s.body) + len(s.heading) + 400 for s in sections))

    def delete_file(self, scope: str, collection: str, path: str) -> None:
        """Every section of the file goes at the next commit, and its record."""
        if self.ensure_scope(scope, create=False):
            self._add(_Op(scope, collection, path, "", None, self.origin), 200)

    def _add(self, op: _Op, size: int) -> None:
        self._batch.append(op)
        self._batch_actions += 2 + (len(op.sections) if op.sections else 0)
        self._batch_bytes += size
        if self._batch_actions >= BULK_ACTIONS or self._batch_bytes >= BULK_BYTES:
            self._send_batch()

    def records(self, scope: str, collection: str) -> dict[str, Held]:
        """path -> the record of each file of the collection, as `stored_hashes` last read it
        (and this backend's commits since)."""
        return self._held.get((scope, collection), {})

    def _records_of(self, ops: list[_Op]) -> dict[str, Held]:
        """key -> the cluster's record of each op's file: from the hashes this refresh read,
        else one _mget for the rest (a refresh of a few files reads no whole collection)."""
        out: dict[str, Held] = {}
        missing: list[_Op] = []
        for op in ops:
            known = self._held.get((op.scope, op.collection))
            if known is None:
                missing.append(op)
            elif op.path in known:
                out[op.key] = known[op.path]
        if missing:
            docs = [{"_index": self.alias(op.scope), "_id": op.key, "routing": op.key, "_source": _RECORD}
                    for op in missing]
            found = self._call(lambda t: self.client.mget(body={"docs": docs}, request_timeout=t))
            for doc in found.get("docs", []):
                if doc.get("error"):
                    raise BackendError(f"OpenSearch refused to read a file record of {doc.get('_index')}: "
                                       f"{doc['error'].get('reason', doc['error'])}")
                if doc.get("found"):
                    out[doc["_id"]] = Held.of(doc["_source"])
        return out

    def _record(self, op: _Op, digest: str, sections: int, high: int) -> tuple[dict, dict]:
        meta = {"index": {"_index": self.alias(op.scope), "_id": op.key, "routing": op.key}}
        return meta, file_doc(op.scope, op.collection, op.path, op.key, digest, sections, high, op.origin)

    def _send_batch(self) -> None:
        """Steps 1 and 2 of a commit for the buffered files (see the module docstring)."""
        if not self._batch:
            return
        ops, self._batch = self._batch, []
        self._batch_actions = self._batch_bytes = 0
        for k in {(op.scope, op.collection) for op in ops} - set(self._opened):
            self.touched.add(k)
            state = self.trusted.pop(k, None)
            mark, chain = self.marks.open(k[0], k[1], state[0] if state else None)
            self._opened[k] = (mark, chain, state[1] if state else None)
        records = self._records_of(ops)
        marks: list[tuple[dict, dict | None]] = []
        for op in ops:
            old = records.get(op.key)
            new = len(op.sections) if op.sections is not None else 0
            op.high = max(new, old.sections, old.high) if old else new
            marks.append(self._record(op, "", old.sections if old else 0, op.high))
        self._bulk_all(marks)
        actions: list[tuple[dict, dict | None]] = []
        for op in ops:
            index = self.alias(op.scope)
            sections = op.sections or []
            for ordinal, s in enumerate(sections):
                meta = {"index": {"_index": index, "_id": section_id(op.key, ordinal), "routing": op.key}}
                actions.append((meta, section_doc(op.scope, op.collection, op.path, op.key, ordinal, s)))
            for ordinal in range(len(sections), op.high):
                actions.append(({"delete": {"_index": index, "_id": section_id(op.key, ordinal), "routing": op.key}},
                                None))
        self._bulk_all(actions)
        self._finals.extend(ops)

    def _bulk_all(self, actions: list[tuple[dict, dict | None]], refresh: bool = False,
                  limit: int = 0) -> None:
        """Send actions in requests of at most `limit` (BULK_ACTIONS) actions / ~BULK_BYTES.
        `refresh`: each request returns once its writes are searchable. refresh=wait_for
        waits only for the shards its own request wrote to, so it is on every request: on
        the last one alone, the records a shard took in an earlier request stayed unseen
        after the commit returned (seen on a 2-shard index: a file's unfinished mark
        searchable, its final record not)."""
        limit = limit or BULK_ACTIONS
        start, size = 0, 0
        for i, (_, doc) in enumerate(actions):
            size += len(doc.get("body_terms", "")) + 400 if doc else 100
            if i + 1 - start >= limit or size >= BULK_BYTES:
                self._bulk(actions[start:i + 1], refresh=refresh)
                start, size = i + 1, 0
        if start < len(actions):
            self._bulk(actions[start:], refresh=refresh)

    def commit(self) -> None:
        """Every buffered change lands; with `settings.refresh` it is searchable on return. The
        marks the commit opened are closed after its last write; a failed commit leaves them
        open (`abandon`)."""
        try:
            self._commit_writes()
        except BaseException:
            self.abandon()
            raise
        self._close_marks(trust=True)

    def abandon(self) -> None:
        """A failed or interrupted commit leaves the marks it opened open, as a killed one does:
        its bulks before the failure become searchable only at the cluster's next refresh, so a
        close now would let a reader trust a read that misses them. Readers read in full until
        the count goes stale (`marks.STALE_MINUTES`) or this machine's next commit settles it."""
        self._opened.clear()

    def _close_marks(self, trust: bool) -> None:
        opened, self._opened = self._opened, {}
        for (scope, collection), (mine, chain, read_at) in opened.items():
            done = self.marks.close(scope, collection, mine, chain and trust)
            if done is not None and read_at is not None:
                self.trusted[(scope, collection)] = (done, read_at)

    def _commit_writes(self) -> None:
        self._send_batch()
        if not self._finals:
            return
        ops, self._finals = self._finals, []
        finals: list[tuple[dict, dict | None]] = []
        for op in ops:
            if op.sections is None:
                finals.append(({"delete": {"_index": self.alias(op.scope), "_id": op.key, "routing": op.key}}, None))
            else:
                finals.append(self._record(op, op.digest, len(op.sections), len(op.sections)))
        self._bulk_all(finals, refresh=self.settings.refresh, limit=BULK_RECORDS)
        for op in ops:
            known = self._held.get((op.scope, op.collection))
            if known is None:
                continue
            if op.sections is None:
                known.pop(op.path, None)
            else:
                known[op.path] = Held(op.digest, len(op.sections), len(op.sections), op.origin)

    def delete_collection(self, scope: str, collection: str) -> None:
        """Every section and record of the collection goes (in that scope only), searchable
        as gone when this returns: each file by its record (the ids it may hold, with
        refresh=wait_for, as a commit deletes a file), then a delete_by_query for anything
        no record covered (agents may not force a refresh, and a delete_by_query's deletes
        stayed visible until the next scheduled one)."""
        self.commit()
        if not self.ensure_scope(scope, create=False):
            self._held.pop((scope, collection), None)
            return
        self.stored_hashes(scope, collection)
        for path in list(self.records(scope, collection)):
            self.delete_file(scope, collection, path)
        self.commit()
        self._held.pop((scope, collection), None)
        self.trusted.pop((scope, collection), None)  # the mark goes with the rest
        self.touched.add((scope, collection))
        index = self.alias(scope)
        query = collection_query(scope, collection)
        query["bool"]["must_not"] = [{"term": {"kind": "mark"}}]  # a commit just wrote it: by id, below
        body = {"query": query}
        policy = self.settings.write_policy()
        problem = None
        # The delete_by_query also takes what another machine wrote since the commit above: the
        # mark stays open through it, so nobody trusts a state it is changing, and goes once it is
        # done. A delete that fails or dies leaves it open, as a failed commit does (`abandon`):
        # its deletes may not be searchable yet.
        self.marks.open(scope, collection, None)
        for attempt in range(policy.retries + 1):
            result = self._call(lambda t: self.client.delete_by_query(
                index=index, body=body, conflicts="proceed", request_timeout=max(t, 120.0)))
            problem = _dbq_problem(result)
            if problem is None:
                self.marks.remove(scope, collection)
                return
            if attempt < policy.retries:
                self._pause(attempt, policy)
        raise BackendUnavailableError(f"deleting collection {collection!r} of scope {scope!r} left documents "
                                      f"behind ({problem}); run it again")

    # -- reads ---------------------------------------------------------------------------
    def stored_hashes(self, scope: str, collection: str) -> dict[str, StoredFile]:
        """path -> what the cluster holds for each file of the collection (all of it: a
        partial answer raises)."""
        held: dict[str, Held] = {}
        if self.ensure_scope(scope, create=False):
            body: dict = {"query": collection_query(scope, collection, "file"), "sort": [{"path": "asc"}],
                          "_source": _RECORD}
            for hit in self._every_hit(scope, body, f"reading the hashes of {collection!r}"):
                held[hit["_source"]["path"]] = Held.of(hit["_source"])
        self._held[(scope, collection)] = held
        return {path: StoredFile(h.digest, h.sections) for path, h in held.items()}

    def hashes_unless_unchanged(self, scope: str, collection: str,
                                trusted: tuple[Mark, float] | None) -> dict[str, StoredFile] | None:
        """None when the collection's mark still carries the token of `trusted` (a state this
        machine matched, and when it last read the records in full) and no writer holds it
        open: nothing changed since. Else `stored_hashes`, trusted from then on when the mark
        read closed with one token before and after the read (no commit ran meanwhile)."""
        k = (scope, collection)
        self.touched.add(k)
        if not self.ensure_scope(scope, create=False):
            self.trusted.pop(k, None)
            return self.stored_hashes(scope, collection)
        before = self.marks.read(scope, collection)
        if trusted is not None and before is not None and before.carries(trusted[0]):
            self.trusted[k] = (before, trusted[1])
            return None
        read_at = time.time()
        held = self.stored_hashes(scope, collection)
        after = self.marks.read(scope, collection)
        if before is not None and after is not None and before.closed and before.same(after):
            self.trusted[k] = (after, read_at)
        else:
            self.trusted.pop(k, None)
        return held

    def still_trusted(self, scope: str, collection: str,
                      trusted: tuple[Mark, float]) -> tuple[Mark, float] | None:
        """`trusted` with the mark as read now, when it is closed and still carries its token;
        else None."""
        if not self.ensure_scope(scope, create=False):
            return None
        now = self.marks.read(scope, collection)
        if now is not None and now.carries(trusted[0]):
            return now, trusted[1]
        return None

    def sections(self, scope: str, collection: str) -> list[dict]:
        """The stored fields of every section of one collection of one scope."""
        if not self.ensure_scope(scope, create=False):
            return []
        body: dict = {"query": collection_query(scope, collection, "section"),
                      "sort": [{"key": "asc"}, {"ordinal": "asc"}], "_source": HIT_SOURCE}
        return [stored_fields(hit["_source"]) for hit in self._every_hit(scope, body, f"reading {collection!r}")]

    def _every_hit(self, scope: str, body: dict, doing: str) -> Iterator[dict]:
        """Every hit of `body` (which sorts on unique keys) in pages of HASH_PAGE, or of the
        index's own result window when an admin set it lower; an answer that misses a shard
        raises (a refresh must not take a partial list of hashes for the whole)."""
        index = self.alias(scope)
        body = dict(body, size=HASH_PAGE, track_total_hits=False)
        while True:
            try:
                page = self._call(lambda t: self.client.search(index=index, body=body, request_timeout=t))
            except BackendError as exc:
                window = _result_window(str(exc))
                if window is None or window >= body["size"]:
                    raise
                body["size"] = window
                continue
            problem = partial_reason(page)
            if problem:
                raise BackendUnavailableError(f"OpenSearch at {self.settings.url}: {doing}: {problem}; try again")
            hits = page["hits"]["hits"]
            yield from hits
            if len(hits) < body["size"]:
                return
            body["search_after"] = hits[-1]["sort"]

    def search(self, form: QueryForm, scopes: list[str], limit: int,
               collections: list[tuple[str, str]] | None = None) -> list[tuple[float, dict]]:
        """The best `limit` sections (at most MAX_WINDOW) of the scopes' indices. An answer
        that misses a shard (failed, or the cluster timed out) raises: it is never shown as
        if it were complete (`_complete`)."""
        body = search_request(form, scopes, limit, collections)
        if body is None:
            return []
        s = self.settings
        index = self._aliases(scopes)

        def ask(t: float) -> dict:
            return self.client.search(index=index, body=body, search_type=s.search_type, ignore_unavailable=True,
                                      allow_no_indices=True, request_timeout=t)

        try:
            page = self._call(ask, policy=s.read_policy())
        except BackendError as exc:  # an index whose max_result_window an admin set below MAX_WINDOW
            window = _result_window(str(exc))
            if window is None or window >= body["size"]:
                raise
            body["size"] = window
            page = self._call(ask, policy=s.read_policy())
        self._complete(page)
        return [(hit["_score"] or 0.0, stored_fields(hit["_source"])) for hit in page["hits"]["hits"]]

    def _complete(self, page: dict) -> None:
        """BackendUnavailableError (exit 69) when an answer does not cover every shard."""
        problem = partial_reason(page)
        if problem:
            raise BackendUnavailableError(f"OpenSearch at {self.settings.url} answered from part of the memory "
                                          f"({problem}); a partial answer is not shown as complete: try again")

    def count(self, query: dict, scopes: list[str]) -> int:
        """Sections of the scopes' indices matching `query`; -1 when none of them has an index."""
        index = self._aliases(scopes)
        found = self._call(lambda t: self.client.count(index=index, body={"query": query}, ignore_unavailable=True,
                                                       allow_no_indices=True, request_timeout=t),
                           policy=self.settings.read_policy())
        self._complete(found)
        return found["count"] if (found.get("_shards") or {}).get("total", 1) else -1
