"""Pre-checks that skip work on big files must not change a result: secrets.spans skips the
assignment regex on a line that holds no secret's name (_may_assign must never say no where the
regex could match); estimate_tokens counts without the two-group findall."""

from __future__ import annotations

import itertools
import random
import re
import sys

from qmem.memory import secrets

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore[no-redef]


def _spellings(items) -> list[str]:
    """Every string a regex matches, for one without open-ended repeats (lookarounds ignored)."""
    out = [""]
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            options = [chr(arg)]
        elif name == "IN":
            options = []
            for kind, value in arg:
                if str(kind) == "LITERAL":
                    options.append(chr(value))
                elif str(kind) == "RANGE":
                    options.append(chr(value[0]))
                    options.append(chr(value[1]))
                elif str(kind) == "NEGATE":
                    return []  # not in _KEY_WORDS
        elif name == "BRANCH":
            options = [s for branch in arg[1] for s in _spellings(branch)]
        elif name == "SUBPATTERN":
            options = _spellings(arg[-1])
        elif name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, body = arg
            assert high <= 2, "open-ended repeat"
            inner = _spellings(body)
            options = ["".join(p) for n in range(low, high + 1) for p in itertools.product(inner, repeat=n)]
        elif name in ("ASSERT", "ASSERT_NOT", "AT"):
            continue
        else:
            raise AssertionError(f"unexpected {name} in _KEY_WORDS")
        out = [a + b for a in out for b in options]
    return out


SPELLINGS = _spellings(sre_parse.parse(secrets._KEY_WORDS))


def test_every_spelling_of_a_name_passes_the_precheck() -> None:
    assert len(SPELLINGS) > 100 and "password" in SPELLINGS and "api key" in SPELLINGS and "密码" in SPELLINGS
    for word in SPELLINGS:
        for line in (word, word.upper(), word.title(), f"- **{word.title()}:** `Xk9#mQ2v`", f"the {word.upper()} = 4821"):
            assert secrets._may_assign(line), line


def test_the_precheck_says_no_only_where_the_regex_finds_nothing() -> None:
    lines = ["Deploy the app — then ping Ana → done ✅", "Ship it — call Ana → ✅ 10:30", "Meeting at 10:30 with Bob (room 4)", "x = 42",
             "plain words only", "Use UTC for every date: 2026-03-01", "A café… naïve résumé: 12",
             "Passcode=7781", "PIN: 4821", "recovery code = abcd-1234", "Token — ghp_abc: 9", "Kelvin KEY: x9",
             "ſecret: Xk9#mQ2v", "ınvalid", "APİ KEY: Xk9#mQ2v", "contraseña: Xk9#mQ2v", "ПАРОЛЬ: Xk9#mQ2v"]
    for line in lines + [f"{a} {b}: 9x" for a, b in itertools.product(SPELLINGS[:40], ("a", "—", "✅"))]:
        if not secrets._may_assign(line):
            assert not list(secrets._ASSIGNMENT.finditer(line)), line
    assert not secrets._may_assign("Deploy the site — then call Ana → done ✅ at 10:30")
    assert not secrets._may_assign("Shipping opinions: the codebase keyboard = 3")  # no name opens a word
    rng = random.Random(7)
    pieces = SPELLINGS + ["x", "ſ", "K", "ı", "İ", "é", "—", "✅", ":", "=", " ", "-", "_", "9", "Xk9#mQ2v", "`", "s"]
    for _ in range(20000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        line = line.upper() if rng.random() < 0.3 else line
        if not secrets._may_assign(line):
            assert not list(secrets._ASSIGNMENT.finditer(line)), line
    assert secrets._may_assign("ſecret: Xk9#mQ2v")  # ſ folds to s: the regex decides


def test_a_line_without_non_ascii_letters_matches_only_an_ascii_spelling() -> None:
    """A character that is no word character (a dash, an arrow, an emoji, U+0345 which folds to ι)
    may match a letter of a name under (?i); each non-ASCII spelling still holds a letter only word
    characters match, so a line with none of those goes to the regex only through an ASCII spelling."""
    letters = sorted({c for word in SPELLINGS for c in word if not c.isascii()})
    others = "".join(chr(c) for c in range(0x80, sys.maxunicode + 1)
                     if not 0xD800 <= c <= 0xDFFF and not re.match(r"\w", chr(c)))
    folded = {c for c in letters if re.search("(?i)" + re.escape(c), others)}
    assert {c for c in folded if re.match(r"\w", c)} == {"ι"}  # U+0345; the rest are marks (Devanagari, Thai)
    for word in SPELLINGS:
        if not word.isascii():
            assert any(not c.isascii() and c not in folded and re.match(r"\w", c) for c in word), word
    assert all(re.match(r"\w", c) for c in "İıſK")  # the only non-ASCII characters folding to ASCII letters
    assert not [c for c in others if re.match("(?i)[a-z]", c)]


def test_estimate_tokens_counts_runs_as_before() -> None:
    """estimate_tokens splits at CJK runs: one token per CJK character, a quarter per other
    character, the blanks at the ends of each other run not counted."""
    from qmem.text.analysis import estimate_tokens

    def slow(text: str) -> int:
        cjk = other = 0
        for han, rest in re.findall(r"([\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7ff]+)|([^\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7ff]+)", text):
            cjk += len(han)
            other += len(rest.strip())
        return cjk + (other + 3) // 4

    rng = random.Random(3)
    alphabet = " \t\nab—→é中文テ한\u3000\u00a0x"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert estimate_tokens(text) == slow(text), repr(text)
