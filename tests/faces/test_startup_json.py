"""`render.startup_json` (the start-up path's hand encoder) writes exactly what `json.dumps(..., ensure_ascii=False, indent=2)` writes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.faces import render


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
    assert render.startup_json(value) == expected(value)


def test_search_hit_shape():
    hit = {"collection": "c", "path": "memory/2026-01-02.md", "line": 3, "score": 2.6633, "snippet": "私钥\n- [K] \"x\"\t\x01",
           "date": None, "types": ["K", "!"], "stale": False, "expired": True, "ranks": {"bm25": 1, "vector": 2.5e-07}}
    assert render.startup_json([hit, [], {}, (1, "a")]) == expected([hit, [], {}, (1, "a")])


def test_subclasses_are_written_as_json_writes_them():
    class Number(int):
        def __repr__(self) -> str:
            return "other"

    class Text(str):
        pass

    value = {Text("k"): [Number(5), Text("v"), 1.5]}
    assert render.startup_json(value) == expected(value)


def test_what_json_refuses_fails_the_same_way():
    with pytest.raises(TypeError, match="not JSON serializable"):
        render.startup_json({"when": object()})
    with pytest.raises(TypeError, match="keys must be"):
        render.startup_json({(1, 2): 3})
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        render.startup_json(loop)


plain_floats = st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f == 0 or 1e-4 <= abs(f) < 1e16)
printed = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | plain_floats
    | st.text(alphabet=st.characters(codec="utf-8")),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet=st.characters(codec="utf-8")),
                                                                inner, max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(printed)
def test_both_roads_print_the_same_text(value):
    """A `--json` reads the same whichever road printed it: orjson (to_json, off the start-up
    path) and the hand encoder, for what qmem prints (no NaN, no float needing an exponent)."""
    assert render.to_json(value) == render.startup_json(value)
