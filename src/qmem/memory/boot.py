"""`qmem boot`: what an agent reads at session start, within a token budget.

L0 (the root MEMORY.md, or memory/.abstract where a workspace keeps one), then
SESSION-STATE.md, then the last few daily logs (the last N that exist, however old), newest
first. A file that is a link leading outside the workspace, or not a readable UTF-8 file, is
left out with a note saying so. Over budget, the oldest
daily-log lines go first, and a last line says what was left out and how to read it.
With scope "shared" (a group chat), private sections, subsections, lines and domains are left
out (`shared.py`); pinned rules stay.
"""

from __future__ import annotations

import os
from datetime import date

from ..base.errors import ConfigError
from ..text.analysis import estimate_tokens
from . import shared
from .tree import domains as domains_mod
from .workspace import Workspace, raw_lines

DEFAULT_BUDGET = 1500
DEFAULT_DAYS = 2
DEFAULT_PRIVATE = ["identity", "accounts", "security", "private"]
_DOMAINS = "## Domains"


def budget_of(memory_config: dict[str, object] | None) -> int:
    """The boot budget a workspace's config sets (`[memory] boot_budget`), else the default."""
    value = (memory_config or {}).get("boot_budget", DEFAULT_BUDGET)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 50 else DEFAULT_BUDGET


class Part:
    __slots__ = ("kind", "path", "text", "omitted")

    def __init__(self, kind: str, path: str, text: str) -> None:
        self.kind = kind  # "L0", "rules" (a tree's rules filed outside its root), "state" or "daily"
        self.path = path
        self.text = text
        self.omitted: tuple[int, int] | None = None  # (first line, count) left out

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "path": self.path, "tokens": self.tokens, "text": self.text,
                "omitted_lines": list(self.omitted) if self.omitted else None}


class BootResult:
    def __init__(self, budget: int, scope: str) -> None:
        self.budget = budget
        self.scope = scope
        self.parts: list[Part] = []
        self.notes: list[str] = []

    @property
    def tokens(self) -> int:
        return sum(p.tokens for p in self.parts)

    def to_dict(self) -> dict[str, object]:
        return {"budget": self.budget, "scope": self.scope, "tokens": self.tokens,
                "parts": [p.to_dict() for p in self.parts], "notes": self.notes}


def boot(ws: Workspace, *, budget: int = DEFAULT_BUDGET, days: int = DEFAULT_DAYS, scope: str = "main",
         today: date | None = None, memory_config: dict[str, object] | None = None,
         tree_config: dict[str, object] | None = None) -> BootResult:
    today = today or date.today()
    result = BootResult(budget, scope)
    l0_path = ws.abstract if os.path.exists(ws.abstract) else ws.memory_md
    l0 = _read(ws, l0_path, result)
    rules = [(ws.rel(path), _read(ws, path, result)) for path in _rules_files(ws, l0)] if l0_path == ws.memory_md else []
    state = _read(ws, ws.session_state, result)
    logs = [(ws.rel(path), _read(ws, path, result)) for _, path in ws.recent_logs(days, today)]
    if scope == "shared":
        listed = (memory_config or {}).get("private_domains", DEFAULT_PRIVATE)
        if not isinstance(listed, (list, tuple)):  # a string would have been read letter by letter
            raise ConfigError("config: memory.private_domains: expected a list of domain names")
        private = [str(d) for d in listed]
        l0, left_out = _shared_l0(ws, l0, private, tree_config or {})
        rules = [(path, shared.without_private(text)[0]) for path, text in rules]  # rules stay, minus private lines
        state, gone = shared.without_private(state)
        left_out += [f"{ws.rel(ws.session_state)}: {what}" for what in gone]
        cleaned = []
        for path, text in logs:
            text, gone = shared.without_private(text)
            left_out += [f"{path}: {what}" for what in gone]
            cleaned.append((path, text))
        logs = cleaned
        if left_out:
            result.notes.append(f"shared scope: left out {len(left_out)} private part(s): {', '.join(left_out)}")
    if l0:
        result.parts.append(Part("L0", ws.rel(l0_path), l0))
    result.parts.extend(Part("rules", path, text) for path, text in rules if text.strip())
    if state.strip():
        result.parts.append(Part("state", ws.rel(ws.session_state), state))
    log_parts = [Part("daily", path, text) for path, text in logs]
    result.parts.extend(log_parts)
    _fit(ws, result, list(reversed(log_parts)))
    return result


def _rules_files(ws: Workspace, root: str) -> list[str]:
    """The leaves a tree's root names as rules kept outside it (read at every start like the
    root: `tree` filed them there because the root's budget could not hold them)."""
    from .tree.indexes import INDEX_NAME, pointed

    if not ws.has_tree:
        return []
    out = []
    for rel in pointed(root):
        path = os.path.join(ws.root, rel)
        if rel.endswith("/") and os.path.isdir(path):
            out += [os.path.join(path, name) for name in sorted(os.listdir(path))
                    if name.endswith(".md") and name != INDEX_NAME]
        elif rel.endswith(".md"):
            out.append(path)
    return out


