"""What the commands other than search, get and index print as text: collections, status,
eval, tree, boot, flush, doctor, forget, distill, janitor, maintain.

Apart from render.py so that a cold search or get, which imports render.py, does not load
these (~0.6M instructions of its ~80M); render.py hands any name it does not hold to this
module, so `render.status_text` and `from .render import status_text` keep working.
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
    from ..memory.tree.review import Review


def collections_text(statuses: list[CollectionStatus]) -> str:
    if not statuses:
        return "no collections yet: qmem collection create NAME PATH"
    width = max(len(s.name) for s in statuses)
    rows = []
    for s in statuses:
        when = s.last_refresh or "never indexed"
        rows.append(f"{s.name.ljust(width)}  {s.root}  [{', '.join(s.patterns)}]  {plural(s.files, 'file')}, {plural(s.sections, 'section')}, {when}")
    return "\n".join(rows)


def _estimate(s: CollectionStatus) -> str:
    """The collection's share of the index size (None only in `catalog.overview`'s rows, which print none)."""
    return "?" if s.index_bytes_est is None else _size(s.index_bytes_est)


def collection_text(s: CollectionStatus) -> str:
    rows = [
        f"name:         {s.name}",
        f"root:         {s.root}{'' if s.root_exists else '  (missing!)'}",
        f"patterns:     {', '.join(s.patterns)}",
        f"exclude:      {', '.join(s.exclude) or '-'}",
        f"description:  {s.description or '-'}",
        f"files:        {s.files}",
        f"sections:     {s.sections}",
        f"index size:   ~{_estimate(s)}",
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
            f"  {plural(s.files, 'file')}, {plural(s.sections, 'section')}, ~{_estimate(s)}, "
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
            leaves = ", ".join(_strings(row["leaves"]))
            rows.append(f"  {name.ljust(width)}  {row['files']:>3} file{'' if row['files'] == 1 else 's'}  "
                        f"~{row['tokens']:>5} tokens  {leaves}")
    if not result.sections:
        rows.extend(f"kept in the root: {row['section']} ({row['why']})" for row in result.pinned)
    for row in result.sections:  # migrate --explain
        rows.append(f"  {row['section']} → {row['domain']}: {'; '.join(_strings(row['why']))}")
    if result.settings:
        s = result.settings
        rows.append(f"settings: confidence {s['confidence']:g}, pin share {s['pin_share']:g}, root budget "
                    f"{s['root_budget']}, leaf budget {s['leaf_budget']}, auto pin {'on' if s['auto_pin'] else 'off'}, "
                    f"domains {s['domains_mode']}" + (f" ({s['config']})" if s['config'] else ""))
        user_domains = s["user_domains"]
        for name, words in user_domains.items() if isinstance(user_domains, dict) else ():
            rows.append(f"  [tree.domains] {name}: {', '.join(words)}")
        place = s.get("place")
        for heading, domain in place.items() if isinstance(place, dict) else ():
            rows.append(f"  [tree.place] {heading!r} → {domain}")
    if result.worst_read.get("leaf"):
        worst = result.worst_read["tokens"]
        share = f" = {worst / result.tokens_before:.0%} of the flat file" \
            if result.tokens_before and isinstance(worst, int) else ""
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


def review_text(result: Review) -> str:
    """`tree review`: each weak placement, why, its alternatives and the move that applies each."""
    rows = []
    for row in result.weak:
        rows.append(f"{row['leaf']}  ({row['section']!r}, line {row['line']}, ~{row['tokens']} tokens)")
        rows.append(f"  in {row['domain']}: {row['weak']}")
        why = _strings(row["why"])
        if why and why[0] not in str(row["weak"]):
            rows.append(f"  evidence: {'; '.join(why)}")
        alternatives = row["alternatives"] if isinstance(row["alternatives"], list) else []
        commands = row["commands"] if isinstance(row["commands"], list) else []
        for alt, command in zip(alternatives, commands):
            rows.append(f"  or {alt['domain']} ({alt['score']:g}): {command}")
        if not alternatives:
            rows.append(f"  no other domain has evidence: {row['template']}")
    skipped = "; ".join(f"{n} {why}" for why, n in result.skipped.items())
    rows.append(f"{plural(len(result.weak), 'weak placement')} of {plural(result.sections, 'section')}"
                + (f" (not reviewed: {skipped})" if skipped else "") + f"; domains: {', '.join(result.domains)}")
    return "\n".join(rows)


def _strings(value: object) -> list[str]:
    """The texts of a tree report row's list (its rows are dicts of plain JSON values)."""
    return [str(item) for item in value] if isinstance(value, list) else [str(value)]


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
