"""What the index holds for a collection: path → size, mtime, content hash, section count.

Written atomically after each commit. Before the commit, the refresh records its intent: the
paths whose sections it is about to replace or delete (`<collection>.intent`). A crash after
the commit but before the manifest leaves the intent behind, and the next refresh treats those
paths as unknown (re-read if present, deleted by key if gone), so a file that the killed
refresh added and that vanished, moved or turned binary since leaves nothing in the index.
"""

from __future__ import annotations

import os
from itertools import islice

from ..base.writes import atomic_write
from ..base.layout import manifest_dir, manifest_path
from .listing import SEP  # joins the path and digest columns: a `Known` reads the paths as stored

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .scan import Known, Listing

# 3: columns as marshal blobs, and the glob verdicts; 2: columns as arrays; 1: JSON per file
MANIFEST_VERSION = 3
# Number columns are marshal blobs of version 2, which has no back-references: equal lists give
# equal bytes, so a scan's columns are compared with the stored ones without loading these.
_BLOB = 2

Rules = tuple[tuple[str, ...], tuple[str, ...]]  # a collection's (patterns, excludes)


# A file the refresh read and could not index (binary, not UTF-8, too large, unreadable) is kept
# in the manifest with this mark before the reason in place of its digest, and no sections:
# `status` and `doctor` then know it as skipped (not as new, forever), and an unchanged one is
# not read again.
SKIPPED = "!"


def skipped_entry(size: int, mtime_ns: int, why: str) -> list:
    return [size, mtime_ns, SKIPPED + why.replace(SEP, " "), 0]


def skipped_reason(entry: list) -> str | None:
    """Why the file of this manifest entry was skipped, or None when it is indexed."""
    digest = entry[2]
    return digest[1:] if digest.startswith(SKIPPED) else None


def rules_of(patterns: list[str], exclude: list[str]) -> Rules:
    return tuple(patterns), tuple(exclude)


class Manifest:
    """Stored as columns (paths, sizes, mtimes, digests, section counts) that load in about a
    millisecond for 20,000 files; `files`, the path → entry dict, is built on first use, so a
    no-op refresh that only compares the stat columns never builds it."""

    __slots__ = ("collection", "root", "refreshed_at", "rules", "rejected", "folders", "outdated", "_files",
                 "_columns")

    def __init__(self, collection: str, root: str = "", refreshed_at: float = 0.0,
                 files: dict[str, list] | None = None, rules: Rules | None = None) -> None:
        self.collection = collection
        self.root = root
        self.refreshed_at = refreshed_at  # unix seconds of the last refresh, 0 = never
        # The (patterns, excludes) every path listed passed, when known: a scan with the same
        # rules needs no glob match or name check for these paths (see `known`), nor for the
        # paths it rejected (`rejected`) and the folders it pruned or entered (`folders`).
        self.rules = rules
        self.rejected: list[str] = []
        self.folders: dict[str, bool] = {}
        self.outdated = False  # read from an older format: the next refresh rewrites it
        # rel path → [size, mtime_ns, xxh3 hex, sections]; size -1 forces a re-hash next time
        self._files: dict[str, list] | None = files or {}
        self._columns: _Columns | None = None

    @property
    def files(self) -> dict[str, list]:
        if self._files is None:
            c = self._columns
            assert c is not None
            self._files = {p: [s, m, d, n] for p, s, m, d, n in zip(c.paths(), c.sizes(), c.mtimes(), c.digests(),
                                                                    c.sections)}
        return self._files

    @files.setter
    def files(self, files: dict[str, list]) -> None:
        self._files, self._columns = files, None

    def known_paths(self, root: str, rules: Rules) -> list[str]:
        """The listed paths (in path order), when they were found under `root` with these
        same rules, so each passes them; empty otherwise."""
        if self.rules != rules or self.root != root:
            return []
        c = self._columns
        return c.paths() if self._files is None and c is not None else sorted(self.files)

    def known(self, root: str, rules: Rules) -> Known | None:
        """What a scan of `root` with these rules may take as checked (see scan.Known); None
        when these paths were not found with the same root and rules."""
        from .scan import Known

        if self.rules != rules or self.root != root:
            return None
        c = self._columns
        paths = c.paths_text if self._files is None and c is not None else sorted(self.files)
        return Known(paths, self.rejected, self.folders)

    def same_verdicts(self, listing: Listing) -> bool:
        """True when the scan's glob verdicts are those stored (nothing to record)."""
        return set(listing.rejected) == set(self.rejected) and listing.folders == self.folders

    @property
    def file_count(self) -> int:
        return self._columns.count if self._files is None and self._columns is not None else len(self.files)

    @property
    def sections(self) -> int:
        if self._files is None and self._columns is not None:
            return sum(self._columns.sections)
        return sum(entry[3] for entry in self.files.values())

    def same_stats(self, paths: list[str], sizes: list[int], mtimes: list[int]) -> bool:
        """True when the scan found exactly the stored paths with the stored sizes and mtimes
        (in order): nothing to read. Compared as whole columns, without a per-file step."""
        import marshal

        c = self._columns
        if c is None:
            files = self.files
            return list(files) == paths and all(
                files[p][0] == s and files[p][1] == m for p, s, m in zip(paths, sizes, mtimes))
        return (len(paths) == c.count and c.paths_text == SEP.join(paths)
                and c.sizes_blob == marshal.dumps(sizes, _BLOB) and c.mtimes_blob == marshal.dumps(mtimes, _BLOB))


