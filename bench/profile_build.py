"""Where a full build's CPU goes, stage by stage, on a corpus folder.

    python bench/profile_build.py CORPUS_DIR

Each stage is timed in CPU seconds of this process (user+sys, tantivy's indexing threads
included), in one process (no worker processes), so machine load changes the numbers little.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    args = parser.parse_args()

    import tantivy
    import xxhash

    from qmem import analysis, markdown, writer
    from qmem.scan import scan

    rows: list[tuple[str, float]] = []

    def stage(label: str, started: float) -> None:
        rows.append((label, cpu() - started))

    t = cpu()
    files, _ = scan(args.corpus, ["**/*.md"], [])
    stage(f"scan ({len(files):,} files)", t)

    t = cpu()
    texts = []
    for info in files:
        with open(info.abs, "rb") as handle:
            data = handle.read()
        xxhash.xxh3_64_hexdigest(data)
        texts.append((info, data.decode("utf-8-sig")))
    stage("read + hash + decode", t)

    t = cpu()
    parsed = [(info, markdown.parse(text, markdown.parse_date(os.path.basename(info.rel)))) for info, text in texts]
    sections = sum(len(s) for _, s in parsed)
    stage(f"parse ({sections:,} sections)", t)

    bodies = [s.body for _, secs in parsed for s in secs]
    t = cpu()
    for body in bodies:
        analysis.terms(body)
    stage("analyzer.analyze(body), Python call included", t)

    for name in ("qmem",):
        tmp = tempfile.mkdtemp(prefix="qmem-prof-")
        try:
            data_dir = os.path.join(tmp, "data")
            os.makedirs(data_dir)
            w = writer.Writer(data_dir, 10)
            with w:
                tantivy_writer = w._open()
                t = cpu()
                for info, secs in parsed:
                    w.add_sections("bench", info.rel, secs)
                stage(f"[{name}] build docs + add_document", t)
                t = cpu()
                tantivy_writer.commit()
                stage(f"[{name}] commit (indexing threads catch up)", t)
                t = cpu()
                w.finish()
                stage(f"[{name}] wait for merges", t)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    t = cpu()
    for _, secs in parsed:
        for s in secs:
            doc = tantivy.Document()
            doc.add_text("key", s.anchor)
    stage("(Document() + one add_text, per section, for scale)", t)

    for label, seconds in rows:
        print(f"{seconds:8.2f} s  {label}")
    print(f"sections: {sections:,}; µs per section: " + ", ".join(f"{label.split(' (')[0]} {1e6 * s / sections:.1f}" for label, s in rows))


if __name__ == "__main__":
    main()
