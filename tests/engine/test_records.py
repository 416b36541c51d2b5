"""The records the engine returns take their fields by name: a misspelt field is an error,
never a silently missing value."""

from __future__ import annotations

import pytest

from qmem.engine.catalog import CollectionStatus, overview
from qmem.engine.hits import Hit
from qmem.text.snippets import Snippet

HIT = {"collection": "c", "path": "a.md", "abs_path": "/a.md", "anchor": "", "heading": "", "line_start": 1,
       "line_end": 2, "score": 1.0, "snippet": Snippet(1, [], [])}
STATUS = {"name": "c", "root": "/r", "patterns": ["*.md"], "exclude": [], "description": "", "root_exists": True,
          "files": 1, "sections": 2, "last_refresh": None, "stale": 0, "new": 0, "changed": 0, "deleted": 0,
          "index_bytes_est": 0}


@pytest.mark.parametrize(("record", "fields"), [(Hit, HIT), (CollectionStatus, STATUS)])
def test_a_misspelt_field_is_refused(record, fields):
    made = record(**fields)
    assert all(getattr(made, name) == value for name, value in fields.items())
    with pytest.raises(TypeError):
        record(**{**fields, "scroe" if record is Hit else "stael": 1})
    required = "line_start" if record is Hit else "files"
    with pytest.raises(TypeError):
        record(**{k: v for k, v in fields.items() if k != required})


def test_search_and_status_fill_every_field(cfg):
    from qmem.engine.search import search

    hit = search(cfg, "rsync")[0]
    assert all(hasattr(hit, name) for name in Hit.__slots__)
    assert hit.ranks is None and hit.explain is None and hit.date is None
    row = overview(cfg)[0]
    assert row.to_dict().keys() == set(CollectionStatus.__slots__)
