"""Test helpers that read the index directly."""

from __future__ import annotations

import tantivy

from qmem.backends.tantivy import searcher as searcher_mod


def index_snapshot(data_dir: str) -> list[tuple]:
    """Every document as a sortable tuple: what a full rebuild must reproduce exactly."""
    idx = searcher_mod.open_reader(data_dir)
    searcher = idx.searcher()
    total = searcher.num_docs
    if total == 0:
        return []
    rows = []
    for _score, address in searcher.search(tantivy.Query.all_query(), total).hits:
        d = searcher_mod.stored_fields(searcher.doc(address))
        rows.append((
            d["collection"][0], d["path"][0], d["anchor"][0], d["line_start"][0], d["line_end"][0],
            d.get("heading", [""])[0], d["body_hash"][0], tuple(d.get("types", [])), d["date"][0],
        ))
    return sorted(rows)
