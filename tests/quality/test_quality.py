"""Ranking quality on the shared data sets, through the library's own search function.

BEIR SciFact (English, 300 test queries): published BM25 nDCG@10 is 0.665-0.69.
CMRC2018-zh (Chinese, 3,219 questions): good BM25 reaches nDCG@10 ~0.98.
Each corpus document becomes a Markdown file (`# title` + text), indexed like any workspace.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qmem.base import config
from qmem.engine import evaluate, sync

from ..conftest import SHARED_DATA

pytestmark = pytest.mark.slow


def data_dir(name: str) -> Path:
    for base in (os.environ.get("QMEM_EVAL_DATA"), SHARED_DATA, "/work/shared/data"):
        if base and (Path(base) / name / "corpus.jsonl").exists():
            return Path(base) / name
    pytest.fail(f"data set {name} not found: set QMEM_EVAL_DATA to the folder holding it")


def run(tmp_path: Path, name: str, split: str, k: int = 10) -> evaluate.EvalReport:
    root = tmp_path / name
    cases = evaluate.beir_workspace(str(data_dir(name)), str(root), split)
    cfg = config.load()
    config.add_collection(cfg, config.Collection(name, str(root), ["*.md"]))
    report = sync.refresh(cfg)
    assert not report.collections[0].warnings
    return evaluate.evaluate(cfg, cases, k=k)


def test_scifact_ndcg_at_10(tmp_path):
    report = run(tmp_path, "beir-scifact", "test")
    assert report.queries == 300
    assert report.ndcg_at_k >= 0.66, report.metrics()


def test_cmrc2018_zh_ndcg_at_10(tmp_path):
    report = run(tmp_path, "cmrc2018-zh", "dev")
    assert report.queries == 3219
    assert report.ndcg_at_k >= 0.95, report.metrics()
