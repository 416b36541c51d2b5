"""The seam between the engine and a search engine: what any backend offers.

`sync` needs four write verbs and the stored hashes; `search` needs one read verb. Each
engine lives in its own module (`opensearch.py`; the local Tantivy index in `index.py` until
it moves here) and compiles the engine-neutral `QueryForm` itself. Scopes (an agent id such
as `agent:alice`, a team such as `team:infra`, or `shared`) are part of every write and every
search: a search names the scopes it may see and never sees another.
"""

from __future__ import annotations

from ..backend_config import valid_scope
from ..conventions import SHARED_SCOPE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from ..markdown import Section
    from ..query import QueryForm
else:
    Protocol = object

__all__ = ["SHARED_SCOPE", "Backend", "StoredFile", "valid_scope"]


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
