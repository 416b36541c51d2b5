"""The Chinese daily-log fixture (bench/zh_daily.py) is deterministic and its labels point at real lines."""

from __future__ import annotations

import sys

from ..conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import zh_daily  # noqa: E402


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
