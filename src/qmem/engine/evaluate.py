"""`qmem eval`: how well the index answers the questions that matter, as numbers.

A fixture is JSON lines: `{"query": "...", "expected": ["memory/skills.md#anchor",
"memory/2026-02-28.md", "MEMORY.md:42"]}`. An expected item is relevant once: a hit matches
it by path, by path#anchor, or by a line inside the hit's range (`path:123`). Gains are
binary; nDCG's ideal ranking puts every expected item first.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..base import jsonio
from ..base.config import Config
from ..base.errors import BadInputError
from .search import Hit

_LINE_TARGET = re.compile(r"^(.*):(\d+)$")
# Leading tag slugs GitHub keeps in an anchor: "[S] Tips" → "s-tips", "[P1|expire:…]" → "p1expire…-".
_TAG_SLUG = re.compile(r"^(?:[a-z!]|p[0-2](?:expire\d{4}-\d{2}-\d{2})?)-")


class Case:
    __slots__ = ("query", "expected", "line")

    def __init__(self, query: str, expected: list[str], line: int) -> None:
        self.query = query
        self.expected = expected
        self.line = line  # line in the fixture file, for messages


class CaseResult:
    __slots__ = ("query", "expected", "found", "first_rank", "top", "ndcg", "recall")

    def __init__(self, query: str, expected: list[str], found: list[str], first_rank: int,
                 top: str | None, ndcg: float, recall: float) -> None:
        self.query = query
        self.expected = expected
        self.found = found  # expected items matched within k
        self.first_rank = first_rank  # 1-based rank of the first relevant hit, 0 if none
        self.top = top  # what came first instead (path:line), None when nothing matched at all
        self.ndcg = ndcg
        self.recall = recall

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}


class EvalReport:
    __slots__ = ("k", "queries", "hit_at_1", "hit_at_k", "recall_at_k", "mrr_at_k", "ndcg_at_k", "cases")

    def __init__(self, k: int, cases: list[CaseResult]) -> None:
        n = max(len(cases), 1)
        self.k = k
        self.queries = len(cases)
        self.hit_at_1 = sum(c.first_rank == 1 for c in cases) / n
        self.hit_at_k = sum(c.first_rank > 0 for c in cases) / n
        self.recall_at_k = sum(c.recall for c in cases) / n
        self.mrr_at_k = sum(1 / c.first_rank for c in cases if c.first_rank) / n
        self.ndcg_at_k = sum(c.ndcg for c in cases) / n
        self.cases = cases

    @property
    def misses(self) -> list[CaseResult]:
        return [c for c in self.cases if c.first_rank == 0]

    def metrics(self) -> dict[str, float]:
        return {
            "hit@1": self.hit_at_1,
            f"hit@{self.k}": self.hit_at_k,
            f"recall@{self.k}": self.recall_at_k,
            f"mrr@{self.k}": self.mrr_at_k,
            f"ndcg@{self.k}": self.ndcg_at_k,
        }

    def to_dict(self) -> dict[str, object]:
        return {
            "k": self.k,
            "queries": self.queries,
            "metrics": {name: round(value, 4) for name, value in self.metrics().items()},
            "misses": [c.to_dict() for c in self.misses],
            "cases": [c.to_dict() for c in self.cases],
        }


def load_fixture(path: str) -> list[Case]:
    """Read a JSON-lines fixture; a bad line is refused with its number."""
    cases: list[Case] = []
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read: {exc.strerror}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = jsonio.loads(line)
                query, expected = row["query"], row["expected"]
            except (ValueError, KeyError, TypeError):
                raise BadInputError(f"{path}:{number}: expected {{\"query\": ..., \"expected\": [...]}}") from None
            if isinstance(expected, str):
                expected = [expected]
            if not isinstance(query, str) or not query.strip() or not isinstance(expected, list) or not expected or \
                    not all(isinstance(e, str) and e for e in expected):
                raise BadInputError(f"{path}:{number}: query must be text and expected a non-empty list of paths")
            cases.append(Case(query, expected, number))
    if not cases:
        raise BadInputError(f"{path}: no queries")
    return cases


def _bare(anchor: str) -> str:
    while True:
        stripped = _TAG_SLUG.sub("", anchor, count=1)
        if stripped == anchor:
            return anchor
        anchor = stripped


def matches(target: str, hit: Hit) -> bool:
    """Does `hit` satisfy the expected item `target` (path, path#anchor or path:line)?"""
    if "#" in target:
        path, anchor = target.split("#", 1)
        return hit.path == path and (hit.anchor == anchor.lower() or _bare(hit.anchor) == anchor.lower())
    line = _LINE_TARGET.match(target)
    if line:
        number = int(line.group(2))
        return hit.path == line.group(1) and hit.line_start <= number <= hit.line_end
    return hit.path == target


def score_case(case: Case, hits: list[Hit], k: int) -> CaseResult:
    remaining = list(dict.fromkeys(case.expected))
    found: list[str] = []
    dcg = 0.0
    first_rank = 0
    for rank, hit in enumerate(hits[:k], 1):
        target = next((t for t in remaining if matches(t, hit)), None)
        if target is None:
            continue
        remaining.remove(target)
        found.append(target)
        dcg += 1 / math.log2(rank + 1)
        first_rank = first_rank or rank
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(k, len(set(case.expected))) + 1))
    top = None
    if hits:
        top = f"{hits[0].path}:{hits[0].line_start}"
    return CaseResult(case.query, case.expected, found, first_rank, top, dcg / ideal,
                      len(found) / len(set(case.expected)))


