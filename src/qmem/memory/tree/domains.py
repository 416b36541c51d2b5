"""Deterministic domain classification of MEMORY.md sections, from evidence (no LLM).

Evidence, strongest first:
1. An explicit tag: `## [infra] Backup plan` (a domain, or a prefix of one of at least three
   letters) or `## Backup plan <!-- domain: infrastructure -->` (any name: a new domain if unknown).
2. A secret in the body (`secrets.py`): the section goes to `accounts` whatever its heading says.
   A heading that marks the section confidential (`shared.confidential`) sends it to `private`;
   under a heading that names no subject ("## Update: 2026-03-05", "## 2026-03-05"), so does a
   subsection heading that marks its part so (`### Debts (CONFIDENTIAL — owner-only)`): with no
   topic of its own, the section is filed where its most private part must live (under "## Finances"
   it stays with finances; the shared boot leaves the subsection out).
3. The user's own heading. Cues (`cues.py`, matched by `match.py`) found in the heading decide
   when they point to one domain more than to any other; the body only breaks a tie between
   domains the heading names, and among those still tied the one the heading names first wins.
   Emoji decorate: one only breaks a tie between domains the heading's words name, and with no
   such word it is a broad hint that a body clearly about another domain overrules.
4. The body, when the heading names no domain: each distinct cue adds its weight, scaled by how
   specific it is in this file (a cue found in most sections of the file tells them apart from
   nothing), capped per domain; typed entries add evidence (most lines `[P]` → identity, `[!]`
   → security); a list whose items are mostly marked done (✅, [x], ~~struck~~, done, 已完成…)
   is closed matter → archive. The best domain wins if it reaches `confidence` (config `[tree]
   confidence`, default 2) with a clear margin over the next.
   A heading word that names history or closure (completed, archive, changelog, 已完成…) makes the
   section archive whatever else the heading names ("Completed goals"), unless the heading also
   says it is current ("Current history…").
5. Otherwise the section keeps a domain named after its own heading ("Linguistic Cloaker" →
   `linguistic-cloaker`): no evidence is no reason to file it with unrelated sections. A date in
   a heading is no evidence of anything (a dated "Current focus" is current); `archive` needs a
   heading that names history or a body of finished items.

Which headings are dated log entries, and where one is filed, is `dated.py`'s (step 3 hands it
the heading first). Which sections are instructions for the agent (kept in the root) is `instructions.py`'s job; it
reads a heading's rule words with `rule_matchers` and `rules_only_aside` from here. What a heading
says on its own (its text, a topicless heading, the domain named after it, a tag) is `headings.py`'s.
"""

from __future__ import annotations

import functools
import re

from ...base.errors import ConfigError
from .. import secrets, shared
from .cues import CUES, EMOJI, INSTRUCTION_WORDS, RULE_HEADINGS, kana_only
from . import agentic, dated as dated_entries, shapes
from .dated import BRACKETED, CURRENT
from .headings import (about_person, domain_slug, explicit_domain, heading_domain, heading_text, names_nothing,
                       topicless)
from .match import Matcher, fold, for_table, has_kana, matcher
from .matter import CLOSED, OPEN, heading_status
from .units import bare_title
from .verdict import ACCOUNTS, ARCHIVE, GENERAL, HEADING_WEIGHT, PRIVATE, PROJECTS, RULES, Verdict


EMOJI_TIE = 0.5  # a heading emoji that agrees with one of the domains the heading's words name
BODY_CAP = 2.5  # most body evidence one domain can collect: less than one heading cue
BODY_CHARS = 3000  # cues are looked for in the first this many characters of a body (~500 words)
DEFAULT_CONFIDENCE = 2.0
MARGIN = 1.0  # how far the best body score must lead the next
CLEARLY_MORE = 1.5  # two bodies' domains both at the cap: the one with half again the other's evidence wins

DEFAULT_DOMAINS: dict[str, list[str]] = {
    name: [("~" + cue if lang == "ja" and kana_only(cue) else cue) for lang, words in by_language.items() for cue in words]
    for name, by_language in CUES.items()
}

_ENTRY_TYPE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[^\]]*\]\s*)*?\[([P!])\]")
_MONEY = re.compile(r"(?i)[$€£¥₫]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|元|円|萬元|万元|đồng|nghìn|triệu|usd|eur|rmb|"
                    r"港幣|港币|台幣|dollars?|euros?)(?![a-z])")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
