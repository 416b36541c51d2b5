"""Deterministic domain classification of MEMORY.md sections, from evidence (no LLM).

Evidence, strongest first:
1. An explicit tag: `## [infra] Backup plan` (a domain, or a prefix of one of at least three
   letters) or `## Backup plan <!-- domain: infrastructure -->` (any name: a new domain if unknown).
2. A secret in the body (`secrets.py`: token, key, password, private-key or seed-phrase shapes):
   the section goes to `accounts` whatever its heading says.
3. Cues (`domain_cues.py`: English, Simplified and Traditional Chinese, Japanese, German,
   Vietnamese, heading emoji). A cue in the heading counts 3× its weight, one in the body 1×
   (each distinct cue once; a domain's body evidence is capped so a long body cannot outvote a
   clear heading); a multi-word cue weighs 2, a single word 1, and a longer cue that matched hides
   the shorter ones inside it ("api key" is accounts, not also "api" infrastructure). Typed
   entries add evidence: most lines `[P]` → identity, most lines `[!]` → security. A heading that
   is only a date ("2026 年 2 月", "2025-Q3") is archive. The best score wins; ties go to the
   domain listed first; no evidence at all → `general`.

Instruction sections (rules for the agent) are found here too (`instruction`): `tree` keeps
them in the root so the agent still reads them at every start.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from ...text import markdown
from ...base.errors import ConfigError
from .. import secrets
from .cues import CUES, EMOJI, INSTRUCTION_WORDS, RULE_HEADINGS

GENERAL = "general"
ACCOUNTS = "accounts"
HEADING_WEIGHT = 3
BODY_CAP = 4  # most body evidence one domain can collect

DEFAULT_DOMAINS: dict[str, list[str]] = {
    name: [cue for words in by_language.values() for cue in words] for name, by_language in CUES.items()
}

_COMMENT_TAG = re.compile(r"<!--\s*domain\s*:\s*([^\s>]+)\s*-->", re.IGNORECASE)
_BRACKET_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9_-]{1,30})\]")
_PIN_TAG = re.compile(r"\[(?:pin|p0)\]", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->")
_SLUG = re.compile(r"[^a-z0-9\u4e00-\u9fff-]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_LATIN = r"a-z0-9\u00c0-\u024f\u1e00-\u1eff"
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_DATE_ONLY = re.compile(r"^(?:[\W\d_]|年|月|日|号|q[1-4]|h[12]|jahr|năm|tháng)*$")
_ENTRY_TYPE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[^\]]*\]\s*)*?\[([P!])\]")
_MONEY = re.compile(r"(?i)[$€£¥₫]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|元|円|萬元|万元|đồng|nghìn|triệu|usd|eur|rmb|"
                    r"港幣|港币|台幣|dollars?|euros?)(?![a-z])")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")


def domain_slug(name: str) -> str:
    return _SLUG.sub("-", name.strip().lower()).strip("-") or GENERAL


def load_table(tree_config: dict[str, object], config_file: str = "") -> dict[str, list[str]]:
    """The cue table: the defaults, extended (or replaced) by `[tree.domains]`."""
    custom = tree_config.get("domains", {})
    if not isinstance(custom, dict):
        raise ConfigError(f"config {config_file}: tree.domains: expected a table of keyword lists")
    mode = tree_config.get("domains_mode", "extend")
    if mode not in ("extend", "replace"):
        raise ConfigError(f"config {config_file}: tree.domains_mode: expected 'extend' or 'replace'")
    table = {} if mode == "replace" else {k: list(v) for k, v in DEFAULT_DOMAINS.items()}
    for name, words in custom.items():
        if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
            raise ConfigError(f"config {config_file}: tree.domains.{name}: expected a list of keywords")
        table.setdefault(domain_slug(name), []).extend(w.lower() for w in words)
    return table


# -- matching ---------------------------------------------------------------------------------

def fold(text: str) -> str:
    """What cues are matched against: NFKC (full-width → ASCII), case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


