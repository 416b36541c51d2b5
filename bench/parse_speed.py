"""CPU cost of `qmem.text.markdown.parse` per section, on the Markdown files of a folder.

    python bench/parse_speed.py [FOLDER] [--rounds 5] [--reference]

Files are read and decoded first; then every round parses all of them and is timed with
`time.process_time` (CPU of this process, so other load on the machine moves it little).
The best round is printed as µs per section; the parsers' caches (tags seen) are emptied
before each round. `--reference` times the parser kept under
tests/reference/markdown_reference.py (the line-based one) in interleaved rounds, for an A/B ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def texts(folder: str) -> list[tuple[str, str]]:
    """(file name, text) of every `.md` file under `folder`, in path order."""
    found = []
    for base, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".md"):
                with open(os.path.join(base, name), "rb") as handle:
                    found.append((name, handle.read().decode("utf-8-sig", "replace")))
    return found


def one_round(module, files: list[tuple[str, str]]) -> tuple[float, int]:
    """(CPU seconds, sections) of `module.parse` on every file once, file dates included (as
    `reading` does), its caches emptied first: like a worker process that starts fresh."""
    for name in ("_TAG_MEANING", "_RUN_MEANING", "_SECTION_TAGS"):
        getattr(module, name, {}).clear()
    parse, parse_date = module.parse, module.parse_date
    started = time.process_time()
    count = 0
    for name, text in files:
        count += len(parse(text, parse_date(name)))
    return time.process_time() - started, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="/work/tools/c20k")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reference", action="store_true", help="also time tests/reference/markdown_reference.py")
    args = parser.parse_args()

    from qmem.text import markdown

    parsers = {"parse": markdown}
    if args.reference:
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        import markdown_reference

        parsers = {"reference": markdown_reference, **parsers}
    files = texts(args.folder)
    best = {label: float("inf") for label in parsers}
    sections = 0
    for _ in range(args.rounds):
        for label, module in parsers.items():  # interleaved: load changes hit both alike
            seconds, sections = one_round(module, files)
            best[label] = min(best[label], seconds)
    print(f"{len(files)} files, {sections} sections, best of {args.rounds} rounds (CPU)")
    for label, seconds in best.items():
        print(f"{label:>10}: {seconds:.3f} s, {seconds / sections * 1e6:.2f} µs/section")
    if args.reference:
        print(f"     ratio: {best['parse'] / best['reference']:.3f} (parse / reference)")


if __name__ == "__main__":
    main()
