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

`read_flat` reads a small flat object (meta.json of a vector store) without orjson, so a cold
`qmem query` imports none (orjson loads here on the first call that needs it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _orjson() -> Any:
    import orjson  # ~93M instructions the first time: only when a call needs it

    return orjson


def __getattr__(name: str) -> Any:
    if name == "DecodeError":  # a ValueError (and json.JSONDecodeError) subclass
        return _orjson().JSONDecodeError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def dump_bytes(value: object, pretty: bool = False) -> bytes:
    """UTF-8 JSON, as a file holds it."""
    orjson = _orjson()
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | (orjson.OPT_INDENT_2 if pretty else 0))


def dumps(value: object, pretty: bool = False) -> str:
    """JSON text: compact, or indented by two spaces (what `--json` prints)."""
    return dump_bytes(value, pretty).decode("utf-8")


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """The value JSON text holds; DecodeError (a ValueError) when it is not JSON."""
    return _orjson().loads(data)


def read(path: str) -> Any:
    """The value a JSON file holds (OSError when it cannot be read, DecodeError when it is not JSON)."""
    with open(path, "rb") as handle:
        return loads(handle.read())


def read_flat(path: str) -> Any:
    """What `read` gives, read without orjson when the file is a flat object of plain strings
    and integers (as `dump_bytes` writes a small state file); anything else goes to orjson."""
    with open(path, "rb") as handle:
        data = handle.read()
    value = _flat(data)
    return loads(data) if value is None else value


_SPACE = " \t\n\r"


def _flat(data: bytes) -> dict[str, object] | None:
    """The object `data` holds when it is `{"key": "text" | integer, ...}` with no escape, no
    control character, no float, no integer outside 64 bits and no nesting; None for anything
    else (orjson reads it)."""
    try:
        text = data.decode("utf-8").strip(_SPACE)
    except UnicodeDecodeError:
        return None
    if len(text) < 2 or text[0] != "{" or text[-1] != "}" or "\\" in text:
        return None
    if any(c < " " and c not in _SPACE for c in text):
        return None
    out: dict[str, object] = {}
    body, at = text[1:-1], 0

    def skip(at: int) -> int:
        while at < len(body) and body[at] in _SPACE:
            at += 1
        return at

    at = skip(at)
    while at < len(body):
        if body[at] != '"':
            return None
        end = body.find('"', at + 1)
        colon = skip(end + 1) if end > 0 else -1
        if colon < 0 or colon >= len(body) or body[colon] != ":":
            return None
        key, at = body[at + 1:end], skip(colon + 1)
        if at < len(body) and body[at] == '"':
            end = body.find('"', at + 1)
            if end < 0:
                return None
            out[key], at = body[at + 1:end], skip(end + 1)
        else:
            comma = body.find(",", at)
            token = body[at:len(body) if comma < 0 else comma].strip(_SPACE)
            digits = token[1:] if token.startswith("-") else token
            if not (digits.isascii() and digits.isdigit()) or (len(digits) > 1 and digits[0] == "0"):
                return None
            number = int(token)
            if not -2**63 <= number < 2**64:
                return None  # orjson reads it as a float
            out[key], at = number, len(body) if comma < 0 else comma
        if at < len(body):
            if body[at] != ",":
                return None
            at = skip(at + 1)
            if at >= len(body):
                return None  # a trailing comma
    return out