class Cue:
    __slots__ = ("text", "domain", "weight", "where", "pattern")

    def __init__(self, raw: str, domain: str) -> None:
        self.domain = domain
        self.where = "any"
        text = fold(raw.strip())
        weak = text.endswith("?")
        text = text.rstrip("?")
        if text[:1] in "^=@":
            self.where, text = {"^": "start", "=": "exact", "@": "heading"}[text[0]], text[1:]
        self.text = text.strip("*")
        cjk = bool(_CJK.search(self.text))
        words = len(self.text.replace("-", " ").split())
        self.weight = (2 if (cjk and len(self.text) >= 3) or (not cjk and words >= 2) else 1) / (2 if weak else 1)
        body = re.escape(self.text)
        if cjk or (text.startswith("*") and text.endswith("*")):
            pattern = body
        elif text.endswith("*"):
            pattern = rf"(?<![{_LATIN}]){body}"  # the match is the cue alone: "kunden*" leaves "projekt" free
        elif text.startswith("*"):
            pattern = rf"{body}(?:e|en|n|s|es)?(?![{_LATIN}])"
        else:  # a whole word, inflected: tool → tools, tooling; invoices → invoice, invoiced
            if len(self.text) > 4 and self.text.endswith("s") and not self.text.endswith("ss"):
                body = re.escape(self.text[:-1])
            pattern = rf"(?<![{_LATIN}]){body}(?:s|es|d|ed|ing|er|ers)?(?![{_LATIN}])"
        if self.where == "start":
            pattern = "^" + pattern
        elif self.where == "exact":
            pattern = f"^{body}$"
        self.pattern = re.compile(pattern)