_DONE = re.compile(r"(?i)✅|✔|☑|\[x\]|~~.+~~|\b(?:done|completed|finished|shipped|resolved|closed|merged|retired)\b|"
                   r"已完成|已解决|已关闭|已上线|已合并|完了|済み|erledigt|abgeschlossen|đã xong|đã hoàn thành|완료|"
                   r"\b(?:terminée?s?|concluíd[oa]s?|terminad[oa]s?|completat[oa]|готово|сделано|выполнено|завершено)\b")
_LIST_NUMBER = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3})*[.):、]|[ivx]{1,4}[.)]|[a-h][.)]|[一二三四五六七八九十]+[、.．]|"
                          r"第[一二三四五六七八九十\d]+[章节部分])\s*")
_PERSON_EMOJI = "[\U0001F466-\U0001F469\U0001F9D1\U0001F474\U0001F475][\U0001F3FB-\U0001F3FF]?"
_FAMILY_EMOJI = re.compile(f"{_PERSON_EMOJI}(?:\u200d{_PERSON_EMOJI})+")


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


def confidence_of(tree_config: dict[str, object], config_file: str = "") -> float:
    """`[tree] confidence`: the body evidence a section needs to join a domain its heading does
    not name (below it, the section keeps a domain named after its own heading)."""
    value = tree_config.get("confidence", DEFAULT_CONFIDENCE)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ConfigError(f"config {config_file}: tree.confidence: expected a number ≥ 0")
    return float(value)


_SUBHEADING = re.compile(r"^#{3,6}[ \t]+(.+)$", re.MULTILINE)


def _confidential_part(body: str) -> str:
    """The first subsection heading in `body` that marks its part confidential ("" when none)."""
    return next((m.group(1).strip() for m in _SUBHEADING.finditer(body) if shared.confidential(m.group(1))), "")


class Context:
    """What the other sections of the same file say: how many bodies each cue is found in."""

    def __init__(self, table: dict[str, list[str]], bodies: list[str] | None = None,
                 confidence: float = DEFAULT_CONFIDENCE) -> None:
        self.table = table
        self.matcher: Matcher = for_table(table)
        self.confidence = confidence
        # Japanese-only kanji cues (数字 "figures", not zh 数字人 "digital human") need kana in the file
        self.kana: bool | None = any(has_kana(body) for body in bodies) if bodies else None
        self.found = [self.matcher.find(fold(body[:BODY_CHARS]), kana=self.kana) for body in bodies or []]
        self.sections = len(self.found)
        # an agent's own memory: most sections name its skills, models, MCP servers… (see `_TOOLS`)
        holding = sum(any(cue.domain == "agents" for cue in cues) for cues in self.found)
        self.agentic = self.sections >= 4 and holding * 3 >= self.sections
        self.df: dict[tuple[str, str], int] = {}
        for cues in self.found:
            for cue in cues:
                key = (cue.domain, cue.text)
                self.df[key] = self.df.get(key, 0) + 1

    def specificity(self, domain: str, text: str) -> float:
        """1 for a cue few sections share, less for one most of the file's sections hold."""
        if self.sections < 3:
            return 1.0
        share = self.df.get((domain, text), 1) / self.sections
        return max(0.25, 1.0 - share) if share > 0.5 else 1.0


