"""Priors that re-weigh a hit by its day: recency (a hit on its own) and the first or last time
(the one prior that looks at the other candidates). Kept apart from search's run so each rule
and its measured constants sit together."""

from __future__ import annotations

from ..base.dates import day_from_number

# A question about the first or the last time ("the first time I…", "where do I currently…",
# "上次…", "我第一次…": `query.ordinal`): of the candidates whose text score is at least
# ORDER_SHARE of the best one's, the earliest (or latest) day's sections score (1 + ORDER_PRIOR)
# times. Measured on LongMemEval dev (its ordinal questions: "since I last visited",
# "my current setup", "initially", "currently"): turn@10 0.944 -> 0.961, @5 0.897 -> 0.903;
# share 0.3/0.5/0.7/1.0 gave @10 0.950/0.950/0.961/0.956, prior 1.0 lost @5 (0.892).
ORDER_PRIOR = 0.5
ORDER_SHARE = 0.7


def order_day(candidates: list[tuple[int, float]], order: str) -> int:
    """The day a question about the first (`order` "first") or last ("last") time points at,
    among (day, text score) candidates: the earliest or latest day of those scoring at least
    ORDER_SHARE of the best; 0 when none is dated. Only what already matches the rest of the
    question competes: the prior picks among answers, it finds none."""
    best = max((score for _, score in candidates), default=0.0)
    days = [day for day, score in candidates if day and score >= ORDER_SHARE * best]
    if not days:
        return 0
    return min(days) if order == "first" else max(days)


def order_prior(rescored: list, order: str) -> list:
    """`rescored` with the sections of the `order_day` scoring (1 + ORDER_PRIOR) times (the
    one prior that looks at the other candidates: "first" and "last" mean nothing alone)."""
    target = order_day([(row[3]["date"][0], row[3]["_text"]) for row in rescored], order)
    if not target:
        return rescored
    out = []
    for row in rescored:
        if row[3]["date"][0] == target:
            row[4].score = row[0] * (1.0 + ORDER_PRIOR)
            row[3]["_order"] = 1.0 + ORDER_PRIOR
            row = (row[4].score, *row[1:])
        out.append(row)
    return out


def recency(day: int, now: int, half_life: float) -> float:
    """A dated section loses up to half its score with age (half-life in days); an undated
    (evergreen) section such as MEMORY.md or a topic file is never demoted."""
    if not day or half_life <= 0:
        return 1.0
    try:
        age = max(0, (day_from_number(now) - day_from_number(day)).days)
    except ValueError:
        return 1.0
    return 0.5 + 0.5 * 0.5 ** (age / half_life)
