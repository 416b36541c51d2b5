"""The oracle of `qmem.text.token_classes`: tantivy's own regex tokenizer read for every code
point. `tests/text/test_analysis.py` compares the library's tables with it; after a tantivy
upgrade moves a code point, `python -m tests.reference.token_classes_oracle` rewrites them.

Kept out of the library on purpose: outside backends/tantivy only the tokenizer
(`qmem.text.analysis`) imports tantivy (tests/project/architecture_rules.py)."""

from __future__ import annotations

import pathlib
import re

import tantivy

from qmem.text import analysis, token_classes


def derive(pattern: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(SINGLE, RUN) ranges as tantivy's regex tokenizer with `pattern` (a single-character
    class, or a run class) sees every code point (~2 s)."""
    regex = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(pattern)).build()
    chunk = 50_000
    codes = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    members: list[int] = []
    for i in range(0, len(codes), chunk):
        members += [ord(t) for t in regex.analyze(" ".join(map(chr, codes[i:i + chunk])))]
    single: list[int] = []
    run: list[int] = []
    for i in range(0, len(members), chunk):
        part = members[i:i + chunk]
        toks = regex.analyze(" ".join(chr(c) * 2 for c in part))
        j = 0
        for c in part:  # a doubled run character is one token, a doubled single one is two
            if toks[j] == chr(c) * 2:
                run.append(c)
                j += 1
            else:
                single.append(c)
                j += 2
    return _to_ranges(single), _to_ranges(run)


def _to_ranges(codes: list[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for c in codes:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return [(a, b) for a, b in out]


def _table(rs: list[tuple[int, int]]) -> str:
    items = [f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in rs]
    return "\n".join(" ".join(items[i:i + 10]) for i in range(0, len(items), 10))


def write(pattern: str = analysis.TOKEN_PATTERN) -> None:
    """Rewrite the SINGLE and RUN tables in qmem/text/token_classes.py from `derive(pattern)`."""
    here = pathlib.Path(token_classes.__file__)
    tables = dict(zip(("SINGLE", "RUN"), derive(pattern), strict=True))
    here.write_text(re.sub(
        r'^(SINGLE|RUN) = """\n.*?\n"""',
        lambda m: f'{m.group(1)} = """\n{_table(tables[m.group(1)])}\n"""',
        here.read_text(encoding="utf-8"), flags=re.S | re.M,
    ), encoding="utf-8")


if __name__ == "__main__":
    write()
