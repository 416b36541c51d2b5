"""The local backend's refresh writer: `writer.Writer` seen through the backend interface
(its searcher is `tantivy.py`)."""

from __future__ import annotations

from .writer import Writer


class TantivyWriter(Writer):
    """writer.Writer plus the two things sync asks of any backend."""

    manifest_is_truth = True  # written after each commit: it is what the index holds
    takes_prepared = True  # replace_prepared: sections a worker process made ready (`parallel`)

    def known_files(self, collection: str, files: dict[str, list]) -> dict[str, list]:
        return files  # the manifest is written after each commit: it is what the index holds

    def replace_file(self, collection: str, path: str, sections: list, digest: str = "") -> None:
        super().replace_file(collection, path, sections)
