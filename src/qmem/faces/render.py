"""Records → text for people, JSON for machines, Markdown for prompts. Returns strings only.

Colour is decided by the caller (a TTY and no NO_COLOR); the library never looks at stdout.
"""

from __future__ import annotations

from ..base.conventions import human_size as _size
from ..base.conventions import plural

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from ..engine.catalog import CollectionStatus, Status
    from .doctor import Report as DoctorReport
    from ..engine.evaluate import EvalReport
    from ..memory.boot import BootResult
    from ..memory.daily import FlushReport, Written
    from ..memory.distill import DistillReport
    from ..memory.forget import ForgetResult
    from ..memory.janitor import JanitorReport
    from ..memory.maintain import MaintainReport
    from ..memory.tree.grow import TreeResult
    from ..engine.retrieve import Excerpt
    from ..engine.search import Hit
    from ..engine.sync import RefreshReport

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_PATH = "\x1b[35m"
_HEAD = "\x1b[36m"
_MARK = "\x1b[1;31m"


def to_json(value: object) -> str:
    """What a `--json` off the start-up path prints: orjson, indented (base/jsonio.py)."""
    from ..base import jsonio

    return jsonio.dumps(value, pretty=True)


def startup_json(value: object) -> str:
    """What the start-up path prints (a cold `qmem search`/`get`, `qmem index`, `qmem-qmd
    search`): the same text as `to_json`, from base/jsontext.py's encoder, which imports no
    JSON library (orjson's import alone costs more than a whole cold search)."""
    from ..base.jsontext import dumps

    return dumps(value)


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color and text else text


def _highlight(line: str, spans: list[tuple[int, int]], color: bool) -> str:
    if not color or not spans:
        return line
    out, pos = [], 0
    for start, end in spans:
        out.append(line[pos:start])
        out.append(f"{_MARK}{line[start:end]}{_RESET}")
        pos = end
    out.append(line[pos:])
    return "".join(out)


def _numbered(first: int, lines: list[str], color: bool, spans: list | None = None,
              numbers: list[int | None] | None = None) -> list[str]:
    """Lines with their file line numbers (`numbers`, None for a `…` gap; else from `first`)."""
    numbers = numbers or [first + k for k in range(len(lines))]
    width = max((len(str(n)) for n in numbers if n is not None), default=1)
    out = []
    for k, line in enumerate(lines):
        number = _paint(str(numbers[k] if numbers[k] is not None else "").rjust(width), _DIM, color)
        out.append(f"  {number}  {_highlight(line, spans[k] if spans else [], color)}")
    return out


def hits_text(hits: list[Hit], color: bool = False, full: bool = False, explain: bool = False) -> str:
    """One block per hit: `path:line`, breadcrumb, score; then numbered snippet lines."""
    blocks: list[str] = []
    for hit in hits:
        where = _paint(f"{hit.path}:{hit.line}", _PATH + _BOLD, color)
        heading = _paint(hit.heading, _HEAD, color) if hit.heading else _paint("(top of file)", _DIM, color)
        meta = _paint(f"[{hit.collection}] {hit.score:.2f}" + (" expired" if hit.expired else ""), _DIM, color)
        block = [f"{where}  {heading}  {meta}"]
        if full:
            block.extend(_numbered(hit.body_line, hit.body.split("\n") if hit.body else [], color))
        else:
            snip = hit.snippet
            block.extend(_numbered(snip.line, snip.lines, color, snip.spans, snip.numbers))
        if explain and hit.explain:
            block.extend(_paint(f"  ? {row}", _DIM, color) for row in explain_rows(hit.explain))
        blocks.append("\n".join(block))
    return "\n\n".join(blocks)


def explain_rows(explain: dict) -> list[str]:
    """`--explain` as text lines: BM25, the best entry's score and the matched units with their
    weights, priors, window."""
    units = ", ".join(f"{unit} {weight:g}" for unit, weight in explain.get("units", {}).items())
    entry = f"; best entry {explain['entry']:g}" if "entry" in explain else ""
    rows = [f"bm25 {explain['bm25']:g}{entry}; units: {units or 'none'}"]
    if "date_prior" in explain:
        prior = explain["date_prior"]
        rows.append(f"date prior ×{prior['factor']:g} (days {', '.join(prior['ranges'])})")
    if "recency" in explain:
        rows.append(f"recency ×{explain['recency']:g}")
    rows.append(f"window: {explain['window']}")
    return rows


