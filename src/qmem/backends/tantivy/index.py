"""The local index's schema and its health: the fields, what a section becomes before it is
indexed (`prepare`, which worker processes run too), the cheap and the full checks of a
folder, and its removal. The refresh's writer is `writer.py` (it imports this module on its
first write); searches use `searcher.py` and import this module only to probe a damaged index.

The schema version is part of the folder name (`base.layout`), so a schema change builds a
fresh index beside the old one instead of failing to open it.
"""

from __future__ import annotations

import marshal
import os
import time

import tantivy

from ...base.errors import DataFolderError
from ...base.layout import tantivy_dir
from ...text import analysis
from ...text.record import FIELDS, body_hash

# A writer's heap is split between its threads (tantivy wants >= 15 MB each), and each thread
# writes a segment when its share is full. One thread with the whole heap writes segments of
# ~245k sections, so a build of a million makes 5 and Tantivy merges none (its log merge policy
# waits for 8 of a size): merging 8 segments of two threads' ~94k maps every input file, which
# took a 1M-section build from ~250 MB to 456 MB peak RSS. Build CPU is the same (measured at
# 300k sections: 14.4 s in the main process either way); the Python workers, not Tantivy's
# thread, bound a build on 2 cores.
WRITER_HEAP = 96_000_000
WRITER_THREADS = 1
_KEY_SEP = "\x1f"


# The fields `build_schema` declares: a meta.json with other fields belongs to something else.
FIELD_NAMES = frozenset({"key", "collection", "path", "heading", "body", "types", "date", "expires", "meta"})
_SEGMENT_FILES = (".store", ".term", ".idx", ".pos", ".fast", ".fieldnorm")


def check(data_dir: str) -> str | None:
    """Why the index folder cannot be used, found cheaply (meta.json and the files it names);
    None when it looks whole or does not exist yet. Truncated segment files pass this check:
    `probe` opens them; garbled ones `verify_checksums` finds."""
    problem, names = segment_files(data_dir)
    if problem:
        return problem
    path = tantivy_dir(data_dir)
    for name in names:
        if not os.path.isfile(os.path.join(path, name)):
            return f"segment file {name} is missing"
    return None


def segment_files(data_dir: str) -> tuple[str | None, list[str]]:
    """(why meta.json is unusable or None, the segment files it names); (None, []) when there
    is no index yet."""
    from ...base import jsonio  # here only: a search and a sealed no-op refresh import no JSON library

    path = tantivy_dir(data_dir)
    try:
        with open(os.path.join(path, "meta.json"), "rb") as handle:
            raw = handle.read()
    except (FileNotFoundError, NotADirectoryError):
        return None, []  # not built yet (a data folder that is a file is reported by the writer)
    except OSError as exc:
        return f"meta.json cannot be read ({exc.strerror})", []
    if not raw.strip():
        return "meta.json is empty", []
    try:
        meta = jsonio.loads(raw)
        fields = {f["name"] for f in meta["schema"]}
        segments = [(s["segment_id"].replace("-", ""), (s.get("deletes") or {}).get("opstamp")) for s in meta["segments"]]
    except (ValueError, KeyError, TypeError, AttributeError):
        return "meta.json is not a Tantivy index description", []
    if fields != FIELD_NAMES:
        return "meta.json describes another index (its fields are not qmem's)", []
    names = []
    for segment, deletes in segments:
        names += [segment + ext for ext in _SEGMENT_FILES] + ([f"{segment}.{deletes}.del"] if deletes is not None else [])
    return None, names


# What each segment file ends with: a JSON footer holding the CRC32 of the bytes before it,
# the footer's length (u32, little-endian) and Tantivy's magic number 1337 (u32).
_FOOTER_MAGIC = 1337
# name → (size, mtime_ns, ctime_ns, inode, crc): a file whose checksum was verified as it was then
Verified = dict[str, tuple[int, int, int, int, int]]


