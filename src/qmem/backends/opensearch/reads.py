"""The cluster's reads by scope: a scope's index made sure of, its file records, its sections,
searches and counts, each answer checked to cover every shard.

A refresh reads a collection's file records in full (`stored_hashes`, paged with
search_after) unless its change mark shows nothing changed since a state this machine
trusted (`hashes_unless_unchanged`, see `marks`); a search tries briefly (the read policy)
and refuses an answer that misses a shard (exit 69) rather than show it as complete. An
index whose `max_result_window` an admin set lower is read in pages of that window.
`backend` builds the commit protocol (the writes) on these verbs: `OpenSearchBackend` is a
`ScopeReads`.
"""

from __future__ import annotations

import random
import time

from ...base.errors import BackendError, BackendUnavailableError
from ..seam import StoredFile
from . import layout
from . import mapping as schema
from .client import ClusterTransport, Settings
from .mapping import scope_index_body, stored_fields
from .marks import Mark, Marks
from .query import HIT_SOURCE, collection_query, search_request

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from ...text.query import QueryForm

HASH_PAGE = 10_000  # records read per request (search_after): OpenSearch's default result window
RECORD = ["path", "digest", "sections", "high", "origin"]  # the fields of a file record read back


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


def fit_window(exc: BackendError, body: dict) -> bool:
    """True when `exc` is the cluster refusing `body`'s size for the index's lower result
    window: `body` then asks for that window instead (the caller asks again)."""
    window = _result_window(str(exc))
    if window is None or window >= body["size"]:
        return False
    body["size"] = window
    return True


class ScopeReads(ClusterTransport):
    """The cluster's reads, each within one scope (see the module docstring), and what they
    learnt: the scopes checked, each collection's records, the marks trusted and touched."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep, rand=random.random) -> None:
        super().__init__(settings, client, sleep, rand)
        self._checked: set[str] = set()  # scopes whose index exists with this schema
        self._held: dict[tuple[str, str], dict[str, Held]] = {}  # (scope, collection) -> path -> record
        self.marks = Marks(self)
        # (scope, collection) -> a mark state under which what this backend knows of the collection
        # is exact, and when its records were last read in full (`marks`); collections read or
        # written, whose trust the writer records at the end.
        self.trusted: dict[tuple[str, str], tuple[Mark, float]] = {}
        self.touched: set[tuple[str, str]] = set()

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

    # -- reads ---------------------------------------------------------------------------
    def records(self, scope: str, collection: str) -> dict[str, Held]:
        """path -> the record of each file of the collection, as `stored_hashes` last read it
        (and this backend's commits since)."""
        return self._held.get((scope, collection), {})

    def stored_hashes(self, scope: str, collection: str) -> dict[str, StoredFile]:
        """path -> what the cluster holds for each file of the collection (all of it: a
        partial answer raises)."""
        held: dict[str, Held] = {}
        if self.ensure_scope(scope, create=False):
            body: dict = {"query": collection_query(scope, collection, "file"), "sort": [{"path": "asc"}],
                          "_source": RECORD}
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
                if not fit_window(exc, body):
                    raise
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
            if not fit_window(exc, body):
                raise
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
