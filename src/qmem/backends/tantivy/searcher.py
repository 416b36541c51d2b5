"""The local backend: the Tantivy index of `index.py`, seen through the backend interface.

One index per config (its data folder), so every section in it belongs to that config and
the scopes a search names need no filter here. The code that knows Tantivy stays in
`index.py` for now; this module only adapts it for searches, and imports it only when a
search needs it. The refresh writer's adapter is `tantivy_writer.py` (a search never
imports the writer).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...text.query import QueryForm, Unit


class TantivySearcher:
    """Searches of one query (its date priors included) on one opened index and searcher."""

    def __init__(self, data_dir: str, reader=None) -> None:  # noqa: ANN001 - search.Reader
        self.data_dir = data_dir
        self.reader = reader
        self._index = None
        self._searcher = None

    def _open(self):  # noqa: ANN202
        if self._searcher is None:
            from .index import open_reader

            self._index = self.reader.index() if self.reader is not None else open_reader(self.data_dir)
            self._searcher = self._index.searcher()
        return self._index, self._searcher

    def search(self, form: QueryForm, scopes: list[str], limit: int) -> list[tuple[float, dict]]:
        from .index import compile_query, stored_fields

        index, searcher = self._open()
        compiled = compile_query(form, index.schema)
        if compiled is None:
            return []
        limit = min(limit, searcher.num_docs)  # the top-k heap is sized by the limit
        if limit < 1:
            return []
        return [(score, stored_fields(searcher.doc(address)))
                for score, address in searcher.search(compiled, limit, count=False).hits]

    def weights(self, form: QueryForm, weigh) -> list[float]:  # noqa: ANN001 - search.unit_weights
        index, searcher = self._open()
        return weigh(searcher, index.schema, form)

    def present(self, units: list[Unit], scopes: list[str]) -> list[Unit]:
        """The units that occur somewhere (body or heading) in the index."""
        import tantivy

        from .index import unit_query

        index, searcher = self._open()
        should = tantivy.Occur.Should
        return [u for u in units if searcher.search(tantivy.Query.boolean_query([
            (should, unit_query(index.schema, "body", u.tokens)),
            (should, unit_query(index.schema, "heading", u.tokens))]), 1, count=True).count]
