"""A refresh's hold on the local index, without Tantivy until something is written.

A refresh that finds nothing changed (what a timer runs every minute) takes the lock, asks
how many sections the index holds, scans and stops. Importing Tantivy and opening the index
for that cost more than the rest of it, so:
- `Writer` takes the lock at once and opens Tantivy's writer (importing `index`) on the
  first write verb;
- `inspect` answers from the seal when it can: the (problem, count) a full `index.inspect`
  found, kept beside the stat signature of every file of the Tantivy folder. Any change to
  the folder (a commit, a merge, a file removed, truncated, replaced or added) voids it, and
  the next refresh inspects the index again.
"""

from __future__ import annotations

import os
import time

from ...base.errors import DataFolderError, IndexBusyError, IndexCorruptError, disk_full, is_disk_full
from ...base.fsutil import unusable_path
from ...base.writes import FileLock
from ...base.layout import lock_path, tantivy_dir, version_dir
from .seal import SEAL_NAME as _SEAL_NAME, SEAL_VERSION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Self

    import tantivy

    from .index import Prepared


class Writer:
    """One refresh's exclusive hold on the index: our file lock, then Tantivy's writer.

    The file lock (in the version folder) also guards the manifests, so everything a refresh
    writes happens under one lock. Tantivy's writer is opened on the first change, so a
    refresh that finds nothing to do never pays for it (nor for importing Tantivy). Nothing
    is visible to searches before `commit`.
    """

    def __init__(self, data_dir: str, timeout: float) -> None:
        self.data_dir = data_dir
        self.timeout = timeout
        self.lock = FileLock(lock_path(data_dir), timeout)
        self.index: tantivy.Index | None = None
        self.writer: tantivy.IndexWriter | None = None
        self.created = False

    def __enter__(self) -> Self:
        try:
            acquired = self.lock.acquire()
        except OSError as exc:
            raise DataFolderError(unusable_path(lock_path(self.data_dir), exc)) from None
        if not acquired:
            raise IndexBusyError(
                f"another qmem refresh holds the index ({version_dir(self.data_dir)}) "
                f"for over {self.timeout:g}s; try again later"
            )
        self.created = not os.path.exists(os.path.join(tantivy_dir(self.data_dir), "meta.json"))
        return self

    def reset(self) -> None:
        """Start the index afresh (under the lock): the old one was damaged or stale."""
        from .index import reset

        self.writer = None
        self.index = None
        reset(self.data_dir)
        self.created = True

    def _open(self) -> tantivy.IndexWriter:
        if self.writer is not None:
            return self.writer
        from . import index
        from .searcher import register

        path = tantivy_dir(self.data_dir)
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as exc:
            raise DataFolderError(unusable_path(path, exc)) from None
        tantivy = index.tantivy
        try:
            if os.path.exists(os.path.join(path, "meta.json")):
                self.index = tantivy.Index.open(path)
            else:
                self.index = tantivy.Index(index.build_schema(), path=path)
        except Exception as exc:  # damaged meta.json or segment files: the caller rebuilds
            if is_disk_full(exc):
                raise disk_full(exc, f"the index in {path}") from None
            raise IndexCorruptError(f"the index in {path} is damaged ({index.reason(exc)})") from None
        register(self.index)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                self.writer = self.index.writer(index.WRITER_HEAP, index.WRITER_THREADS)
                _collect_orphans(self.writer)
                return self.writer
            except ValueError as exc:  # LockBusy: a writer outside our lock protocol
                if "LockBusy" not in str(exc) or time.monotonic() >= deadline:
                    raise IndexBusyError(f"the index writer is busy: {exc}") from None
                time.sleep(0.1)

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if self.writer is not None and exc_type is not None:
                try:
                    self.writer.rollback()
                except Exception:
                    pass
            self.writer = None  # dropping it releases Tantivy's lock
            self.index = None
        finally:
            self.lock.release()

    # -- the engine-neutral verbs -------------------------------------------------------
    def delete_file(self, collection: str, path: str) -> None:
        from .index import doc_key

        self._open().delete_documents_by_term("key", doc_key(collection, path))

    def delete_collection(self, collection: str) -> None:
        self._open().delete_documents_by_term("collection", collection)

    def add_sections(self, collection: str, path: str, sections: list) -> None:
        from .index import prepare

        self.add_prepared(collection, path, prepare(collection, path, sections))

    def add_prepared(self, collection: str, path: str, prepared: list[Prepared]) -> None:
        from .index import doc_key, tantivy

        add = self._open().add_document
        key = doc_key(collection, path)
        Document = tantivy.Document
        for heading, body, types, date, expires, meta in prepared:
            doc = Document()
            doc.add_text("key", key)
            doc.add_text("collection", collection)
            doc.add_text("path", path)
            doc.add_text("heading", heading)
            doc.add_text("body", body)
            for t in types:
                doc.add_text("types", t)
            doc.add_unsigned("date", date)
            doc.add_unsigned("expires", expires)
            doc.add_bytes("meta", meta)
            add(doc)

    def replace_prepared(self, collection: str, path: str, prepared: list[Prepared]) -> None:
        self.delete_file(collection, path)
        self.add_prepared(collection, path, prepared)

    def replace_file(self, collection: str, path: str, sections: list) -> None:
        self.delete_file(collection, path)
        self.add_sections(collection, path, sections)

    def commit(self) -> None:
        try:
            self._open().commit()
        except ValueError as exc:  # a file in the way that `_collect_orphans` could not remove
            if is_disk_full(exc):  # rolled back on the way out: the last commit stays what searches see
                raise disk_full(exc, f"the index in {tantivy_dir(self.data_dir)}") from None
            if "FileAlreadyExists" not in str(exc):
                raise
            from .index import reason

            raise IndexCorruptError(f"the index in {tantivy_dir(self.data_dir)} holds a file a killed writer "
                                    f"left ({reason(exc)})") from None

    def finish(self) -> None:
        """Let background merges end so the next search opens few segments."""
        if self.writer is not None:
            self.writer.wait_merging_threads()
            self.writer = None