def _read(ws: Workspace, path: str, result: BootResult) -> str:
    """The file's text, or "" and a note saying why it was left out (a link leading outside the
    workspace, a FIFO, a binary or non-UTF-8 file)."""
    text, problem = ws.read(path)
    if text is None:
        result.notes.append(f"left out {ws.rel(path)}: {problem}")
        return ""
    return text


def _fit(ws: Workspace, result: BootResult, oldest_first: list[Part]) -> None:
    """Drop daily-log lines, oldest log first and oldest lines (just under the header) first."""
    for part in oldest_first:
        if result.tokens <= result.budget:
            break
        lines = raw_lines(part.text)
        keep_head = 1 if lines and lines[0].startswith("# ") else 0
        body = lines[keep_head:]
        dropped = 0
        while body and result.tokens > result.budget:
            body.pop(0)
            dropped += 1
            part.text = "".join(lines[:keep_head] + body)
        if dropped:
            part.omitted = (keep_head + 1, dropped)
            result.notes.append(f"left out {dropped} older line(s) of {part.path}; read them: "
                                f"qmem get {part.path}:{keep_head + 1}:{dropped}")
        if not body and keep_head:
            result.parts.remove(part)
    if result.tokens > result.budget:
        result.notes.append(f"over the {result.budget}-token budget by {result.tokens - result.budget}: "
                            f"MEMORY.md and SESSION-STATE.md are never cut ({over_budget_fix(ws, result)})")


def over_budget_fix(ws: Workspace, result: BootResult) -> str:
    """What brings this boot within its budget: the advice fits what is big (a tree whose
    pinned core is large is not helped by `tree migrate`, a small MEMORY.md not by a tree)."""
    l0 = next((p for p in result.parts if p.kind == "L0"), None)
    state = next((p for p in result.parts if p.kind == "state"), None)
    l0_tokens = l0.tokens if l0 else 0
    if state is not None and state.tokens > l0_tokens:
        return f"SESSION-STATE.md is ~{state.tokens} tokens: qmem state clear once it is saved elsewhere"
    if ws.has_tree:
        raw = raw_lines(l0.text if l0 else "")
        at = next((i for i, line in enumerate(raw) if line.rstrip("\r\n") == _DOMAINS), len(raw))
        core = estimate_tokens("".join(raw[:at]))
        return (f"the tree's root is ~{l0_tokens} tokens, ~{core} of them its title and pinned sections: move a "
                f"pinned section below '{_DOMAINS}' and run qmem tree reindex (it becomes a leaf), or raise "
                f"[memory] boot_budget")
    from .tree.grow import DEFAULT_MIN_TOKENS  # below it, migrate refuses: a tree gains little

    if l0_tokens >= DEFAULT_MIN_TOKENS:
        return "try qmem tree migrate"
    return f"MEMORY.md is only ~{l0_tokens} tokens: raise [memory] boot_budget or --budget"


def _shared_l0(ws: Workspace, text: str, private: list[str], tree_config: dict[str, object]) -> tuple[str, list[str]]:
    """What a group chat may see of L0: the tree's root core (title and pinned rules) with
    private subsections and lines taken out, and the entries of public domains; or, for a flat
    MEMORY.md, its sections minus private ones (a `[private]` tag or a confidential heading, or a
    section of a private domain), pinned rules always kept. See `shared.py`."""
    from .tree.shape import pin_reason, split

    left_out: list[str] = []
    raw = raw_lines(text)
    at = next((i for i, line in enumerate(raw) if line.rstrip("\r\n") == _DOMAINS), None) if ws.has_tree else None
    if at is not None:
        kept = "".join(raw[:at]) + _drop_root_entries("".join(raw[at:]), private, left_out)
    else:
        table = domains_mod.load_table(tree_config)
        preamble, parts = split(text)
        pieces = [preamble]
        for part in parts:
            if shared.confidential(part.title):
                left_out.append(part.title)
            elif pin_reason(part.title, part.body, tree_config, table):
                pieces.append(part.text)  # rules are not private by being rules
            elif domains_mod.classify(part.title, part.body, table) in private:
                left_out.append(part.title)
            else:
                pieces.append(part.text)
        kept = "".join(pieces)
    kept, inside = shared.without_private(kept)
    return kept, left_out + inside


def _drop_root_entries(text: str, private: list[str], left_out: list[str]) -> str:
    """In a tree root's `## Domains` list, drop the lines of private domains, and every line's
    leaf names (a leaf's name can tell what it holds)."""
    from .tree.indexes import ALSO, ENTRY, SEP

    out = []
    for line in raw_lines(text):
        match = ENTRY.match(line)
        if match and match.group("domain") in private:
            left_out.append(f"domain {match.group('domain')}")
            continue
        if match:
            end = line[len(line.rstrip("\r\n")):]
            bare = line.rstrip("\r\n")
            cut = bare.find(ALSO)
            if cut < 0:
                cut = bare.find(SEP + "leaves: ")
            line = (bare[:cut] if cut >= 0 else bare) + end
        out.append(line)
    return "".join(out)
