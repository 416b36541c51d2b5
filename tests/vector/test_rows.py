"""rows-<n>.bin: a query reads only its hits' rows; an older store's rows-<n>.json still
answers (and is migrated); a file cut short or overwritten is a clear message, never a traceback."""

from __future__ import annotations

import glob
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmem.base import config, jsonio
from qmem.engine import hybrid, sync
from qmem.engine.search import SearchOptions
from qmem.vector import models, rowfile, similarity, store

row_strategy = st.fixed_dictionaries({
    "key": st.text(max_size=40), "path": st.text(max_size=40), "anchor": st.text(max_size=20),
    "heading": st.text(max_size=60), "line_start": st.integers(0, 2**40), "line_end": st.integers(0, 2**40),
    "body_line": st.integers(0, 2**40), "body_hash": st.integers(0, 2**64 - 1),
    "types": st.lists(st.sampled_from(["P", "E", "K", "B", "S", "!"]), max_size=4),
    "date": st.integers(0, 99991231)})


@settings(max_examples=60, deadline=None)
@given(st.lists(row_strategy, max_size=12))
def test_rows_read_back_as_written(rows):
    read = rowfile.Rows(rowfile.encode(rows))
    assert len(read) == len(rows) and list(read) == rows and read.keys() == [r["key"] for r in rows]
    for i, row in enumerate(rows):
        assert (read.path(i), read.types(i), read.date(i)) == (row["path"], row["types"], row["date"])
        assert read[i - len(rows)] == row
    with pytest.raises(IndexError):
        read[len(rows)]


@pytest.fixture
def big(workspace):
    """The sample workspace plus a file of 300 sections, indexed and embedded (fake model)."""
    lines = []
    for n in range(300):
        lines += [f"## Note {n}", f"- [{'KS'[n % 2]}] entry number {n} about topic{n % 7} and backups"]
    (workspace / "memory" / "many.md").write_text("# Many\n" + "\n".join(lines) + "\n", encoding="utf-8")
    c = config.load()
    config.add_collection(c, config.Collection("main", str(workspace)))
    sync.refresh(c)
    c = config.load()
    store.embed(c, "main", models.Fake())
    return c


def folder_of(cfg):
    return store.store_dir(cfg.data_dir, "main")


def rows_file(cfg):
    (path,) = glob.glob(os.path.join(folder_of(cfg), "rows-*.bin"))
    return path


def test_a_vector_query_decodes_only_the_rows_it_shows(big, monkeypatch):
    store._CACHE.clear()  # as a fresh process finds it
    decoded: list[int] = []
    asked: list[int] = []
    real_get, real_types = rowfile.Rows.__getitem__, rowfile.Rows.types
    monkeypatch.setattr(rowfile.Rows, "__getitem__", lambda self, i: decoded.append(i) or real_get(self, i))
    monkeypatch.setattr(rowfile.Rows, "types", lambda self, i: asked.append(i) or real_types(self, i))
    monkeypatch.setattr(jsonio, "read", lambda path, real=jsonio.read: real(path) if path.endswith("meta.json")
                        else pytest.fail(f"read {path}"))
    total = len(store.load(big.data_dir, "main").rows)
    assert total > 300
    hits = hybrid.vsearch(big, "entry number 12 about topic5", SearchOptions(limit=3), models.Fake())
    assert len(hits) == 3 and len(decoded) <= 3 * 2  # vsearch ranks limit x 2 rows
    decoded.clear()
    typed = hybrid.vsearch(big, "entry number 12 about topic5", SearchOptions(limit=3, types=["S"]), models.Fake())
    assert typed and all("S" in h.types for h in typed)
    assert len(decoded) <= 6 and len(asked) < total / 4  # the filter read the best rows' types, not all


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=600), st.integers(0, 12), st.integers(1, 50))
def test_best_with_a_filter_is_the_best_of_what_passes(values, limit, every):
    scores = [v / 4 for v in values]
    asked: list[int] = []

    def wanted(i):
        asked.append(i)
        return i % every == 0

    got = similarity.best(scores, limit, wanted)
    assert got == sorted((i for i in range(len(scores)) if i % every == 0), key=lambda i: (-scores[i], i))[:limit]
    assert len(asked) == len(set(asked))  # each row asked about once


def as_older_qmem_wrote_it(cfg) -> list[dict]:
    """Turn the store into the layout before rows-<n>.bin: rows-<n>.json, one JSON array."""
    path = rows_file(cfg)
    rows = list(rowfile.Rows(open(path, "rb").read()))
    with open(path[:-4] + ".json", "wb") as handle:
        handle.write(jsonio.dump_bytes(rows))
    os.unlink(path)
    store._CACHE.clear()
    return rows


def test_a_store_an_older_qmem_wrote_answers_the_same_and_is_migrated(big, cli):
    before = cli("query", "entry number 12 about topic5", "--json")
    assert before.code == 0 and json.loads(before.out)[0]["ranks"]["vector"] is not None
    rows = as_older_qmem_wrote_it(big)
    after = cli("query", "entry number 12 about topic5", "--json")
    assert (after.code, after.out, after.err) == (0, before.out, before.err)
    assert list(rowfile.Rows(open(rows_file(big), "rb").read())) == rows  # migrated on that read
    store._CACHE.clear()
    assert cli("query", "entry number 12 about topic5", "--json").out == before.out