def explain(heading: str, body: str, table: dict[str, list[str]], context: Context | None = None,
            found: list | None = None, *, dated: bool = True, vague: bool = False) -> Verdict:
    """The domain of a section (heading text and body below it) with the evidence that chose it.
    `context` carries the file's other sections; `found`, this body's cues if already matched;
    `dated=False`: the heading's date has been read already (its subject is being classified);
    `vague`: the heading names an event, not a topic (a dated entry's subject): a body's lead decides."""
    context = context or Context(table)
    holding = secrets.find(body)
    tagged = explicit_domain(heading, table)
    if holding:
        verdict = Verdict(ACCOUNTS if ACCOUNTS in table or not tagged else tagged)
        verdict.secrets = holding
        verdict.cues = [f"secret in the body: {kind} (line {n})" for n, kind in holding[:3]]
        return verdict
    if tagged:
        verdict = Verdict(tagged)
        verdict.cues = ["explicit tag in the heading"]
        return verdict
    if PRIVATE in table and (shared.confidential(heading) or names_nothing(heading) and _confidential_part(body)):
        verdict = Verdict(PRIVATE)
        verdict.cues = ["heading marks it confidential" if shared.confidential(heading) else
                        f"a subsection is marked confidential: {_confidential_part(body)}"]
        return verdict
    head = heading_text(heading)
    unnumbered = _LIST_NUMBER.sub("", head) or head  # "18. Protokoll 15.09.2026 – …": the entry starts after its number
    if dated and ARCHIVE in table and dated_entries.is_entry(head, unnumbered):
        return dated_entries.entry(unnumbered, body, table, context, found, explain)
    person = about_person(heading, context.matcher) if "identity" in table else ""
    if person:
        verdict = Verdict("identity")
        verdict.cues = [person]
        return verdict
    status, said = heading_status(fold(bare_title(heading)))
    goes = {OPEN: PROJECTS, CLOSED: ARCHIVE}.get(status, "")
    if goes in table:  # "App X (in progress)", "Stand 2026 (bitti)": the heading says how far the work is
        verdict = Verdict(goes)
        verdict.cues = [f"heading: its status says the work is {'ongoing' if status == OPEN else 'finished'} ({said})"]
        return verdict
    kana = context.kana if context.kana is not None else has_kana(heading) or has_kana(body[:BODY_CHARS])
    where: dict[str, int] = {}
    heading_scores, order, why, broad = _heading_evidence(head, heading, context.matcher, table, kana, where, body)
    if context.agentic and "agents" in table:
        _tools_are_the_agent_s(heading_scores, order, why, where)
        agentic.read(head, heading_scores, order, why, where)  # known issues, settings, routines: the agent's
    uncapped: dict[str, float] = {}
    body_scores = _body_evidence(body, context, found, why, kana, uncapped)
    if heading_scores:
        top = max(heading_scores.values())
        named = [d for d in order if heading_scores[d] == top]
        if ARCHIVE in heading_scores and (ARCHIVE not in broad or len(heading_scores) == 1):
            named = [ARCHIVE]  # "Completed goals", "Old clients": the heading says the matter is closed
        elif ARCHIVE in heading_scores:  # "Dashboard 代码存档": a saved copy of the code is the code
            named = [d for d in order if d != ARCHIVE and heading_scores[d] == max(
                v for k, v in heading_scores.items() if k != ARCHIVE)]
        kind = _kind(head, named, where)
        best = kind or max(named, key=lambda d: (body_scores.get(d, 0), -named.index(d)))
        hinted = {d for e, d in EMOJI.items() if e in heading}
        sense = _body_sense(best, broad, body_scores, context.confidence, hinted, uncapped) \
            if best in broad and best != ARCHIVE else ""
        verdict = Verdict(sense or best)
        verdict.scores = {d: heading_scores.get(d, 0) + body_scores.get(d, 0) for d in set(heading_scores) | set(body_scores)}
        verdict.cues = why.get(sense or best, [])
        if sense:
            verdict.cues = [f"the heading's word for {best} is a broad one; the body says {sense}"] + verdict.cues
        elif kind:
            verdict.cues = [f"the heading names what kind of note it is ({kind}) and what it is about: the kind wins"] + verdict.cues
        return verdict
    ranked = sorted(body_scores.items(), key=lambda row: -row[1])
    best, score = ranked[0] if ranked else (GENERAL, 0.0)
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    bar, lead = (context.confidence, MARGIN)
    vague = vague or topicless(heading)
    if vague:  # "Core Memories", "雜項": a name that says nothing is no better home than a weak body's
        bar, lead = bar / 2, lead / 2
    if score >= bar and score - runner_up < lead:  # both reached the cap: how much evidence each has decides
        best, runner_up = _beyond_the_cap(best, runner_up, body_scores, uncapped, lead)
    if score >= bar and score - runner_up >= lead:
        verdict = Verdict(best)
        verdict.scores = dict(body_scores)
        verdict.cues = why.get(best, []) + (["the heading names no topic: the body's lead decides"] if vague else [])
        return verdict
    own = heading_domain(heading) if head else GENERAL
    verdict = Verdict(own)
    verdict.scores = dict(body_scores)
    verdict.confident = False
    verdict.support = {d: len(why.get(d, [])) for d in body_scores}
    evidence = f"best {best} {score:g}" + (f", next {runner_up:g}" if len(ranked) > 1 else "") if ranked else "no cue"
    verdict.cues = [f"named after its heading: no domain is clear ({evidence}; needs {context.confidence:g} "
                    f"and a lead of {MARGIN:g})"]
    return verdict


