"""Dates in a question → day ranges, relative to a given "now".

English: `2023-05-07`, `2023/05/07`, `May 7`, `7 May 2023`, `in May`, `today`, `yesterday`,
`the day before yesterday`, `3 days ago`, `two weeks ago`, `a month ago`, `last Tuesday`,
`on Friday`, `last week`, `this week`, `last weekend`, `last month`, `this month`, `last year`.
Chinese: `2023年5月7日`, `5月2日`/`5月2号`, `五月`/`5月份`, `今天`, `昨天`, `前天`, `大前天`, `三天前`,
`两周前`, `一个月前`, `上周二`/`上个星期二`/`上礼拜二`, `这周五`, `周三`, `上周`, `这周`, `上个月`,
`这个月`, `去年`, `今年`.

A date without a year is the latest such day on or before "now" (`DateRange.yearly`: a search
that finds no section on it tries the same day in earlier years, `DateRange.earlier`). `tonight`
and `今晚` are not dates: a question about tonight asks about plans, not about a day's log.
Imported only when a query holds a date-like word (see `search.maybe_dated`): nothing here runs
on other searches.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from ..base.dates import day_number

_MONTHS = {name: i + 1 for i, names in enumerate((
    "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
    "august aug", "september sep sept", "october oct", "november nov", "december dec",
)) for name in names.split()}
_WEEKDAYS = {name: i for i, names in enumerate((
    "monday mon", "tuesday tue tues", "wednesday wed", "thursday thu thur thurs", "friday fri",
    "saturday sat", "sunday sun")) for name in names.split()}
_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3}
_ZH_BEFORE_DAY = "在是于到从等和及或那这每个的上下"
_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}

_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_RE = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_NUM_RE = r"\d{1,3}|" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
_ZH_NUM = r"[\d零一二两三四五六七八九十]{1,4}"
_ORD = r"(?:st|nd|rd|th)?"

_SOURCES: list[tuple[str, str]] = [(kind, rx) for kind, rx in (
    ("ymd", r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"),
    ("zh_ymd", rf"({_ZH_NUM})年({_ZH_NUM})月({_ZH_NUM})[日号]"),
    ("zh_md", rf"(?<![\d年个])({_ZH_NUM})月({_ZH_NUM})[日号]"),
    ("zh_ym", rf"({_ZH_NUM})年({_ZH_NUM})月份?"),
    ("zh_m", rf"(?<![\d个])({_ZH_NUM})月份?(?![\d零一二两三四五六七八九十])"),
    ("md", rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}}){_ORD}\b(?:,?\s+(\d{{4}}))?"),
    ("dm", rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MONTH_RE})\b\.?(?:,?\s+(\d{{4}}))?"),
    ("my", rf"\b(in\s+|during\s+|of\s+|since\s+)?({_MONTH_RE})(?:\s+(\d{{4}}))?\b"),
    ("ago", rf"\b({_NUM_RE})\s+(day|week|month|year)s?\s+ago\b"),
    ("zh_ago", rf"({_ZH_NUM})(天|日|周|个?星期|个?礼拜|个月|年)(?:之|以)?前"),
    ("rel_day", r"\b(the\s+day\s+before\s+yesterday|yesterday|today|this\s+morning)\b"),
    ("zh_rel_day", r"(大前天|前天|昨天|昨晚|今天|今早)"),
    ("weekday", rf"\b(last|this|on|past)?\s*({_WEEKDAY_RE})\b"),
    ("zh_weekday", r"(上上|上|这|本)?个?(?:周|星期|礼拜)([一二三四五六日天末])"),
    ("period", r"\b(last|this|past|previous)\s+(week(?:end)?|month|year)\b"),
    ("zh_period", r"(上上|上|这|本|去|今|前)(?:个)?(周末?|星期|礼拜|月|年)"),
)]


# A pattern is compiled (~0.5 ms each) only when its cheap hint is in the text.
_HINTS: dict[str, tuple[str, ...]] = {
    "ymd": tuple("0123456789"), "zh_ymd": ("年",), "zh_md": ("日", "号"), "zh_ym": ("年",), "zh_m": ("月",),
    "md": tuple(_MONTHS), "dm": tuple(_MONTHS), "my": tuple(_MONTHS), "ago": ("ago",), "zh_ago": ("前",),
    "rel_day": ("yesterday", "today", "this morning"), "zh_rel_day": ("天", "晚", "早"),
    "weekday": tuple(_WEEKDAYS), "zh_weekday": ("周", "星期", "礼拜"), "period": ("last", "this", "past", "previous"),
    "zh_period": ("周", "星期", "礼拜", "月", "年"),
}
_compiled: dict[str, re.Pattern[str]] = {}


def _patterns(text: str) -> list[tuple[str, re.Pattern[str]]]:
    lower = text.lower()
    out = []
    for kind, rx in _SOURCES:
        if any(hint in lower for hint in _HINTS[kind]):
            if kind not in _compiled:
                _compiled[kind] = re.compile(rx, re.IGNORECASE)
            out.append((kind, _compiled[kind]))
    return out


class DateRange:
    __slots__ = ("low", "high", "text", "yearly")

    def __init__(self, low: date, high: date, text: str, yearly: str = "") -> None:
        self.low, self.high, self.text = low, high, text
        # "day" or "month" when named without a year ("5月2日", "in May"): any year could be meant
        self.yearly = yearly

    def ints(self) -> tuple[int, int]:
        return day_number(self.low), day_number(self.high)

    def earlier(self, years: int) -> tuple[int, int] | None:
        """The same day (or whole month) `years` years before, as YYYYMMDD; None for a 29
        February that year lacks."""
        try:
            low = self.low.replace(year=self.low.year - years)
        except ValueError:
            return None
        if self.yearly == "month":
            return day_number(low), day_number(_month_span(low.year, low.month)[1])
        return day_number(low), day_number(low + (self.high - self.low))

    def __repr__(self) -> str:
        return f"DateRange({self.low}..{self.high} from {self.text!r})"


def _is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff"


def zh_number(text: str) -> int:
    """`12`, `十二`, `二十一`, `两` → int (0 when not a number)."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_ZH_DIGITS.get(tens, 0) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)
    value = 0
    for ch in text:
        if ch not in _ZH_DIGITS:
            return 0
        value = value * 10 + _ZH_DIGITS[ch]
    return value


