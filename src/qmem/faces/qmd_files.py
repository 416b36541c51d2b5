"""`qmem-qmd ls` and `qmem-qmd multi-get`: qmd's file listing and batch read, on qmem's collections.

Files are what each collection's patterns select now (the scan a refresh runs), read from
disk like every qmem read: a deleted file is never shown, an edited one shows its text.
"""

from __future__ import annotations

import os
import time

from ..base.config import Config
from ..base.errors import BadInputError, NotFoundError, QmemError
from ..base.fsutil import decode_text, glob_to_regex, read_inside
from ..engine.scan import FileInfo, scan
from .qmd_config import globs

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def files(cfg: Config, names: list[str] | None = None) -> list[tuple[str, FileInfo]]:
    """(collection, file) for every file the collections select, by collection then path."""
    found: list[tuple[str, FileInfo]] = []
    for coll in cfg.select(names):
        if os.path.isdir(coll.path):
            listed, _ = scan(coll.path, coll.patterns, coll.exclude)
            found.extend((coll.name, info) for info in sorted(listed, key=lambda i: i.rel))
    return found


def _split(target: str, cfg: Config) -> tuple[str, str]:
    """`qmd://C/path`, `C/path` or `C` → (collection, path prefix)."""
    rest = target[len("qmd://"):] if target.startswith("qmd://") else target
    name, _, prefix = rest.strip("/").partition("/")
    cfg.collection(name)  # unknown: NotFoundError naming the known ones
    return name, prefix


def ls(cfg: Config, target: str | None) -> str:
    """No target: each collection and its file count. `C[/prefix]`: its files, `ls -l` style
    (size, modified, qmd://C/path), as qmd prints them."""
    if not target:
        if not cfg.collections:
            return "No collections found. Run 'qmem-qmd collection add .' to index files."
        counts: dict[str, int] = {}
        for name, _ in files(cfg):
            counts[name] = counts.get(name, 0) + 1
        rows = [f"  qmd://{name}/  ({counts.get(name, 0)} files)" for name in sorted(cfg.collections)]
        return "Collections:\n\n" + "\n".join(rows)
    name, prefix = _split(target, cfg)
    chosen = [(n, i) for n, i in files(cfg, [name]) if i.rel.startswith(prefix)]
    if not chosen:
        return f"No files found under qmd://{name}/{prefix}" if prefix else f"No files found in collection: {name}"
    sizes = [_size(i.size) for _, i in chosen]
    width = max(map(len, sizes))
    return "\n".join(f"{size.rjust(width)}  {_when(info.mtime_ns)}  qmd://{n}/{info.rel}"
                     for size, (n, info) in zip(sizes, chosen))


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    return f"{n / 1024:.1f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"


def _when(mtime_ns: int) -> str:
    """`ls -l`'s date: `Mar  4 09:15`, or `Mar  4  2025` when older than six months."""
    t = time.localtime(mtime_ns / 1e9)
    head = f"{_MONTHS[t.tm_mon - 1]} {t.tm_mday:2d}"
    old = time.time() - mtime_ns / 1e9 > 180 * 86400
    return f"{head}  {t.tm_year}" if old else f"{head} {t.tm_hour:02d}:{t.tm_min:02d}"


class Document:
    __slots__ = ("file", "title", "body", "skipped")

    def __init__(self, file: str, title: str, body: str, skipped: str = "") -> None:
        self.file, self.title, self.body, self.skipped = file, title, body, skipped

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "title": self.title}
        if self.skipped:
            out.update(skipped=True, reason=self.skipped)
        else:
            out["body"] = self.body
        return out


def multi_get(cfg: Config, pattern: str, max_lines: int | None = None, max_bytes: int = 64 * 1024,
              line_numbers: bool = True) -> list[Document]:
    """qmd's multi-get: a glob (matched against `path`, `C/path` and `qmd://C/path`; `{a,b}` and
    commas as in qmd's masks) or a comma-separated list of paths. A file over `max_bytes` is
    listed as skipped with the command that reads it; `max_lines` cuts each body."""
    import re

    listed = files(cfg)
    if any(ch in pattern for ch in "*?[{") or "," not in pattern:
        rx = re.compile("|".join(f"(?:{glob_to_regex(g)})" for g in globs(pattern)))
        chosen = [(n, i) for n, i in listed
                  if any(rx.fullmatch(k) for k in (i.rel, f"{n}/{i.rel}", f"qmd://{n}/{i.rel}"))]
    else:
        chosen = []
        for name in (p.strip() for p in pattern.split(",") if p.strip()):
            match = next(((n, i) for n, i in listed if name in (i.rel, f"{n}/{i.rel}", f"qmd://{n}/{i.rel}")), None)
            if match is None:
                raise NotFoundError(f"{name}: no such file in any collection")
            chosen.append(match)
    if not chosen:
        raise NotFoundError(f"No files matched pattern: {pattern}")
    docs = []
    for name, info in chosen:
        shown = f"qmd://{name}/{info.rel}"
        if info.size > max_bytes:
            docs.append(Document(shown, info.rel.rsplit("/", 1)[-1], "",
                                 f"File too large ({info.size // 1024}KB > {max_bytes // 1024}KB). "
                                 f"Use 'qmem-qmd get {shown}' to retrieve."))
            continue
        try:
            text = decode_text(read_inside(cfg.collections[name].path, info.abs))
        except (OSError, ValueError, QmemError) as exc:
            docs.append(Document(shown, info.rel, "", f"cannot be read ({exc})"))
            continue
        lines = text.split("\n")
        title = next((line.lstrip("#").strip() for line in lines if line.startswith("#")), info.rel.rsplit("/", 1)[-1])
        body = "\n".join(lines[:max_lines]) if max_lines is not None else text
        if max_lines is not None and len(lines) > max_lines:
            body += f"\n\n[... truncated {len(lines) - max_lines} more lines]"
        if line_numbers:
            body = "\n".join(f"{n}: {line}" for n, line in enumerate(body.split("\n"), 1))
        docs.append(Document(shown, title, body))
    return docs


def documents_text(docs: list[Document]) -> str:
    """qmd's default multi-get output: a ruled header per file, then its body."""
    rule = "=" * 60
    chunks = []
    for doc in docs:
        chunks.append(f"\n{rule}\nFile: {doc.file}\n{rule}\n")
        chunks.append(f"[SKIPPED: {doc.skipped}]" if doc.skipped else doc.body)
    return "\n".join(chunks)


def check_limit(value: int | None, name: str) -> None:
    if value is not None and value < 1:
        raise BadInputError(f"{name} must be at least 1")