def hits_json(hits: list[Hit], full: bool = False) -> str:
    return startup_json([hit.to_dict(full) for hit in hits])


def hits_openclaw(hits: list[Hit]) -> str:
    """OpenClaw's memory_search shape: {results: [{path, startLine, endLine, score, snippet,
    source, citation}]}, lines of the snippet shown."""
    return startup_json({"results": openclaw_results(hits)})


def openclaw_results(hits: list[Hit]) -> list[dict[str, object]]:
    """The result records of OpenClaw's memory_search (the CLI and the MCP server share them)."""
    results = []
    for hit in hits:
        start, end = hit.line, max(hit.line, hit.shown_lines[1])
        results.append({"path": hit.path, "startLine": start, "endLine": end, "score": round(hit.score, 4),
                        "snippet": hit.snippet.text, "source": "memory", "citation": f"{hit.path}#L{start}-L{end}"})
    return results


def hits_files(hits: list[Hit]) -> str:
    """`abs_path:line` per hit (its best line), usable from any folder; repeats dropped."""
    seen: dict[str, None] = {}
    for hit in hits:
        seen.setdefault(f"{hit.abs_path}:{hit.line}", None)
    return "\n".join(seen)


def hits_markdown(hits: list[Hit], full: bool = False) -> str:
    """Markdown to paste into a prompt: a heading per hit, its source, the text."""
    blocks: list[str] = []
    for hit in hits:
        title = hit.heading or hit.path
        text = hit.body if full else hit.snippet.text
        blocks.append(f"### {title}\n`{hit.path}:{hit.line}` · {hit.collection} · score {hit.score:.2f}\n\n{text}".rstrip())
    return "\n\n".join(blocks)


def excerpt_text(excerpt: Excerpt, color: bool = False) -> str:
    header = _paint(f"{excerpt.path}:{excerpt.line_start}-{excerpt.line_end}", _PATH + _BOLD, color)
    if excerpt.heading:
        header += "  " + _paint(excerpt.heading, _HEAD, color)
    return "\n".join([header, *_numbered(excerpt.line_start, excerpt.lines, color)])


def excerpt_json(excerpt: Excerpt) -> str:
    return startup_json(excerpt.to_dict())


def refresh_text(report: RefreshReport) -> str:
    """One line per collection: what changed, the sections it now has, the time taken."""
    lines = []
    if report.rebuilt_from:
        lines.append(f"rebuilt the index (format changed; removed {', '.join(report.rebuilt_from)})")
    for c in report.collections:
        if c.skipped_root:
            lines.append(f"{c.name}: root missing, skipped")
            continue
        mode = " (full rebuild)" if c.full else ""
        lines.append(
            f"{c.name}: {plural(c.files, 'file')}, {plural(c.sections, 'section')} — {c.added} added, {c.changed} changed, "
            f"{c.deleted} deleted, {c.unchanged} unchanged{mode}"
        )
    for name in report.purged:
        lines.append(f"{name}: no longer configured; removed from the index")
    lines.append(f"done in {report.seconds:.2f}s")
    return "\n".join(lines)


def collections_text(statuses: list[CollectionStatus]) -> str:
    if not statuses:
        return "no collections yet: qmem collection create NAME PATH"
    width = max(len(s.name) for s in statuses)
    rows = []
    for s in statuses:
        when = s.last_refresh or "never indexed"
        rows.append(f"{s.name.ljust(width)}  {s.root}  [{', '.join(s.patterns)}]  {plural(s.files, 'file')}, {plural(s.sections, 'section')}, {when}")
    return "\n".join(rows)


def collection_text(s: CollectionStatus) -> str:
    rows = [
        f"name:         {s.name}",
        f"root:         {s.root}{'' if s.root_exists else '  (missing!)'}",
        f"patterns:     {', '.join(s.patterns)}",
        f"exclude:      {', '.join(s.exclude) or '-'}",
        f"description:  {s.description or '-'}",
        f"files:        {s.files}",
        f"sections:     {s.sections}",
        f"index size:   ~{_size(s.index_bytes_est)}",
        f"last refresh: {s.last_refresh or 'never'}",
        f"stale:        {s.stale} ({s.new} new, {s.changed} changed, {s.deleted} deleted since)",
    ]
    return "\n".join(rows)