class _Columns:
    """The stored columns, decoded only when asked for."""

    __slots__ = ("count", "paths_text", "sizes_blob", "mtimes_blob", "digests_text", "sections")

    def __init__(self, count: int, paths_text: str, sizes_blob: bytes, mtimes_blob: bytes, digests_text: str,
                 sections: list[int]) -> None:
        self.count, self.paths_text, self.digests_text = count, paths_text, digests_text
        self.sizes_blob, self.mtimes_blob = sizes_blob, mtimes_blob
        self.sections = sections  # decoded (and checked) when loaded: every refresh sums them

    def paths(self) -> list[str]:
        return self.paths_text.split(SEP) if self.count else []

    def digests(self) -> list[str]:
        return self.digests_text.split(SEP) if self.count else []

    def sizes(self) -> list[int]:
        return _ints(self.sizes_blob, self.count)

    def mtimes(self) -> list[int]:
        return _ints(self.mtimes_blob, self.count)



def _ints(blob: bytes, count: int) -> list[int]:
    """A stored number column; a damaged one reads as -1 throughout (sizes and mtimes: every
    file is hashed again, and its hash decides)."""
    import marshal

    try:
        values = marshal.loads(blob)
    except (ValueError, EOFError, TypeError):
        values = None
    return values if type(values) is list and len(values) == count and all(type(v) is int for v in values) \
        else [-1] * count


def _stamp_path(data_dir: str, collection: str) -> str:
    return os.path.join(manifest_dir(data_dir), f"{collection}.stamp")


def load(data_dir: str, collection: str) -> Manifest:
    """The stored manifest, or an empty one when missing or unreadable (→ full refresh)."""
    try:
        with open(manifest_path(data_dir, collection), "rb") as handle:
            stored = _decode(collection, handle.read())
    except OSError:
        stored = None
    if stored is None:
        return Manifest(collection)
    try:
        with open(_stamp_path(data_dir, collection), encoding="ascii") as handle:
            stored.refreshed_at = max(stored.refreshed_at, float(handle.read()))
    except (OSError, ValueError):
        pass
    return stored


def _decode(collection: str, data: bytes) -> Manifest | None:
    """A manifest a refresh can trust, or None: anything else reads as empty (→ that
    collection is rebuilt), never as a crash. Version 2 is read too (and marked outdated)."""
    import marshal

    try:
        raw = marshal.loads(data)
        if type(raw) is not dict or raw.get("v") not in (2, MANIFEST_VERSION):
            return None
        root, refreshed_at, count = raw["root"], raw["refreshed_at"], raw["count"]
        paths_text, digests_text = raw["paths"], raw["digests"]
        if not (type(root) is str and type(refreshed_at) in (int, float) and type(count) is int and count >= 0
                and type(paths_text) is str and type(digests_text) is str):
            return None
        blobs = [raw["sizes"], raw["mtimes"], raw["sections"]]
        if raw["v"] == 2:  # arrays of int64: the same numbers as blobs
            from array import array

            for i, blob in enumerate(blobs):
                column = array("q")
                column.frombytes(blob)
                blobs[i] = marshal.dumps(column.tolist(), _BLOB)
        sizes_blob, mtimes_blob, sections_blob = blobs
        if not all(type(blob) is bytes for blob in blobs):
            return None
        sections = marshal.loads(sections_blob)  # needed by every refresh (the index's count)
        if not (type(sections) is list and len(sections) == count and type(sum(sections)) is int
                and (not count or min(sections) >= 0)):  # sum: a float or text anywhere shows
            return None
    except (ValueError, EOFError, TypeError, KeyError):
        return None
    # Counted without splitting 20,000 paths. (An empty path, which only damage could write, is
    # never found by a scan: the refresh drops it, and the index's count then disagrees → rebuilt.)
    if count and not paths_text.count(SEP) == digests_text.count(SEP) == count - 1:
        return None
    if not count and (paths_text or digests_text):
        return None
    rules = raw.get("rules")
    if not (type(rules) is tuple and len(rules) == 2
            and all(type(part) is tuple and all(type(x) is str for x in part) for part in rules)):
        rules = None  # written before rules were kept, or junk: every path is checked
    stored = Manifest(collection, root, refreshed_at, rules=rules)
    rejected, folders = raw.get("rejected"), raw.get("folders")
    if rules is not None and type(rejected) is list and all(type(x) is str for x in rejected) \
            and type(folders) is dict and all(type(k) is str and type(v) is bool for k, v in folders.items()):
        stored.rejected, stored.folders = rejected, folders
    stored.outdated = raw["v"] != MANIFEST_VERSION
    stored._files = None
    stored._columns = _Columns(count, paths_text, sizes_blob, mtimes_blob, digests_text, sections)
    return stored