# A heading that names a kind of note and a subject at once ("PowerShell gotchas", "Lessons from the
# migration", "open-notebook MCP", "Agent 配置", "ppt-craft skill迭代记录"): lessons are lessons whatever they
# are about, and an agent's skill, MCP server or prompt is the agent's, whatever it runs on or is building.
# Not where one word is listed by both ("Persona") or the heading joins two topics ("架构与 Agent",
# "Servers and agents": the first named wins, as in any tie).
_KINDS = ("lessons", "rules", "agents")
_JOINED = re.compile(r"(?i)[&+,/|;、，・·]|\s[-–—]\s|\b(?:and|or|vs|with|und|oder|et|ou|y|e|o|i|ed|и|или|và|hoặc|dan|atau|"
                     r"ve|veya|en|of|og|och|eller|oraz|lub|a|und)\b|[与和與及跟或]|と|や|및|와|과")


def _kind(head: str, named: list[str], where: dict[str, int]) -> str:
    """Of domains tied in the heading, the kind of note it names (see `_KINDS`), or ""."""
    kind = next((d for d in _KINDS if d in named), "") if len(named) > 1 else ""
    if not kind or kind not in where:
        return ""
    head = _LIST_NUMBER.sub("", head) or head  # as `_heading_evidence` reads it
    others = [o for o in named if o != kind and where.get(o) != where[kind]]
    if not others or any(o not in where for o in others):
        return ""  # one word that two domains list, or a cue not found where it stands
    for other in others:
        low, high = sorted((where[other], where[kind]))
        if _JOINED.search(head[low:high]):
            return ""
    return kind


# In an agent's own memory (a third of its sections or more name agents, skills, models, MCP servers),
# its tools and command lines are the agent's: "工具搜索优先级", "Discord统一CLI", "Tools I can call".
_TOOLS = frozenset(("tools", "tool", "cli", "工具", "常用工具", "ツール", "herramientas", "ferramentas", "outils",
                    "werkzeuge", "strumenti", "công cụ", "инструменты", "narzędzia", "araçlar", "alat"))
# and what the agent connects to or acts through (real agents' memory: "Google Integrations — All Confirmed
# Working", "Teams Integration Notes", "Browser & Web Access" are the agent's hands, not the machine's)
_TOOLS |= frozenset(("integrations", "app integrations", "browser", "ブラウザ", "浏览器", "瀏覽器"))
# and what it runs on a schedule or keeps watch on ("Daily Briefing (6 AM cron)", "YouTube channel Monitoring"):
# the agent's runs, not the machine's crontab or uptime checks
_TOOLS |= frozenset(("cron", "monitoring"))


# Settings of those tools are theirs too ("工具配置", "Tool config"): the word for settings adds to the tool's.
_SETTINGS = frozenset(("設定", "配置", "设置", "設置", "config", "configuration", "settings", "setup", "設定方法"))


def _tools_are_the_agent_s(scores: dict[str, float], order: list[str], why: dict[str, list[str]],
                           where: dict[str, int]) -> None:
    for domain in ("infrastructure", "codebase"):
        reasons = [r.removeprefix("heading: ").rpartition(" (+") for r in why.get(domain, []) if r.startswith("heading: ")]
        settings = sum(float(points.rstrip(")")) for text, _, points in reasons if text in _SETTINGS)
        for reason in why.get(domain, []):
            text, _, points = reason.removeprefix("heading: ").rpartition(" (+")
            if reason.startswith("heading: ") and text in _TOOLS and "agents" not in scores:
                scores["agents"] = float(points.rstrip(")")) + settings + 0.5  # the agent's before the machine's
                order.append("agents")
                if domain in where:
                    where["agents"] = where[domain]
                why["agents"] = [f"heading: {text}, in a file about an agent, is the agent's tool (+{scores['agents']:g})"]


def _body_sense(best: str, broad: set[str], body_scores: dict[str, float], confidence: float,
                hinted: frozenset[str] | set[str] = frozenset(), uncapped: dict[str, float] | None = None) -> str:
    """A heading whose only word for its domain is a broad everyday one ("Tariff model": model?,
    "$$": money?) means what the body is about, when the body clearly names another domain. Of two
    such domains the body names as strongly, the one the heading's emoji names wins ("🔑 重要設定"),
    then the one with more evidence before the cap (never the order of their names)."""
    more = uncapped or {}
    ranked = [(s, d) for s, _, _, d in sorted(((s, d in hinted, more.get(d, 0), d) for d, s in body_scores.items()
                                                if d != best), reverse=True)]
    if ranked and ranked[0][0] >= confidence and ranked[0][0] - body_scores.get(best, 0) >= MARGIN:
        return ranked[0][1]
    return ""


