"""A search while another process builds the index for the first time answers at once
(issue 10, finding 7): nothing is committed yet, so it says so in one line instead of waiting."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from ..conftest import PYTHON, subprocess_env
from ..reliability.test_concurrency_and_kills import setup_collection

BUILDER = """
import os, sys, time
from qmem.base import config
from qmem.backends.tantivy import index, refresh, writer
from qmem.engine import sync
point, ready, stop = sys.argv[1:4]

def hold():
    open(ready, "w").close()
    while not os.path.exists(stop):
        time.sleep(0.02)

if point == "before-open":  # the write lock taken, no index folder yet
    real_health = refresh.TantivyWriter.health
    def health(self):
        assert not os.path.exists(os.path.join(index.tantivy_dir(self.data_dir), "meta.json"))
        hold()
        return real_health(self)
    refresh.TantivyWriter.health = health
else:  # documents added, nothing committed: an empty index exists
    real_add = writer.Writer.add_sections
    def add(self, *args):
        real_add(self, *args)
        writer.Writer.add_sections = real_add
        hold()
    writer.Writer.add_sections = add
sync.refresh(config.load())
"""


def wait_for_file(path, proc, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


@pytest.mark.parametrize("point", ["before-open", "after-open"])
def test_search_during_the_first_build_says_so_at_once(tmp_path, point):
    setup_collection(tmp_path, 12)
    env = subprocess_env()
    ready, stop = tmp_path / "ready", tmp_path / "stop"
    builder = subprocess.Popen([PYTHON, "-c", BUILDER, point, str(ready), str(stop)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_file(ready, builder)
        # The build holds the write lock (default wait: 30 s) until `stop` exists; a search
        # that waited for it would run into this timeout instead of answering.
        for args in (["search", "wallet", "--json"], ["search", "wallet"]):
            proc = subprocess.run([PYTHON, "-m", "qmem", *args], env=env, capture_output=True, text=True, timeout=20)
            assert builder.poll() is None  # answered while the build was still running
            assert proc.returncode == 75, proc
            assert proc.stderr.count("\n") == 1 and "first index build is running" in proc.stderr
    finally:
        stop.write_text("go")
        out, err = builder.communicate(timeout=120)
    assert builder.returncode == 0, err
    proc = subprocess.run([PYTHON, "-m", "qmem", "search", "wallet", "--json"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)
