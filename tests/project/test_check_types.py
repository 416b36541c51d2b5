"""scripts/check_types.py, CI's mypy ratchet: it fails on any error outside the pending modules,
on a pending module that got worse or got clean, and on mypy output it cannot read."""

from __future__ import annotations

import sys
from collections import Counter

from ..conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))

import check_types  # found through the sys.path line above

OUT = """\
src/qmem/a.py:3: error: Incompatible types in assignment  [assignment]
src/qmem/a.py:4: note: see here
src/qmem/a.py:9:5: error: Item "None" has no attribute "x"  [union-attr]
src/qmem/b.py:1: error: Unused "type: ignore" comment  [unused-ignore]
Found 3 errors in 2 files (checked 9 source files)
"""


def judge(output: str, pending: dict[str, int]) -> list[str]:
    found = check_types.errors_per_file(output)
    return check_types.verdict(found, pending)[0] + check_types.unread(output, found)


def test_errors_are_counted_per_file_notes_are_not():
    assert check_types.errors_per_file(OUT) == Counter({"src/qmem/a.py": 2, "src/qmem/b.py": 1})


def test_pending_modules_at_or_below_their_count_pass():
    assert judge(OUT, {"src/qmem/a.py": 2, "src/qmem/b.py": 1}) == []
    assert judge(OUT, {"src/qmem/a.py": 5, "src/qmem/b.py": 1}) == []
    assert check_types.verdict(Counter({"src/qmem/a.py": 2}), {"src/qmem/a.py": 5})[1] == [
        "src/qmem/a.py: 2 mypy errors, fewer than the 5 listed: lower it in PENDING"]


def test_an_error_in_a_clean_module_fails():
    assert judge(OUT, {"src/qmem/a.py": 2}) == ["src/qmem/b.py: 1 mypy error(s) in a module that was clean"]


def test_a_pending_module_with_more_errors_fails():
    assert judge(OUT, {"src/qmem/a.py": 1, "src/qmem/b.py": 1}) == [
        "src/qmem/a.py: 2 mypy errors, more than the 1 listed in PENDING"]


def test_a_pending_module_that_is_clean_now_must_leave_the_list():
    assert judge(OUT, {"src/qmem/a.py": 2, "src/qmem/b.py": 1, "src/qmem/c.py": 4}) == [
        "src/qmem/c.py: clean now: remove it from PENDING in scripts/check_types.py"]


def test_output_it_cannot_read_fails():
    assert judge("Success: no issues found in 9 source files\n", {}) == []
    assert judge("", {}) == ["mypy said neither 'Success' nor 'Found N errors'"]
    assert judge("pyproject.toml: error: bad option\nFound 1 error in 1 file\n", {}) == [
        "unread mypy line: pyproject.toml: error: bad option", "mypy says 1 errors, 0 read"]


def test_the_pending_list_names_real_modules():
    assert all((ROOT / path).is_file() for path in check_types.PENDING)