def status_text(st: Status) -> str:
    rows = [
        f"config: {st.config_file}",
        f"data:   {st.data_dir}",
        f"index:  {_size(st.index_bytes)} on disk",
    ]
    if st.stale_index_versions:
        rows.append(f"old index formats present: {', '.join(st.stale_index_versions)} (the next refresh removes them)")
    if st.index_problem:
        rows.append(f"index damaged: {st.index_problem} (the next search or qmem index rebuilds it)")
    for folder in st.legacy_data:
        rows.append(f"shared index of an older qmem: {folder} (kept for other configs; remove it once all have run)")
    if not st.collections:
        rows.append("no collections yet: qmem collection create NAME PATH")
    for s in st.collections:
        stale = f"{s.stale} stale ({s.new} new, {s.changed} changed, {s.deleted} deleted)" if s.stale else "up to date"
        if not s.last_refresh:
            stale = "never indexed: qmem index " + s.name
        rows.append("")
        rows.append(f"{s.name}  {s.root}{'' if s.root_exists else '  (root missing!)'}")
        rows.append(
            f"  {plural(s.files, 'file')}, {plural(s.sections, 'section')}, ~{_size(s.index_bytes_est)}, "
            f"last refresh {s.last_refresh or 'never'}, {stale}"
        )
    return "\n".join(rows)


def eval_text(report: EvalReport, show: int = 20) -> str:
    """The metrics on one line, then the queries that missed and what came first instead."""
    metrics = "  ".join(f"{name} {value:.3f}" for name, value in report.metrics().items())
    rows = [f"{report.queries} queries, k={report.k}", metrics]
    misses = report.misses
    if misses:
        rows.append(f"missed ({len(misses)}):")
        for case in misses[:show]:
            instead = case.top or "nothing"
            rows.append(f"  {case.query!r}: expected {', '.join(case.expected)}; first: {instead}")
        if len(misses) > show:
            rows.append(f"  … and {len(misses) - show} more (--json lists them all)")
    return "\n".join(rows)


def tree_text(result: TreeResult) -> str:
    """A tree command's outcome: the message, boot tokens before → after, per-domain rows."""
    rows = [result.message] if result.message else []
    if result.tokens_before and result.action != "rollback":
        budget = f"; root budget {result.root_budget}" if result.root_budget else ""
        rows.append(f"boot tokens: {result.tokens_before} → {result.tokens_after} ({_change(result.reduction)}{budget})")
    if result.domains:
        width = max(len(name) for name in result.domains)
        for name, row in result.domains.items():
            leaves = ", ".join(row["leaves"])  # type: ignore[arg-type]
            rows.append(f"  {name.ljust(width)}  {row['files']:>3} file{'' if row['files'] == 1 else 's'}  "
                        f"~{row['tokens']:>5} tokens  {leaves}")
    if not result.sections:
        rows.extend(f"kept in the root: {row['section']} ({row['why']})" for row in result.pinned)
    for row in result.sections:  # migrate --explain
        rows.append(f"  {row['section']} → {row['domain']}: {'; '.join(row['why'])}")  # type: ignore[arg-type]
    if result.settings:
        s = result.settings
        rows.append(f"settings: confidence {s['confidence']:g}, pin share {s['pin_share']:g}, root budget "
                    f"{s['root_budget']}, leaf budget {s['leaf_budget']}, auto pin {'on' if s['auto_pin'] else 'off'}, "
                    f"domains {s['domains_mode']}" + (f" ({s['config']})" if s['config'] else ""))
        for name, words in s["user_domains"].items():
            rows.append(f"  [tree.domains] {name}: {', '.join(words)}")
    if result.worst_read.get("leaf"):
        share = f" = {result.worst_read['tokens'] / result.tokens_before:.0%} of the flat file" if result.tokens_before else ""
        rows.append(f"costliest read: ~{result.worst_read['tokens']} tokens (root → index → "
                    f"{result.worst_read['leaf']}){share}")
    rows.extend(f"too big to split: {row['leaf']} (~{row['tokens']} tokens)" for row in result.oversize)
    if result.dry_run and result.written:
        rows.append("would write:")
        rows.extend(f"  {path}" for path in result.written)
    if result.backup and result.action == "migrate" and result.changed:
        rows.append(f"rollback: qmem tree rollback {result.workspace}")
    if result.removed and result.action == "rollback":
        rows.append(f"removed {plural(len(result.removed), 'file')} made by migrate")
    if result.action == "rollback":  # reindex names its moves in the message
        rows.extend(f"  kept: {m['from']} → {m['to']} ({m['what']})" for m in result.moved)
    if result.refreshed:
        rows.append(f"index refreshed: {', '.join(result.refreshed)}")
    return "\n".join(rows)


