"""A big refresh's reading, parsing and tokenizing spread over worker processes.

Tantivy indexes on its own threads, but everything before it is Python: reading and hashing
a file, parsing its Markdown, making each section's terms and stored meta — about two thirds
of a full build's CPU, all of it under one GIL. Worker processes do that part for chunks of
files while the main process only hands finished documents to Tantivy, so a build uses every
core. Results come back in file order, so the index is the same as a one-process build's.

Workers start from a fork server (a fresh interpreter that imports this module once, then
forks): forking the main process itself would copy Tantivy's running indexing threads' locks.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator

from .scan import FileInfo

# Below this much work a pool costs more than it saves (a worker takes ~0.1 s to start).
MIN_FILES = 200
MIN_BYTES = 2 * 1024 * 1024
CHUNK_FILES = 32
IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: enough to never starve, bounded memory

# One work item: (relative path, absolute path, size, the manifest's digest or "").
Item = tuple[str, str, int, str]
# One result: (digest, problem or "", prepared sections or None when unchanged/unreadable).
Result = tuple[str, str, "list | None"]


def worker_count(files: list[FileInfo]) -> int:
    """How many worker processes a refresh of `files` should use: 0 means do it in-process.
    `QMEM_WORKERS` overrides (0 turns workers off)."""
    wanted = os.environ.get("QMEM_WORKERS", "").strip()
    if wanted.isdigit():
        count = int(wanted)
    else:
        try:
            count = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            count = os.cpu_count() or 1
        count = 0 if count < 2 else min(count, 8)
        if len(files) < MIN_FILES or sum(f.size for f in files) < MIN_BYTES:
            count = 0
    return count


def prepare_chunk(collection: str, items: list[Item]) -> list[Result]:
    """Read, hash and (when the digest changed) parse and prepare each file of a chunk."""
    from .index import prepare
    from .reading import read_sections

    out: list[Result] = []
    for rel, abs_path, size, old_digest in items:
        read = read_sections(FileInfo(rel, abs_path, size, 0))
        if read.problem or read.digest == old_digest:
            out.append((read.digest, read.problem, None))
        else:
            out.append((read.digest, "", prepare(collection, rel, read.sections or [])))
    return out


def prepared(collection: str, items: list[Item], workers: int) -> Iterator[Result]:
    """`prepare_chunk`'s results for every item, in order, computed by `workers` processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["qmem.parallel", "qmem.index", "qmem.reading"])
    chunks = [items[i:i + CHUNK_FILES] for i in range(0, len(items), CHUNK_FILES)]
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            pending: deque = deque()
            ahead = workers * IN_FLIGHT_PER_WORKER
            for chunk in chunks:
                pending.append(pool.submit(prepare_chunk, collection, chunk))
                if len(pending) >= ahead:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
    finally:
        _stop_fork_server()


def _stop_fork_server() -> None:
    """End the fork server and wait for it, so its workers' CPU time is counted in this
    process's children (what `time` and benchmarks read) and no process outlives the refresh."""
    from multiprocessing import forkserver

    stop = getattr(forkserver._forkserver, "_stop", None)  # CPython 3.8+
    if stop is not None:
        stop()
