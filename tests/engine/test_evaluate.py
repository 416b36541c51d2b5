from __future__ import annotations

import json
import math

import pytest

from qmem.engine import evaluate
from qmem.base.errors import BadInputError
from qmem.engine.search import Hit
from qmem.text.snippets import Snippet


def hit(path, anchor="", start=1, end=5):
    return Hit(collection="c", path=path, abs_path="/" + path, anchor=anchor, heading="", line_start=start,
               line_end=end, score=1.0, snippet=Snippet(start, [], []), date=None, types=[], body="",
               body_line=start, stale=False)


RANKED = [hit("a.md"), hit("b.md", "x", 10, 20), hit("c.md"), hit("a.md", "s-tips", 30, 40)]


def test_metrics_by_hand():
    case = evaluate.Case("q", ["b.md:15", "c.md", "z.md"], 1)
    result = evaluate.score_case(case, RANKED, 3)
    dcg = 1 / math.log2(3) + 1 / math.log2(4)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert result.first_rank == 2
    assert result.found == ["b.md:15", "c.md"]
    assert result.recall == pytest.approx(2 / 3)
    assert result.ndcg == pytest.approx(dcg / ideal)  # 0.5307
    assert result.top == "a.md:1"


def test_anchor_targets_with_and_without_tag_and_cutoff():
    assert evaluate.score_case(evaluate.Case("q", ["a.md#tips"], 1), RANKED, 4).first_rank == 4
    assert evaluate.score_case(evaluate.Case("q", ["a.md#s-tips"], 1), RANKED, 4).first_rank == 4
    assert evaluate.score_case(evaluate.Case("q", ["a.md#tips"], 1), RANKED, 3).first_rank == 0
    assert evaluate.score_case(evaluate.Case("q", ["b.md:21"], 1), RANKED, 4).first_rank == 0


def test_a_target_counts_once():
    result = evaluate.score_case(evaluate.Case("q", ["a.md"], 1), RANKED, 4)
    assert result.ndcg == pytest.approx(1.0) and result.found == ["a.md"]


def test_report_averages():
    cases = [evaluate.score_case(evaluate.Case("q1", ["a.md"], 1), RANKED, 10),
             evaluate.score_case(evaluate.Case("q2", ["b.md"], 2), RANKED, 10),
             evaluate.score_case(evaluate.Case("q3", ["zzz.md"], 3), RANKED, 10)]
    report = evaluate.EvalReport(10, cases)
    assert report.hit_at_1 == pytest.approx(1 / 3)
    assert report.hit_at_k == pytest.approx(2 / 3)
    assert report.mrr_at_k == pytest.approx((1 + 1 / 2) / 3)
    assert report.ndcg_at_k == pytest.approx((1 + 1 / math.log2(3)) / 3)
    assert [c.query for c in report.misses] == ["q3"]


def test_fixture_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "a", "expected": ["x.md"]}\nnot json\n')
    with pytest.raises(BadInputError, match="bad.jsonl:2"):
        evaluate.load_fixture(str(bad))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(BadInputError, match="no queries"):
        evaluate.load_fixture(str(empty))
    with pytest.raises(BadInputError, match="cannot read"):
        evaluate.load_fixture(str(tmp_path / "missing.jsonl"))
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text('{"query": "a", "expected": []}\n')
    with pytest.raises(BadInputError, match="wrong.jsonl:1"):
        evaluate.load_fixture(str(wrong))


def test_eval_command_on_the_sample_workspace(cli, workspace, tmp_path):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    fixture = tmp_path / "fixture.jsonl"
    rows = [
        {"query": "私钥 泄露", "expected": ["MEMORY.md#security"]},
        {"query": "rsync resume", "expected": ["MEMORY.md#rsync-over-ssh-with-resume"]},
        {"query": "PostgreSQL 只读副本", "expected": ["memory/knowledge.md:12"]},
        {"query": "kubernetes helm chart", "expected": ["memory/k8s.md"]},
    ]
    fixture.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    data = json.loads(cli("eval", str(fixture), "--json", "-k", "5").out)
    assert data["queries"] == 4 and data["k"] == 5
    assert data["metrics"]["hit@1"] == 0.75 and data["metrics"]["mrr@5"] == 0.75
    assert data["metrics"]["ndcg@5"] == 0.75 and data["metrics"]["recall@5"] == 0.75
    assert [m["query"] for m in data["misses"]] == ["kubernetes helm chart"]
    text = cli("eval", str(fixture), "-c", "main").out
    assert "4 queries, k=10" in text and "hit@1 0.750" in text and "missed (1):" in text
    assert cli("eval", str(tmp_path / "nope.jsonl")).code == 2
    assert cli("eval", str(fixture), "-k", "0").code == 2
