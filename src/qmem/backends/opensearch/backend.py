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

This module holds the cluster's verbs by scope (`OpenSearchBackend`): the writes (the
commit above, `delete_collection`) here, on the reads it inherits from `reads` (`ScopeReads`:
a scope's index made sure of, file records, sections, searches, counts). `adapters` holds,
on top of them, the writer and searcher that sync and search use; `client` holds the
settings, the client and the request policies.
"""

from __future__ import annotations

import random
import time

from ...base.errors import BackendError, BackendUnavailableError
from ...text.record import body_hash  # noqa: F401 - re-exported (tests compare hashes as osb.body_hash)
from . import layout  # noqa: F401 - re-exported
from .client import Settings, make_client  # noqa: F401 - re-exported
from .marks import Mark
from .mapping import (  # noqa: F401 - re-exported for callers and tests of this module
    ANALYZER, SCHEMA_VERSION, file_doc, file_key, scope_index_body, terms_of,
    section_doc, section_id, stored_fields,
)
from .query import (  # noqa: F401 - re-exported for callers and tests of this module
    HIT_SOURCE, MAX_WINDOW, SECTIONS, collection_query, compile_query, lucene_regex, presence_query, scope_filter,
    search_request,
)
from .reads import HASH_PAGE, RECORD, Held, ScopeReads, partial_reason  # noqa: F401 - re-exported

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.markdown import Section

BULK_ACTIONS = 500
BULK_BYTES = 5_000_000
BULK_RECORDS = 5000  # final file records per request (small, and each request waits for a refresh)


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


class OpenSearchBackend(ScopeReads):
    """The cluster's verbs, each within one scope (see the module docstring)."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep, rand=random.random,
                 origin: str = "") -> None:
        super().__init__(settings, client, sleep, rand)
        self.origin = origin  # written into file records unless a write names its own
        self._batch: list[_Op] = []
        self._batch_actions = 0
        self._batch_bytes = 0
        self._finals: list[_Op] = []
        self._opened: dict[tuple[str, str], tuple[Mark, bool, float | None]] = {}  # marks this commit holds open

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
            docs = [{"_index": self.alias(op.scope), "_id": op.key, "routing": op.key, "_source": RECORD}
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

