"""The tree and boot on big MEMORY.md files: a 4 MB file migrates in seconds; boot and doctor on a
100 MB file answer (or refuse in one line) at once.

    python bench/tree_big.py [--data ../shared/data/memory-md-dev] [--mb 4] [--huge-mb 100]

The 4 MB file repeats the dev files' sections (numbered headings, so none is a duplicate) until it
reaches the size; `tree migrate` runs in-process (CPU seconds, as the machine is shared), then
`qmem boot` and `qmem doctor` run as fresh processes on a 100 MB MEMORY.md (wall seconds, first
line of their output, exit code).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from tree_real import split_files  # noqa: E402 - found through the sys.path line above


def big_text(data: str, size: int) -> str:
    sections = []
    for name, _ in split_files(data)[0]:
        text = open(os.path.join(data, name), encoding="utf-8").read()
        sections += re.split(r"(?m)^(?=## )", text)[1:]
    out, n, total = ["# Memory\n\n"], 0, 0
    while total < size:
        part = sections[n % len(sections)]
        out.append(re.sub(r"^## ", f"## {n} ", part, count=1).rstrip("\n") + "\n\n")
        total += len(out[-1].encode())
        n += 1
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="/work/shared/data/memory-md-dev")
    parser.add_argument("--mb", type=float, default=4)
    parser.add_argument("--huge-mb", type=float, default=100)
    parser.add_argument("--dry-only", action="store_true", help="only the 4 MB dry run (for A/B timing)")
    args = parser.parse_args()
    from qmem.memory.tree import grow as tree

    tmp = tempfile.mkdtemp(prefix="qmem-tree-big-")
    try:
        root = os.path.join(tmp, "ws")
        os.makedirs(os.path.join(root, "memory"))
        text = big_text(args.data, int(args.mb * 1e6))
        with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as handle:
            handle.write(text)
        for dry in (True, False)[: 1 if args.dry_only else 2]:
            cpu, wall = time.process_time(), time.perf_counter()
            result = tree.migrate(tree.Workspace(root), force=True, dry_run=dry, day="2026-03-01")
            print(f"migrate{' --dry-run' if dry else ''} on {len(text.encode()) / 1e6:.1f} MB "
                  f"({text.count(chr(10) + '## ')} sections): {time.process_time() - cpu:.1f} s CPU, "
                  f"{time.perf_counter() - wall:.1f} s wall, root {result.tokens_after} tokens")
        if args.dry_only:
            return
        huge = os.path.join(tmp, "huge")
        os.makedirs(os.path.join(huge, "memory"))
        with open(os.path.join(huge, "MEMORY.md"), "w", encoding="utf-8") as handle:
            block = text[: 1 << 20]
            for _ in range(int(args.huge_mb * 1e6) // len(block.encode()) + 1):
                handle.write(block)
        qmem = os.path.join(os.path.dirname(sys.executable), "qmem")
        env = dict(os.environ, QMEM_DATA=os.path.join(tmp, "data"), QMEM_CONFIG=os.path.join(tmp, "config.toml"))
        for command in (["boot", huge], ["doctor", "-w", huge], ["tree", "migrate", "--dry-run", huge]):
            wall = time.perf_counter()
            done = subprocess.run([qmem, *command], capture_output=True, text=True, env=env, timeout=600)
            lines = (done.stdout + done.stderr).strip().splitlines()
            print(f"qmem {' '.join(command[:-1]).replace(' -w', '')} on {os.path.getsize(os.path.join(huge, 'MEMORY.md')) / 1e6:.0f} MB: "
                  f"exit {done.returncode} in {time.perf_counter() - wall:.1f} s wall, "
                  f"{len(lines)} line(s): {next((x for x in lines if 'MEMORY' in x), lines[0] if lines else '')[:150]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
