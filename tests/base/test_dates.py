"""One conversion between a day, the YYYYMMDD number the index stores and its text."""

from __future__ import annotations

import subprocess
import sys
from datetime import date

import pytest

from qmem.base import dates


def test_one_conversion_between_a_day_its_number_and_its_text():
    for value in (date(2026, 2, 28), date(1, 1, 1), date(9999, 12, 31), date(2024, 2, 29)):
        assert dates.day_from_number(dates.day_number(value)) == value
        assert dates.iso_from_number(dates.day_number(value)) == value.isoformat()
    assert dates.day_number(date(2026, 2, 28)) == 20260228
    with pytest.raises(ValueError):
        dates.day_from_number(20260230)


def test_the_day_helpers_cost_a_search_no_re():
    """hits.py formats every hit's date with them: loading the module must not import `re`."""
    probe = "import sys; import qmem.base.dates; print('re' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.strip() == "False"
