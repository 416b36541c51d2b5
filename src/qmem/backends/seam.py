"""The seam between the engine and a search engine: what every backend offers.

`open_writer` and `open_searcher` (in `__init__`) give the engine one of each for the engine
the config names; `sync`, `search`, the vector tier and the faces use only the verbs below,
never an engine's module. Each engine lives in its own package (`tantivy/`, `opensearch/`)
and compiles the engine-neutral `QueryForm` itself. Scopes (an agent id such as
`agent:alice`, a team such as `team:infra`, or `shared`) are part of every search: a search
names the scopes it may see and never sees another; a writer puts each collection in the
scope the config gives it.

Hits come back as (score, stored fields) with the fields of `text.record.FIELDS`, each a
list of values.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from ..text.markdown import Section
    from ..text.query import QueryForm, Unit
else:
    Protocol = object


class StoredFile:
    """What a backend holds for one file: its content hash and how many sections it gave."""

    __slots__ = ("digest", "sections")

    def __init__(self, digest: str, sections: int) -> None:
        self.digest = digest
        self.sections = sections

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoredFile) and (self.digest, self.sections) == (other.digest, other.sections)

    def __repr__(self) -> str:
        return f"StoredFile({self.digest!r}, {self.sections})"


class Writer(Protocol):
    """One refresh's hold on a backend, by collection name, under this config's write lock (a
    context manager: entering takes the lock, IndexBusyError when another refresh holds it).

    Writes may be buffered; nothing is promised visible (or durable) before `commit`. A file's
    stored hash is written only after its sections, so a refresh killed at any point leaves
    what makes the next refresh redo exactly the unfinished files."""

    created: bool  # the local index did not exist: every collection is rebuilt
    # The local manifest is exactly what the backend holds (a local index writes it after each
    # commit): a refresh whose scan matches it may stop there without asking `known_files`.
    manifest_is_truth: bool
    # "module:function" that makes a file's sections ready for `add_prepared` in a worker
    # process (`engine.parallel`), called as function(collection, path, sections); "" when the
    # backend takes sections only.
    preparer: str
    # A full refresh or a moved root deletes the collection and adds it again (a local index);
    # False: the backend is searched meanwhile by others, so it compares files with what it
    # holds instead and never shows the collection empty.
    rebuilds_collections: bool

    def __enter__(self) -> Writer: ...

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None: ...

    def health(self) -> tuple[str | None, int]:
        """(why the index is unusable or None, how many sections it holds: -1 when unknown)."""

    def adopt_legacy(self, folder: str, collections: list[str]) -> list[str]:
        """Take over what the legacy shared data folder `folder` (`<root>/v<N>`, an older qmem)
        holds for these collections; the parts taken (see `layout.adopt`)."""

    def known_files(self, collection: str, files: dict[str, list], read_all: bool = False) -> dict[str, list]:
        """The local manifest's entries (path → [size, mtime_ns, digest, sections]) corrected
        by what the backend holds; an entry whose hash differs gets size -1 (re-hash).
        `read_all` (`index --full`): read what the backend holds, whatever it may trust."""

    def replace_file(self, collection: str, path: str, sections: list[Section], digest: str) -> None:
        """The file's sections become `sections` (all of its old ones go); `digest` is the
        file's content hash."""

    def replace_prepared(self, collection: str, path: str, prepared: list) -> None:
        """`replace_file` with sections that `preparer` made ready."""

    def add_prepared(self, collection: str, path: str, prepared: list) -> None:
        """Add sections `preparer` made ready for a file that has none in the index."""

    def delete_file(self, collection: str, path: str) -> None:
        """Every section of the file goes, and its stored hash."""

    def delete_collection(self, collection: str) -> None:
        """Every section and hash of the collection goes."""

    def reset(self) -> None:
        """Throw the local index away (it is damaged); nothing for a cluster."""

    def commit(self) -> None:
        """Make every buffered write durable and searchable (a cluster: once it refreshes)."""

    def finish(self) -> None:
        """After the last commit: let background work end (a local index's merges)."""


class Searcher(Protocol):
    """A view of a backend for searches. One may serve a single search (a query and its date
    priors ask several times) or be kept open between searches by a long-lived face (the MCP
    server), which calls `reload` before each one."""

    location: str  # where the index is, for messages ("the index in … is damaged")

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        """(score, stored fields) of the best `limit` sections the scopes may see; filters
        never change scores. IndexMissingError when nothing was ever built; ValueError when
        the index changed under the search (try again)."""

    def frequencies(self, units: list[Unit], scopes: list[str]) -> tuple[int, list[int]] | None:
        """(sections in all, sections holding each unit in their body), to weigh snippet
        lines by rarity; None when the engine has no cheap document counts."""

    def present(self, units: list[Unit], scopes: list[str]) -> list[Unit]:
        """The units that occur somewhere the scopes may see (why a search found nothing)."""

    def sections(self, collection: str) -> list[dict]:
        """The stored fields of every section the backend holds for this config's
        `collection` (what `qmem embed` embeds), in no particular order."""

    def path_problem(self, regex: str) -> str | None:
        """Why the engine cannot filter paths with `regex` (too complex, bad syntax), or None."""

    def health(self, thorough: bool = False) -> tuple[str | None, int]:
        """(why the index is unusable or None, how many sections it holds: -1 when none was
        built yet). A real probe: a local index opens every segment; `thorough` (doctor) also
        reads every file it is made of against the checksum written with it."""

    def damage(self, failure: BaseException) -> str | None:
        """Why the index is damaged, once a search failed with `failure` on every attempt (an
        engine error that is neither a lock nor a file a refresh just replaced), or None: the
        failure is not damage and is raised as it is."""

    def reload(self) -> None:
        """See the latest commit (a searcher kept open between searches)."""

    def close(self) -> None:
        """Drop what is open: the next use opens the index afresh."""
