"""pytest-benchmark suite: `python -m pytest bench/ --benchmark-json bench/results/pytest-benchmark.json`."""

from __future__ import annotations

import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

SECTIONS = int(os.environ.get("QMEM_BENCH_SECTIONS", "10000"))


@pytest.fixture(scope="session")
def bench_cfg(tmp_path_factory):
    import corpus

    tmp = tmp_path_factory.mktemp("qmem-bench")
    root = tmp / "ws"
    paths = corpus.generate(str(root), SECTIONS)
    hour_ago = time.time() - 3600
    for rel in paths:
        os.utime(root / rel, (hour_ago, hour_ago))
    os.environ["QMEM_CONFIG"] = str(tmp / "c.toml")
    os.environ["QMEM_DATA"] = str(tmp / "data")
    from qmem.base import config
    from qmem.engine import sync

    cfg = config.load()
    config.add_collection(cfg, config.Collection("bench", str(root)))
    cfg = config.load()
    sync.refresh(cfg)
    return cfg
