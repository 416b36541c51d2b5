"""A collection's change mark: what lets a refresh that finds nothing to do skip reading every
file record of a shared collection.

The cluster's file records are the truth (other machines write them), so a refresh compares
its files with them; paging 20,000 records costs seconds of the cluster's time on every
refresh of every agent. The mark is one document per collection (kind "mark", beside the
records, in the scope's index) that every commit changes, read with a real-time GET:

- a writer *opens* it before its first write to the collection (`open` + 1, a new token) and
  *closes* it after its last (`open` − 1, a new token), each a compare-and-set on the mark's
  `_seq_no`, so concurrent writers never lose each other's counts;
- a reader that reads the mark closed with the same token before and after paging the
  records holds a consistent snapshot: no commit touched the collection meanwhile;
- a machine whose own commit opened from the state it trusted and closed from its own open
  state without a conflict knows the cluster is that state plus its writes.

Such a trusted state is kept on disk (`TrustFile`) after a refresh that ended cleanly; the next
refresh skips paging when the mark still carries its token and is closed. A writer killed
between open and close leaves the mark open: readers then page as before, and the next writer
resets a count that has been open without a break for over STALE_MINUTES (busy or not). A qmem that predates marks writes
without them, so trust lasts at most TRUST_SECONDS after the last full read.
"""

from __future__ import annotations

import os
import time
import uuid

from ...base.errors import BackendError
from .mapping import file_key

STALE_MINUTES = 60  # a count open without a break for longer than this holds a killed writer's
TRUST_SECONDS = 3600  # a full read of the records at least this often, whatever the mark says
CAS_TRIES = 20


class Mark:
    """One state of a collection's mark: its token, how many writers hold it open, since when it
    has been open without a break (minutes since the epoch; other writers' opens and closes in
    between do not move it), and the `_seq_no`/`_primary_term` a compare-and-set from this
    state names."""

    __slots__ = ("token", "open", "at", "seq_no", "primary_term")

    def __init__(self, token: str, open_: int, at: int, seq_no: int, primary_term: int) -> None:
        self.token = token
        self.open = open_
        self.at = at
        self.seq_no = seq_no
        self.primary_term = primary_term

    @property
    def closed(self) -> bool:
        return self.open == 0

    def carries(self, trusted: Mark) -> bool:
        """Closed with the token of a state a machine matched: nothing was written since."""
        return self.closed and self.token == trusted.token

    def same(self, other: Mark | None) -> bool:
        return other is not None and other.token == self.token and other.open == self.open


def mark_key(scope: str, collection: str) -> str:
    """The mark's id and routing: a file key no file has (no path holds a NUL)."""
    return file_key(scope, collection, "\x00mark")


