"""The seam between the engine and a search engine: what any backend offers (see __init__).

`sync` needs four write verbs and the stored hashes; `search` needs one read verb. Each
engine lives in its own module (`opensearch.py`; the local Tantivy index in `index.py` until
it moves here) and compiles the engine-neutral `QueryForm` itself. Scopes (an agent id such
as `agent:alice`, a team such as `team:infra`, or `shared`) are part of every write and every
search: a search names the scopes it may see and never sees another.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from ..text.markdown import Section
    from ..text.query import QueryForm
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


class Backend(Protocol):
    """One search engine holding the sections of many collections, each in one scope.

    Writes may be buffered; nothing is promised visible (or durable) before `commit`. A
    file's stored hash is written only after its sections, so a refresh killed at any
    point leaves hashes that make the next refresh redo exactly the unfinished files.
    """

    def replace_file(self, scope: str, collection: str, path: str, digest: str,
                     sections: list[Section]) -> None:
        """The file's sections become `sections` (all of its old ones go)."""

    def delete_file(self, scope: str, collection: str, path: str) -> None:
        """Every section of the file goes, and its stored hash."""

    def delete_collection(self, scope: str, collection: str) -> None:
        """Every section and hash of the collection goes (in that scope only)."""

    def stored_hashes(self, scope: str, collection: str) -> dict[str, StoredFile]:
        """path → what the backend holds, as of the last commit."""

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        """(score, stored fields as lists of values) of the best `limit` sections that the
        named scopes may see; filters never change scores."""

    def commit(self) -> None:
        """Make every buffered write durable and, for a cluster, searchable soon."""


class RefreshWriter(Protocol):
    """What `sync` holds for one refresh: the write verbs by collection name (the writer knows
    each collection's scope from the config), under this config's lock. A context manager."""

    created: bool  # the local index did not exist: every collection is rebuilt
    # The local manifest is exactly what the backend holds (a local index writes it after each
    # commit): a refresh whose scan matches it may stop there without asking `known_files`.
    manifest_is_truth: bool

    def known_files(self, collection: str, files: dict[str, list]) -> dict[str, list]:
        """The local manifest's entries (path → [size, mtime_ns, digest, sections]) corrected
        by what the backend holds; an entry whose hash differs gets size -1 (re-hash)."""

    def replace_file(self, collection: str, path: str, sections: list[Section], digest: str = "") -> None: ...

    def delete_file(self, collection: str, path: str) -> None: ...

    def delete_collection(self, collection: str) -> None: ...

    def reset(self) -> None:
        """Throw the local index away (it is damaged); nothing for a cluster."""

    def commit(self) -> None: ...

    def finish(self) -> None: ...


class Searcher(Protocol):
    """One search's view of a backend (a query and its date priors may ask several times)."""

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        """(score, stored fields as lists of values) of the best `limit` sections the scopes
        may see."""

    def weights(self, form: QueryForm, weigh: object) -> list[float]:
        """The weight of each highlight unit (by rarity); empty when the engine has no cheap
        document counts (snippets then weigh units alike)."""

    def present(self, units: list, scopes: list[str]) -> list:
        """The units that occur somewhere the scopes may see (why a search found nothing)."""
