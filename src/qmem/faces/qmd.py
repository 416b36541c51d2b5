"""`qmem-qmd`: qmd's command contract on top of qmem, for tools configured to run qmd.

Honoured: `collection add PATH [--name N] [--mask|--glob GLOB]`, `collection remove N`,
`collection list [--json]` (qmem's collections, and qmd's own not imported yet),
`collection import [NAME…] [--index NAME]` (qmd's YAML config → qmem collections, indexed),
`update`, `search|vsearch|query QUERY [--json] [--files] [-n N] [-c C] [--min-score X]`,
`get PATH[:LINE]`, `multi-get PATTERN`, `ls [COLLECTION[/PATH]]`, `status`, `mcp`, `--version`.
`query` (hybrid) and `vsearch` (vectors) run on qmem's vector tier when it is installed and
embedded; otherwise they answer with BM25 and say so on stderr. `embed` exits 0 so callers
that always run it do not fail. Anything else is refused with exit 2.

Scores are shown in qmd's range (see `qmd_score`), so a `--min-score` tuned for qmd keeps its
meaning.
"""

from __future__ import annotations

import argparse
import os
import sys

import xxhash

from .. import __version__
from ..engine import catalog, retrieve, search, sync
from ..base import config
from . import render
from ..base.errors import EXIT_USAGE, BadInputError, non_utf8_argument
from . import guarded, silence_stdout

NO_VECTORS = "qmem-qmd: embedding is done by qmem itself: run `qmem embed` (the vector extra: {hint})"
MODES = {"search": "bm25", "vsearch": "vector", "query": "hybrid"}
MULTI_GET_MAX_BYTES = 64 * 1024  # qmd's DEFAULT_MULTI_GET_MAX_BYTES


def qmd_score(score: float, mode: str) -> float:
    """A qmem score in qmd's 0–1 range. BM25 (search, and the BM25 hits query puts first)
    maps as qmd 2.x maps SQLite's BM25, s / (1 + s): monotonic, query-independent, 2.85 →
    0.74, 1 → 0.5. Vector similarities (vsearch) are cosines, already qmd's range (below 0
    shown as 0). The fused hits `query` adds after BM25's carry their small fusion scores.
    `--min-score` compares this number, as qmd's does."""
    if mode == "vector":
        return max(0.0, min(1.0, score))
    return score / (1.0 + score) if score > 0 else 0.0


def _docid(hit: search.Hit) -> str:
    key = f"{hit.collection}/{hit.path}#{hit.anchor}:{hit.line_start}"
    return "#" + xxhash.xxh3_64_hexdigest(key.encode("utf-8"))[:6]


def _hit_json(hit: search.Hit, mode: str = "bm25") -> dict[str, object]:
    start = hit.shown_lines[0]
    count = len(hit.snippet.lines)
    return {
        "docid": _docid(hit),
        "score": round(qmd_score(hit.score, mode), 4),
        "file": f"qmd://{hit.collection}/{hit.path}",
        "line": start,
        "title": hit.heading or hit.path.rsplit("/", 1)[-1],
        "snippet": f"@@ -{start},{count} @@\n{hit.snippet.text}",
    }


def _get_target(target: str, collection: str | None) -> tuple[str, list[str] | None]:
    """`qmd://collection/path[:LINE]` (what search prints) → (path, [collection]); a plain path
    keeps `-c`."""
    if target.startswith("qmd://"):
        named, _, path = target[len("qmd://"):].partition("/")
        if not named or not path:
            raise BadInputError(f"{target}: expected qmd://COLLECTION/PATH")
        if collection and collection != named:
            raise BadInputError(f"{target} names collection {named}, -c says {collection}")
        return path, [named]
    return target, [collection] if collection else None


