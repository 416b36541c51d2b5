"""Dot products of one query vector with every row of a stored matrix, and the best rows.

A cold `qmem query` is one process for one question: importing numpy alone costs it ~340M
instructions (~130 ms here), more than everything else it does. With simsimd installed (the
`vector` extra installs it: one small C extension) the products run on the memory-mapped
buffer without numpy; without it numpy computes them.
"""

from __future__ import annotations

import heapq

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _cdist() -> Any:
    """simsimd's all-pairs products, or None when simsimd is not installed."""
    try:
        import simsimd
    except ImportError:
        return None
    return simsimd.cdist


def dots(matrix: Any, query: Any) -> list[float]:
    """`matrix` · `query` for each row: `matrix` a C-contiguous 2-D float32 buffer (rows, dim),
    `query` a float32 buffer of dim values (array('f'), a numpy vector)."""
    if not matrix.shape[0]:
        return []
    dim = matrix.shape[1]
    cdist = _cdist()
    q = memoryview(query).cast("B")
    if cdist is not None and q.nbytes == 4 * dim:
        found = cdist(matrix, q.cast("f", (1, dim)), metric="dot")
        return memoryview(found).cast("B").cast("d").tolist()  # type: ignore[return-value]  # floats
    import numpy as np

    return (np.asarray(matrix) @ np.frombuffer(q, dtype=np.float32)).tolist()


def best(scores: list[float], limit: int, wanted: Callable[[int], bool] | None = None) -> list[int]:
    """The indexes of the `limit` highest scores, highest first (ties: the lower index first),
    among the rows `wanted` accepts (all when None). `wanted` is asked about the best rows
    first, a few times `limit` of them, then more only while too few pass: a filtered query
    reads the rows near the top, not every row."""
    if wanted is None or limit <= 0:
        return top(scores, limit)
    asked: dict[int, bool] = {}
    take = max(4 * limit, 64)
    while True:
        passed = []
        for i in top(scores, take):
            ok = asked.get(i)
            if ok is None:
                ok = asked[i] = wanted(i)
            if ok:
                passed.append(i)
                if len(passed) == limit:
                    return passed
        if take >= len(scores):
            return passed
        take *= 8


def top(scores: list[float], k: int) -> list[int]:
    """`heapq.nlargest(k, range(len(scores)), key=scores.__getitem__)` (the same list, ties in
    index order), looking closely only at the blocks of scores that can hold it: each block's
    maximum (builtin max, in C) first; the k-th highest maximum is a floor under the k-th best
    score, so a block whose maximum is below it holds none of the k best (at 100k scores ~3×
    faster than nlargest over them all). Scores are finite (dot products of finite rows)."""
    n = len(scores)
    size = n // (8 * k) if k > 0 else 0  # at most 8k blocks above the floor: 1/8 of the scores
    if size < 32:
        return heapq.nlargest(k, range(n), key=scores.__getitem__)
    starts = range(0, n, size)
    highs = [max(scores[at:at + size]) for at in starts]
    floor = heapq.nlargest(k, highs)[-1]
    near = [i for at, high in zip(starts, highs) if high >= floor for i in range(at, min(at + size, n))]
    return heapq.nlargest(k, near, key=scores.__getitem__)
