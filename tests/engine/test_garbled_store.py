"""Segment files damaged in place (size and footer intact) or swapped: a search heals them with
one warning, `qmem index` repairs them, and `qmem doctor` finds them by checksum."""

from __future__ import annotations

import glob
import json
import os

import pytest

from qmem.base import layout

from ..helpers import index_snapshot


def tantivy(cfg) -> str:
    return layout.tantivy_dir(cfg.data_dir)


def largest(cfg, ext: str) -> str:
    return max(glob.glob(os.path.join(tantivy(cfg), f"*{ext}")), key=os.path.getsize)


def garble(path: str) -> None:
    """Flip bytes in the first half of the file's body (its data, not the table of contents at
    its end): its size and its footer (checksum, magic) stay."""
    with open(path, "rb") as handle:
        data = bytearray(handle.read())
    footer = 8 + int.from_bytes(data[-8:-4], "little")
    body = len(data) - footer
    for i in range(body // 8, body // 2, 3):
        data[i] ^= 0x5A
    st = os.stat(path)
    with open(path, "r+b") as handle:
        handle.write(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # even the mtime put back


def swap(a: str, b: str) -> None:
    os.rename(a, a + ".swap")
    os.rename(b, a)
    os.rename(a + ".swap", b)


@pytest.fixture
def two_segments(cfg, cli, workspace):
    """An index of two segments (a second commit adds one), checked and sealed by a refresh."""
    with open(workspace / "memory" / "2026-03-05.md", "w", encoding="utf-8") as handle:
        handle.write("# 2026-03-05\n\n- [K] USDC moved to the cold wallet on Tuesday\n- [E] the audit finished\n")
    assert cli("index", "-q").code == 0
    assert cli("index", "-q").code == 0  # verified and sealed
    assert len(glob.glob(os.path.join(tantivy(cfg), "*.idx"))) >= 2
    return cfg


DAMAGE = {
    "garbled store": lambda cfg: garble(largest(cfg, ".store")),
    "garbled postings": lambda cfg: garble(largest(cfg, ".idx")),
    "garbled fieldnorms": lambda cfg: garble(largest(cfg, ".fieldnorm")),
    "swapped idx": lambda cfg: swap(*sorted(glob.glob(os.path.join(tantivy(cfg), "*.idx")), key=os.path.getsize)[-2:]),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_qmem_index_repairs_a_garbled_or_swapped_segment(two_segments, cli, damage):
    cfg = two_segments
    expected = index_snapshot(cfg.data_dir)
    hits = json.loads(cli("search", "USDC", "--json").out)
    DAMAGE[damage](cfg)
    result = cli("index", "--json")
    assert result.code == 0, result
    assert json.loads(result.out)["healed"], result.out
    assert index_snapshot(cfg.data_dir) == expected
    assert json.loads(cli("search", "USDC", "--json").out) == hits


@pytest.mark.parametrize("damage", ["garbled store", "swapped idx"])
def test_a_search_on_a_damaged_segment_rebuilds_with_one_warning(two_segments, cli, damage):
    """The engine's error is neither a lock nor a missing file: damage, rebuilt at once."""
    cfg = two_segments
    hits = json.loads(cli("search", "USDC", "--json").out)
    DAMAGE[damage](cfg)
    result = cli("search", "USDC", "--json")
    assert result.code == 0, result
    ours = [line for line in result.err.splitlines() if line.startswith("qmem:")]
    assert len(ours) == 1 and "damaged" in ours[0] and "rebuilding" in ours[0], result.err
    assert json.loads(result.out) == hits
    again = cli("search", "USDC", "--json")
    assert again.code == 0 and again.err == "" and json.loads(again.out) == hits


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_doctor_finds_the_damage_by_checksum_and_its_fix_repairs_it(two_segments, cli, damage):
    cfg = two_segments
    assert cli("doctor", "-q").code == 0
    DAMAGE[damage](cfg)
    report = json.loads(cli("doctor", "--json").out)
    index_check = next(c for c in report["checks"] if c["name"] == "index")
    assert not index_check["ok"], index_check
    problem = index_check["problems"][0]
    assert "damaged" in problem["message"], problem
    fix = problem["fix"].split(" (")[0].split()
    assert fix[0] == "qmem"
    assert cli(*fix[1:]).code == 0  # the printed fix, run as printed
    assert cli("doctor", "-q").code == 0


def test_the_mcp_search_heals_a_damaged_segment_too(two_segments, cli):
    pytest.importorskip("mcp")
    from qmem.faces.mcp import Memory

    memory = Memory()
    before = memory.memory_search("USDC")["results"]
    DAMAGE["garbled store"](two_segments)
    assert Memory().memory_search("USDC")["results"] == before
