"""Which sections are standing instructions to the agent (rules it must read at every start):
`migrate` keeps them in the root. Separate from `domains` (where a section is filed): a rules
section can be about any topic, and a section about rules can be none."""

from __future__ import annotations

import re

from .domains import LIST_ITEM, PIN_TAG, BODY_CHARS, RULES, rule_matchers, rules_only_aside, heading_text
from .match import Matcher, fold, for_table
from .units import bare_title

# "What Marb Wants", "What the owner expects", "What Sam needs from you": what the user wants of the
# agent is its standing instructions (a name, or a word for the user, then wants/expects/prefers).
_WANTS = re.compile(r"^(?i:what)\s+(?:(?!(?i:the|a|our|my|your|this)\b)[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)?|"
                    r"(?i:the (?:owner|user|boss|operator|human)|my (?:human|owner|user|boss)|he|she|they))\s+"
                    r"(?i:wants|expects|prefers|needs(?: from (?:me|you|us))?|likes from (?:me|you))\s*[?:!]?$")


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
    named = rule_heads.find(head, heading=True) or [cue for cue in cues.find(head, heading=True) if cue.domain == RULES]
    if named and not rules_only_aside(head, cues, body):
        return f"heading names rules: {named[0].text}"
    ordering = orders.find(head)
    if ordering:
        return f"heading is an order: {ordering[0].text}"
    if not orders.find(fold(body[:BODY_CHARS])):
        return ""  # no order word anywhere: no item can be one
    items = [fold(line) for line in body[:BODY_CHARS].splitlines() if LIST_ITEM.match(line)]
    ordered = [item for item in items if orders.find(item)]
    if len(items) < 2 or len(ordered) * 3 < len(items) * 2:
        return ""
    if len(ordered) == len(items) >= 3 or not [cue for cue in cues.find(head, heading=True) if not cue.weak]:
        return f"{len(ordered)} of {len(items)} items are instructions"
    return ""