def minutes() -> int:
    return int(time.time() // 60)


class Marks:
    """The marks of one backend's collections: read, open and close them (`backend._call`
    carries each request under the write policy)."""

    def __init__(self, backend) -> None:  # an OpenSearchBackend
        self.backend = backend

    def read(self, scope: str, collection: str) -> Mark | None:
        key = mark_key(scope, collection)
        b = self.backend
        found = b._call(lambda t: b.client.get(index=b.alias(scope), id=key, routing=key, realtime=True,
                                               request_timeout=t), ok={404})
        if not found or not found.get("found"):
            return None
        src = found["_source"]
        return Mark(str(src.get("digest", "")), int(src.get("sections", 0)), int(src.get("high", 0)),
                    int(found["_seq_no"]), int(found["_primary_term"]))

    def remove(self, scope: str, collection: str) -> None:
        """The mark goes with its collection (a delete by id: gone for a real-time GET at once)."""
        key = mark_key(scope, collection)
        b = self.backend
        b._call(lambda t: b.client.delete(index=b.alias(scope), id=key, routing=key, request_timeout=t), ok={404})

    def _put(self, scope: str, collection: str, base: Mark | None, open_: int, since: int) -> Mark | None:
        """Write the mark `open_` (open without a break since `since`), with a new token, if it is
        still `base` (None: if there is none); None when another writer changed it first."""
        key = mark_key(scope, collection)
        token, at = uuid.uuid4().hex, since
        doc = {"kind": "mark", "scope": scope, "collection": collection, "path": "", "key": key,
               "digest": token, "sections": open_, "high": at, "origin": ""}
        params = ({"op_type": "create"} if base is None
                  else {"if_seq_no": base.seq_no, "if_primary_term": base.primary_term})
        b = self.backend
        done = b._call(lambda t: b.client.index(index=b.alias(scope), id=key, body=doc, routing=key,
                                                request_timeout=t, **params), ok={409})
        if done is None:
            return None
        return Mark(token, open_, at, int(done["_seq_no"]), int(done["_primary_term"]))

    def _change(self, scope: str, collection: str, base: Mark | None, step: int) -> tuple[Mark, bool]:
        """Move the open count by `step` from the state `base` the caller trusts, else from
        whatever the mark holds: (the new state, whether it went from `base` itself)."""
        if base is not None:
            new = max(0, base.open + step)
            done = self._put(scope, collection, base, new, base.at if new and base.open else minutes())
            if done is not None:
                return done, True
        for _ in range(CAS_TRIES):
            now = self.read(scope, collection)
            count = 0 if now is None else now.open
            if now is not None and step > 0 and count and minutes() - now.at > STALE_MINUTES:
                count = 0  # open without a break for over an hour: a killed writer's count
            new = max(0, count + step)
            since = now.at if now is not None and new and count else minutes()
            done = self._put(scope, collection, now, new, since)
            if done is not None:
                return done, False
        raise BackendError(f"the change mark of collection {collection!r} of scope {scope!r} kept changing under "
                           f"{CAS_TRIES} tries; run the refresh again")

    def open(self, scope: str, collection: str, trusted: Mark | None) -> tuple[Mark, bool]:
        """Before a commit's first write: (the open state, whether it opened from `trusted`,
        which must be closed with nobody else's writes in between)."""
        return self._change(scope, collection, trusted if trusted is not None and trusted.closed else None, +1)

    def close(self, scope: str, collection: str, mine: Mark, chain: bool) -> Mark | None:
        """After a commit's last write: the closed state when the whole commit went from a
        trusted state to this one with no other writer in between (a state to trust), else None."""
        done, clean = self._change(scope, collection, mine, -1)
        return done if chain and clean and done.closed else None


class TrustFile:
    """The trusted mark of each collection this data folder refreshes, kept between runs beside
    the manifests (`layout.marks_path`), keyed by cluster, index prefix, scope and collection."""

    def __init__(self, path: str, url: str, index: str) -> None:
        self.path = path
        self.prefix = f"{url}\x1f{index}\x1f"
        self.entries: dict[str, dict] = self._load()

    def _load(self) -> dict[str, dict]:
        from ...base import jsonio

        try:
            data = jsonio.read(self.path)
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, scope: str, collection: str) -> tuple[Mark, float] | None:
        """The trusted state and when the records were last read in full, if still trusted."""
        row = self.entries.get(f"{self.prefix}{scope}\x1f{collection}")
        if not isinstance(row, dict):
            return None
        try:
            mark = Mark(str(row["token"]), 0, 0, int(row["seq_no"]), int(row["primary_term"]))
            read_at = float(row["read_at"])
        except (TypeError, KeyError, ValueError):
            return None
        return (mark, read_at) if 0 <= time.time() - read_at < TRUST_SECONDS else None

    def save(self, states: dict[tuple[str, str], tuple[Mark, float] | None]) -> None:
        """Record `states` (None: trust nothing for that collection) and write the file atomically."""
        from ...base import jsonio
        from ...base.writes import atomic_write

        if not states:
            return
        for (scope, collection), state in states.items():
            name = f"{self.prefix}{scope}\x1f{collection}"
            if state is None:
                self.entries.pop(name, None)
            else:
                mark, read_at = state
                self.entries[name] = {"token": mark.token, "seq_no": mark.seq_no,
                                      "primary_term": mark.primary_term, "read_at": read_at}
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        atomic_write(self.path, jsonio.dumps(self.entries))