def _change(reduction: float) -> str:
    """`63% less` when the tree shrank boot, `135% more` when it grew, `no change` otherwise."""
    if round(reduction, 2) == 0:
        return "no change"
    return f"{reduction:.0%} less" if reduction > 0 else f"{-reduction:.0%} more"


def boot_text(result: BootResult) -> str:
    """The boot parts one after another, each under a one-line comment naming it."""
    chunks = []
    for part in result.parts:
        chunks.append(f"<!-- qmem boot: {part.path} (~{part.tokens} tokens) -->\n{part.text.rstrip()}")
    for note in result.notes:
        chunks.append(f"<!-- qmem boot: {note} -->")
    chunks.append(f"<!-- qmem boot: ~{result.tokens} of {result.budget} tokens -->")
    return "\n\n".join(chunks)


def duplicate_text(written: Written) -> str:
    """`remember` of a fact already kept: where it is, and that nothing was written."""
    return f"{written.duplicate_at}  - {written.duplicate_of}  (already kept; not written again)"


def flush_text(report: FlushReport) -> str:
    rows = [f"kept {len(report.kept)}, dropped {len(report.dropped)} as duplicates"
            + (f" → {report.path}:{report.line}" if report.kept else "")]
    rows += [f"  + {entry[2:]}" for entry in report.kept]
    rows += [f"  - {note[2:]}  ({why})" for note, why in report.dropped]
    return "\n".join(rows)


def doctor_text(report: DoctorReport, quiet: bool = False) -> str:
    """One line per check; each problem on its own line with its fix; a last line with the verdict."""
    rows = []
    for check in report.checks:
        if check.ok and not quiet:
            rows.append(f"ok       {check.name:<9}  {check.detail}")
        for problem in check.problems:
            rows.append(f"PROBLEM  {check.name:<9}  {problem.message} → fix: {problem.fix}")
    if not quiet:
        count = len(report.problems)
        rows.append("all good" if report.ok else f"{plural(count, 'problem')} found")
    return "\n".join(rows)


def forget_text(result: ForgetResult) -> str:
    """What was forgotten, and where it went (nothing is deleted)."""
    rows = [f"forgot {f.ref}  {f.text.splitlines()[0].strip()}" for f in result.forgotten]
    rows.append(f"moved to {result.archive} (nothing is deleted; restore by copying it back)")
    return "\n".join(rows)


def replace_text(result: ForgetResult) -> str:
    """The corrected entry on its line, and where the old wording went."""
    written = result.written or {}
    return f"{written.get('ref')}  {written.get('entry')}\nthe old entry is in {result.archive}"


def distill_text(report: DistillReport) -> str:
    head = "dry run: " if report.dry_run else ""
    rows = [f"{head}{len(report.added)} added, {len(report.merged)} merged, {report.unchanged} already there, "
            f"{report.untyped} untyped left in the logs"]
    rows += [f"  + {row['file']}: {row['entry']}" for row in report.added]
    rows += [f"  ~ {row['file']}: {row['entry']} ({row['dates']})" for row in report.merged]
    return "\n".join(rows)


def janitor_text(report: JanitorReport) -> str:
    head = "dry run: would move" if report.dry_run else "moved"
    rows = [f"{head} {plural(len(report.moved), 'expired block')} (today {report.today})"]
    for move in report.moved:
        first = move.text.splitlines()[0] if move.text else ""
        rows.append(f"  {move.source}:{move.line} → {move.archive}  {first}")
    return "\n".join(rows)


def maintain_text(report: MaintainReport) -> str:
    rows = []
    if report.janitor:
        rows.append(f"janitor: moved {plural(len(report.janitor.moved), 'expired block')}")
    if report.distill:
        d = report.distill
        rows.append(f"distill: {len(d.added)} added, {len(d.merged)} merged, {d.unchanged} already there")
    if report.tree:
        rows.append(f"tree: {report.tree.message}")
    rows.append(f"index: {'refreshed ' + ', '.join(report.refreshed) if report.refreshed else 'no collection holds this workspace'}")
    return "\n".join(rows)
