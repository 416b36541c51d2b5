"""Where a full build's CPU goes, stage by stage, on a corpus folder.

    python bench/profile_build.py CORPUS_DIR

Each stage is timed in CPU seconds of this process (user+sys, tantivy's indexing threads
included), in one process with the garbage collector off (as in a worker), so machine load
changes the numbers little. A build with workers (`qmem.engine.parallel`) runs read, parse and prepare
in the workers, marshal on both sides, and the Tantivy stages in the main process.
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

    import gc

    import tantivy
    import xxhash

    from qmem.text import analysis, markdown
    from qmem.backends.tantivy import index, writer
    from qmem.engine import parallel
    from qmem.engine.scan import scan

    gc.disable()  # as in a worker process (qmem.engine.parallel): the collector only costs time here
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

    every = [s for _, secs in parsed for s in secs]
    t = cpu()
    for s in every:
        analysis.heading_terms(s.heading)
    stage("heading terms (first time: term cache filling)", t)
    t = cpu()
    for s in every:
        analysis.index_terms(s.body)
    stage("body terms (first time: term cache filling)", t)
    analysis._heading_cache.clear()
    t = cpu()
    prepared = [(info.rel, index.prepare("bench", info.rel, secs)) for info, secs in parsed]
    stage("prepare: heading + body terms + stored record (warm term cache)", t)

    t = cpu()
    frames = [parallel._encode(prepared[at:at + parallel.CHUNK_FILES]) for at in range(0, len(prepared), parallel.CHUNK_FILES)]
    for frame in frames:
        parallel._decode(frame)
    stage("marshal + unmarshal (a worker's frames)", t)

    t = cpu()
    for rel, docs in prepared:
        for heading, body, types, date, expires, meta in docs:
            doc = tantivy.Document()
            doc.add_text("key", rel)
            doc.add_text("collection", "bench")
            doc.add_text("path", rel)
            doc.add_text("heading", heading)
            doc.add_text("body", body)
            for letter in types:
                doc.add_text("types", letter)
            doc.add_unsigned("date", date)
            doc.add_unsigned("expires", expires)
            doc.add_bytes("meta", meta)
    stage("(Document objects alone, for scale)", t)

    tmp = tempfile.mkdtemp(prefix="qmem-prof-")
    try:
        data_dir = os.path.join(tmp, "data")
        os.makedirs(data_dir)
        with writer.Writer(data_dir, 10) as w:
            tantivy_writer = w._open()
            t = cpu()
            for rel, docs in prepared:
                w.add_prepared("bench", rel, docs)
            stage("Tantivy: build docs + add_document (its indexing threads included)", t)
            t = cpu()
            tantivy_writer.commit()
            stage("Tantivy: commit (indexing threads catch up, segments written)", t)
            t = cpu()
            w.finish()
            stage("Tantivy: wait for merges", t)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    for label, seconds in rows:
        print(f"{seconds:8.2f} s  {1e6 * seconds / sections:6.1f} µs/section  {label}")


if __name__ == "__main__":
    main()