def _position(head: str, text: str) -> int:
    """Where a cue stands in the heading, found in an inflected form too ("skills" in "skill list",
    "agents" in "Agent design"): the order the heading names domains in breaks ties."""
    for cut in range(len(text), max(2, len(text) - 3) - 1, -1):
        at = head.find(text[:cut])
        if at >= 0:
            return at
    return 10**5


def _heading_evidence(head: str, heading: str, matcher_: Matcher, table: dict[str, list[str]],
                      kana: bool | None = None, where: dict[str, int] | None = None, body: str = "",
                      ) -> tuple[dict[str, float], list[str], dict[str, list[str]], set[str]]:
    """Per domain, the heading's points; the domains in the order the heading names them; the
    evidence; the domains the heading names only by broad words (cues marked `?`).
    A bracketed aside qualifies the heading ("Team Structure (GenGame Project)" is about a team):
    its cues count only when the rest of the heading names no domain."""
    scores: dict[str, float] = {}
    positions: dict[str, int] = {}
    why: dict[str, list[str]] = {}
    head = _LIST_NUMBER.sub("", head) or head  # "2) Về Lan": a cue for the heading's start starts after the number
    main = BRACKETED.sub(" ", head).strip()
    found = matcher_.find(main, heading=True, kana=kana) if main and main != head else []
    label = _LABEL.match(head)
    if label:  # "專案：存錢筒 App", "Project: Ferry app": a label before a colon says what kind of note it is
        named = [cue for cue in matcher_.find(label.group(1), heading=True, kana=kana) if not cue.weak]
        if len({cue.domain for cue in named}) == 1:
            found = named
    strong: set[str] = set()
    whole = re.sub(r"[\W_]+", " ", head).strip()
    for cue in found or matcher_.find(head, heading=True, kana=kana):
        alone = cue.weak and whole == cue.text  # "## me", "## Tokens": a broad word that is the whole heading is its topic
        if not cue.weak or alone:
            strong.add(cue.domain)
        points = HEADING_WEIGHT * matcher_.weight(cue) * (2 if alone else 1)
        scores[cue.domain] = scores.get(cue.domain, 0) + points
        at = _position(head, cue.text)
        positions[cue.domain] = min(positions.get(cue.domain, 10**6), at if at >= 0 else 10**5)
        why.setdefault(cue.domain, []).append(f"heading: {cue.text} (+{points:g})")
    family = _FAMILY_EMOJI.search(heading)
    if family and "people" in table:  # 👨‍👩‍👧: people joined into one sign are a family, not the user
        heading = _FAMILY_EMOJI.sub(" ", heading)
        scores["people"] = scores.get("people", 0) + HEADING_WEIGHT
        strong.add("people")
        positions["people"] = min(positions.get("people", 10**6), -1)
        why.setdefault("people", []).append(f"heading: {family.group(0)} (+{HEADING_WEIGHT})")
    worded = set(scores)
    for emoji, domain in EMOJI.items():
        # Emoji decorate a heading ("🧠 理論的基盤", "📦 GitHub 仓库"): its words outweigh them. An
        # emoji only breaks a tie between domains the words name; with no such word it is a
        # broad hint that a body clearly about another domain overrules.
        if emoji not in heading or domain not in table or (worded and domain not in worded):
            continue
        points = EMOJI_TIE if worded else HEADING_WEIGHT
        scores[domain] = scores.get(domain, 0) + points
        positions[domain] = min(positions.get(domain, 10**6), -1)
        why.setdefault(domain, []).append(f"heading: {emoji} (+{points:g})")
    if scores.get(RULES) and rules_only_aside(head, matcher_, body):  # "Agent Architecture — Design Principles"
        del scores[RULES]
    if scores.get(ARCHIVE) and CURRENT.search(head):  # "Current history of X" is current
        del scores[ARCHIVE]
    if where is not None:  # where each domain's first cue stands in `head` (as cut above)
        where.update({d: at for d, at in positions.items() if 0 <= at < 10**5})
    return scores, sorted(scores, key=lambda d: positions.get(d, 10**6)), why, set(scores) - strong


_LABEL = re.compile(r"^((?:[^\W\d_][\w'’-]*)(?:\s+[^\W\d_][\w'’-]*){0,2})\s*[:：]\s*\S")