def _number(text: str) -> int:
    text = text.lower()
    return int(text) if text.isdigit() else _WORD_NUMBERS.get(text, 0)


def _latest(now: date, month: int, day: int | None = None) -> tuple[date, date] | None:
    """The latest month (or month-day) on or before `now`."""
    for year in (now.year, now.year - 1):
        try:
            if day is None:
                low = date(year, month, 1)
                high = (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1))
            else:
                low = high = date(year, month, day)
        except ValueError:
            return None
        if low <= now:
            return low, high
    return None


def _month_span(year: int, month: int) -> tuple[date, date]:
    low = date(year, month, 1)
    return low, date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def _shift_months(day: date, months: int) -> date:
    total = day.year * 12 + day.month - 1 - months
    return date(total // 12, total % 12 + 1, 1)


def _resolve(kind: str, groups: tuple, now: date) -> tuple[date, date] | None:
    g = [x.lower() if isinstance(x, str) else x for x in groups]
    week_start = now - timedelta(days=now.weekday())
    try:
        if kind == "ymd":
            day = date(int(g[0]), int(g[1]), int(g[2]))
            return day, day
        if kind == "zh_ymd":
            day = date(zh_number(g[0]), zh_number(g[1]), zh_number(g[2]))
            return day, day
        if kind == "zh_ym":
            return _month_span(zh_number(g[0]), zh_number(g[1]))
        if kind == "zh_md":
            return _latest(now, zh_number(g[0]), zh_number(g[1]))
        if kind == "zh_m":
            return _latest(now, zh_number(g[0]))
        if kind in ("md", "dm"):
            month, day_text, year = (g[0], g[1], g[2]) if kind == "md" else (g[1], g[0], g[2])
            if year:
                day = date(int(year), _MONTHS[month], int(day_text))
                return day, day
            return _latest(now, _MONTHS[month], int(day_text))
        if kind == "my":
            if not g[0] and not g[2] and (g[1] == "may" or len(g[1]) <= 3):
                return None  # `may` the verb, `mar`, `jan` alone: too ambiguous without `in`/a year
            return _month_span(int(g[2]), _MONTHS[g[1]]) if g[2] else _latest(now, _MONTHS[g[1]])
        if kind in ("ago", "zh_ago"):
            n = _number(g[0]) if kind == "ago" else zh_number(g[0])
            unit = g[1]
            if not n:
                return None
            if unit in ("day", "天", "日"):
                day = now - timedelta(days=n)
                return day, day
            if unit == "week" or unit.endswith(("周", "星期", "礼拜")):
                mid = now - timedelta(days=7 * n)
                return mid - timedelta(days=3), mid + timedelta(days=3)
            if unit in ("month", "个月"):
                return _month_span(*(lambda d: (d.year, d.month))(_shift_months(now, n)))
            return date(now.year - n, 1, 1), date(now.year - n, 12, 31)
        if kind in ("rel_day", "zh_rel_day"):
            days_back = {"the day before yesterday": 2, "yesterday": 1, "大前天": 3, "前天": 2, "昨天": 1, "昨晚": 1}
            day = now - timedelta(days=days_back.get(re.sub(r"\s+", " ", g[0]), 0))
            return day, day
        if kind == "weekday":
            target = _WEEKDAYS[g[1]]
            if not g[0] and len(g[1]) <= 3:
                return None  # a bare `sat`, `sun`, `wed` is more often a word than a day
            if g[0] == "this":
                day = week_start + timedelta(days=target)
                return (day, day) if day <= now else None
            day = now - timedelta(days=(now.weekday() - target) % 7 or 7)  # the latest one before today
            return day, day
        if kind == "zh_weekday":
            target = _ZH_WEEKDAY[g[1]]
            weeks_back = {"上上": 2, "上": 1}.get(g[0] or "", 0)
            start = week_start - timedelta(days=7 * weeks_back)
            if g[1] == "末":
                return start + timedelta(days=5), start + timedelta(days=6)
            day = start + timedelta(days=target)
            if not g[0] and day > now:
                day -= timedelta(days=7)
            return day, day
        if kind in ("period", "zh_period"):
            which, unit = g[0], g[1]
            back = {"last": 1, "past": 1, "previous": 1, "this": 0, "上": 1, "上上": 2, "这": 0, "本": 0,
                    "去": 1, "今": 0, "前": 2}[which]
            if unit in ("week", "周", "星期", "礼拜"):
                start = week_start - timedelta(days=7 * back)
                return start, start + timedelta(days=6)
            if unit in ("weekend", "周末"):
                start = week_start - timedelta(days=7 * max(back, 1 if which in ("last", "past", "previous") else 0))
                return start + timedelta(days=5), start + timedelta(days=6)
            if unit in ("month", "月"):
                if which in ("去", "今", "前"):
                    return None
                first = _shift_months(now, back)
                return _month_span(first.year, first.month)
            if unit in ("year", "年"):
                if which in ("这", "本", "上上"):
                    return None
                return date(now.year - back, 1, 1), date(now.year - back, 12, 31)
    except (ValueError, KeyError, OverflowError):
        return None
    return None


def _yearless(kind: str, groups: tuple) -> str:
    """"day" or "month" for a month-day or a month named without its year, else ""."""
    if kind in ("zh_md", "zh_m", "md", "dm", "my") and (kind.startswith("zh") or not groups[2]):
        return "month" if kind in ("zh_m", "my") else "day"
    return ""


def find(text: str, now: date) -> tuple[list[DateRange], str]:
    """The date ranges named in `text` and the text with those expressions removed."""
    found: list[DateRange] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _patterns(text):
        for match in pattern.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            if kind == "zh_weekday" and not match.group(1) and match.start() > 0 \
                    and _is_cjk(text[match.start() - 1]) and text[match.start() - 1] not in _ZH_BEFORE_DAY:
                continue  # `小周一起`: a name, not Monday
            span = _resolve(kind, match.groups(), now)
            if span is None:
                continue
            low, high = span
            if low > high or high.year < 1900 or low.year > 9999:
                continue
            found.append(DateRange(low, min(high, max(now, low)), match.group(0), _yearless(kind, match.groups())))
            taken.append(match.span())
    rest = text
    for a, b in sorted(taken, reverse=True):
        rest = rest[:a] + " " + rest[b:]
    return found, rest


def parse_when(value: str, now: date) -> tuple[int, int]:
    """`--when "last week"` → (since, until) as YYYYMMDD; ValueError when no date is named."""
    ranges, _ = find(value, now)
    if not ranges:
        raise ValueError(value)
    return min(r.ints()[0] for r in ranges), max(r.ints()[1] for r in ranges)
