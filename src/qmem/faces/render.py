"""Records → text for people, JSON for machines, Markdown for prompts. Returns strings only.

Colour is decided by the caller (a TTY and no NO_COLOR); the library never looks at stdout.
"""

from __future__ import annotations

from ..base.conventions import plural

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..engine.retrieve import Excerpt
    from ..engine.search import Hit
    from ..engine.sync import RefreshReport
    from .reports import (  # noqa: F401 - what __getattr__ hands out, for the type checker
        collections_text,
        collection_text,
        status_text,
        eval_text,
        tree_text,
        review_text,
        boot_text,
        duplicate_text,
        flush_text,
        doctor_text,
        forget_text,
        replace_text,
        distill_text,
        janitor_text,
        maintain_text,
    )

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_PATH = "\x1b[35m"
_HEAD = "\x1b[36m"
_MARK = "\x1b[1;31m"


def to_json(value: object) -> str:
    """What a `--json` off the start-up path prints: orjson, indented (base/jsonio.py)."""
    from ..base import jsonio

    return jsonio.dumps(value, pretty=True)


def startup_json(value: object) -> str:
    """What the start-up path prints (a cold `qmem search`/`get`, `qmem index`'s report,
    `qmem-qmd search`): `json.dumps(value, ensure_ascii=False, indent=2)`'s text, byte for
    byte, the same as `to_json`, from the encoder below, which imports no JSON library:
    `import json` brings `re` and `enum` (~30M instructions), orjson ~93M, a cold search is
    ~80M in all. Strings go through the C function `json` itself uses
    (escaped as `_json.encode_basestring` does, without loading `_json`), numbers through `int.__repr__` / `float.__repr__` as in
    `json.encoder`, the checks in the same order (tests/faces/test_startup_json.py compares
    the two). What `json` refuses (an unknown type, a key of another type, a circular
    reference) raises the error `json` raises. Here, not in a module of its own: a module
    costs a cold search ~0.4M instructions."""
    return _dumps(value)


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color and text else text


def _highlight(line: str, spans: list[tuple[int, int]], color: bool) -> str:
    if not color or not spans:
        return line
    out, pos = [], 0
    for start, end in spans:
        out.append(line[pos:start])
        out.append(f"{_MARK}{line[start:end]}{_RESET}")
        pos = end
    out.append(line[pos:])
    return "".join(out)


def _numbered(first: int, lines: list[str], color: bool, spans: list | None = None,
              numbers: Sequence[int | None] | None = None) -> list[str]:
    """Lines with their file line numbers (`numbers`, None for a `…` gap; else from `first`)."""
    numbers = numbers or [first + k for k in range(len(lines))]
    width = max((len(str(n)) for n in numbers if n is not None), default=1)
    out = []
    for k, line in enumerate(lines):
        number = _paint(str(numbers[k] if numbers[k] is not None else "").rjust(width), _DIM, color)
        out.append(f"  {number}  {_highlight(line, spans[k] if spans else [], color)}")
    return out


def hits_text(hits: list[Hit], color: bool = False, full: bool = False, explain: bool = False) -> str:
    """One block per hit: `path:line`, breadcrumb, score; then numbered snippet lines."""
    blocks: list[str] = []
    for hit in hits:
        where = _paint(f"{hit.path}:{hit.line}", _PATH + _BOLD, color)
        heading = _paint(hit.heading, _HEAD, color) if hit.heading else _paint("(top of file)", _DIM, color)
        meta = _paint(f"[{hit.collection}] {hit.score:.2f}" + (" expired" if hit.expired else ""), _DIM, color)
        block = [f"{where}  {heading}  {meta}"]
        if full:
            block.extend(_numbered(hit.body_line, hit.body.split("\n") if hit.body else [], color))
        else:
            snip = hit.snippet
            block.extend(_numbered(snip.line, snip.lines, color, snip.spans, snip.numbers))
        if explain and hit.explain:
            block.extend(_paint(f"  ? {row}", _DIM, color) for row in explain_rows(hit.explain))
        blocks.append("\n".join(block))
    return "\n\n".join(blocks)


