"""`qmem-qmd`: qmd's command contract on top of qmem, for tools configured to run qmd.

Honoured: `collection add PATH --name N [--mask GLOB]`, `collection remove N`,
`collection list [--json]`, `update`, `search|vsearch|query QUERY [--json] [--files] [-n N]
[-c C] [--min-score X]`, `get PATH[:LINE]`, `status`, `--version`. `query` (hybrid) and
`vsearch` (vectors) run on qmem's vector tier when it is installed and embedded; otherwise
they answer with BM25 and say so on stderr. `embed` exits 0 so callers that always run it do
not fail. Anything else is refused with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

import xxhash

from .. import __version__
from ..engine import catalog, retrieve, search, sync
from ..base import config
from . import render
from ..base.errors import EXIT_USAGE, BadInputError, non_utf8_argument
from . import guarded, silence_stdout

NO_VECTORS = "qmem-qmd: embedding is done by qmem itself: run `qmem embed` (pip install 'qmem[vector]')"
MODES = {"search": "bm25", "vsearch": "vector", "query": "hybrid"}


def _docid(hit: search.Hit) -> str:
    key = f"{hit.collection}/{hit.path}#{hit.anchor}:{hit.line_start}"
    return "#" + xxhash.xxh3_64_hexdigest(key.encode("utf-8"))[:6]


def _hit_json(hit: search.Hit) -> dict[str, object]:
    start = hit.shown_lines[0]
    count = len(hit.snippet.lines)
    return {
        "docid": _docid(hit),
        "score": round(hit.score, 4),
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

    def error(self, message: str):  # noqa: ANN201 - never returns
        raise BadInputError(f"{self.prog.split(' ', 1)[1] + ': ' if ' ' in self.prog else ''}{message} "
                            f"(see: {self.prog} -h)")


def _parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="qmem-qmd", description="qmd-compatible commands backed by qmem (for tools configured to run qmd).",
        epilog="examples:\n  qmem-qmd collection add ~/agent --name main --mask '**/*.md'\n"
               "  qmem-qmd query \"private key leaked\" --json -n 5\n  qmem-qmd get MEMORY.md:10",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"qmem-qmd {__version__} (qmem {__version__})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    coll = sub.add_parser("collection", help="Add, remove or list collections (folders of Markdown files).")
    coll_sub = coll.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = coll_sub.add_parser("add", help="Add a folder as a collection and index it.")
    add.add_argument("path", metavar="PATH", help="Root folder of the collection.")
    add.add_argument("--name", required=True, metavar="NAME", help="Collection name.")
    add.add_argument("--mask", default=None, metavar="GLOB", help="Glob of files to index (default: MEMORY.md, memory/**/*.md).")
    coll_sub.add_parser("remove", help="Remove a collection (its files are not touched).").add_argument(
        "name", metavar="NAME", help="Collection name.")
    coll_sub.add_parser("list", help="List collections.").add_argument("--json", action="store_true", help="Print JSON.")
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
    out = sys.stdout.write
    if args.command == "collection":
        if args.action == "add":
            coll, _ = catalog.create(cfg, args.name, args.path, [args.mask] if args.mask else None)
            out(f"Collection '{coll.name}' added: {coll.path} ({', '.join(coll.patterns)})\n")
        elif args.action == "remove":
            catalog.remove(cfg, args.name)
            out(f"Collection '{args.name}' removed\n")
        else:
            rows = [{"name": c.name, "path": c.path, "pattern": ",".join(c.patterns)} for c in cfg.select(None)]
            out(json.dumps(rows, ensure_ascii=False) + "\n" if args.json else
                "".join(f"{r['name']}\t{r['path']}\t{r['pattern']}\n" for r in rows))
    elif args.command == "update":
        out(render.refresh_text(sync.refresh(cfg)) + "\n")
    elif args.command == "status":
        out(render.status_text(catalog.status(cfg)) + "\n")
    elif args.command == "get":
        target, collections = _get_target(args.target, args.collection)
        out(retrieve.get(cfg, target, collections).text + "\n")
    elif args.command == "embed":
        sys.stderr.write(NO_VECTORS + "\n")
    else:
        from ..engine.modes import search_mode

        options = search.SearchOptions(collections=args.collection, limit=max(1, args.n), min_score=args.min_score,
                                       snippet_lines=cfg.snippet_lines)
        answer = search_mode(cfg, " ".join(args.query), options, MODES[args.command])
        if answer.note:
            sys.stderr.write(f"qmem-qmd: {args.command}: {answer.note}\n")
        hits = answer.hits
        if args.json:
            out(json.dumps([_hit_json(h) for h in hits], ensure_ascii=False, indent=2) + "\n")
        elif not hits:
            out("No results found\n")
        elif args.files:
            out("".join(f"{_docid(h)},{h.score:.2f},qmd://{h.collection}/{h.path}\n" for h in hits))
        else:
            for hit in hits:
                row = _hit_json(hit)
                out(f"{row['file']}:{row['line']} {row['docid']}\nTitle: {row['title']}\nScore: {hit.score:.2f}\n\n"
                    f"{row['snippet']}\n\n")
    return 0


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