def _beyond_the_cap(best: str, runner_up: float, scores: dict[str, float], uncapped: dict[str, float],
                    lead: float) -> tuple[str, float]:
    """(the domain, the next score as the margin sees it) when capped body scores stand too close: the
    domain whose uncapped evidence is half again the next one's (CLEARLY_MORE) and leads it by `lead`, wins.
    As much evidence each, or a stray line more, still decides nothing."""
    ranked = sorted(uncapped.items(), key=lambda row: (-row[1], row[0]))
    if len(ranked) < 2:
        return best, 0.0 if ranked else runner_up
    (first, most), (_, next_most) = ranked[0], ranked[1]
    if scores.get(first, 0) >= scores.get(best, 0) and most >= CLEARLY_MORE * next_most and most - next_most >= lead:
        return first, scores[first] - lead
    return best, runner_up


def _body_evidence(body: str, context: Context, found: list | None, why: dict[str, list[str]],
                   kana: bool | None = None, uncapped: dict[str, float] | None = None) -> dict[str, float]:
    """Per domain, the body's points, at most BODY_CAP each; `uncapped` is given the sums before the cap."""
    scores: dict[str, float] = {}
    uncapped = {} if uncapped is None else uncapped

    def add(domain: str, points: float, reason: str) -> None:
        if domain in context.table and points > 0:
            uncapped[domain] = uncapped.get(domain, 0) + points
            points = min(points, BODY_CAP - scores.get(domain, 0))
            if points > 0:
                scores[domain] = scores.get(domain, 0) + points
                why.setdefault(domain, []).append(f"{reason} (+{points:.2g})")

    cues = found if found is not None else context.matcher.find(fold(body[:BODY_CHARS]), kana=kana)
    for cue in sorted(cues, key=lambda c: (-c.weight, c.text)):
        points = context.matcher.weight(cue) * context.specificity(cue.domain, cue.text)
        add(cue.domain, points, f"body: {cue.text}")
    amounts = len(set(_MONEY.findall(body[:BODY_CHARS])))
    if amounts:
        add("business", min(amounts, 2) * 0.5, "body: amounts of money")
    for domain, points, reason in shapes.evidence(body[:BODY_CHARS]):
        add(domain, points, reason)
    items = [line for line in body[:BODY_CHARS].splitlines() if LIST_ITEM.match(line)]
    if len(items) >= 2:
        types = [m.group(1) for m in map(_ENTRY_TYPE.match, items) if m]
        for letter, domain in (("P", "identity"), ("!", "security")):
            if types.count(letter) * 2 >= len(items):
                add(domain, 2, f"entries: most are [{letter}]")
        done = sum(bool(_DONE.search(item)) for item in items)
        if len(items) >= 3 and done * 5 >= len(items) * 3:  # closed matter outweighs what it was about
            scores[ARCHIVE] = scores.get(ARCHIVE, 0) + BODY_CAP + MARGIN
            why.setdefault(ARCHIVE, []).append(f"entries: {done} of {len(items)} marked done (+{BODY_CAP + MARGIN:g})")
    return scores


def classify(heading: str, body: str, table: dict[str, list[str]]) -> str:
    """The domain of a section (see the module docstring for the rule)."""
    return explain(heading, body, table).domain


# -- a heading's words for rules (read by `instructions` too) ----------------------------------

@functools.lru_cache(maxsize=1)
def rule_matchers() -> tuple[Matcher, Matcher]:
    return (matcher((("rules", tuple(RULE_HEADINGS)),)), matcher((("instruction", tuple(INSTRUCTION_WORDS)),)))


# Where a heading's aside starts: a spaced dash or bar, a colon, a bracket ("Agent Architecture —
# Design Principles", "Care plan (May 4 — Pacing Protocol for Sam)").
_ASIDE_START = re.compile(r"\s+[-–—|/]\s+|[:：]\s*|\s*[(（\[【]")


def rules_only_aside(head: str, cues: Matcher, body: str) -> bool:
    """Do a heading's words for rules stand only in its aside, while the part before it names
    another domain and the body gives no orders? Then the heading is about that topic ("Agent
    Architecture — Design Principles" describes the agents' design, "Care plan (… Protocol for
    Sam)" is a plan): no standing rules. "Git — Rules" over "always rebase" still is one."""
    main = _ASIDE_START.split(head, 1)[0].strip()
    if not main or main == head.strip():
        return False
    rule_heads, order_words = rule_matchers()
    if rule_heads.find(main, heading=True):
        return False
    found = cues.find(main, heading=True)
    if any(cue.domain == RULES for cue in found) or all(cue.weak for cue in found):
        return False
    return not order_words.find(fold(body[:BODY_CHARS]))
