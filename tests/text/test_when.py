"""Dates named in a question (English and Chinese) resolve relative to --now."""

from __future__ import annotations

from datetime import date

import pytest

from qmem.text import when as dates

NOW = date(2026, 5, 1)  # a Friday


@pytest.mark.parametrize(("text", "low", "high"), [
    ("what did I do on 2023-05-07?", "2023-05-07", "2023-05-07"),
    ("dinner on May 7", "2025-05-07", "2025-05-07"),  # no year: the latest May 7 on or before now
    ("7th of March 2024", "2024-03-07", "2024-03-07"),
    ("what did I buy in March", "2026-03-01", "2026-03-31"),
    ("yesterday", "2026-04-30", "2026-04-30"),
    ("the day before yesterday", "2026-04-29", "2026-04-29"),
    ("three days ago", "2026-04-28", "2026-04-28"),
    ("last Tuesday", "2026-04-28", "2026-04-28"),
    ("what happened last week", "2026-04-20", "2026-04-26"),
    ("two months ago", "2026-03-01", "2026-03-31"),
    ("上周二我去了哪", "2026-04-21", "2026-04-21"),
    ("5月2日我跑了多少", "2025-05-02", "2025-05-02"),
    ("4月25号", "2026-04-25", "2026-04-25"),
    ("2024年3月8日", "2024-03-08", "2024-03-08"),
    ("三天前", "2026-04-28", "2026-04-28"),
    ("昨天", "2026-04-30", "2026-04-30"),
    ("上个月", "2026-04-01", "2026-04-30"),
    ("十二月份的账单", "2025-12-01", "2025-12-31"),
    ("在周三开会", "2026-04-29", "2026-04-29"),
])
def test_dates_resolve_relative_to_now(text, low, high):
    ranges, rest = dates.find(text, NOW)
    assert [(r.low.isoformat(), r.high.isoformat()) for r in ranges] == [(low, high)]
    assert ranges[0].text not in rest


@pytest.mark.parametrize("text", ["I may go", "我跟小周一起看的电影", "3个月的计划", "the 2 cats", "Sun screen",
                                  "what should I cook tonight?", "今晚吃什么"])
def test_words_that_are_not_dates(text):
    assert dates.find(text, NOW)[0] == []


def test_when_filter_parses_a_range_and_refuses_text_without_a_date():
    assert dates.parse_when("last week", NOW) == (20260420, 20260426)
    with pytest.raises(ValueError):
        dates.parse_when("whenever", NOW)



def test_a_date_without_a_year_can_be_looked_for_in_earlier_years():
    (day,), _ = dates.find("5月2日我们聊了什么", NOW)
    assert day.yearly == "day" and day.earlier(2) == (20230502, 20230502)
    (month,), _ = dates.find("what did I buy in February", NOW)
    assert month.yearly == "month" and month.earlier(2) == (20240201, 20240229)  # a leap year's February
    (leap,), _ = dates.find("2月29日", date(2024, 3, 1))
    assert leap.earlier(1) is None and leap.earlier(4) == (20200229, 20200229)
    (dated,), _ = dates.find("on 2023-05-07", NOW)
    assert dated.yearly == ""
