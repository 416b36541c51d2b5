"""Typed errors: the library raises these; `failure` says what any failure becomes in a face
(the error ladder every face climbs: the CLI, qmem-qmd and the MCP server)."""

from __future__ import annotations

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_BUSY = 75  # sysexits EX_TEMPFAIL: "try again later"
EXIT_UNAVAILABLE = 69  # sysexits EX_UNAVAILABLE: the search cluster stayed unreachable
EXIT_REMOTE = 76  # sysexits EX_PROTOCOL: the search cluster refused a request
EXIT_IOERR = 74  # sysexits EX_IOERR: a write failed (the disk is full); nothing was half-written
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
DEBUG_HINT = " (QMEM_DEBUG=1 shows the traceback)"


class QmemError(Exception):
    """An expected failure with a message fit for one line on stderr."""

    exit_code = EXIT_USAGE


class ConfigError(QmemError):
    """The config file is unreadable or invalid; the message names the file and the key."""


class NotFoundError(QmemError):
    """A collection, file or anchor does not exist; the message names the closest matches."""


class UnsafePathError(QmemError):
    """A path points outside every collection root (traversal, absolute path, symlink)."""


class BadInputError(QmemError):
    """An argument has the wrong shape (a date, a line window, a glob)."""


class ExtraMissingError(BadInputError, ImportError):
    """An optional extra is not installed; the message names the `pip install` that adds it.
    Also an ImportError, so code that falls back when a tier is missing still does."""


class IndexBusyError(QmemError):
    """Another process holds the index writer for longer than we were willing to wait."""

    exit_code = EXIT_BUSY


class IndexMissingError(QmemError):
    """No index has been built yet for the configured collections."""


class BackendError(QmemError):
    """A search cluster refused a request for a reason retrying will not fix (mapping, auth)."""

    exit_code = EXIT_REMOTE
    status: int | None = None  # the HTTP status of the refusal, when the cluster gave one


class BackendUnavailableError(QmemError):
    """A search cluster stayed unreachable through every retry; the next refresh converges."""

    exit_code = EXIT_UNAVAILABLE


class DiskFullError(QmemError):
    """A write ran out of space (ENOSPC, EDQUOT): what the writer meant to change was rolled
    back or never replaced, so nothing is lost and nothing is half-written."""

    exit_code = EXIT_IOERR


_FULL_TEXTS = ("No space left on device", "Disk quota exceeded", "os error 28", "os error 122")


def is_disk_full(exc: BaseException) -> bool:
    """True for an OSError of a full disk or quota, and for an engine error that carries one
    (Tantivy reports its I/O errors as a ValueError whose text names the OS error)."""
    if isinstance(exc, DiskFullError):
        return True
    if isinstance(exc, OSError):
        import errno

        return exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
    return isinstance(exc, ValueError) and any(t in str(exc) for t in _FULL_TEXTS)


def disk_full(exc: BaseException, what: str = "") -> DiskFullError:
    """The one-line typed error for a full disk met while writing `what` (a path or a task)."""
    if isinstance(exc, DiskFullError):
        return exc
    where = f" while writing {what}" if what else ""
    return DiskFullError(f"disk full{where}: nothing was half-written; free some space and run it again")


def is_engine_panic(exc: BaseException) -> bool:
    """A Rust panic raised through the engine's bindings (pyo3's PanicException derives from
    BaseException, so `except Exception` misses it): faces catch it as an internal error."""
    return type(exc).__name__ == "PanicException"


def brief(text: str, limit: int = 80) -> str:
    """`text` as a message quotes it (repr), cut to about `limit` characters: an error line
    never echoes a 120 KB query."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"… ({len(text)} characters)"


def internal_message(exc: BaseException) -> str:
    """The one line an unexpected failure is reported with."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    kind = "engine panic" if is_engine_panic(exc) else type(exc).__name__
    return f"internal error: {kind}: {text}" if text else f"internal error: {kind}"


def failure(exc: BaseException) -> tuple[str, int] | None:
    """The rung of the error ladder `exc` lands on: (the one line to show, empty for none; the
    exit code), or None when it must propagate.
    - a typed error: its message and exit code;
    - Ctrl-C: "interrupted", 130;
    - a closed pipe (`qmem search x | head -1`): nothing, 0;
    - a full disk met untyped (in the engine, a library): the DiskFullError line, 74;
    - any other Exception, or a Rust panic from the engine (pyo3's PanicException is a
      BaseException): "internal error: KIND: first line (QMEM_DEBUG=1 shows the traceback)", 1;
      with QMEM_DEBUG set it propagates, traceback and all;
    - anything else (SystemExit, GeneratorExit) propagates."""
    if isinstance(exc, QmemError):
        return str(exc), exc.exit_code
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted", EXIT_INTERRUPTED
    if isinstance(exc, BrokenPipeError):
        return "", EXIT_OK
    if isinstance(exc, Exception) and is_disk_full(exc):  # met below the writers that type it
        full = disk_full(exc)
        return str(full), full.exit_code
    import os

    if not (isinstance(exc, Exception) or is_engine_panic(exc)) or os.environ.get("QMEM_DEBUG"):
        return None
    return internal_message(exc) + DEBUG_HINT, EXIT_INTERNAL


def non_utf8_argument(argv: list[str]) -> str | None:
    """The first command-line argument that is not valid UTF-8 (Python keeps such bytes as
    lone surrogates, which nothing downstream can encode), shown escaped; None when all are."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return ascii(arg)
    return None


class IndexCorruptError(QmemError):
    """The index folder exists but cannot be read (a cache: rebuilding it from the Markdown fixes it)."""


class DataFolderError(QmemError):
    """The data folder cannot be used (a file where a folder should be, a folder where the lock
    file should be); the message names exactly what to remove."""
