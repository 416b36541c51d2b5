"""`jsontext.dumps` writes exactly what `json.dumps(..., ensure_ascii=False, indent=2)` writes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.base import jsontext


def expected(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)))
keys = st.text() | st.integers() | st.floats() | st.booleans() | st.none()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(values)
def test_same_text_as_json(value):
    assert jsontext.dumps(value) == expected(value)


def test_search_hit_shape():
    hit = {"collection": "c", "path": "memory/2026-01-02.md", "line": 3, "score": 2.6633, "snippet": "私钥\n- [K] \"x\"\t\x01",
           "date": None, "types": ["K", "!"], "stale": False, "expired": True, "ranks": {"bm25": 1, "vector": 2.5e-07}}
    assert jsontext.dumps([hit, [], {}, (1, "a")]) == expected([hit, [], {}, (1, "a")])


def test_subclasses_are_written_as_json_writes_them():
    class Number(int):
        def __repr__(self) -> str:
            return "other"

    class Text(str):
        pass

    value = {Text("k"): [Number(5), Text("v"), 1.5]}
    assert jsontext.dumps(value) == expected(value)


def test_what_json_refuses_fails_the_same_way():
    with pytest.raises(TypeError, match="not JSON serializable"):
        jsontext.dumps({"when": object()})
    with pytest.raises(TypeError, match="keys must be"):
        jsontext.dumps({(1, 2): 3})
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        jsontext.dumps(loop)
