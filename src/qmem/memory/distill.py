"""`qmem distill`: copy typed entries from recent daily logs into L1 topic files.

Each `[X]` entry goes to the topic file of its type (P → profile.md, E → events.md,
K → knowledge.md, B → behaviors.md, S → skills.md, ! → security.md under memory/, or under
the matching domain folder of a bonsai tree; `[memory.distill]` in the config overrides).
A distilled line keeps its provenance: `- [K] text (2026-02-27, 2026-02-28) [log](2026-02-28.md)`.
Near-duplicates merge (newest wording, every date kept). Untyped entries stay in the log;
daily logs are only read. Running it twice changes nothing the second time.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from datetime import date

from ..conventions import plural
from ..errors import ConfigError
from ..fsutil import atomic_write
from . import entries
from .workspace import Workspace, read_text

ROUTES = {"P": "profile.md", "E": "events.md", "K": "knowledge.md", "B": "behaviors.md", "S": "skills.md",
          "!": "security.md"}
TREE_DOMAINS = {"P": "identity", "E": "general", "K": "general", "B": "agents", "S": "infrastructure",
                "!": "security"}
TITLES = {"profile.md": "Profile", "events.md": "Events", "knowledge.md": "Knowledge",
          "behaviors.md": "Behaviors", "skills.md": "Skills", "security.md": "Security"}
SUMMARY_START, SUMMARY_END = "<!-- qmem:summary -->", "<!-- /qmem:summary -->"
STATS_START, STATS_END = "<!-- qmem:stats -->", "<!-- /qmem:stats -->"
_PROVENANCE = re.compile(r"\s\((\d{4}-\d{2}-\d{2}(?:, \d{4}-\d{2}-\d{2})*)\) \[log\]\(([^)\s]+)\)$")
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
        self.files: list[str] = []

    def to_dict(self) -> dict[str, object]:
        return {"dry_run": self.dry_run, "added": self.added, "merged": self.merged, "unchanged": self.unchanged,
                "untyped": self.untyped, "files": self.files}


def routes(ws: Workspace, memory_config: dict[str, object] | None, config_file: str = "") -> dict[str, str]:
    """Type letter → topic file (absolute path)."""
    custom = (memory_config or {}).get("distill", {})
    if not isinstance(custom, dict):
        raise ConfigError(f"config {config_file}: memory.distill: expected a table of type = \"path\"")
    out = {}
    for letter, name in ROUTES.items():
        if ws.has_tree:
            out[letter] = os.path.join(ws.domains, TREE_DOMAINS[letter], name)
        else:
            out[letter] = os.path.join(ws.memory_dir, name)
    for letter, path in custom.items():
        key = entries.parse_type(letter)
        if not isinstance(path, str) or not path:
            raise ConfigError(f"config {config_file}: memory.distill.{letter}: expected a path")
        out[key] = os.path.join(ws.root, path)
    return out


def distill(ws: Workspace, *, days: int = 3, today: date | None = None, dry_run: bool = False,
            memory_config: dict[str, object] | None = None, config_file: str = "") -> DistillReport:
    today = today or date.today()
    report = DistillReport(dry_run)
    targets = routes(ws, memory_config, config_file)
    incoming: dict[str, list[tuple[entries.Entry, str, str]]] = {}
    for day, log in sorted(ws.recent_logs(days, today)):  # oldest first: newer wording wins
        for line in read_text(log).splitlines():
            entry = entries.parse_line(line)
            if entry is None:
                continue
            if not entry.type:
                report.untyped += 1
                continue
            incoming.setdefault(targets[entry.type], []).append((entry, day.isoformat(), log))
    for target, items in sorted(incoming.items()):
        if _merge_into(ws, target, items, report):
            report.files.append(ws.rel(target))
    if report.files and not dry_run:
        _update_stats(ws, targets)
    return report


def _merge_into(ws: Workspace, target: str, items: list[tuple[entries.Entry, str, str]], report: DistillReport) -> bool:
    text = read_text(target)
    lines = text.splitlines()
    managed = _managed(lines)
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
    new_text = _render_file(target, lines, managed)
    if new_text == text:
        return False
    if not report.dry_run:
        atomic_write(target, new_text)
    return True


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


def _render_file(target: str, lines: list[str], managed: list[Distilled]) -> str:
    name = os.path.basename(target)
    if not lines:
        lines = [f"# {TITLES.get(name, name[:-3].replace('-', ' ').title())}", ""]
    lines = list(lines)
    for item in managed:
        if item.line >= 0:
            lines[item.line] = item.render()
    additions = [item.render() for item in managed if item.line < 0]
    while lines and not lines[-1].strip():
        lines.pop()
    lines.extend(additions)
    body = _set_block(lines, SUMMARY_START, SUMMARY_END, _summary(managed), after_title=True)
    return "\n".join(body) + "\n"


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


def _set_block(lines: list[str], start: str, end: str, content: str, after_title: bool) -> list[str]:
    """Replace the marked block, or insert it (after the `#` title, or at the end)."""
    block = [start, content, end]
    if start in lines and end in lines[lines.index(start):]:
        a = lines.index(start)
        b = lines.index(end, a)
        return lines[:a] + block + lines[b + 1:]
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None) if after_title else None
    if title is not None:
        rest = lines[title + 1:]
        gap = [""] if rest and rest[0].strip() else []
        return lines[:title + 1] + [""] + block + gap + rest
    return lines + [""] + block


def _update_stats(ws: Workspace, targets: dict[str, str]) -> None:
    """The `<!-- qmem:stats -->` block in MEMORY.md: entries per topic file, last update."""
    parts, last = [], ""
    for path in sorted(set(targets.values())):
        managed = _managed(read_text(path).splitlines())
        if managed:
            parts.append(f"{ws.rel(path)} {len(managed)}")
            last = max([last] + [d for item in managed for d in item.dates])
    if not parts or not os.path.exists(ws.memory_md):
        return
    content = f"Distilled entries: {' · '.join(parts)} (last {last})"
    text = read_text(ws.memory_md)
    lines = text.splitlines()
    if STATS_START not in lines and "## Domains" in lines:  # a tree root: keep it above the domain list
        at = lines.index("## Domains")
        lines = lines[:at] + [STATS_START, content, STATS_END, ""] + lines[at:]
    else:
        lines = _set_block(lines, STATS_START, STATS_END, content, after_title=False)
    new_text = "\n".join(lines) + "\n"
    if new_text != text:
        atomic_write(ws.memory_md, new_text)
