#!/usr/bin/env python3
"""CI's type check: mypy over src/qmem with pyproject's [tool.mypy] (check_untyped_defs,
warn_unused_ignores), held to a ratchet that cannot go green falsely.

Every module is clean except those in PENDING, each with the number of errors it had when it
was listed. The check fails when a module outside PENDING has an error, when a pending module
has more errors than listed, and when a pending module has none (take it off the list: the clean
set only grows). Fewer errors than listed is reported, so the number can be lowered.
`python scripts/check_types.py` runs mypy; `--from FILE` reads a saved mypy output instead.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Not yet clean: module file -> its mypy errors when listed. Lower a number when you fix some;
# remove the line when the module is clean.
PENDING: dict[str, int] = {}

_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+(?::\d+)?: error: ")


def errors_per_file(mypy_output: str) -> Counter[str]:
    """`path: count` of mypy's `error:` lines (its notes do not count)."""
    return Counter(m.group("path") for m in map(_ERROR.match, mypy_output.splitlines()) if m)


def unread(mypy_output: str, found: Counter[str]) -> list[str]:
    """What mypy reported that `errors_per_file` did not count (an error outside a module, a
    summary line that disagrees): each is a failure, so a new output format cannot pass."""
    lines = mypy_output.splitlines()
    wrong = [f"unread mypy line: {line}" for line in lines if "error:" in line and not _ERROR.match(line)]
    summary = re.search(r"^Found (\d+) errors? in", mypy_output, re.M)
    if summary and int(summary.group(1)) != sum(found.values()):
        wrong.append(f"mypy says {summary.group(1)} errors, {sum(found.values())} read")
    if not summary and found:
        wrong.append("mypy reported errors without its 'Found N errors' line")
    if not summary and not found and not re.search(r"^Success: no issues found", mypy_output, re.M):
        wrong.append("mypy said neither 'Success' nor 'Found N errors'")
    return wrong


def verdict(found: Counter[str], pending: dict[str, int]) -> tuple[list[str], list[str]]:
    """(failures, notes) of the ratchet for mypy's error counts `found`."""
    failures: list[str] = []
    notes: list[str] = []
    for path, count in sorted(found.items()):
        if path not in pending:
            failures.append(f"{path}: {count} mypy error(s) in a module that was clean")
        elif count > pending[path]:
            failures.append(f"{path}: {count} mypy errors, more than the {pending[path]} listed in PENDING")
        elif count < pending[path]:
            notes.append(f"{path}: {count} mypy errors, fewer than the {pending[path]} listed: lower it in PENDING")
    failures += [f"{path}: clean now: remove it from PENDING in scripts/check_types.py"
                 for path in sorted(pending) if path not in found]
    return failures, notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="saved", help="a saved mypy output to judge instead of running mypy")
    args = parser.parse_args(argv)
    if args.saved:
        output = Path(args.saved).read_text(encoding="utf-8")
    else:
        run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
        output = run.stdout + run.stderr
        if run.returncode not in (0, 1):
            print(output, end="")
            print(f"check_types: mypy itself failed (exit {run.returncode})", file=sys.stderr)
            return 2
    found = errors_per_file(output)
    failures, notes = verdict(found, PENDING)
    failures += unread(output, found)
    for line in notes:
        print(f"note: {line}")
    if failures:
        print(output, end="")
        for line in failures:
            print(f"check_types: {line}", file=sys.stderr)
        return 1
    total = sum(found.values())
    if not PENDING:
        print("check_types: mypy clean, every module held clean")
    else:
        print(f"check_types: mypy clean outside {len(PENDING)} pending modules ({total} errors left in them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
