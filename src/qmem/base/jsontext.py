"""`json.dumps(value, ensure_ascii=False, indent=2)` without importing `json`.

`import json` compiles regular expressions, so it brings in `re` and `enum`: ~30M
instructions, about 6 ms of a cold `qmem search --json` that is ~25 ms in all. Strings are
escaped as `json`'s `encode_basestring` escapes them (without loading its C extension `_json`,
~0.6M instructions), numbers go through `int.__repr__` / `float.__repr__` as in `json.encoder`,
and the checks run in the same order, so the text is the same byte for byte
(tests/base/test_jsontext.py compares the two). A value `json` would refuse (an unknown type, a
key of another type, a circular reference) raises the error `json` raises (TypeError,
ValueError). This module and base/jsonio.py (orjson, the one JSON road off the start-up path)
are the only ones that write or read JSON.
"""

from __future__ import annotations

_INF = float("inf")
# The C0 controls as `json` escapes them when ensure_ascii is off (the five with a short form,
# the rest as \u00XX); the quote and the backslash are escaped first, every other character
# stays itself.
_CONTROLS = {**{code: f"\\u{code:04x}" for code in range(0x20)},
             0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}


def _quote(text: str) -> str:
    """`_json.encode_basestring(text)`: the string between quotes, escaped as `json` does.
    `str.replace` and `isprintable` scan in C; only a string with a control other than a line
    break pays for `translate` (a dict lookup per character)."""
    if "\\" in text or '"' in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    if not text.isprintable():
        text = text.replace("\n", "\\n")  # a snippet's line breaks
        if not text.isprintable():
            text = text.translate(_CONTROLS)
    return '"' + text + '"'


class _Refused(Exception):
    """A value JSON cannot hold (its message is json's)."""


def dumps(value: object) -> str:
    """The text of `json.dumps(value, ensure_ascii=False, indent=2)`."""
    out: list[str] = []
    try:
        _encode(value, "\n", out)
    except _Refused as exc:
        raise TypeError(str(exc)) from None
    except RecursionError:
        raise ValueError("Circular reference detected") from None
    return "".join(out)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _scalar(value: object) -> str:
    if isinstance(value, str):
        return _quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    raise _Refused(f"Object of type {type(value).__name__} is not JSON serializable")


def _key(key: object) -> str:
    """A dict key as `json` writes it: a string as it is, a number, true, false or null as text
    (json tests float before int; no type is both, so `_scalar`'s order gives the same)."""
    if isinstance(key, str):
        return _quote(key)
    if key is None or isinstance(key, (int, float)):  # bool is an int
        return _quote(_scalar(key))
    raise _Refused(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _encode(value: object, newline: str, out: list[str]) -> None:
    if isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        sep = "[" + inner
        for item in value:
            out.append(sep)
            sep = "," + inner
            _encode(item, inner, out)
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        sep = "{" + inner
        for key, item in value.items():
            out.append(sep + _key(key) + ": ")
            sep = "," + inner
            _encode(item, inner, out)
        out.append(newline + "}")
    else:
        out.append(_scalar(value))
