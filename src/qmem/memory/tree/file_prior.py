"""A second look at a file's sections once each has its first verdict: the file's own world.

The sections of one MEMORY.md live in one world. `domains.explain` judges each section almost
alone; where that judgement is weak, what the file's other sections are about is evidence too:
in a file whose confidently filed sections are mostly about its code, a section whose body names
the code among other things is about the code as well.

Two kinds of verdict are looked at again, and only when the file has a MAJORITY domain (at
least half of its other confidently filed sections, MIN_SECTIONS of them or more):
- a section kept under its own heading's name (no domain was clear) joins the majority domain
  when its body has some evidence for it (WEAK_EVIDENCE);
- a section whose domain rests on broad heading words alone ("setup", "配置", weight below a
  full heading cue) or on its body alone, not on the majority domain, joins the majority when
  its evidence for it is within CLOSE points of the winner's.
Never another domain than the majority one, never a domain the section has no evidence for.
Pinned sections, secrets, private and tagged sections, dated log entries and verdicts for
archive, accounts, private or rules are left as they are; those four domains count for no
majority either (a file of closed matter or of rules says nothing of its live topics).

Measured on the tune sets (see /work/coord/notes/d/treectx.md): moving every close call toward
the file's largest domain, or taking a share below one half, loses more verdicts than it wins.
"""

from __future__ import annotations

from collections import Counter

from .units import Part
from .verdict import ACCOUNTS, ARCHIVE, HEADING_WEIGHT, PRIVATE, RULES, Verdict

MIN_SECTIONS = 5  # confidently filed sections (the one judged left out) a file needs for a majority
MAJORITY = 0.5  # the share of them one domain must hold
WEAK_EVIDENCE = 0.5  # the least body evidence a weak section needs for the majority domain
CLOSE = 2.0  # how far a loosely decided winner may lead the majority domain and still give way
_FIXED = frozenset((ACCOUNTS, PRIVATE, ARCHIVE, RULES))
# the first piece of evidence of a verdict made from cues (others come from a tag, a secret, a date…)
_CUE_VERDICT = ("heading: ", "body: ", "entries: ", "the heading's word for ")


def _counted(part: Part) -> bool:
    """Does this section tell what the file is about: filed confidently, by its topic?"""
    verdict = part.verdict
    return (isinstance(verdict, Verdict) and verdict.confident and not part.pinned and not verdict.secrets
            and verdict.domain not in _FIXED and bool(verdict.cues) and verdict.cues[0] != "explicit tag in the heading")


def _loose(verdict: Verdict) -> bool:
    """Was this confident verdict made by cues, none of them a full-weight heading cue (the heading
    names its domain only by broad words, or names none and the body decided)?"""
    if not verdict.cues or not verdict.cues[0].startswith(_CUE_VERDICT):
        return False
    for reason in verdict.cues:
        if reason.startswith("heading: "):
            points = reason.rpartition("(+")[2].rstrip(")")
            try:
                if float(points) >= HEADING_WEIGHT:
                    return False
            except ValueError:
                return False
    return True


def majority(counts: Counter[str]) -> tuple[str, int, int] | None:
    """(domain, its sections, all counted sections) when one domain holds at least MAJORITY of
    `counts` (the file's confidently filed sections per domain), MIN_SECTIONS or more, else None."""
    total = sum(counts.values())
    if total < MIN_SECTIONS:
        return None
    (domain, n), *rest = counts.most_common(2)
    if n < total * MAJORITY or (rest and rest[0][1] == n):
        return None
    return domain, n, total


def settle(parts: list[Part]) -> None:
    """Re-decide weak and loosely decided sections toward the file's majority domain (see above)."""
    moves: list[tuple[Part, str, list[str]]] = []
    counts = Counter(p.domain for p in parts if _counted(p))
    for part in parts:
        verdict = part.verdict
        if not isinstance(verdict, Verdict) or part.pinned or verdict.secrets or not part.heading:
            continue
        others = counts - Counter([part.domain]) if _counted(part) else counts  # the file without this section
        found = majority(others)
        if found is None:
            continue
        domain, n, total = found
        score = verdict.scores.get(domain, 0.0)
        world = f"the file's other sections are mostly {domain} ({n} of {total})"
        if not verdict.confident:
            if score >= WEAK_EVIDENCE and verdict.cues and verdict.cues[0].startswith("named after its heading"):
                alone = [c.replace("named after its heading: no domain is clear", "on its own no domain was clear")
                         for c in verdict.cues]
                moves.append((part, domain, [f"{world}, and its body names {domain} too ({score:.2g})"] + alone))
        elif (verdict.domain != domain and verdict.domain not in _FIXED and _loose(verdict) and score > 0
              and verdict.scores.get(verdict.domain, 0.0) - score <= CLOSE):
            moves.append((part, domain, [f"{verdict.domain} rests on broad words or the body alone "
                                         f"({verdict.scores.get(verdict.domain, 0.0):.2g}, {domain} {score:.2g}); {world}"]
                          + verdict.cues))
    for part, domain, cues in moves:  # decided on the first verdicts only: one move does not make the next
        verdict = part.verdict
        assert isinstance(verdict, Verdict)
        part.domain = verdict.domain = domain
        verdict.confident = True
        verdict.cues = cues
