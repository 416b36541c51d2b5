"""`qmem distill`: copy typed entries from recent daily logs into L1 topic files.

Each `[X]` entry goes to the topic file of its type (P → profile.md, E → events.md,
K → knowledge.md, B → behaviors.md, S → skills.md, ! → security.md under memory/, or under
the matching domain folder of a bonsai tree; `[memory.distill]` in the config overrides).
A distilled line keeps its provenance: `- [K] text (2026-02-27, 2026-02-28) [log](2026-02-28.md)`.
Near-duplicates merge (newest wording, every date kept), across every topic file: an entry
already distilled anywhere is never written twice. Untyped and expired entries stay in the
log; daily logs are only read. Running it twice changes nothing the second time.

Each file is read, merged and replaced under the lock `remember` and `janitor` take, so a
concurrent writer's lines are never lost. Only the lines distill manages and its summary
block change; every other byte (CRLF, BOM, odd separators, no final newline) stays. In a
bonsai tree, distill never writes into a leaf migrate made (it uses `<topic>-distilled.md`
beside it) and keeps the `qmem:stats` block in the root, above the domain list.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from datetime import date

from ..base.conventions import plural
from ..base.errors import ConfigError, QmemError
from ..base.writes import rewrite_locked
from ..text import fences
from . import entries
from .tree import grow as tree_mod
from .workspace import (  # the markers are re-exported for callers of this module
    DISTILLED_SUFFIX, PROVENANCE, STATS_END, STATS_START, SUMMARY_END, SUMMARY_START, Workspace, bare, line_ending,
    raw_lines,
)

ROUTES = {"P": "profile.md", "E": "events.md", "K": "knowledge.md", "B": "behaviors.md", "S": "skills.md",
          "!": "security.md"}
TREE_DOMAINS = {"P": "identity", "E": "general", "K": "general", "B": "agents", "S": "infrastructure",
                "!": "security"}
TITLES = {"profile.md": "Profile", "events.md": "Events", "knowledge.md": "Knowledge",
          "behaviors.md": "Behaviors", "skills.md": "Skills", "security.md": "Security"}
_PROVENANCE = PROVENANCE
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
_STOP = {"the", "and", "for", "with", "that", "this", "from", "have", "has", "are", "was", "were", "not",
         "but", "you", "your", "all", "use", "when", "into", "than", "then", "them", "they", "its", "our"}


class Distilled:
    """A managed line of a topic file."""

    __slots__ = ("entry", "dates", "log", "line")

    def __init__(self, entry: entries.Entry, dates: list[str], log: str, line: int) -> None:
        self.entry = entry
        self.dates = dates
        self.log = log
        self.line = line  # index in the file's lines, -1 for a new one

    def render(self) -> str:
        return f"{self.entry.render()} ({', '.join(sorted(self.dates))}) [log]({self.log})"


class DistillReport:
    def __init__(self, dry_run: bool) -> None:
        self.dry_run = dry_run
        self.added: list[dict[str, str]] = []
        self.merged: list[dict[str, str]] = []
        self.unchanged = 0
        self.untyped = 0
        self.expired = 0
        self.files: list[str] = []
        self.warnings: list[str] = []

    def to_dict(self) -> dict[str, object]:
        return {"dry_run": self.dry_run, "added": self.added, "merged": self.merged, "unchanged": self.unchanged,
                "untyped": self.untyped, "expired": self.expired, "files": self.files, "warnings": self.warnings}


def routes(ws: Workspace, memory_config: dict[str, object] | None, config_file: str = "") -> dict[str, str]:
    """Type letter → topic file (absolute path)."""
    custom = (memory_config or {}).get("distill", {})
    if not isinstance(custom, dict):
        raise ConfigError(f"config {config_file}: memory.distill: expected a table of type = \"path\"")
    out = {}
    migrated = _migrate_leaves(ws)
    for letter, name in ROUTES.items():
        if ws.has_tree:
            rel = f"{TREE_DOMAINS[letter]}/{name}"
            if rel in migrated:  # never edit what migrate wrote: rollback gives it back as it was
                rel = rel[:-3] + DISTILLED_SUFFIX
            out[letter] = os.path.join(ws.domains, rel)
        else:
            out[letter] = os.path.join(ws.memory_dir, name)
    for letter, path in custom.items():
        key = entries.parse_type(letter)
        if not isinstance(path, str) or not path:
            raise ConfigError(f"config {config_file}: memory.distill.{letter}: expected a path")
        out[key] = os.path.join(ws.root, path)
    return out


def _migrate_leaves(ws: Workspace) -> set[str]:
    if not ws.has_tree:
        return set()
    try:
        manifest = tree_mod.load_manifest(ws)
    except tree_mod.TreeError:
        return set()
    return set((manifest or {}).get("leaves", {}))


def distill(ws: Workspace, *, days: int = 3, today: date | None = None, dry_run: bool = False,
            memory_config: dict[str, object] | None = None, config_file: str = "") -> DistillReport:
    today = today or date.today()
    report = DistillReport(dry_run)
    targets = routes(ws, memory_config, config_file)
    incoming: dict[str, list[tuple[entries.Entry, str, str]]] = {}
    for day, log in sorted(ws.recent_logs(days, today)):  # oldest first: newer wording wins
        text, problem = ws.read(log)
        if text is None:
            report.warnings.append(f"{ws.rel(log)}: {problem}, skipped")
            continue
        lines = [bare(line) for line in raw_lines(text)]
        for line, code in zip(lines, fences.fenced(lines)):
            entry = None if code else entries.parse_line(line)
            if entry is None:
                continue
            if not entry.type:
                report.untyped += 1
                continue
            if entry.expires and entry.expires < today.isoformat():  # the janitor's, not ours to copy
                report.expired += 1
                continue
            incoming.setdefault(targets[entry.type], []).append((entry, day.isoformat(), log))
    placed = _place(ws, incoming, report)
    for target, items in sorted(placed.items()):
        if _merge_into(ws, target, items, report):
            report.files.append(ws.rel(target))
    if report.files and not dry_run:
        _update_stats(ws, targets)
    return report


def _place(ws: Workspace, incoming: dict[str, list[tuple[entries.Entry, str, str]]],
           report: DistillReport) -> dict[str, list[tuple[entries.Entry, str, str]]]:
    """Each entry goes where it was distilled before (any topic file), else to its route. An
    entry already kept in a file distill must not write (a migrate leaf) is left alone."""
    migrated = {os.path.join(ws.domains, rel) for rel in _migrate_leaves(ws)}
    kept: dict[str, list[Distilled]] = {}
    for path in dict.fromkeys(ws.topic_files() + sorted(incoming)):
        text, _ = ws.read(path)
        kept[path] = _managed([bare(line) for line in raw_lines(text or "")])
    placed: dict[str, list[tuple[entries.Entry, str, str]]] = {}
    for target, items in sorted(incoming.items()):
        for item in items:
            home = next((path for path, managed in kept.items() if path != target
                         and any(entries.similar(m.entry.text, item[0].text) for m in managed)), None)
            if home in migrated:
                report.unchanged += 1
                continue
            placed.setdefault(home or target, []).append(item)
    return placed


def _merge_into(ws: Workspace, target: str, items: list[tuple[entries.Entry, str, str]], report: DistillReport) -> bool:
    """Merge `items` into `target` under its lock, re-reading it there; True when it changed."""
    try:
        ws.check_write(target)
    except QmemError as exc:
        report.warnings.append(str(exc))
        return False
    text, problem = ws.read(target)
    if text is None:
        report.warnings.append(f"{ws.rel(target)}: {problem}, skipped")
        return False
    if report.dry_run:
        return _merged_text(ws, target, text, items, report) != text
    outcome: list[DistillReport] = []

    def change(current: str) -> str:
        scratch = DistillReport(False)  # the lock may be retried: count only the last attempt
        outcome[:] = [scratch]
        return _merged_text(ws, target, current, items, scratch)

    try:
        changed = rewrite_locked(target, change, like=sorted({log for _, _, log in items}))
    except UnicodeDecodeError as exc:
        report.warnings.append(f"{ws.rel(target)}: not UTF-8 (byte {exc.start}), skipped")
        return False
    if outcome:
        report.added += outcome[0].added
        report.merged += outcome[0].merged
        report.unchanged += outcome[0].unchanged
    return changed


def _merged_text(ws: Workspace, target: str, text: str, items: list[tuple[entries.Entry, str, str]],
                 report: DistillReport) -> str:
    raw = raw_lines(text)
    managed = _managed([bare(line) for line in raw])
    for entry, day, log in items:
        link = os.path.relpath(log, os.path.dirname(target)).replace(os.sep, "/")
        match = next((m for m in managed if entries.similar(m.entry.text, entry.text)), None)
        if match is None:
            managed.append(Distilled(entry, [day], link, -1))
            report.added.append({"file": ws.rel(target), "entry": entry.render(), "date": day})
            continue
        newer = day > max(match.dates)  # a later day's wording wins; the same day keeps the first
        if day in match.dates:
            report.unchanged += 1
            continue
        match.dates.append(day)
        if newer:
            match.entry, match.log = entry, link
        report.merged.append({"file": ws.rel(target), "entry": entry.render(), "dates": ", ".join(sorted(match.dates))})
    return _render_file(target, raw, managed)


def _managed(lines: list[str]) -> list[Distilled]:
    out = []
    for i, line in enumerate(lines):
        found = _PROVENANCE.search(line)
        if not found:
            continue
        entry = entries.parse_line(line[: found.start()])
        if entry is not None:
            out.append(Distilled(entry, found.group(1).split(", "), found.group(2), i))
    return out


def _render_file(target: str, raw: list[str], managed: list[Distilled]) -> str:
    """The file with its managed lines rewritten in place and new ones appended; every other
    line keeps its bytes and its ending."""
    name = os.path.basename(target)
    if not raw:
        raw = [f"# {TITLES.get(name, name[:-3].replace('-', ' ').title())}\n", "\n"]
    eol = line_ending(raw)
    raw = list(raw)
    for item in managed:
        if item.line >= 0:
            ending = raw[item.line][len(bare(raw[item.line])):]
            raw[item.line] = item.render() + ending
    additions = [item.render() + eol for item in managed if item.line < 0]
    if additions and raw and not raw[-1].endswith(("\n", "\r")):
        raw[-1] += eol
    raw += additions
    return "".join(_set_block(raw, SUMMARY_START, SUMMARY_END, _summary(managed), eol, after_title=True))


def _summary(managed: list[Distilled]) -> str:
    """Entry count, last update, most frequent terms; at most 200 characters."""
    words: Counter[str] = Counter()
    for item in managed:
        for word in re.findall(r"[a-z][a-z0-9-]{3,}", item.entry.text.lower()):
            if word not in _STOP:
                words[word] += 1
    words.update(cjk_terms([item.entry.text for item in managed]))
    last = max((d for item in managed for d in item.dates), default="-")
    top = ", ".join(w for w, _ in sorted(words.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))[:6])
    text = f"{plural(len(managed), 'entry')} · updated {last} · top terms: {top}"
    return text if len(text) <= 200 else text[:199].rstrip(", ") + "…"


def cjk_terms(texts: list[str], longest: int = 8) -> Counter[str]:
    """Chinese terms without a dictionary: the longest runs shared by several entries, and whole
    short runs (up to `longest` characters) of the others; never a fragment that only ever
    occurs inside one longer term (`私钥` counts, `钥泄` from `私钥泄露` does not).

    Each term counts the entries that hold it."""
    grams: Counter[str] = Counter()
    whole: set[str] = set()
    for text in texts:
        seen: set[str] = set()
        for run in _CJK_RUN.findall(text):
            if len(run) <= longest:
                whole.add(run)
            for n in range(2, min(len(run), longest) + 1):
                seen.update(run[i:i + n] for i in range(len(run) - n + 1))
        grams.update(seen)
    kept = {g: c for g, c in grams.items() if c >= 2 or g in whole}
    covered = set()
    for term, count in kept.items():
        for n in range(2, len(term)):
            for i in range(len(term) - n + 1):
                if kept.get(term[i:i + n]) == count:
                    covered.add(term[i:i + n])
    return Counter({g: c for g, c in kept.items() if g not in covered})


def _set_block(raw: list[str], start: str, end: str, content: str, eol: str, after_title: bool) -> list[str]:
    """Replace the marked block in raw lines, or insert it (after the `#` title, or at the end)."""
    lines = [bare(line) for line in raw]
    if start in lines and end in lines[lines.index(start):]:
        a = lines.index(start)
        b = lines.index(end, a)
        ends = [raw[i][len(lines[i]):] or eol for i in (a, b)]
        return raw[:a] + [start + ends[0], content + ends[0], end + ends[1]] + raw[b + 1:]
    block = [start + eol, content + eol, end + eol]
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None) if after_title else None
    if title is not None:
        head, rest = list(raw[:title + 1]), raw[title + 1:]
        if not head[-1].endswith(("\n", "\r")):
            head[-1] += eol
        gap = [eol] if rest and rest[0].strip() else []
        return head + [eol] + block + gap + rest
    tail = list(raw)
    if tail and not tail[-1].endswith(("\n", "\r")):
        tail[-1] += eol
    return tail + [eol] + block


def _update_stats(ws: Workspace, targets: dict[str, str]) -> None:
    """The `<!-- qmem:stats -->` block of MEMORY.md: entries per topic file, last update. It sits
    in the root's own text (after the `#` title, or above a tree's domain list), where migrate
    keeps it; nothing else in the file changes."""
    parts, last = [], ""
    for path in sorted(set(targets.values())):
        managed = _managed([bare(line) for line in raw_lines(ws.read(path)[0] or "")])
        if managed:
            parts.append(f"{ws.rel(path)} {len(managed)}")
            last = max([last] + [d for item in managed for d in item.dates])
    if not parts or not os.path.isfile(ws.memory_md) or ws.read(ws.memory_md)[0] is None:
        return
    ws.check_write(ws.memory_md)
    content = f"Distilled entries: {' · '.join(parts)} (last {last})"
    try:
        rewrite_locked(ws.memory_md, lambda text: _with_stats(text, content))
    except UnicodeDecodeError:
        return


def _with_stats(text: str, content: str) -> str:
    raw = raw_lines(text)
    eol = line_ending(raw)
    lines = [bare(line) for line in raw]
    if STATS_START in lines and STATS_END in lines[lines.index(STATS_START):]:
        return "".join(_set_block(raw, STATS_START, STATS_END, content, eol, after_title=False))
    block = [STATS_START + eol, content + eol, STATS_END + eol]
    if tree_mod.DOMAINS_HEADING in lines:  # a tree root: above the domain list
        at = lines.index(tree_mod.DOMAINS_HEADING)
        return "".join(raw[:at] + block + [eol] + raw[at:])
    first_section = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    if any(line.startswith("# ") for line in lines[:first_section]):
        return "".join(_set_block(raw, STATS_START, STATS_END, content, eol, after_title=True))
    return "".join(block + [eol] + raw)  # no title: at the top, still before the first section
