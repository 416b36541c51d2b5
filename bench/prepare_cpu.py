"""CPU per section of the worker side of a build (`index.prepare` and the pipe), part by part.

    python bench/prepare_cpu.py CORPUS_DIR [--files N] [--rounds R]

The corpus is read and parsed once; then each part runs over every section R times and the
best round is kept (CPU seconds of this process: on a shared machine the fastest round is the
one least disturbed). Each round meets every heading afresh, as a worker does; "cold" is
`prepare`'s first round, with an empty term cache too, as a worker process starts. Prints
µs per section.
"""

from __future__ import annotations

import argparse
import os
import pickle
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("--files", type=int, default=0, help="only the first N files (0: all)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from qmem.text import analysis
    from qmem.backends.tantivy import index
    from qmem.engine import parallel
    from qmem.engine.reading import read_sections
    from qmem.engine.scan import scan

    files, _ = scan(args.corpus, ["**/*.md"], [])
    files = files[: args.files] if args.files else files
    parsed = []
    for info in files:
        read = read_sections(info)
        parsed.append((info, read.sections or []))
    sections = [s for _, secs in parsed for s in secs]
    count = len(sections)
    headings = [s.heading for s in sections]
    bodies = [s.body for s in sections]

    def best(fn, rounds: int = args.rounds) -> float:
        times = []
        for _ in range(rounds):
            forget = getattr(analysis, "_heading_cache", None)  # a worker meets each heading once
            if forget is not None:
                forget.clear()
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        return 1e6 * min(times) / count

    rows = []
    t = time.process_time()
    for info, secs in parsed:
        index.prepare("bench", info.rel, secs)
    rows.append(("prepare, cold term cache", 1e6 * (time.process_time() - t) / count))
    rows.append(("prepare", best(lambda: [index.prepare("bench", i.rel, s) for i, s in parsed])))
    heading_terms = getattr(analysis, "heading_terms", analysis.index_terms)  # older trees: none
    rows.append(("  heading terms", best(lambda: [heading_terms(h) for h in headings])))
    rows.append(("  index_terms(body)", best(lambda: [analysis.index_terms(b) for b in bodies])))
    rows.append(("  body_hash", best(lambda: [index.body_hash(b) for b in bodies])))

    results = [(info.rel, index.prepare("bench", info.rel, secs)) for info, secs in parsed]
    chunks = [results[i:i + parallel.CHUNK_FILES] for i in range(0, len(results), parallel.CHUNK_FILES)]
    encode = getattr(parallel, "_encode", lambda value: pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    decode = getattr(parallel, "_decode", pickle.loads)  # (older trees pickled their frames)
    frames = [encode(c) for c in chunks]
    rows.append(("frame encode (worker)", best(lambda: [encode(c) for c in chunks])))
    rows.append(("frame decode (main)", best(lambda: [decode(f) for f in frames])))
    rows.append(("  pickle.dumps for scale", best(lambda: [pickle.dumps(c, pickle.HIGHEST_PROTOCOL) for c in chunks])))
    print(f"{len(files):,} files, {count:,} sections, best of {args.rounds} rounds (CPU µs/section):")
    for label, us in rows:
        print(f"{us:8.2f}  {label}")
    print(f"frame bytes/section: {sum(map(len, frames)) / count:.0f}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
