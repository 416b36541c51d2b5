"""Ranking quality on the shared data sets, through the library's own search function.

BEIR SciFact (English, 300 test queries): published BM25 nDCG@10 is 0.665-0.69.
CMRC2018-zh (Chinese, 3,219 questions): good BM25 reaches nDCG@10 ~0.98.
Each corpus document becomes a Markdown file (`# title` + text), indexed like any workspace.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from qmem import config, search, sync

from .conftest import SHARED_DATA

pytestmark = pytest.mark.slow


def data_dir(name: str) -> Path:
    for base in (os.environ.get("QMEM_EVAL_DATA"), SHARED_DATA, "/work/shared/data"):
        if base and (Path(base) / name / "corpus.jsonl").exists():
            return Path(base) / name
    pytest.fail(f"data set {name} not found: set QMEM_EVAL_DATA to the folder holding it")


def build(tmp_path: Path, name: str):
    folder = data_dir(name)
    root = tmp_path / name
    root.mkdir()
    with open(folder / "corpus.jsonl", encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            title = doc.get("title", "").strip()
            text = (f"# {title}\n\n" if title else "") + doc["text"] + "\n"
            (root / f"{doc['_id']}.md").write_text(text, encoding="utf-8")
    cfg = config.load()
    config.add_collection(cfg, config.Collection(name, str(root), ["*.md"]))
    report = sync.refresh(cfg)
    assert not report.collections[0].warnings
    return cfg, folder


def evaluate(cfg, folder: Path, qrels_name: str, k: int = 10) -> dict[str, float]:
    qrels: dict[str, dict[str, int]] = {}
    with open(folder / "qrels" / qrels_name, encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            qid, doc_id, score = line.rstrip("\n").split("\t")
            qrels.setdefault(qid, {})[doc_id] = int(score)
    queries = {}
    with open(folder / "queries.jsonl", encoding="utf-8") as handle:
        for line in handle:
            q = json.loads(line)
            queries[q["_id"]] = q["text"]
    ndcg = mrr = 0.0
    options = search.SearchOptions(limit=k, snippet_lines=0)
    for qid, relevant in qrels.items():
        ranked: list[str] = []
        for hit in search.search(cfg, queries[qid], options):
            doc_id = hit.path[:-3]
            if doc_id not in ranked:
                ranked.append(doc_id)
        dcg = sum(relevant.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
        ideal = sum(g / math.log2(i + 2) for i, g in enumerate(sorted(relevant.values(), reverse=True)[:k]))
        ndcg += dcg / ideal
        mrr += next((1 / (i + 1) for i, d in enumerate(ranked[:k]) if relevant.get(d, 0) > 0), 0.0)
    return {"ndcg": ndcg / len(qrels), "mrr": mrr / len(qrels), "queries": len(qrels)}


def test_scifact_ndcg_at_10(tmp_path):
    cfg, folder = build(tmp_path, "beir-scifact")
    result = evaluate(cfg, folder, "test.tsv")
    assert result["queries"] == 300
    assert result["ndcg"] >= 0.66, result


def test_cmrc2018_zh_ndcg_at_10(tmp_path):
    cfg, folder = build(tmp_path, "cmrc2018-zh")
    result = evaluate(cfg, folder, "dev.tsv")
    assert result["queries"] == 3219
    assert result["ndcg"] >= 0.95, result
