"""The one JSON road: every JSON file qmem writes or reads, and every `--json` printed off the
start-up path, goes through orjson (the stack's JSON library) here.

The start-up path (a cold `qmem search` / `qmem get`, and `qmem index`'s printed report) prints
with `faces/render.startup_json` instead: importing orjson costs ~93M instructions (it imports json,
dataclasses, inspect, uuid and enum), more than a whole cold search (~76M), so nothing a cold
search imports may import this module (tests/faces/test_startup.py; the rule that only these two
modules touch a JSON library is tests/project/test_architecture.py::test_one_json_road).

`dumps(..., pretty=True)` is `json.dumps(value, ensure_ascii=False, indent=2)`'s text for the
values qmem prints (dicts, lists, strings, ints, bools, None, floats written without an
exponent), so a `--json` reads the same whichever road printed it (tests/faces/test_startup_json.py).
The compact form has no spaces (`{"a":1}`). Dict keys that are not strings (ints) are written
as strings, as `json` does.
"""

from __future__ import annotations

import orjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DecodeError = orjson.JSONDecodeError  # a ValueError (and json.JSONDecodeError) subclass
_PRETTY = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
_COMPACT = orjson.OPT_NON_STR_KEYS


def dump_bytes(value: object, pretty: bool = False) -> bytes:
    """UTF-8 JSON, as a file holds it."""
    return orjson.dumps(value, option=_PRETTY if pretty else _COMPACT)


def dumps(value: object, pretty: bool = False) -> str:
    """JSON text: compact, or indented by two spaces (what `--json` prints)."""
    return dump_bytes(value, pretty).decode("utf-8")


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """The value JSON text holds; DecodeError (a ValueError) when it is not JSON."""
    return orjson.loads(data)


def read(path: str) -> Any:
    """The value a JSON file holds (OSError when it cannot be read, DecodeError when it is not JSON)."""
    with open(path, "rb") as handle:
        return orjson.loads(handle.read())
