"""Which sections are standing instructions to the agent (rules it must read at every start):
`migrate` keeps them in the root. Separate from `domains` (where a section is filed): a rules
section can be about any topic, and a section about rules can be none."""

from __future__ import annotations

import re

from .domains import LIST_ITEM, BODY_CHARS, PROJECTS, RULES, rule_matchers, rules_only_aside
from .headings import PIN_TAG, heading_text
from .dated import CURRENT, LOG_ENTRY
from .shapes import memory_types
from .match import Matcher, fold, for_table
from .units import bare_title

IDENTITY = "identity"

# "What Marb Wants", "What the owner expects", "What Sam needs from you": what the user wants of the
# agent is its standing instructions (a name, or a word for the user, then wants/expects/prefers).
_WANTS = re.compile(r"^(?i:what)\s+(?:(?!(?i:the|a|our|my|your|this)\b)[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)?|"
                    r"(?i:the (?:owner|user|boss|operator|human)|my (?:human|owner|user|boss)|he|she|they))\s+"
                    r"(?i:wants|expects|prefers|needs(?: from (?:me|you|us))?|likes from (?:me|you))\s*[?:!]?$")


# An English order often holds no order word: it is an imperative ("Use EST for timestamps", "Skip the
# fluff", "**Tone:** keep it short"), an imperative after its condition ("When the user says X, treat it
# as…"), or says what should be done ("Summaries should include…"). The verbs are those of behaviour and
# procedure that rarely open a statement of fact as a noun ("Backup nightly", "Build green", "Log at 3am"
# are facts: backup, build, log are left out).
_VERBS = frozenset("""acknowledge adapt add answer apply ask assume avoid be call check cite clarify classify
combine confirm consult continue convert correct create decide delegate delete describe detect disable
distinguish do document double-check draft email enable ensure escalate execute explain extract fetch finish fix
flag focus follow forward gather generate get give go handle hide identify ignore include inform interpret
investigate keep leave let look maintain make mention message narrate notify obey offer omit organise organize
paste pause pick ping poll post prefer preserve prioritise prioritize proceed protect provide prune put react
read recommend refer refresh refuse reject remember remind remove rephrase replace reply report request resolve
respect respond restart restore resume retry reuse reveal review rewrite route run save say schedule search see
select send separate share show simplify skip speak stay stick stop store submit suggest summarise summarize
surface take tell test think tidy translate treat trust try understand update use validate value verify wait
write""".split())
_ITEM_MARK = re.compile(r"^\s*(?:>\s*)*(?:[-*+•]|\d+[.)])\s+")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s")
# "**Tone:** …", "**Mission-oriented:** …", "In group chats: …": a label before the item's own words
_ITEM_LABEL = re.compile(r"^(?:\*\*[^*\n]{1,60}?(?::\*\*|\*\*\s*[:：—–]|\*\*\s+-)|(?:[A-Za-z][\w'/&-]*\s+){0,3}[A-Za-z][\w'/&-]*\s*:)\s*")
# a condition, then the order ("If a build runs, wait…", "Before sending, first check…"), or a condition that
# ends the item with a colon: the orders follow, nested under it ("When an action is closed:")
_CONDITION = re.compile(r"(?i)^(?:when|whenever|if|before|after|during|unless|once|for (?:any|every|each|all))\b[^,.;:\n]{2,120}"
                        r"(?:,\s*(?:(?:first|then|also|just|only)\s+)?|:\s*$)")
_SHOULD = re.compile(r"(?i)\b(?:should|shall|needs? to|have to|has to|(?:is|are) required)\b")
_STATEMENT = re.compile(r"(?i)^[\w'-]+\s+(?:[\w'-]+\s+)?(?:is|are|was|were|has|have|had|will|can|'s)\b")  # "Test suite is green"


# A heading is most often a noun phrase, and many behaviour verbs are nouns too ("Test Results", "Email
# Templates", "Update on the migration", "Call with Sam"). It is an order when the verb opens a clause: what
# follows is an object with its determiner or a pronoun, a clause of time or condition, an adverb of
# manner, code, or a gerund after a verb that takes one ("Verify Before Reporting", "Keep this file short",
# "Avoid restarting the gateway", "Use `gh` for GitHub"). Prepositions and particles that also follow nouns
# (on, with, for, up, out) are no sign. A label may stand before it ("CRITICAL: Keep …"), never/always/don't
# before the verb.
_CLAUSE_NEXT = frozenset("""the a an this that these those all every each any no your my our their its it them
me him her us you before after when whenever while if unless until once first only always never again""".split())
_TAKES_GERUND = frozenset("avoid stop keep skip finish resume consider prefer try continue".split())
_HEADING_LABEL = re.compile(r"^(?:[A-Za-z][\w'-]*\s*){1,3}[:：]\s+")
_ADVERB = re.compile(r"(?i)^(?:never|always|don'?t|do not|please)\s+")


