"""The generated Chinese sets (bench/zh_daily.py, bench/zh_group.py) are deterministic and their labels point at real lines."""

from __future__ import annotations

import sys

from ..conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import zh_daily
import zh_group


def test_fixture_is_deterministic_and_labelled(tmp_path):
    first = zh_daily.generate(str(tmp_path / "a"))
    assert first == zh_daily.generate(str(tmp_path / "b"))
    assert len(first) >= 200
    for case in first:
        assert case["evidence"]
        for where in case["evidence"]:
            path, line = where.rsplit(":", 1)
            text = (tmp_path / "a" / path).read_text(encoding="utf-8").split("\n")[int(line) - 1]
            assert text.startswith("- ") and len(text) < 80  # a short first-person entry
    assert any("上周" in c["question"] or "天前" in c["question"] for c in first)


def test_another_seed_gives_a_twin_to_tune_on_and_the_default_stays_the_reported_set(tmp_path):
    for bench in (zh_daily, zh_group):
        name = bench.__name__
        reported = bench.generate(str(tmp_path / f"{name}-a"))
        assert reported == bench.generate(str(tmp_path / f"{name}-b"), bench.SEED)
        twin = bench.generate(str(tmp_path / f"{name}-c"), bench.SEED + 1)
        assert twin != reported and abs(len(twin) - len(reported)) < len(reported) // 5