@functools.lru_cache(maxsize=8)
def _compiled(frozen: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[Cue, ...]:
    return tuple(Cue(raw, name) for name, words in frozen for raw in words if raw.strip("*^=@? "))


def _cues(table: dict[str, list[str]]) -> tuple[Cue, ...]:
    return _compiled(tuple((name, tuple(words)) for name, words in table.items()))


def _matches(text: str, cues: tuple[Cue, ...], heading: bool) -> list[Cue]:
    """The distinct cues found in `text`; a longer match hides the shorter ones inside it."""
    found = []
    for cue in cues:
        if cue.where != "any" and not heading:
            continue
        for match in cue.pattern.finditer(text):
            found.append((match.start(), match.end(), cue))
    taken: list[tuple[int, int, str]] = []
    kept: dict[tuple[str, str], Cue] = {}
    for start, end, cue in sorted(found, key=lambda row: (row[0] - row[1], row[0])):
        if any(start < b and a < end for a, b, _ in taken if (a, b) != (start, end)):
            continue
        if (start, end, cue.domain) in taken:  # "api keys" and "api key" on one span count once
            continue
        taken.append((start, end, cue.domain))
        kept.setdefault((cue.domain, cue.text), cue)
    return list(kept.values())


def heading_text(heading: str) -> str:
    """The heading as cues see it: no tags, comments, emoji or leading punctuation."""
    text = fold(_COMMENT.sub("", markdown.strip_tags(heading)))
    text = _PIN_TAG.sub("", text)
    return re.sub(r"^[^\w]+", "", text).strip()


# -- the verdict ------------------------------------------------------------------------------

class Verdict:
    """A section's domain and the evidence that chose it."""

    __slots__ = ("domain", "scores", "cues", "secrets", "pinned", "pin_reason")

    def __init__(self, domain: str) -> None:
        self.domain = domain
        self.scores: dict[str, float] = {}
        self.cues: list[str] = []  # "heading: api key (+6)" … for the chosen domain
        self.secrets: list[tuple[int, str]] = []  # (line in the section, kind)
        self.pinned = False
        self.pin_reason = ""

    def to_dict(self) -> dict[str, object]:
        return {"domain": self.domain, "cues": self.cues, "pinned": self.pinned, "pin_reason": self.pin_reason,
                "secrets": [f"line {n}: {kind}" for n, kind in self.secrets]}


def explicit_domain(heading: str, table: dict[str, list[str]]) -> str | None:
    comment = _COMMENT_TAG.search(heading)
    if comment:
        return domain_slug(comment.group(1))
    for tag in _BRACKET_TAG.findall(heading):
        tag = tag.lower()
        if tag in table:
            return tag
        if len(tag) >= 3:
            matches = [name for name in table if name.startswith(tag)]
            if len(matches) == 1:
                return matches[0]
    return None


def explain(heading: str, body: str, table: dict[str, list[str]]) -> Verdict:
    """The domain of a section (heading text and body below it) with the cues that chose it."""
    found = secrets.find(body)
    tagged = explicit_domain(heading, table)
    if found:
        private = ACCOUNTS if ACCOUNTS in table or not tagged else tagged
        verdict = Verdict(private)
        verdict.secrets = found
        verdict.cues = [f"secret in the body: {kind} (line {n + 1})" for n, kind in found[:3]]
        return verdict
    if tagged:
        verdict = Verdict(tagged)
        verdict.cues = ["explicit tag in the heading"]
        return verdict
    scores: dict[str, float] = {}
    why: dict[str, list[str]] = {}

    def add(domain: str, points: float, reason: str) -> None:
        if domain in table:
            scores[domain] = scores.get(domain, 0) + points
            why.setdefault(domain, []).append(f"{reason} (+{points:g})")

    cues = _cues(table)
    head = heading_text(heading)
    for cue in _matches(head, cues, heading=True):
        add(cue.domain, HEADING_WEIGHT * cue.weight, f"heading: {cue.text}")
    for emoji, domain in EMOJI.items():
        if emoji in heading:
            add(domain, HEADING_WEIGHT, f"heading: {emoji}")
    if not scores and head and _YEAR.search(head):  # "2026 年 2 月", "2025 recap": a dated log
        add("archive", (2 if _DATE_ONLY.match(head) else 1) * HEADING_WEIGHT, "heading: a date")
    body_points: dict[str, float] = {}
    for cue in _matches(fold(body), cues, heading=False):
        if body_points.get(cue.domain, 0) + cue.weight <= BODY_CAP:
            body_points[cue.domain] = body_points.get(cue.domain, 0) + cue.weight
            add(cue.domain, cue.weight, f"body: {cue.text}")
    amounts = len(set(_MONEY.findall(body)))
    if amounts:
        add("business", min(amounts, 2), "body: amounts of money")
    _entry_types(body, add)
    best = GENERAL
    for name in table:  # table order breaks ties: only a strictly better score wins
        if scores.get(name, 0) > scores.get(best, 0):
            best = name
    verdict = Verdict(best)
    verdict.scores = scores
    verdict.cues = why.get(best, ["no cue matched"])
    return verdict


def _entry_types(body: str, add) -> None:  # noqa: ANN001
    items = [line for line in body.splitlines() if _LIST_ITEM.match(line)]
    if len(items) < 2:
        return
    types = [m.group(1) for m in map(_ENTRY_TYPE.match, items) if m]
    for letter, domain in (("P", "identity"), ("!", "security")):
        if types.count(letter) * 2 >= len(items):
            add(domain, 2, f"entries: most are [{letter}]")


def classify(heading: str, body: str, table: dict[str, list[str]]) -> str:
    """The domain of a section (see the module docstring for the rule)."""
    return explain(heading, body, table).domain


# -- instructions to the agent ----------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _rule_cues() -> tuple[tuple[Cue, ...], tuple[Cue, ...]]:
    return (tuple(Cue(word, "rules") for word in RULE_HEADINGS),
            tuple(Cue(word, "instruction") for word in INSTRUCTION_WORDS))


def instruction(heading: str, body: str, table: dict[str, list[str]]) -> str:
    """Why a section reads as standing instructions to the agent ("" when it does not).

    `[pin]`/`[P0]` in the heading; a heading that names rules ("Iron rules", "铁律", "ルール",
    "Grundregeln", "Quy tắc"…); or a list whose items are orders (always, never, must, 每次, 必须,
    必ず, immer, luôn…): two in three under a heading with no domain cue, all of three or more
    under any heading."""
    if _PIN_TAG.search(heading):
        return "tagged [pin]/[P0]"
    head = heading_text(heading)
    rule_heads, orders = _rule_cues()
    named = _matches(head, rule_heads, heading=True)
    if named:
        return f"heading names rules: {named[0].text}"
    ordering = _matches(head, orders, heading=False)
    if ordering:
        return f"heading is an order: {ordering[0].text}"
    items = [fold(line) for line in body.splitlines() if _LIST_ITEM.match(line)]
    ordered = [item for item in items if _matches(item, orders, heading=False)]
    if len(items) < 2 or len(ordered) * 3 < len(items) * 2:
        return ""
    if len(ordered) == len(items) >= 3 or not _matches(head, _cues(table), heading=True):
        return f"{len(ordered)} of {len(items)} items are instructions"
    return ""
