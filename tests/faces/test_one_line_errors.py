"""Errors stay one line, whatever was damaged or however long the input (a full disk has its
own test file: tests/memory/test_disk_full.py)."""

from __future__ import annotations

import marshal
import os
import shutil

import pytest

from qmem.base import config, layout


@pytest.fixture
def indexed(cli, workspace, monkeypatch):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def test_a_no_match_error_does_not_echo_a_huge_query(cli, indexed):
    query = "zzqx " * 24000  # 120 KB
    result = cli("search", query)
    assert result.code == 0 and result.err.count("\n") == 1
    assert len(result.err) < 400 and "119999 characters" in result.err, len(result.err)  # the query, stripped
    assert len(cli("forget", query).err) < 400


@pytest.mark.parametrize("part", ["v3", "v3/tantivy", "v3/manifests"])
@pytest.mark.parametrize("command", [("search", "usdc"), ("index",), ("index", "--full")])
def test_a_data_folder_part_replaced_by_a_file_is_one_line_naming_it(cli, indexed, part, command):
    target = os.path.join(config.load().data_dir, part)
    shutil.rmtree(target)
    with open(target, "w") as handle:
        handle.write("not a folder")
    result = cli(*command)
    if command[0] == "search" and part == "v3/manifests":  # the index opens: it searches, and says so
        assert result.code == 0 and result.err.count("\n") == 1, result
        return
    assert result.code == 2 and result.err.count("\n") == 1, result
    assert f"{target} is a file where qmem needs a folder" in result.err
    os.unlink(target)
    assert cli("index").code == 0


def test_a_damaged_config_cache_is_read_again_from_the_toml(cli, indexed):
    cfg = config.load()
    cache = os.path.join(os.path.dirname(cfg.file), "." + os.path.basename(cfg.file) + ".cache")
    with open(cache, "rb") as handle:
        cached = marshal.loads(handle.read())
    cached["data"]["collections"]["main"]["path"] = 5  # the stamp still matches
    with open(cache, "wb") as handle:
        handle.write(marshal.dumps(cached))
    result = cli("search", "USDC", "--files")
    assert result.code == 0 and str(indexed) in result.out, result
    assert config.load().collections["main"].path == str(indexed)
    assert layout  # the data folder itself was never touched
