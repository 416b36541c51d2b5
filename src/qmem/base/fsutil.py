"""File-system helpers for reading: safe path resolution inside a root, reads that refuse
links out of it, text decoding, glob matching. (Writes and locks live in writes.py.)

Everything here uses `os` directly (no pathlib, no tempfile): these helpers sit on the
search path, where each imported module costs start-up time.
"""

from __future__ import annotations

import errno
import os
import stat

from .errors import BadInputError, UnsafePathError

_META = set(".^$*+?()[]{}|\\")


def is_inside(root: str, path: str) -> bool:
    """True when the real path `path` lies inside the real folder `root` (or is it)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def write_problem(root: str, path: str) -> str:
    """Why writing `path` would leave the folder `root` or hit something other than a regular
    file (a symlink, a FIFO, a folder); "" when it is safe. Nothing is opened."""
    real_root = os.path.realpath(root)
    parent = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    if not is_inside(real_root, parent):
        return "its folder lies outside the workspace"
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be checked ({exc.strerror})"
    if stat.S_ISLNK(mode):
        return "is a symbolic link"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    return ""


def resolve_inside(root: str, rel: str) -> str | None:
    """The real path of `rel` under `root`, or None when it escapes `root`.

    Symlinks are followed before the check, so a link pointing outside the root is refused
    just like `../../etc/passwd`.
    """
    try:
        real_root = os.path.realpath(root)
        candidate = rel if os.path.isabs(rel) else os.path.join(real_root, rel)
        real = os.path.realpath(candidate)
    except OSError:  # a link vanished while it was being resolved (a concurrent swap): refuse
        return None
    return real if is_inside(real_root, real) else None


_BOM = b"\xef\xbb\xbf"


def decode_text(data: bytes) -> str:
    """`data.decode("utf-8-sig")` (one leading BOM dropped, the same errors) without the
    `encodings.utf_8_sig` module a fresh `qmem search` would import to read its hits' files."""
    return (data[3:] if data[:3] == _BOM else data).decode("utf-8")


def read_inside(root: str, path: str) -> bytes:
    """The bytes of the regular file `path`, read only if the file actually opened lies inside
    `root` (both resolved). Checking a path and then opening it leaves a window in which a
    folder on the way can be swapped for a link to elsewhere; here the opened descriptor itself
    is resolved (/proc/self/fd), so whatever a race does, nothing outside `root` is returned.
    Raises UnsafePathError for a file outside `root`, OSError when it cannot be read (a FIFO,
    a folder, a missing file)."""
    real_root = os.path.realpath(root)
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        opened = _opened_path(fd, path, st)
        if opened is None or not is_inside(real_root, opened):
            raise UnsafePathError(f"{path}: resolves outside {real_root} (a link or a swapped folder); refused")
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


class Files:
    """Each file's lines, read once (per search, per embed): the index stores no text, the
    file is the truth."""

    def __init__(self) -> None:
        self._cache: dict[str, list[str] | None] = {}

    def lines(self, path: str, root: str | None = None) -> list[str] | None:
        """The file's lines; None when it is gone, unreadable, not text, or (given `root`) the
        file actually opened is outside `root` (a folder swapped for a link meanwhile)."""
        if path not in self._cache:
            try:
                if root is not None:
                    text = decode_text(read_inside(root, path))
                else:
                    with open(path, "rb") as handle:
                        text = decode_text(handle.read())
                self._cache[path] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            except (OSError, UnicodeDecodeError, UnsafePathError):
                self._cache[path] = None
        return self._cache[path]


def _opened_path(fd: int, path: str, st: os.stat_result) -> str | None:
    """Where the open file `fd` really is: /proc/self/fd on Linux; elsewhere the resolved
    `path`, trusted only when it is still the very file opened (same device and inode)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass
    real = os.path.realpath(path)
    try:
        now = os.stat(real)
    except OSError:
        return None
    return real if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino) else None


def glob_to_regex(pattern: str) -> str:
    """Translate a path glob into an anchored-by-caller regex that both Python and Rust accept.

    `**/` matches zero or more folders, `**` anything, `*` anything but `/`, `?` one
    character but `/`, `[abc]` / `[a-z]` a class, `[!abc]` its complement (never `/`); a `]`
    right after `[` or `[!` is a literal. Every character inside a class is escaped, so no
    class can turn into a regex set operation. A reversed range (`[z-a]`) or text that is not
    UTF-8 raises BadInputError.
    """
    try:
        pattern.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInputError(f"glob {ascii(pattern)} is not valid UTF-8") from None
    if len(pattern) > MAX_GLOB:
        raise BadInputError(f"glob of {len(pattern)} characters is too long (at most {MAX_GLOB})")
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            klass = _glob_class(pattern, i)
            if klass is None:
                out.append("\\[")
            else:
                out.append(klass[0])
                i = klass[1]
        elif c in _META:
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


MAX_GLOB = 1000
_CLASS_META = set("\\[]^-&~|")  # special inside a class in Python or Rust (set operations)


def _class_char(ch: str) -> str:
    return "\\" + ch if ch in _CLASS_META else ch


def _glob_class(pattern: str, i: int) -> tuple[str, int] | None:
    """The regex class for the glob class opening at `pattern[i]` and the index of its `]`,
    or None when it never closes (the `[` is then a literal)."""
    j = i + 1
    negate = j < len(pattern) and pattern[j] == "!"
    if negate:
        j += 1
    first = j
    if j < len(pattern) and pattern[j] == "]":
        j += 1  # a literal ']' first in the class
    end = pattern.find("]", j)
    if end == -1:
        return None
    body = pattern[first:end]
    items: list[str] = []
    k = 0
    while k < len(body):
        if k + 2 < len(body) and body[k + 1] == "-":
            low, high = body[k], body[k + 2]
            if low > high:
                raise BadInputError(f"bad glob {pattern!r}: range {low}-{high} is reversed")
            items.append(f"{_class_char(low)}-{_class_char(high)}")
            k += 3
            continue
        items.append(_class_char(body[k]))
        k += 1
    if negate:
        return "[^/" + "".join(items) + "]", end
    return "[" + "".join(items) + "]", end


def unusable_path(path: str, exc: OSError) -> str:
    """One line saying what stands in the way of using `path` and exactly what to remove."""
    probe_path = path
    while probe_path and probe_path != os.path.dirname(probe_path):
        if os.path.lexists(probe_path):
            break
        probe_path = os.path.dirname(probe_path)
    if probe_path == path and os.path.isdir(path) and path.endswith(".lock"):
        return f"{path} is a folder where qmem keeps its lock file; remove it (rm -r '{path}') and retry"
    if os.path.lexists(probe_path) and not os.path.isdir(probe_path) and probe_path != path:
        return (f"{probe_path} is a file where qmem needs a folder for its index data; remove or move it, "
                f"or set QMEM_DATA / data_dir to another folder")
    return f"cannot use {path}: {exc.strerror or exc}"
