"""The seam's writer and searcher on an OpenSearch cluster, on top of the backend's verbs by
scope (`backend.OpenSearchBackend`): which scope a collection lives in, the refresh's trust in
the change marks, and what a search may see (`[scopes] sees`)."""

from __future__ import annotations

from ...base.errors import QmemError
from .backend import OpenSearchBackend
from .client import Settings
from .marks import Mark, TrustFile
from .query import SECTIONS, presence_query, scope_filter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...base.config import Config
    from ...text.query import QueryForm, Unit


def backend_for(cfg: Config) -> OpenSearchBackend:
    return OpenSearchBackend(Settings.from_dict(cfg.backend))


def scope_of(cfg: Config, collection: str) -> str:
    """The scope a collection's sections live in: `[collections.X] scope`, else `[scopes] own`."""
    coll = cfg.collections.get(collection)
    return cfg.scope_of(coll) if coll is not None else cfg.scope


def origin_of(cfg: Config, collection: str) -> str:
    """Where a collection is written from: this host and the collection's folder."""
    import os
    import socket

    coll = cfg.collections.get(collection)
    return f"{socket.gethostname()}:{os.path.realpath(coll.path) if coll is not None else ''}"


class OpenSearchWriter:
    """The seam's writer on the cluster: each collection's sections go in its scope
    (`scope_of`). The local lock keeps two refreshes of this config apart; the local manifest
    stays as a cache of file sizes and times, the records in the cluster are the truth
    (`known_files`). A file another folder wrote (`origin`) that this folder neither has nor
    ever had is not this refresh's to delete: it is left out (`kept`)."""

    created = False  # no local index to build
    manifest_is_truth = False  # the cluster's hashes are
    preparer = ""  # sections go to the cluster as they are: nothing for worker processes to prepare
    rebuilds_collections = False  # other machines search it meanwhile: compare, never wipe

    def __init__(self, cfg: Config, timeout: float, backend: OpenSearchBackend | None = None) -> None:
        from ...base.writes import FileLock
        from ...base.layout import lock_path, marks_path

        self.cfg = cfg
        self.backend = backend or backend_for(cfg)
        self.lock = FileLock(lock_path(cfg.data_dir), timeout)
        self.timeout = timeout
        self.kept: dict[str, list[str]] = {}  # collection -> paths another folder wrote, left alone
        self.trust = TrustFile(marks_path(cfg.data_dir), self.backend.settings.url, self.backend.settings.index)

    def __enter__(self) -> OpenSearchWriter:
        from ...base.errors import IndexBusyError

        if not self.lock.acquire():
            raise IndexBusyError(f"another qmem refresh of this config runs for over {self.timeout:g}s; "
                                 "try again later")
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        """A refresh that ended cleanly (its manifests saved) records what it may trust next
        time; one that failed leaves the marks it holds open (`abandon`) and records nothing."""
        try:
            if kind is None:
                self.trust.save({k: self.backend.trusted.get(k) for k in self.backend.touched})
            else:
                self.backend.abandon()
        finally:
            self.lock.release()

    def _scope(self, collection: str) -> str:
        return scope_of(self.cfg, collection)

    def health(self) -> tuple[str | None, int]:
        """Nothing local to check; the count of what the cluster holds is not compared with
        the manifests (other machines write there too): unknown."""
        return None, -1

    def adopt_legacy(self, folder: str, collections: list[str]) -> list[str]:
        return []  # a legacy folder holds a local index; the cluster is built from the files

    def known_files(self, collection: str, files: dict[str, list], read_all: bool = False) -> dict[str, list]:
        import os

        scope = self._scope(collection)
        # `read_all` (`index --full`, the way back from anything): never the change mark's skip
        trusted = self._trusted(scope, collection) if files and not read_all else None
        if self.backend.hashes_unless_unchanged(scope, collection, trusted) is None:
            return dict(files)  # the cluster holds what this machine's manifest says (`marks`)
        mine = origin_of(self.cfg, collection)
        coll = self.cfg.collections.get(collection)
        out: dict[str, list] = {}
        for path, held in self.backend.records(scope, collection).items():
            local = files.get(path)
            if (held.origin and held.origin != mine and local is None and coll is not None
                    and not os.path.lexists(os.path.join(coll.path, path))):
                self.kept.setdefault(collection, []).append(path)
                continue
            if local is not None and local[2] == held.digest and local[3] == held.sections:
                out[path] = local
            else:  # another machine or an unfinished refresh wrote it: re-hash this file
                out[path] = [-1, 0, held.digest, held.sections]
        return out

    def _trusted(self, scope: str, collection: str, verify: bool = False) -> tuple[Mark, float] | None:
        """The state of the collection this machine last matched (`TrustFile`), also given to
        the backend so that a commit without a read (`remember`) keeps the trust going. A
        commit's open names the state by _seq_no and _primary_term, which identify it only
        within one index's lifetime (an index made again counts from 0), while the trust file
        outlives the index: `verify` (a write before any read) takes the state only when the
        mark read now still carries its token, closed, and then with the numbers read now."""
        k = (scope, collection)
        if k not in self.backend.touched and k not in self.backend.trusted:
            state = self.trust.get(scope, collection)
            if state is not None and verify:
                state = self.backend.still_trusted(scope, collection, state)
                if state is None:
                    self.backend.touched.add(k)  # its token moved: the entry goes at the end
            if state is not None:
                self.backend.trusted[k] = state
        return self.backend.trusted.get(k)

    def replace_file(self, collection: str, path: str, sections: list, digest: str) -> None:
        self._trusted(self._scope(collection), collection, verify=True)
        self.backend.replace_file(self._scope(collection), collection, path, digest, sections,
                                  origin_of(self.cfg, collection))

    def replace_prepared(self, collection: str, path: str, prepared: list) -> None:
        raise TypeError("the OpenSearch writer has no preparer: it takes sections (replace_file)")

    add_prepared = replace_prepared

    def delete_file(self, collection: str, path: str) -> None:
        self._trusted(self._scope(collection), collection, verify=True)
        self.backend.delete_file(self._scope(collection), collection, path)

    def delete_collection(self, collection: str) -> None:
        self.backend.delete_collection(self._scope(collection), collection)

    def reset(self) -> None:
        pass  # only a local index can be damaged

    def commit(self) -> None:
        self.backend.commit()

    def finish(self) -> None:
        pass