def test_an_older_store_in_a_folder_it_cannot_write_still_answers(big, cli, monkeypatch):
    before = cli("query", "entry number 12 about topic5", "--json").out
    as_older_qmem_wrote_it(big)

    def refuse(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(store, "atomic_write", refuse)
    for _ in range(2):
        store._CACHE.clear()
        assert cli("query", "entry number 12 about topic5", "--json").out == before
    assert not glob.glob(os.path.join(folder_of(big), "rows-*.bin"))


def test_a_damaged_migration_is_made_again_from_the_json(big, cli):
    before = cli("query", "entry number 12 about topic5", "--json").out
    as_older_qmem_wrote_it(big)
    cli("query", "x")
    path = rows_file(big)
    with open(path, "r+b") as handle:
        handle.truncate(100)
    store._CACHE.clear()
    assert cli("query", "entry number 12 about topic5", "--json").out == before
    assert os.path.getsize(path) > 100


@pytest.mark.parametrize("cut", ["empty", "header", "half", "one byte short", "one byte more", "not ours"])
def test_a_rows_file_cut_short_is_a_clear_note_and_embed_mends_it(big, cli, cut):
    path = rows_file(big)
    data = open(path, "rb").read()
    damaged = {"empty": b"", "header": data[:20], "half": data[:len(data) // 2], "one byte short": data[:-1],
               "one byte more": data + b"\0", "not ours": b"x" * len(data)}[cut]
    with open(path, "wb") as handle:
        handle.write(damaged)
    store._CACHE.clear()
    assert store.load(big.data_dir, "main") is None
    assert os.path.basename(path) in store.problem(big.data_dir, "main")
    out = cli("query", "entry number 12 about topic5", "--json")
    assert out.code == 0 and json.loads(out.out)  # BM25 answers
    assert "the vector store of collection main is unreadable" in out.err and "run qmem embed main" in out.err
    assert "answered with BM25" in out.err and "Traceback" not in out.err + out.out
    doctor = cli("doctor")  # says what is wrong with the file, not only that it is unreadable
    assert "the vector store is unreadable (" in doctor.out and os.path.basename(path) in doctor.out
    assert cli("embed", "--model", "fake", "-q").code == 0
    mended = cli("query", "entry number 12 about topic5", "--json")
    assert mended.code == 0 and mended.err == "" and json.loads(mended.out)[0]["ranks"]["vector"] is not None


@pytest.mark.parametrize("where", ["text", "table"])
def test_a_rows_file_overwritten_in_place_is_a_clear_error(big, cli, where):
    path = rows_file(big)
    data = bytearray(open(path, "rb").read())
    count = len(store.load(big.data_dir, "main").rows)
    table = rowfile.HEADER.size + rowfile.ROW.size * count
    if where == "text":
        data[table:] = b"\xff" * (len(data) - table)  # not UTF-8
    else:
        for i in range(count):  # each row's text said to start past the end
            at = rowfile.HEADER.size + rowfile.ROW.size * i + 40
            data[at:at + 8] = (2**40).to_bytes(8, "little")
    with open(path, "wb") as handle:
        handle.write(data)
    store._CACHE.clear()
    out = cli("query", "entry number 12 about topic5", "--json")
    assert out.code == 2 and out.out == ""
    assert "the vector store of collection main is damaged" in out.err and "run qmem embed main" in out.err
    assert "Traceback" not in out.err and "internal error" not in out.err


def test_a_crash_before_the_switch_leaves_the_old_generation(big, workspace, monkeypatch):
    old = store.load(big.data_dir, "main")
    old_rows = list(old.rows)
    path = workspace / "memory" / "knowledge.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n## Later\n- [K] a section added later\n", encoding="utf-8")
    sync.refresh(big)
    real = store.atomic_write

    def dies_at_the_switch(target, data, **kwargs):
        if target.endswith("meta.json"):
            raise KeyboardInterrupt  # killed after the new rows file, before meta.json names it
        return real(target, data, **kwargs)

    monkeypatch.setattr(store, "atomic_write", dies_at_the_switch)
    with pytest.raises(KeyboardInterrupt):
        store.embed(big, "main", models.Fake())
    store._CACHE.clear()
    assert list(store.load(big.data_dir, "main").rows) == old_rows
    monkeypatch.setattr(store, "atomic_write", real)
    store.embed(big, "main", models.Fake())
    assert len(store.load(big.data_dir, "main").rows) == len(old_rows) + 1
    assert len(glob.glob(os.path.join(folder_of(big), "rows-*"))) == 1  # the unused generation is gone


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=0, max_size=6000), st.integers(0, 20))
def test_the_best_by_blocks_are_nlargests(values, k):
    import heapq

    scores = [v / 7 for v in values]  # many ties
    assert similarity.top(scores, k) == heapq.nlargest(k, range(len(scores)), key=scores.__getitem__)
