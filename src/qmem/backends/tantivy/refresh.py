"""The local backend's refresh writer: `writer.Writer` seen through the seam's `Writer`
protocol (its searcher is `searcher.py`)."""

from __future__ import annotations

import os

from ...base.layout import tantivy_dir, version_dir
from .writer import Writer, inspect


class TantivyWriter(Writer):
    """writer.Writer plus what the seam asks of any backend's writer."""

    manifest_is_truth = True  # written after each commit: it is what the index holds
    # sections a worker process made ready (`engine.parallel`), for `add_prepared`
    preparer = "qmem.backends.tantivy.index:prepare"
    rebuilds_collections = True  # --full and a moved root: delete the collection, add it again

    def health(self) -> tuple[str | None, int]:
        return inspect(self.data_dir)

    def adopt_legacy(self, folder: str, collections: list[str]) -> list[str]:
        """The legacy folder's index and manifests when they are of this schema version and
        whole, and the collections' vectors (keyed by section content, valid across schema
        versions): linked, never moved, since other configs may share that folder."""
        from ...base.layout import adopt
        from .index import check

        current = os.path.basename(folder) == os.path.basename(version_dir(self.data_dir))
        copied = adopt(folder, self.data_dir, current and check(os.path.dirname(folder)) is None, collections)
        self.created = not os.path.exists(os.path.join(tantivy_dir(self.data_dir), "meta.json"))
        return copied

    def known_files(self, collection: str, files: dict[str, list], read_all: bool = False) -> dict[str, list]:
        return files  # the manifest is written after each commit: it is what the index holds

    def replace_file(self, collection: str, path: str, sections: list, digest: str = "") -> None:
        super().replace_file(collection, path, sections)
