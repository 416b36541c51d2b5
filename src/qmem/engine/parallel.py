"""A big refresh's reading, parsing and tokenizing spread over worker processes.

Tantivy indexes on its own threads, but everything before it is Python: reading and hashing
a file, parsing its Markdown, making each section's terms and stored meta — about two thirds
of a full build's CPU, all of it under one GIL. Worker processes do that part for chunks of
files while the main process only hands finished documents to the index, so a build uses
every core. Results come back in file order, so the index is the same as a one-process
build's. What a worker makes of a file's sections is the backend's business: the writer
names its `preparer` ("module:function"), which workers import and call; this module knows
no engine.

Workers are plain `python -m qmem.engine.parallel` children talking marshalled frames over their
stdin/stdout, not `multiprocessing`: that would re-run the caller's main script in each
worker (a library caller's unguarded script, a notebook) or fork Tantivy's running threads.
A worker that fails or dies is not fatal: what it had not done is done here.
"""

from __future__ import annotations

import os
import marshal
import struct
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator

from .scan import FileInfo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

# Below this much work a pool costs more than it saves (a worker takes ~0.1 s to start).
MIN_FILES = 200
MIN_BYTES = 2 * 1024 * 1024
CHUNK_FILES = 32
# A chunk's request stays small and few are queued per worker, so the main process never
# blocks writing to a worker that is itself blocked writing results back (pipes hold 64 KiB).
CHUNK_REQUEST_BYTES = 8192
IN_FLIGHT_PER_WORKER = 3
STOP_WAIT = 5.0  # seconds a worker has to exit once its input is closed; then it is killed

# One work item: (relative path, absolute path, size, the manifest's digest or "").
Item = tuple[str, str, int, str]
# One result: (digest, problem or "", prepared sections or None when unchanged/unreadable).
Result = tuple[str, str, "list | None"]
# What goes over a worker's pipes: a request (preparer, collection, chunk), or its results.
Request = tuple[str, str, list[Item]]
Frame = Request | list[Result]
_FRAME = struct.Struct("<Q")
FRAME_MARSHAL = 4
_MAX_FRAME = 1 << 30


def worker_count(files: list[FileInfo]) -> int:
    """How many worker processes a refresh of `files` should use: 0 means do it in-process.
    `QMEM_WORKERS` overrides (0 turns workers off)."""
    if not sys.executable:  # an embedded interpreter: no Python to start workers with
        return 0
    wanted = os.environ.get("QMEM_WORKERS", "").strip()
    if wanted.isdigit():
        return min(int(wanted), 32)
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    if count < 2 or len(files) < MIN_FILES or sum(f.size for f in files) < MIN_BYTES:
        return 0
    return min(count, 8)


def preparer_function(preparer: str) -> Callable[[str, str, list], list]:
    """The function a writer's `preparer` ("package.module:function") names."""
    module, _, name = preparer.partition(":")
    return getattr(__import__(module, fromlist=[name]), name)


def prepare_chunk(preparer: str, collection: str, items: list[Item]) -> list[Result]:
    """Read, hash and (when the digest changed) parse and prepare each file of a chunk."""
    from .reading import read_sections

    prepare = preparer_function(preparer)
    out: list[Result] = []
    for rel, abs_path, size, old_digest in items:
        read = read_sections(FileInfo(rel, abs_path, size, 0))
        if read.problem or read.digest == old_digest:
            out.append((read.digest, read.problem, None))
        else:
            out.append((read.digest, "", prepare(collection, rel, read.sections or [])))
    return out


def _chunks(items: list[Item]) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    size = 0
    for item in items:
        cost = len(item[0]) + len(item[1]) + len(item[3]) + 32
        if chunk and (len(chunk) >= CHUNK_FILES or size + cost > CHUNK_REQUEST_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append(item)
        size += cost
    if chunk:
        yield chunk


def _encode(value: Frame) -> bytes:
    """A frame's bytes. Everything sent is tuples, lists, str, int and bytes, which `marshal`
    writes ~2x faster than pickle and reads ~25% faster (main-process time; both sides are
    the same Python, which is all marshal asks)."""
    return marshal.dumps(value, FRAME_MARSHAL)


def _decode(data: bytes) -> object:
    return marshal.loads(data)


def _send(stream: IO[bytes], value: Frame) -> None:
    data = _encode(value)
    stream.write(_FRAME.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> object:
    head = stream.read(_FRAME.size)
    if len(head) != _FRAME.size:
        raise EOFError("worker closed its pipe")
    (length,) = _FRAME.unpack(head)
    if length > _MAX_FRAME:
        raise EOFError("worker sent a frame too large to be ours")
    data = stream.read(length)
    if len(data) != length:
        raise EOFError("worker closed its pipe")
    return _decode(data)


def prepared(collection: str, items: list[Item], workers: int, preparer: str) -> Generator[Result, None, None]:
    """`prepare_chunk`'s results for every item, in order, computed by `workers` processes
    (or here, from the first chunk a worker failed on) with the writer's `preparer`."""
    chunks = list(_chunks(items))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(min(workers, len(chunks))):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "qmem.engine.parallel"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}))
    except OSError:
        pass  # no worker could start: all of it is done here
    sent: deque[tuple[int, subprocess.Popen[bytes]]] = deque()
    next_chunk = 0
    broken = not procs

    def top_up() -> None:
        nonlocal next_chunk
        while not broken and next_chunk < len(chunks) and len(sent) < len(procs) * IN_FLIGHT_PER_WORKER:
            proc = procs[next_chunk % len(procs)]
            assert proc.stdin is not None  # every worker starts with stdin=PIPE
            _send(proc.stdin, (preparer, collection, chunks[next_chunk]))
            sent.append((next_chunk, proc))
            next_chunk += 1

    try:
        for number, chunk in enumerate(chunks):
            results: list[Result] | None = None
            if not broken:
                try:
                    top_up()
                    done, proc = sent.popleft()
                    assert proc.stdout is not None  # and stdout=PIPE
                    received = _receive(proc.stdout)
                    if not isinstance(received, list) or len(received) != len(chunk) or done != number:
                        raise EOFError("worker answered out of step")
                    results = received
                except Exception:  # whatever a worker did, the main process does the rest
                    broken = True
                    results = None
            if results is None:
                results = prepare_chunk(preparer, collection, chunk)
            yield from results
    finally:
        _stop(procs)


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Close the workers' input (they exit on end of input) and wait for them, so their CPU
    time counts in this process's children and none outlives the refresh."""
    for proc in procs:
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
    for proc in procs:
        try:
            proc.wait(timeout=STOP_WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


def _serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """A worker: answer each (preparer, collection, chunk) request with its results until end of input."""
    import gc

    gc.disable()  # short-lived and acyclic: the collector would only cost time
    while True:
        try:
            request = _receive(stdin)
        except EOFError:
            return
        if not isinstance(request, tuple) or len(request) != 3:
            raise EOFError("the parent sent something that is not a request")  # the parent does the rest
        preparer, collection, chunk = request
        _send(stdout, prepare_chunk(preparer, collection, chunk))


if __name__ == "__main__":
    try:
        # fds 0 and 1 are the pipes the parent made (`prepared`), not a terminal
        _serve(open(0, "rb", closefd=False), open(1, "wb", closefd=False))
    except (Exception, KeyboardInterrupt):  # the parent sees the closed pipe and does the rest itself
        os._exit(1)
