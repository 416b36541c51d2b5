"""A build's peak memory: Tantivy indexes on one thread holding the writer's whole heap.

Each indexing thread writes a segment when its share of the heap is full, and Tantivy merges
segments eight of a size at a time, mapping every input file while it merges. With two threads
(~94k sections a segment) a build of a million sections merged eight of them and peaked at 456 MB
RSS; one thread writes segments of ~245k, so such a build makes five and merges none (peak
measured in docs/performance.md, `bench/scale.py`).
"""

from __future__ import annotations

import os
import sys
import time

import pytest

from qmem.backends.tantivy import index, writer
from qmem.text import markdown


def _indexing_threads() -> int:
    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm", encoding="utf-8") as handle:
                names.append(handle.read().strip())
        except OSError:
            continue
    return sum(1 for name in names if name.startswith("thrd-tantivy-in"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread names are read from /proc")
def test_a_refresh_indexes_on_one_tantivy_thread_with_the_whole_heap(tmp_path):
    before = _indexing_threads()
    sections = markdown.parse("# A\nsome words here\n")
    with writer.Writer(str(tmp_path / "data"), 5.0) as hold:
        hold.add_sections("c", "a.md", sections)
        hold.commit()
        deadline = time.monotonic() + 5
        while _indexing_threads() == before and time.monotonic() < deadline:
            time.sleep(0.02)  # a thread takes its name once it runs
        time.sleep(0.3)  # ... and a second one would by now
        assert _indexing_threads() - before == 1
    assert index.WRITER_HEAP >= 90_000_000  # one segment holds ~245k sections: a 1M build merges none
