"""A damaged data folder heals or explains itself in one line (issue 10, finding 3)."""

from __future__ import annotations

import glob
import json
import os
import shutil

import pytest

from qmem.base import config, layout
from qmem.engine import manifest

from ..helpers import index_snapshot


def tantivy(cfg) -> str:
    return layout.tantivy_dir(cfg.data_dir)


def segment_file(cfg, ext: str) -> str:
    return sorted(glob.glob(os.path.join(tantivy(cfg), f"*{ext}")))[0]


def truncate(path: str) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(os.path.getsize(path) // 2)


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


FOREIGN_META = json.dumps({
    "index_settings": {"docstore_compression": "lz4", "docstore_blocksize": 16384}, "segments": [], "opstamp": 0,
    "schema": [{"name": "title", "type": "text", "options": {
        "indexing": {"record": "position", "fieldnorms": True, "tokenizer": "default"}, "stored": True, "fast": False}}],
})

def cut_short(path: str) -> None:
    with open(path, "rb") as handle:
        data = handle.read()
    with open(path, "wb") as handle:
        handle.write(data[: len(data) // 2])


DAMAGE = {
    "truncated segment": lambda cfg: truncate(segment_file(cfg, ".store")),
    "truncated postings": lambda cfg: truncate(segment_file(cfg, ".idx")),
    "deleted segment file": lambda cfg: os.unlink(segment_file(cfg, ".term")),
    "garbage meta.json": lambda cfg: write(os.path.join(tantivy(cfg), "meta.json"), "garbage{"),
    "empty meta.json": lambda cfg: write(os.path.join(tantivy(cfg), "meta.json"), ""),
    "foreign meta.json": lambda cfg: write(os.path.join(tantivy(cfg), "meta.json"), FOREIGN_META),
    "deleted tantivy folder": lambda cfg: shutil.rmtree(tantivy(cfg)),
    "malformed manifest": lambda cfg: write(manifest.manifest_path(cfg.data_dir, "main"),
                                            '{"v": 1, "root": 3, "files": {"MEMORY.md": "x"}}'),
    "manifest cut short": lambda cfg: cut_short(manifest.manifest_path(cfg.data_dir, "main")),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("then", ["search", "index --full", "index"])
def test_damaged_index_is_rebuilt_with_one_warning(cfg, cli, damage, then):
    expected = index_snapshot(cfg.data_dir)
    hits = json.loads(cli("search", "USDC", "--json").out)
    DAMAGE[damage](cfg)
    if then == "search":
        result = cli("search", "USDC", "--json")
        assert result.code == 0, result
        assert json.loads(result.out) == hits
        assert len(result.err.strip().splitlines()) <= 1 and "Traceback" not in result.err
    else:
        result = cli(*then.split())
        assert result.code == 0, result
        assert "Traceback" not in result.err and "internal error" not in result.err
    assert index_snapshot(cfg.data_dir) == expected
    assert json.loads(cli("search", "USDC", "--json").out) == hits
    status = cli("status")
    assert status.code == 0 and "index damaged:" not in status.out
    if "manifest" in damage and then == "search":  # the index was fine; the next refresh rebuilds the manifest
        assert "never indexed: qmem index main" in status.out
    else:
        assert "up to date" in status.out


def test_status_names_a_damaged_index(cfg, cli):
    truncate(segment_file(cfg, ".store"))
    result = cli("status")
    assert result.code == 0 and "index damaged:" in result.out


def test_a_lock_file_that_is_a_folder_gets_one_line_naming_it(cfg, cli):
    lock = layout.lock_path(cfg.data_dir)
    os.unlink(lock)
    os.makedirs(os.path.join(lock, "inside"))
    for args in (("index",), ("index", "--full")):
        result = cli(*args)
        assert result.code == 2 and result.err.count("\n") == 1
        assert f"{lock} is a folder" in result.err and f"rm -r '{lock}'" in result.err
    assert cli("search", "USDC", "--json").code == 0  # searching takes no lock
    shutil.rmtree(lock)
    assert cli("index", "--full").code == 0


def test_a_data_folder_that_is_a_file_gets_one_line_naming_it(cli, workspace, tmp_path, monkeypatch):
    blocker = tmp_path / "data-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("QMEM_DATA", str(blocker))
    created = cli("collection", "create", "main", str(workspace))
    assert created.code == 2 and created.err.count("\n") == 1
    assert f"{blocker} is a file where qmem needs a folder" in created.err
    for args in (("search", "USDC"), ("index",), ("index", "--full")):
        result = cli(*args)
        assert result.code == 2 and result.err.count("\n") == 1 and str(blocker) in result.err, (args, result)
    assert config.load().collections  # the collection was added; only its index waits
    blocker.unlink()
    assert json.loads(cli("search", "USDC", "--json").out)
