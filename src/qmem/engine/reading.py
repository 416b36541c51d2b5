"""Reading one Markdown file for the index: bytes, hash, text, sections (parsed lazily).

Shared by a one-process refresh (`sync`) and its worker processes (`parallel`)."""

from __future__ import annotations

import os

from ..base.conventions import MAX_FILE_BYTES  # the one limit every reader shares
from .scan import FileInfo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..text.markdown import Section



class FileRead:
    """A file's bytes: their hash and text, or the reason the file is skipped. The sections
    are parsed on first use, so a touched file whose hash did not change is never parsed."""

    __slots__ = ("_sections", "digest", "prepared", "problem", "rel", "text")

    def __init__(self, digest: str, text: str | None, problem: str = "", rel: str = "",
                 prepared: list | None = None) -> None:
        self.digest = digest
        self.text = text
        self.problem = problem
        self.rel = rel
        self._sections: list[Section] | None = None
        self.prepared = prepared  # the sections as a worker prepared them for the index (`parallel`)

    @property
    def sections(self) -> list[Section] | None:
        if self._sections is None and self.text is not None:
            from ..text import markdown  # here: a refresh that parses nothing never imports it

            file_date = markdown.parse_date(os.path.basename(self.rel))
            self._sections = markdown.parse(self.text, file_date)
        return self._sections


def _read(info: FileInfo) -> tuple[bytes | None, str, str]:
    """(bytes or None, their xxh3 hex digest, why the file is refused or "")."""
    if info.size > MAX_FILE_BYTES:
        return None, "", f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, skipped"
    try:
        with open(info.abs, "rb") as handle:
            # The size from the scan, plus one byte to see growth: asking for 16 MiB at
            # once would allocate them for every file (~40 µs each).
            data = handle.read(info.size + 1)
            if len(data) > info.size:
                data += handle.read(MAX_FILE_BYTES + 1 - len(data))
    except OSError as exc:
        return None, "", f"cannot read: {exc.strerror}"
    from xxhash import xxh3_64_hexdigest  # here: a refresh that reads nothing never loads it

    digest = xxh3_64_hexdigest(data)
    if len(data) > MAX_FILE_BYTES:
        return None, digest, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, skipped"
    return data, digest, ""


def file_digest(info: FileInfo) -> str:
    """The file's xxh3 hex digest ("" when it cannot be read): all a touched file costs."""
    return _read(info)[1]


def read_sections(info: FileInfo, known_digest: str = "") -> FileRead:
    """Read and hash one file (sections parsed when asked for); binary, non-UTF-8 and
    oversized files are refused. Bytes whose digest is `known_digest` (what the index holds)
    are not even decoded: the result has the digest and no text."""
    data, digest, problem = _read(info)
    if data is None:
        return FileRead(digest, None, problem)
    if known_digest and digest == known_digest:
        return FileRead(digest, None, rel=info.rel)
    if b"\x00" in data:
        return FileRead(digest, None, "binary (contains NUL bytes), skipped")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return FileRead(digest, None, f"not UTF-8 (byte {exc.start}), skipped")
    return FileRead(digest, text, rel=info.rel)