class _OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (`qmem-qmd: get: … (see: qmem-qmd get -h)`), exit 2;
    sub-commands inherit it (add_subparsers uses the parent's class)."""

    def error(self, message: str):  # never returns
        raise BadInputError(f"{self.prog.split(' ', 1)[1] + ': ' if ' ' in self.prog else ''}{message} "
                            f"(see: {self.prog} -h)")


def _parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="qmem-qmd", description="qmd-compatible commands backed by qmem (for tools configured to run qmd).",
        epilog="examples:\n  qmem-qmd collection import             # qmd's own collections, indexed by qmem\n"
               "  qmem-qmd collection add ~/agent --name main --mask '**/*.md'\n"
               "  qmem-qmd query \"private key leaked\" --json -n 5\n  qmem-qmd get MEMORY.md:10",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"qmem-qmd {__version__} (qmem {__version__})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    coll = sub.add_parser("collection", help="Add, remove, list or import collections (folders of Markdown files).")
    coll_sub = coll.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = coll_sub.add_parser("add", help="Add a folder as a collection and index it.")
    add.add_argument("path", metavar="PATH", help="Root folder of the collection.")
    add.add_argument("--name", default=None, metavar="NAME", help="Collection name (default: the folder's name).")
    add.add_argument("--mask", "--glob", dest="mask", default=None, metavar="GLOB",
                     help="Glob(s) of files to index, qmd's way: comma-separated, {a,b} groups (default: MEMORY.md, memory/**/*.md).")
    coll_sub.add_parser("remove", help="Remove a collection (its files are not touched).").add_argument(
        "name", metavar="NAME", help="Collection name.")
    listing = coll_sub.add_parser("list", help="List collections, and qmd's own that are not imported yet.")
    listing.add_argument("--json", action="store_true", help="Print JSON.")
    listing.add_argument("--index", default=None, metavar="NAME", help="qmd's named index (its NAME.yml).")
    imp = coll_sub.add_parser("import", help="Create qmem collections from qmd's own config and index them.")
    imp.add_argument("names", nargs="*", metavar="NAME", help="Only these of qmd's collections (default: all).")
    imp.add_argument("--index", default=None, metavar="NAME", help="qmd's named index (its NAME.yml).")
    imp.add_argument("--from", dest="source", default=None, metavar="FILE", help="qmd's config file (default: where qmd reads it).")
    imp.add_argument("--json", action="store_true", help="Print JSON.")
    sub.add_parser("update", help="Refresh the index (incremental).")
    sub.add_parser("status", help="Files, sections and stale files per collection.")
    helps = {"search": "BM25 keyword search.",
             "vsearch": "Vector search (qmem's vector tier; BM25 with a note on stderr without it).",
             "query": "Hybrid search, BM25 + vectors (BM25 with a note on stderr without the vector tier)."}
    for name, text in helps.items():
        cmd = sub.add_parser(name, help=text, description=text)
        cmd.add_argument("query", nargs="+", metavar="QUERY", help="Words to look for.")
        cmd.add_argument("--json", action="store_true", help="JSON array of results.")
        cmd.add_argument("--files", action="store_true", help="docid,score,file per line.")
        cmd.add_argument("-n", type=int, default=5, metavar="N", help="Number of results (default 5).")
        cmd.add_argument("-c", "--collection", action="append", metavar="NAME", help="Limit to a collection (repeatable).")
        cmd.add_argument("--min-score", type=float, default=None, metavar="SCORE", help="Drop results scoring below this.")
    ls = sub.add_parser("ls", help="List collections, or the files of one: COLLECTION[/PATH] or qmd://COLLECTION/PATH.")
    ls.add_argument("target", nargs="?", default=None, metavar="PATH", help="A collection, optionally /a path prefix.")
    multi = sub.add_parser("multi-get", help="Print many files: a glob ('memory/2026-02*.md') or a comma-separated list.")
    multi.add_argument("pattern", metavar="PATTERN", help="Glob on path, COLLECTION/path or qmd://COLLECTION/path; or a,b,c.")
    multi.add_argument("-l", type=int, default=None, metavar="N", help="At most N lines per file.")
    multi.add_argument("--max-bytes", type=int, default=MULTI_GET_MAX_BYTES, metavar="BYTES",
                       help="Skip files larger than this (default 65536).")
    multi.add_argument("--no-line-numbers", action="store_true", help="Bodies without 'N: ' line numbers.")
    multi.add_argument("--json", action="store_true", help="JSON array of {file, title, body} (or skipped, reason).")
    mcp = sub.add_parser("mcp", help="Serve qmem's MCP tools (memory_search, memory_get, …) over stdio.")
    mcp.add_argument("--http", action="store_true", help="Streamable HTTP on 127.0.0.1 instead of stdio.")
    mcp.add_argument("--port", type=int, default=8765, metavar="PORT", help="HTTP port (default 8765).")
    get = sub.add_parser("get", help="Print a file, or from a line on: PATH[:LINE] or qmd://COLLECTION/PATH[:LINE].")
    get.add_argument("target", metavar="PATH", help="A path relative to a collection root, optionally with :LINE; "
                     "or the qmd://collection/path a search printed.")
    get.add_argument("-c", "--collection", default=None, help="The collection, when several hold PATH.")
    embed = sub.add_parser("embed", help="No-op for qmd callers; qmem embeds with `qmem embed`.")
    embed.add_argument("-f", "--force", action="store_true", help="Accepted and ignored.")
    return parser


def run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    cfg = config.load()
    handler = {"collection": _collection, "update": _update, "status": _status, "get": _get, "embed": _embed,
               "ls": _ls, "multi-get": _multi_get, "mcp": _mcp}.get(args.command, _search)
    handler(cfg, args)
    return 0


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _collection(cfg: config.Config, args: argparse.Namespace) -> None:
    from . import qmd_config

    if args.action == "add":
        name = args.name or os.path.basename(os.path.abspath(os.path.expanduser(args.path)).rstrip("/")) or "root"
        coll, report = catalog.create(cfg, name, args.path, qmd_config.globs(args.mask) if args.mask else None)
        _warn(report)
        _out(f"Collection '{coll.name}' added: {coll.path} ({', '.join(coll.patterns)})")
    elif args.action == "remove":
        catalog.remove(cfg, args.name)
        _out(f"Collection '{args.name}' removed")
    elif args.action == "import":
        source = args.source or qmd_config.config_path(args.index)
        found = qmd_config.read(source)
        if not found:
            raise BadInputError(f"no qmd collections in {source}" + ("" if os.path.isfile(source) else " (no such file)"))
        imported = qmd_config.import_all(cfg, found, source, args.names or None)
        for _, refreshed in imported.created:
            _warn(refreshed)
        _out(render.to_json(imported.to_dict()) if args.json else _import_text(imported))
    else:
        source = qmd_config.config_path(args.index)
        waiting = qmd_config.pending(cfg, qmd_config.read(source))
        rows = [{"name": c.name, "path": c.path, "pattern": ",".join(c.patterns), "source": "qmem"}
                for c in cfg.select(None)]
        rows += [{"name": c.name, "path": c.path, "pattern": ",".join(c.patterns), "source": "qmd"} for c in waiting]
        if args.json:
            from ..base import jsonio

            _out(jsonio.dumps(rows))
        else:
            _out("".join(f"{r['name']}\t{r['path']}\t{r['pattern']}" + ("\t(qmd, not imported)" if r["source"] == "qmd" else "")
                         + "\n" for r in rows) or "No collections found. Run 'qmem-qmd collection add .' to create one.")
        if waiting:
            sys.stderr.write(f"qmem-qmd: {len(waiting)} of qmd's collections ({source}) are not in qmem yet: "
                             f"qmem-qmd collection import{' --index ' + args.index if args.index else ''}\n")


def _import_text(report) -> str:  # qmd_config.ImportReport
    rows = [f"imported {c.name}: {c.path} ({', '.join(c.patterns)})"
            + (f" — {r.collections[0].files} files, {r.collections[0].sections} sections" if r and r.collections else "")
            for c, r in report.created]
    rows += [f"{name}: already in qmem" for name in report.present]
    rows += [f"skipped {name}: {why}" for name, why in report.skipped]
    return "\n".join(rows)


def _warn(report) -> None:  # a RefreshReport or None
    for c in getattr(report, "collections", []):
        for warning in c.warnings:
            sys.stderr.write(f"qmem-qmd: warning: {c.name}: {warning}\n")


def _update(cfg: config.Config, args: argparse.Namespace) -> None:
    _out(render.refresh_text(sync.refresh(cfg)))


def _status(cfg: config.Config, args: argparse.Namespace) -> None:
    _out(render.status_text(catalog.status(cfg)))


def _get(cfg: config.Config, args: argparse.Namespace) -> None:
    target, collections = _get_target(args.target, args.collection)
    _out(retrieve.get(cfg, target, collections).text)


def _embed(cfg: config.Config, args: argparse.Namespace) -> None:
    from ..base.install import install_hint

    sys.stderr.write(NO_VECTORS.format(hint=install_hint("vector")) + "\n")


def _ls(cfg: config.Config, args: argparse.Namespace) -> None:
    from .qmd_files import ls

    _out(ls(cfg, args.target))


def _multi_get(cfg: config.Config, args: argparse.Namespace) -> None:
    from .qmd_files import check_limit, documents_text, multi_get

    check_limit(args.l, "-l")
    check_limit(args.max_bytes, "--max-bytes")
    docs = multi_get(cfg, args.pattern, args.l, args.max_bytes, not args.no_line_numbers)
    _out(render.to_json([d.to_dict() for d in docs]) if args.json else documents_text(docs))


def _mcp(cfg: config.Config, args: argparse.Namespace) -> None:
    from .mcp import serve

    def announce(line: str) -> None:
        sys.stderr.write(f"qmem-qmd: {line}\n")
        sys.stderr.flush()

    serve(None, None, http=args.http, port=args.port, announce=announce)


def _needs_collections(cfg: config.Config) -> None:
    """No qmem collection yet: say so, and name qmd's when its config has some."""
    if cfg.collections:
        return
    from . import qmd_config

    source = qmd_config.config_path()
    found = qmd_config.read(source)
    if found:
        raise BadInputError(f"no collections yet; qmd's config ({source}) has {len(found)} "
                            f"({', '.join(c.name for c in found)}): qmem-qmd collection import")
    raise BadInputError("no collections yet: qmem-qmd collection add PATH --name NAME")


def _search(cfg: config.Config, args: argparse.Namespace) -> None:
    from ..engine.answer import SearchRequest, answer

    _needs_collections(cfg)
    request = SearchRequest(query=" ".join(args.query), collections=args.collection, limit=max(1, args.n),
                            mode=MODES[args.command])
    found = answer(cfg, request, say=lambda line: sys.stderr.write(f"qmem-qmd: {line}\n"))
    if found.note:
        sys.stderr.write(f"qmem-qmd: {args.command}: {found.note}\n")
    for warning in found.warnings:
        sys.stderr.write(f"qmem-qmd: warning: {warning}\n")
    scored = [(qmd_score(h.score, found.mode), h) for h in found.hits]
    if args.min_score is not None:  # in qmd's range, as qmd compares it
        scored = [(score, h) for score, h in scored if score >= args.min_score]
    if args.json:
        _out(render.startup_json([_hit_json(h, found.mode) for _, h in scored]))  # a cold process per query
    elif not scored:
        _out("No results found")
    elif args.files:
        _out("".join(f"{_docid(h)},{score:.2f},qmd://{h.collection}/{h.path}\n" for score, h in scored))
    else:
        for score, hit in scored:
            row = _hit_json(hit, found.mode)
            sys.stdout.write(f"{row['file']}:{row['line']} {row['docid']}\nTitle: {row['title']}\n"
                             f"Score: {score * 100:3.0f}%\n\n{row['snippet']}\n\n")


def main(argv: list[str] | None = None) -> None:
    """The `qmem-qmd` command: every failure climbs the faces' one error ladder (qmem.faces.guarded)."""
    args = sys.argv[1:] if argv is None else argv
    bad = non_utf8_argument(args)
    if bad:
        sys.stderr.write(f"qmem-qmd: argument {bad} is not valid UTF-8\n")
        sys.exit(EXIT_USAGE)
    code = guarded(lambda: run(args), prog="qmem-qmd")
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    sys.exit(code)


if __name__ == "__main__":
    main()