def _collect_orphans(writer: tantivy.IndexWriter) -> None:
    """Remove the files a writer killed mid-commit left behind (Tantivy registers a file
    before writing it, so it knows them: in its list, in no meta.json). A segment's delete
    file is named by the commit's opstamp, and a refresh that repeats the dead one's
    operations from the same meta.json reaches the same opstamp: its commit would find the
    file there and fail (FileAlreadyExists) on every refresh. Tantivy collects these only
    after a commit. Unlinking a file a search still reads is safe on POSIX (the search keeps
    its open copy), as after any of Tantivy's own merges."""
    try:
        writer.garbage_collect_files()
    except Exception:  # a cleanup: the commit reports any real problem
        pass


def inspect(data_dir: str) -> tuple[str | None, int]:
    """`index.inspect` (why the index is unusable or None, how many documents it holds, -1
    when unknown), from the seal when the Tantivy folder is exactly as it was when the seal
    was made; else inspected, each segment file the seal did not vouch for checked against
    its checksum (what its commit wrote: bytes garbled in place, a file swapped), and sealed
    when found whole. Call it under the write lock: a folder that changes while it is
    inspected must not be sealed."""
    import marshal

    from ...base.writes import atomic_write

    signature = _signature(tantivy_dir(data_dir))
    seal_path = os.path.join(version_dir(data_dir), _SEAL_NAME)
    verified: dict = {}
    if signature:
        try:
            with open(seal_path, "rb") as handle:
                version, sealed, docs, verified = marshal.loads(handle.read())
            if version == SEAL_VERSION and type(verified) is dict and sealed == signature and type(docs) is int \
                    and docs >= 0:
                return None, docs
        except (OSError, ValueError, EOFError, TypeError):
            verified = {}  # none, damaged or another version's: inspect, read every file
    from . import index

    problem, docs = index.inspect(data_dir)
    if problem is None and docs >= 0:
        problem, verified = index.verify_checksums(data_dir, verified if type(verified) is dict else {})
        if problem:
            docs = -1
    if problem is None and docs >= 0 and signature and _signature(tantivy_dir(data_dir)) == signature:
        try:
            atomic_write(seal_path, marshal.dumps((SEAL_VERSION, signature, docs, verified)))
        except OSError:
            pass  # a cache: the next refresh inspects again
    return problem, docs


def _signature(folder: str) -> tuple:
    """(name, size, mtime, ctime, inode) of every file of the Tantivy folder but its lock
    files, in name order; empty when there is no index to vouch for."""
    try:
        names = sorted(n for n in os.listdir(folder) if not (n.startswith(".tantivy-") and n.endswith(".lock")))
        if "meta.json" not in names:
            return ()
        stats = [os.stat(os.path.join(folder, n)) for n in names]
    except OSError:
        return ()
    return tuple((n, s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino) for n, s in zip(names, stats))
