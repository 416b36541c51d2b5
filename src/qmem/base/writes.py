"""Writes that never leave a file half-written: atomic replace, appends and rewrites under a
lock, the writers' lock, and file modes kept from the file replaced.

Everything here uses `os` directly (no pathlib, no tempfile): a refresh on the search path
imports it, and each imported module costs start-up time.
"""

from __future__ import annotations

import errno
import os
import stat
import time

from .errors import disk_full, is_disk_full

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

def atomic_write(path: str, data: bytes | str, like: str | list[str] | None = None) -> None:
    """Replace `path` with `data` so readers see the old or the new file, never half of one.

    The temp file lives in the same folder (rename is atomic only within a file system) and
    is fsynced before the rename, so a crash leaves either version intact. The new file keeps
    the mode and owner of the one it replaces; `like` (the file or files its text came from)
    makes it no more readable than they are, so private text stays private wherever it is
    copied. A full disk is a DiskFullError and leaves `path` as it was.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.tmp-{os.getpid()}-{time.monotonic_ns()}")
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as exc:
        if is_disk_full(exc):
            raise disk_full(exc, path) from None
        raise
    try:
        try:
            _keep_mode(fd, path, like)
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and is_disk_full(exc):
            raise disk_full(exc, path) from None
        raise
    _fsync_dir(folder)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of `data` to `fd`: `os.write` may write fewer (a nearly full disk
    writes what fits and says how much). A write that makes no progress raises ENOSPC."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def mode_of(paths: str | list[str] | None) -> int | None:
    """The permission bits text from `paths` may be shown with: those of every existing file
    among them together (a folder's read and write bits, without execute), None when none exists."""
    if not paths:
        return None
    mode = None
    for path in [paths] if isinstance(paths, str) else paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        bits = st.st_mode & 0o777
        if stat.S_ISDIR(st.st_mode):
            bits &= 0o666
        mode = bits if mode is None else mode & bits
    return mode


def _keep_mode(fd: int, path: str, like: str | list[str] | None) -> None:
    """Give the open temp file `fd` the mode (and, where allowed, the owner) of the file it
    will replace, restricted to what `like` allows; a new file takes the mode of `like`
    (the files its text came from), else the default."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    mode = stat.S_IMODE(st.st_mode) if st is not None else None
    allowed = mode_of(like)
    if allowed is not None:
        mode = allowed if mode is None else mode & allowed
    if mode is not None:
        os.fchmod(fd, mode)
    if st is not None:
        mine = os.fstat(fd)
        if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
            try:
                os.fchown(fd, st.st_uid, st.st_gid)
            except OSError:
                pass  # not ours to give away (not root): the mode is kept all the same


def restrict_mode(fd: int, like: str | list[str] | None) -> None:
    """Make the open file `fd` no more readable than the files of `like` (text from them is
    about to be added to it)."""
    allowed = mode_of(like)
    if allowed is None:
        return
    current = stat.S_IMODE(os.fstat(fd).st_mode)
    if current & ~allowed:
        os.fchmod(fd, current & allowed)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class FileLock:
    """An exclusive `flock` on a lock file, waited for at most `timeout` seconds.

    The kernel drops the lock when the holder dies (kill -9 included), so a crashed process
    never leaves a stale lock behind.
    """

    def __init__(self, path: str, timeout: float = 10.0, poll: float = 0.05) -> None:
        self.path = path
        self.timeout = timeout
        self.poll = poll
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; False when it stayed busy for the whole timeout."""
        import fcntl  # in each locking function: a search never locks (loading the extension: ~0.7M instructions)

        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fd = fd
                return True
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    os.close(fd)
                    raise
            if time.monotonic() >= deadline:
                os.close(fd)
                return False
            time.sleep(self.poll)

    def release(self) -> None:
        import fcntl

        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FileLock:
        if not self.acquire():
            raise TimeoutError(self.path)
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lock_held(path: str) -> bool:
    """True when another process holds the `FileLock` at `path` right now (never waits,
    never creates the file)."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _open_locked(path: str, flags: int, timeout: float, like: str | list[str] | None = None,
                 create: bool = True) -> tuple[int, bool]:
    """Open `path` and take its exclusive flock, making sure the locked file is still the one
    at `path` (a concurrent `rewrite_locked` may have renamed a new file over it). A file
    created here (unless not `create`: FileNotFoundError) gets the mode `like` allows (see
    `atomic_write`). Returns (fd, whether this call created the file)."""
    import fcntl

    if create:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    allowed = mode_of(like)
    deadline = time.monotonic() + timeout
    while True:
        created = False
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            if not create:
                raise
            try:
                fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644 if allowed is None else allowed & 0o666)
                created = True
                if allowed is not None:
                    os.fchmod(fd, allowed)  # exactly the source's mode, whatever the umask
            except FileExistsError:
                continue  # another writer made it a moment ago: open theirs
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise TimeoutError(path) from None
                time.sleep(0.01)
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd, created
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _drop_if_made_empty(path: str, fd: int, created: bool) -> None:
    """Remove the empty file this writer created and then wrote nothing to (under its lock:
    a writer waiting for it sees the path gone and opens a new one)."""
    if created and os.fstat(fd).st_size == 0:
        try:
            os.unlink(path)
        except OSError:
            pass


def append_locked(path: str, text: str, timeout: float = 10.0, header: str = "",
                  like: str | list[str] | None = None) -> int:
    """Append `text` in one write under an exclusive lock, so concurrent appenders never
    interleave; an empty file gets `header` first, a last line without its newline gets one.
    Every byte is written or none: a full disk truncates the file back to its old size and
    raises DiskFullError. `like`: the files the text came from (see `atomic_write`).
    Returns the line number where `text` starts."""
    import fcntl

    try:
        fd, created = _open_locked(path, os.O_RDWR | os.O_APPEND, timeout, like)
    except OSError as exc:
        if is_disk_full(exc):
            raise disk_full(exc, path) from None
        raise
    try:
        size = os.fstat(fd).st_size
        prefix = ""
        if not size:
            prefix = header
        elif os.pread(fd, 1, size - 1) != b"\n":
            prefix = "\n"
        restrict_mode(fd, like)
        try:
            write_all(fd, (prefix + text).encode("utf-8"))
            os.fsync(fd)
        except OSError as exc:
            _truncate(fd, size)
            _drop_if_made_empty(path, fd, created)
            if is_disk_full(exc):
                raise disk_full(exc, path) from None
            raise
        return _count_lines(fd, size) + prefix.count("\n") + 1
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _count_lines(fd: int, size: int, chunk: int = 1 << 20) -> int:
    """Line breaks in the first `size` bytes of `fd`, a chunk at a time (a large log is never
    held in memory whole)."""
    count = offset = 0
    while offset < size:
        data = os.pread(fd, min(chunk, size - offset), offset)
        if not data:
            break
        count += data.count(b"\n")
        offset += len(data)
    return count


def _truncate(fd: int, size: int) -> None:
    """Take a failed append back: the file ends where it ended before (we hold its lock)."""
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    except OSError:
        pass


def rewrite_locked(path: str, change: Callable[[str], str | None], timeout: float = 10.0, like: str | list[str] | None = None) -> bool:
    """Read-modify-write `path` under the same lock appenders take: `change(text)` returns the
    new text (or None to leave the file alone). The new file replaces the old atomically, so a
    concurrent append is never lost; it keeps the old file's mode (see `atomic_write`).
    True when the file was rewritten."""
    import fcntl

    try:
        fd, created = _open_locked(path, os.O_RDWR, timeout, like)
    except OSError as exc:
        if is_disk_full(exc):
            raise disk_full(exc, path) from None
        raise
    written = False
    try:
        size = os.fstat(fd).st_size
        text = os.pread(fd, size, 0).decode("utf-8") if size else ""
        new = change(text)
        if new is None or new == text:
            return False
        atomic_write(path, new, like)
        written = True
        return True
    finally:
        if not written:
            _drop_if_made_empty(path, fd, created)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


class WriterLock:
    """The lock `append_locked` and `rewrite_locked` take on `path`, held for a whole
    read-decide-write (the tree's reindex, migrate and rollback rewrite MEMORY.md from what
    they read). Replacing `path` while holding it is safe: a waiting writer sees the new file.
    Raises TimeoutError(path) when another writer holds it for `timeout` seconds, and
    FileNotFoundError when there is no such file (it is never created)."""

    def __init__(self, path: str, timeout: float = 10.0) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> WriterLock:
        self._fd, _ = _open_locked(self.path, os.O_RDONLY, self.timeout, create=False)
        return self

    def __exit__(self, *exc: object) -> None:
        import fcntl

        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