def stored_root(path: str) -> str | None:
    """The collection root a manifest file records, in any manifest version, or None."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    stored = _decode("", data)
    if stored is not None:
        return stored.root
    from ..base import jsonio  # here only: a refresh that finds no change imports no JSON library

    try:
        root = jsonio.loads(data).get("root")  # a v1 (JSON) manifest
    except (ValueError, AttributeError):
        return None
    return root if isinstance(root, str) else None


def save(data_dir: str, manifest: Manifest) -> None:
    import marshal

    files = manifest.files
    if any(a > b for a, b in zip(files, islice(files, 1, None))):
        files = dict(sorted(files.items()))  # in path order, as a scan lists them: see same_stats
    entries = files.values()
    payload = {
        "v": MANIFEST_VERSION,
        "collection": manifest.collection,
        "root": manifest.root,
        "refreshed_at": manifest.refreshed_at,
        "count": len(files),
        "paths": SEP.join(files),
        "sizes": marshal.dumps([e[0] for e in entries], _BLOB),
        "mtimes": marshal.dumps([e[1] for e in entries], _BLOB),
        "digests": SEP.join([e[2] for e in entries]),
        "sections": marshal.dumps([e[3] for e in entries], _BLOB),
    }
    if manifest.rules is not None:
        payload["rules"] = manifest.rules
        payload["rejected"] = sorted(set(manifest.rejected))
        payload["folders"] = manifest.folders
    atomic_write(manifest_path(data_dir, manifest.collection), marshal.dumps(payload))
    try:
        os.unlink(os.path.join(manifest_dir(data_dir), f"{manifest.collection}.json"))  # a v1 manifest
    except FileNotFoundError:
        pass


def touch(data_dir: str, collection: str, when: float) -> None:
    """Record a refresh that changed nothing, without rewriting a 10k-entry manifest. Not
    fsynced (a no-op refresh every minute should not wait for the disk): losing it to a crash
    only makes `status` show the previous refresh time."""
    path = _stamp_path(data_dir, collection)
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="ascii") as handle:
        handle.write(repr(when))
    os.replace(tmp, path)


def _intent_path(data_dir: str, collection: str) -> str:
    return os.path.join(manifest_dir(data_dir), f"{collection}.intent")


def load_intent(data_dir: str, collection: str) -> set[str]:
    """Paths a refresh was changing in the index when it stopped before saving its manifest."""
    try:
        with open(_intent_path(data_dir, collection), "rb") as handle:
            data = handle.read()
    except OSError:
        return set()
    from ..base import jsonio

    try:
        raw = jsonio.loads(data)
    except ValueError:
        return set()
    return {p for p in raw if isinstance(p, str)} if isinstance(raw, list) else set()


def save_intent(data_dir: str, collection: str, paths: set[str]) -> None:
    """Record, before the commit, the paths whose sections this refresh replaces or deletes
    (added to any intent an earlier, interrupted refresh left)."""
    from ..base import jsonio

    pending = load_intent(data_dir, collection) | paths
    atomic_write(_intent_path(data_dir, collection), jsonio.dump_bytes(sorted(pending)))


def settle_intent(data_dir: str, collection: str, pending: set[str]) -> None:
    """After a commit that re-read only some paths (`refresh_files`): what an earlier,
    interrupted refresh left pending (`pending`, less what this commit re-read) stays for the
    next full refresh; nothing pending clears the intent."""
    if pending:
        from ..base import jsonio

        atomic_write(_intent_path(data_dir, collection), jsonio.dump_bytes(sorted(pending)))
    else:
        clear_intent(data_dir, collection)


def clear_intent(data_dir: str, collection: str) -> None:
    try:
        os.unlink(_intent_path(data_dir, collection))
    except FileNotFoundError:
        pass


def remove(data_dir: str, collection: str) -> None:
    legacy_json = os.path.join(manifest_dir(data_dir), f"{collection}.json")  # a v1 manifest
    paths = (manifest_path(data_dir, collection), _stamp_path(data_dir, collection), _intent_path(data_dir, collection),
             legacy_json)
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def pending_intents(data_dir: str) -> bool:
    """True when some refresh stopped between its commit and its manifest."""
    try:
        return any(n.endswith(".intent") and not n.startswith(".") for n in os.listdir(manifest_dir(data_dir)))
    except OSError:
        return False


def stored_collections(data_dir: str) -> list[str]:
    """Collections the index may hold sections of: those with a manifest or an intent."""
    try:
        names = os.listdir(manifest_dir(data_dir))
    except OSError:
        return []
    found = {n.rsplit(".", 1)[0] for n in names if n.endswith((".manifest", ".json", ".intent")) and not n.startswith(".")}
    return sorted(found)
