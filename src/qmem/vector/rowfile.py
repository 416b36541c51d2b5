"""rows-<n>.bin: what each row of a stored matrix is (the section's key, place, lines, types,
date), laid out so a query reads only the rows of its hits.

A cold `qmem query` is one process for one question. The rows were one JSON array
(rows-<n>.json), parsed whole by every query: ~1,100M instructions at 100k sections, three
quarters of the query, for the ~50 rows it uses. This file is memory-mapped instead, and a row
is found by its number:

    header   32 bytes: b"QMEMROWS", version (u32), 0 (u32), rows (u64), text bytes (u64)
    table    64 bytes a row: body_hash (u64), date, line_start, line_end, body_line (i64),
             where the row's text starts (u64), the UTF-8 lengths of key, path, anchor and
             heading (u32)
    text     each row's key, path, anchor, heading and types (joined by \\x1f) back to back;
             a row's types end where the next row's text starts

Everything little-endian. The size is checked against the header on open and every row's
text against the table on read, so a file cut short or overwritten reads as `Damaged` (a
ValueError), never as wrong rows.
"""

from __future__ import annotations

import struct

from ..base.errors import QmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import mmap
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from typing import Any

MAGIC = b"QMEMROWS"
VERSION = 1
HEADER = struct.Struct("<8sIIQQ")
ROW = struct.Struct("<QqqqqQIIII")
_TYPES_SEP = "\x1f"


class Damaged(QmemError, ValueError):
    """The rows file is not one this version wrote whole (a new `qmem embed` writes it again;
    not the BM25 index's IndexCorruptError, which would rebuild the index)."""


def encode(rows: Iterable[Mapping[str, Any]]) -> bytes:
    """The file's bytes for `rows` (records with the fields of store.SectionRow; KeyError,
    TypeError or struct.error for a record without them)."""
    table: list[bytes] = []
    text: list[bytes] = []
    at = 0
    for row in rows:
        parts = [str(row["key"]).encode("utf-8"), str(row["path"]).encode("utf-8"),
                 str(row["anchor"]).encode("utf-8"), str(row["heading"]).encode("utf-8")]
        types = _TYPES_SEP.join(row.get("types", [])).encode("utf-8")
        table.append(ROW.pack(row["body_hash"], row["date"], row["line_start"], row["line_end"], row["body_line"],
                              at, *map(len, parts)))
        text.extend(parts)
        text.append(types)
        at += sum(map(len, parts)) + len(types)
    return HEADER.pack(MAGIC, VERSION, 0, len(table), at) + b"".join(table) + b"".join(text)


class Rows:
    """The rows of a rows file as a read-only sequence of dicts, each decoded when asked for.
    `data`: the file's bytes (an mmap, or bytes)."""

    __slots__ = ("_data", "_count", "_text", "_size", "_name")

    def __init__(self, data: mmap.mmap | bytes, name: str = "rows") -> None:
        view = memoryview(data)
        if view.nbytes < HEADER.size:
            raise Damaged(f"{name}: {view.nbytes} bytes, shorter than its header")
        magic, version, _, count, text = HEADER.unpack_from(view)
        if magic != MAGIC:
            raise Damaged(f"{name}: not a qmem rows file")
        if version != VERSION:
            raise Damaged(f"{name}: rows file version {version}, this qmem reads {VERSION}")
        start = HEADER.size + ROW.size * count
        if view.nbytes != start + text:
            raise Damaged(f"{name}: {view.nbytes} bytes where its header says {start + text} (cut short?)")
        self._data, self._count, self._text, self._size, self._name = view, count, start, text, name

    def __len__(self) -> int:
        return self._count

    def _entry(self, i: int) -> tuple:
        if not 0 <= i < self._count:
            raise IndexError(i)
        return ROW.unpack_from(self._data, HEADER.size + ROW.size * i)

    def _end(self, i: int) -> int:
        """Where row i's text ends (where row i + 1's starts)."""
        return self._entry(i + 1)[5] if i + 1 < self._count else self._size

    def __getitem__(self, i: int) -> dict:
        if i < 0:
            i += self._count
        body_hash, date, line_start, line_end, body_line, *_ = entry = self._entry(i)
        key, path, anchor, heading, types = _split(self._raw(i, entry, 0, 5), entry[6:], self._name, i)
        return {"key": key, "path": path, "anchor": anchor, "heading": heading, "line_start": line_start,
                "line_end": line_end, "body_line": body_line, "body_hash": body_hash,
                "types": types.split(_TYPES_SEP) if types else [], "date": date}

    def __iter__(self) -> Iterator[dict]:
        return (self[i] for i in range(self._count))

    def date(self, i: int) -> int:
        return self._entry(i)[1]

    def path(self, i: int) -> str:
        entry = self._entry(i)
        return _split(self._raw(i, entry, 1, 2), (), self._name, i)[0]

    def types(self, i: int) -> list[str]:
        entry = self._entry(i)
        types = _split(self._raw(i, entry, 4, 5), (), self._name, i)[0]
        return types.split(_TYPES_SEP) if types else []

    def keys(self) -> list[str]:
        """Every row's key, in row order (without decoding the rest)."""
        return [_split(self._raw(i, entry, 0, 1), (), self._name, i)[0] for i, entry in
                ((i, self._entry(i)) for i in range(self._count))]

    def _raw(self, i: int, entry: tuple, first: int, last: int) -> bytes:
        """The bytes of row i's texts first..last - 1 (0 key, 1 path, 2 anchor, 3 heading, 4 types)."""
        at, lengths = entry[5], entry[6:]
        end = self._end(i)
        if not at + sum(lengths) <= end <= self._size:
            raise Damaged(f"{self._name} row {i}: its text runs outside the file")
        begin = at + sum(lengths[:first])
        stop = at + sum(lengths[:last]) if last < 5 else end
        return bytes(self._data[self._text + begin:self._text + stop])


def _split(raw: bytes, lengths: Sequence[int], name: str, i: int) -> list[str]:
    """`raw` cut at `lengths` (the rest after them one more piece), each decoded."""
    out, at = [], 0
    try:
        for length in lengths:
            out.append(raw[at:at + length].decode("utf-8"))
            at += length
        out.append(raw[at:].decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise Damaged(f"{name} row {i}: not UTF-8 ({exc})") from None
    return out