class OpenSearchSearcher:
    """The seam's searcher on the cluster: the indices of the scopes the config may see, and
    of those only the collections the config lists (their hits have a file here). A face
    that keeps it (the MCP server) keeps its client and its connections."""

    def __init__(self, cfg: Config, backend: OpenSearchBackend | None = None) -> None:
        self.cfg = cfg
        self._backend = backend
        settings = Settings.from_dict(cfg.backend)
        self.location = f"OpenSearch indices {settings.index}-<scope> at {settings.url}"

    @property
    def backend(self) -> OpenSearchBackend:
        """Made on first use (building the client imports opensearch-py)."""
        if self._backend is None:
            self._backend = backend_for(self.cfg)
        return self._backend

    def _pairs(self) -> list[tuple[str, str]]:
        return [(self.cfg.scope_of(c), name) for name, c in self.cfg.collections.items()]

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        return self.backend.search(form, scopes, limit, self._pairs())

    def frequencies(self, units: list[Unit], scopes: list[str]) -> None:
        return None  # no cheap document counts: snippets weigh the query's units alike

    def present(self, units: list[Unit], scopes: list[str]) -> list[Unit]:
        """The units that occur somewhere in what the scopes may see (one count each)."""
        return [u for u in units if self.backend.count(presence_query(u.tokens, scopes), scopes) > 0]

    def sections(self, collection: str) -> list[dict]:
        return self.backend.sections(scope_of(self.cfg, collection), collection)

    def path_problem(self, regex: str) -> str | None:
        return None  # the cluster checks its regexp itself (a refused one is a one-line BackendError)

    def health(self, thorough: bool = False) -> tuple[str | None, int]:
        """One count of what this config's scopes may see: -1 before any of their indices
        exists, the error in one line when the cluster refuses or is unreachable
        (the cluster keeps its own checksums: `thorough` asks nothing more)."""
        try:
            return None, self.backend.count({"bool": {"filter": [SECTIONS, scope_filter(self.cfg.sees)]}},
                                            self.cfg.sees)
        except QmemError as exc:  # unreachable, refused, no client or no credentials
            return str(exc), -1

    def damage(self, failure: BaseException) -> str | None:
        return None  # nothing local to be damaged: the cluster's errors are typed (BackendError)

    def reload(self) -> None:
        pass  # every request sees the cluster's latest refresh

    def close(self) -> None:
        pass