def evaluate(cfg: Config, cases: list[Case], collections: list[str] | None = None, k: int = 10,
             mode: str = "bm25", say: Callable[[str], object] | None = None) -> EvalReport:
    """Run every case through the one search every face uses (engine/answer.py: BM25, vectors
    or both fused, the index healed on the way) and score the top `k`. Where `answer` would
    fall back to BM25 (no vectors, no vector tier) the eval refuses: BM25's scores under the
    name of another mode would mislead."""
    from .answer import SearchRequest, answer
    from .modes import BM25_NOTE, Session

    if k < 1:
        raise BadInputError("k must be at least 1")
    session = Session()  # one searcher and one model for every case
    results = []
    for case in cases:
        request = SearchRequest(query=case.query, collections=collections, limit=k, mode=mode, snippet_lines=0)
        found = answer(cfg, request, session=session, say=say)
        if found.mode != mode:
            raise BadInputError(f"cannot evaluate --mode {mode}: {found.note.removesuffix(BM25_NOTE)}")
        results.append(score_case(case, found.hits, k))
    return EvalReport(k, results)


def beir_workspace(folder: str, out: str, split: str) -> list[Case]:
    """Turn a data set in BEIR layout (corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv) into a
    folder of Markdown files (`# title` + text, one file per document) and eval cases.

    Lets anyone check qmem's ranking on a public benchmark with `qmem eval`.
    """
    import os

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(folder, "corpus.jsonl"), encoding="utf-8") as handle:
        for line in handle:
            doc = jsonio.loads(line)
            title = (doc.get("title") or "").strip()
            text = (f"# {title}\n\n" if title else "") + doc["text"] + "\n"
            with open(os.path.join(out, f"{doc['_id']}.md"), "w", encoding="utf-8") as md:
                md.write(text)
    queries: dict[str, str] = {}
    with open(os.path.join(folder, "queries.jsonl"), encoding="utf-8") as handle:
        for line in handle:
            row = jsonio.loads(line)
            queries[row["_id"]] = row["text"]
    relevant: dict[str, list[str]] = {}
    with open(os.path.join(folder, "qrels", f"{split}.tsv"), encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            qid, doc_id, score = line.rstrip("\n").split("\t")
            if int(score) > 0:
                relevant.setdefault(qid, []).append(f"{doc_id}.md")
    return [Case(queries[qid], docs, 0) for qid, docs in relevant.items()]


def write_fixture(path: str, cases: list[Case]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for case in cases:
            handle.write(jsonio.dumps({"query": case.query, "expected": case.expected}) + "\n")
