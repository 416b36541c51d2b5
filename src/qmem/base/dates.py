"""Days as the index stores them: YYYYMMDD integers (20260228), 0 for none.

The one conversion between a `date`, the integer of the index's date and expiry fields and
`YYYY-MM-DD` text. Every search formats its hits' dates with it, so it imports nothing but
`datetime` (which the engine's bindings load anyway); dates named in a question are
`text/when.py`'s.
"""

from __future__ import annotations

from datetime import date


def day_number(day: date) -> int:
    """A day as the index stores it: date(2026, 2, 28) → 20260228."""
    return day.year * 10000 + day.month * 100 + day.day


def day_from_number(number: int) -> date:
    """20260228 → date(2026, 2, 28); ValueError when the number names no day."""
    return date(number // 10000, number // 100 % 100, number % 100)


def iso_from_number(number: int) -> str:
    """20260228 → "2026-02-28" (the number is written as it is, never checked)."""
    return f"{number // 10000:04d}-{number // 100 % 100:02d}-{number % 100:02d}"