def verify_checksums(data_dir: str, known: Verified | None = None, trust_known: bool = True) -> tuple[str | None, Verified]:
    """Check each segment file of the last commit against the CRC32 its footer holds (what the
    commit wrote): why one does not match, or None, and the files verified. `known` (an
    earlier verification): a file still exactly as it was then is not read again when
    `trust_known`; and a name must keep the checksum it had (segment files are written once:
    another checksum under that name is a file swapped or replaced)."""
    import struct
    import zlib

    known = known or {}
    problem, names = segment_files(data_dir)
    if problem:
        return problem, {}
    path = tantivy_dir(data_dir)
    verified: Verified = {}
    for name in names:
        file = os.path.join(path, name)
        try:
            st = os.stat(file)
            stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
            before = known.get(name)
            if trust_known and before is not None and before[:4] == stamp:
                verified[name] = before
                continue
            with open(file, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            return f"segment file {name} cannot be read ({exc.strerror})", {}
        crc = _footer_crc(data, struct)
        if crc is None:
            return f"segment file {name} has no checksum footer", {}
        if zlib.crc32(memoryview(data)[:len(data) - 8 - struct.unpack_from("<I", data, len(data) - 8)[0]]) != crc:
            return f"segment file {name} does not match its checksum (garbled)", {}
        if before is not None and before[4] != crc:
            return f"segment file {name} is not the one its commit wrote (swapped or replaced)", {}
        verified[name] = (*stamp, crc)
    return None, verified


def _footer_crc(data: bytes, struct) -> int | None:  # the struct module
    from ...base import jsonio

    if len(data) < 8:
        return None
    length, magic = struct.unpack_from("<II", data, len(data) - 8)
    if magic != _FOOTER_MAGIC or length > len(data) - 8:
        return None
    try:
        crc = jsonio.loads(data[len(data) - 8 - length:len(data) - 8])["crc"]
    except (ValueError, KeyError, TypeError):
        return None
    return crc if type(crc) is int else None


def probe(data_dir: str) -> str | None:
    """Like `check`, then open the index and a searcher (Tantivy checks every segment file's
    footer): why the index is unusable, or None."""
    return inspect(data_dir)[0]


def inspect(data_dir: str) -> tuple[str | None, int]:
    """(why the index is unusable or None, how many documents it holds: -1 when unknown)."""
    problem = check(data_dir)
    if problem or not os.path.exists(os.path.join(tantivy_dir(data_dir), "meta.json")):
        return problem, -1
    try:
        index = tantivy.Index.open(tantivy_dir(data_dir))
        return None, index.searcher().num_docs
    except Exception as exc:  # ValueError, or a pyo3 PanicException from a damaged file
        return reason(exc), -1


# Engine errors a search may meet while the index is fine: a refresh in another process
# holds a lock or has just merged a segment away (the next attempt sees its commit).
_PASSING = ("LockBusy", "FileDoesNotExist", "PathDoesNotExist", "No such file", "does not exist")


def damage(data_dir: str, exc: BaseException) -> str | None:
    """Why the index is damaged, once a search failed with `exc` on every attempt: what the
    cheap checks or the checksums find, else the engine's error itself when it is a panic or
    anything but a lock or a missing file (a garbled block, two files swapped). None: not damage."""
    problem = inspect(data_dir)[0] or verify_checksums(data_dir, trust_known=False)[0]
    if problem:
        return problem
    from ...base.errors import is_disk_full, is_engine_panic

    if is_engine_panic(exc) or (isinstance(exc, ValueError) and not is_disk_full(exc)
                                and not any(text in str(exc) for text in _PASSING)):
        return reason(exc)
    return None


def reason(exc: BaseException) -> str:
    text = str(exc).split("\n", 1)[0]
    return f"{type(exc).__name__}: {text[:160]}"


def reset(data_dir: str) -> None:
    """Remove this config's Tantivy folder (a cache) so the next writer creates it afresh."""
    import shutil

    path = tantivy_dir(data_dir)
    for attempt in range(5):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.isdir(path) or os.path.islink(path):
            break
        # A Tantivy thread of a writer just dropped may still create or release a file in
        # the folder (rmtree then fails on a non-empty folder): give it a moment.
        time.sleep(0.05 * (attempt + 1))
    if os.path.lexists(path):  # a file, or something rmtree could not remove
        raise DataFolderError(f"{tantivy_dir(data_dir)} cannot be removed; remove it by hand and run qmem index")


def build_schema() -> tantivy.Schema:
    """Indexed fields for matching and filtering, and one stored `meta` field for display.

    Nothing text-like is stored field by field: per stored field Tantivy's document store
    costs ~2 µs a section, so what a hit shows (path, anchor, heading, lines, dates…) is one
    marshalled tuple (`META_FIELDS`). The body is not stored at all: snippets are read from the file
    itself (the source of truth), checked against `body_hash`. Heading and body are indexed
    as `analysis.index_terms` (the query analyzer's exact tokens, ~4× cheaper to make)."""
    terms = analysis.TERMS_TOKENIZER_NAME
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("key", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("collection", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("path", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("heading", stored=False, tokenizer_name=terms, index_option="position")
    sb.add_text_field("body", stored=False, tokenizer_name=terms, index_option="position")
    sb.add_text_field("types", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_unsigned_field("date", stored=False, indexed=True, fast=True)
    sb.add_unsigned_field("expires", stored=False, indexed=True, fast=True)
    sb.add_bytes_field("meta", stored=True)
    return sb.build()


# What a hit's stored `meta` holds: the values of `text.record.FIELDS`, in that order, as one
# marshalled tuple (`searcher.stored_fields` gives them back as {name: [value]}).
META_FIELDS = FIELDS
# marshal: built in (nothing to import on the search path), ~0.3 µs a hit; format 4 is read
# by every Python since 3.4. The index is a cache: a Python that cannot read it rebuilds it.
META_MARSHAL = 4


# A section ready for the index: (heading terms, body terms, types, date, expires, meta).
Prepared = tuple[str, str, list[str], int, int, bytes]


def prepare(collection: str, path: str, sections: list) -> list[Prepared]:
    """What `Writer.add_prepared` needs of each section: the Python half of indexing, which a
    worker process can do while the main process feeds Tantivy (see `parallel`)."""
    index_terms = analysis.index_terms
    heading_terms = analysis.heading_terms
    dumps = marshal.dumps
    out = []
    for s in sections:
        heading = s.heading
        out.append((heading_terms(heading), index_terms(s.body), s.types, s.date, s.expires, dumps((
            collection, path, s.anchor, heading, body_hash(s.body), s.types, s.line_start, s.line_end,
            s.body_line, s.date, s.expires, s.priority), META_MARSHAL)))
    return out


def doc_key(collection: str, path: str) -> str:
    """The delete key of a file's sections: two collections may share a relative path."""
    return f"{collection}{_KEY_SEP}{path}"