def imperative_heading(head: str) -> str:
    """The order a heading gives by its English grammar ("" when it is a noun phrase): see `_CLAUSE_NEXT`."""
    text = re.sub(r"^[^\w`]+", "", head).strip()
    label = _HEADING_LABEL.match(text)
    text = _ADVERB.sub("", text[label.end():] if label else text)
    found = re.match(r"([A-Za-z][\w'-]*)\s+(`|[A-Za-z][\w'-]*)", text)
    if not found or found.group(1).lower() not in _VERBS:
        return ""
    after = found.group(2).lower()
    verb = found.group(1).lower()
    if after == "`" or after in _CLAUSE_NEXT or (verb in _TAKES_GERUND and after.endswith("ing") and len(after) > 4):
        return found.group(0)
    return ""


def _imperative(text: str) -> bool:
    first = re.match(r"[A-Za-z][\w'-]*", text)
    return first is not None and first.group(0).lower() in _VERBS and not _STATEMENT.match(text)


def english_order(item: str) -> bool:
    """Is a list item an order by its English grammar (see `_VERBS`)? A checkbox item is a task."""
    text = _ITEM_MARK.sub("", item, count=1).strip()
    if _CHECKBOX.match(text):
        return False
    label = _ITEM_LABEL.match(text)
    words = re.sub(r"^[*_`\"']+", "", (text[label.end():] if label else text).replace("**", "")).strip()
    condition = _CONDITION.match(words)
    after = words[condition.end():] if condition else ""
    only = re.sub(r"(?i)^only\s+", "", words)  # "Only send the reminder when…"
    return _imperative(only) or (condition is not None and (not after or _imperative(after))) \
        or bool(_SHOULD.search(text))


def _top_items(body: str) -> list[str]:
    """A body's list items at its outermost level (a nested item is a detail of the one above it)."""
    items = [line for line in body[:BODY_CHARS].splitlines() if LIST_ITEM.match(line)]
    least = min((len(line) - len(line.lstrip()) for line in items), default=0)
    return [line for line in items if len(line) - len(line.lstrip()) == least]


def orders(text: str) -> str:
    """Why an entry of a file without headings reads as an instruction: two different order
    words in it ("必须优先用… 禁止直接用…", "always … never …")."""
    found = {cue.text for cue in rule_matchers()[1].find(fold(text[:BODY_CHARS]))}
    return f"entry gives orders: {', '.join(sorted(found))}" if len(found) >= 2 else ""


def instruction(heading: str, body: str, table: dict[str, list[str]], matcher_: Matcher | None = None) -> str:
    """Why a section reads as standing instructions to the agent ("" when it does not).

    `[pin]`/`[P0]` in the heading; a heading that names rules ("Iron rules", "铁律", "ルール",
    "Grundregeln", "Quy tắc"…); or a list whose items are orders (always, never, must, 每次, 必须,
    必ず, immer, luôn…): two in three under a heading with no domain cue, all of three or more
    under any heading."""
    if PIN_TAG.search(heading):
        return "tagged [pin]/[P0]"
    head = heading_text(heading)
    wants = _WANTS.match(bare_title(heading).strip())
    if wants:
        return f"heading says what the user wants: {wants.group(0)}"
    rule_heads, orders = rule_matchers()
    cues = matcher_ or for_table(table)  # the plan passes its own: built once per file
    found = cues.find(head, heading=True)
    # a rule word inside a longer word of another domain names no rules there (目录约定: the code's conventions)
    named = [cue for cue in rule_heads.find(head, heading=True)
             if not any(cue.text in other.text != cue.text and other.domain != RULES for other in found)] \
        or [cue for cue in found if cue.domain == RULES]
    if named and not rules_only_aside(head, cues, body):
        return f"heading names rules: {named[0].text}"
    ordering = orders.find(head)
    if ordering:
        return f"heading is an order: {ordering[0].text}"
    types = memory_types(body)
    if types and set(types) == {"feedback"}:
        return f"its items index feedback memories, the user's guidance on how to work ({len(types)})"
    imperative = imperative_heading(bare_title(heading))
    if imperative:
        return f"heading is an order: {imperative}"
    items = _top_items(body)
    if len(items) < 2:
        return ""
    named = cues.find(head, heading=True)
    # under a heading of plans ("Next Priorities", "Open work", "Pending"), imperatives are tasks to do
    plans = any(cue.domain == PROJECTS for cue in named) or bool(CURRENT.search(head))
    ordered = [item for item in items if orders.find(fold(item)) or (not plans and english_order(item))]
    said = f"{len(ordered)} of {len(items)} items are instructions"
    if len(ordered) * 3 >= len(items) * 2 and (len(ordered) == len(items) >= 3 or not [c for c in named if not c.weak]):
        return said
    # a heading that names no domain at all ("Boundaries", "Email Triage"), or only the user ("Preferences &
    # Boundaries", "Personality / Tone": how to serve them), over a body half of orders
    if {cue.domain for cue in named} <= {IDENTITY} and len(ordered) * 2 >= len(items) and not LOG_ENTRY.match(head):
        return said
    return ""