def explain_rows(explain: dict) -> list[str]:
    """`--explain` as text lines: BM25, the best entry's score and the matched units with their
    weights, priors, window."""
    units = ", ".join(f"{unit} {weight:g}" for unit, weight in explain.get("units", {}).items())
    entry = f"; best entry {explain['entry']:g}" if "entry" in explain else ""
    rows = [f"bm25 {explain['bm25']:g}{entry}; units: {units or 'none'}"]
    if "date_prior" in explain:
        prior = explain["date_prior"]
        rows.append(f"date prior ×{prior['factor']:g} (days {', '.join(prior['ranges'])})")
    if "recency" in explain:
        rows.append(f"recency ×{explain['recency']:g}")
    if "order_prior" in explain:
        prior = explain["order_prior"]
        rows.append(f"{prior['order']}-time prior ×{prior['factor']:g}")
    if "speaker_prior" in explain:
        prior = explain["speaker_prior"]
        other = "user" if prior["side"] == "assistant" else "assistant"
        rows.append(f"asks about the {prior['side']}'s words: the {other}'s lines ×{prior['other_side']:g}")
    rows.append(f"window: {explain['window']}")
    return rows


def hits_json(hits: list[Hit], full: bool = False) -> str:
    return startup_json([hit.to_dict(full) for hit in hits])


def hits_openclaw(hits: list[Hit]) -> str:
    """OpenClaw's memory_search shape: {results: [{path, startLine, endLine, score, snippet,
    source, citation}]}, lines of the snippet shown."""
    return startup_json({"results": openclaw_results(hits)})


def openclaw_results(hits: list[Hit]) -> list[dict[str, object]]:
    """The result records of OpenClaw's memory_search (the CLI and the MCP server share them)."""
    results = []
    for hit in hits:
        start, end = hit.line, max(hit.line, hit.shown_lines[1])
        results.append({"path": hit.path, "startLine": start, "endLine": end, "score": round(hit.score, 4),
                        "snippet": hit.snippet.text, "source": "memory", "citation": f"{hit.path}#L{start}-L{end}"})
    return results


def hits_files(hits: list[Hit]) -> str:
    """`abs_path:line` per hit (its best line), usable from any folder; repeats dropped."""
    seen: dict[str, None] = {}
    for hit in hits:
        seen.setdefault(f"{hit.abs_path}:{hit.line}", None)
    return "\n".join(seen)


def hits_markdown(hits: list[Hit], full: bool = False) -> str:
    """Markdown to paste into a prompt: a heading per hit, its source, the text."""
    blocks: list[str] = []
    for hit in hits:
        title = hit.heading or hit.path
        text = hit.body if full else hit.snippet.text
        blocks.append(f"### {title}\n`{hit.path}:{hit.line}` · {hit.collection} · score {hit.score:.2f}\n\n{text}".rstrip())
    return "\n\n".join(blocks)


def excerpt_text(excerpt: Excerpt, color: bool = False) -> str:
    header = _paint(f"{excerpt.path}:{excerpt.line_start}-{excerpt.line_end}", _PATH + _BOLD, color)
    if excerpt.heading:
        header += "  " + _paint(excerpt.heading, _HEAD, color)
    return "\n".join([header, *_numbered(excerpt.line_start, excerpt.lines, color)])


def excerpt_json(excerpt: Excerpt) -> str:
    return startup_json(excerpt.to_dict())


def refresh_text(report: RefreshReport) -> str:
    """One line per collection: what changed, the sections it now has, the time taken."""
    lines = []
    if report.rebuilt_from:
        lines.append(f"rebuilt the index (format changed; removed {', '.join(report.rebuilt_from)})")
    for c in report.collections:
        if c.skipped_root:
            lines.append(f"{c.name}: root missing, skipped")
            continue
        mode = " (full rebuild)" if c.full else ""
        lines.append(
            f"{c.name}: {plural(c.files, 'file')}, {plural(c.sections, 'section')} — {c.added} added, {c.changed} changed, "
            f"{c.deleted} deleted, {c.unchanged} unchanged{mode}"
        )
    for name in report.purged:
        lines.append(f"{name}: no longer configured; removed from the index")
    lines.append(f"done in {report.seconds:.2f}s")
    return "\n".join(lines)


def __getattr__(name: str) -> object:
    """The other commands' text renderers, loaded on first use (faces/reports.py)."""
    if name.startswith("__"):
        raise AttributeError(name)
    from . import reports

    try:
        return getattr(reports, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


# -- the start-up JSON encoder (see startup_json) ------------------------------------------

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


def _dumps(value: object) -> str:
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
