"""`qmem-qmd`: qmd's command contract on top of qmem, for tools configured to run qmd.

Honoured: `collection add PATH --name N [--mask GLOB]`, `collection remove N`,
`collection list [--json]`, `update`, `search QUERY [--json] [--files] [-n N] [-c C]
[--min-score X]`, `get PATH[:LINE]`, `status`. `vsearch`, `query` and `embed` say that qmem's
vector tier is not installed (`embed` exits 0 so callers that always run it do not fail).
Anything else is refused with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

import xxhash

from . import catalog, config, render, retrieve, search, sync
from .errors import EXIT_INTERNAL, EXIT_USAGE, QmemError, internal_message, is_engine_panic, non_utf8_argument

NO_VECTORS = "qmem-qmd: the vector tier is not installed in qmem; use `search` (BM25) instead"


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qmem-qmd", description="qmd-compatible commands backed by qmem.")
    sub = parser.add_subparsers(dest="command", required=True)
    coll = sub.add_parser("collection").add_subparsers(dest="action", required=True)
    add = coll.add_parser("add")
    add.add_argument("path")
    add.add_argument("--name", required=True)
    add.add_argument("--mask", default=None)
    coll.add_parser("remove").add_argument("name")
    coll.add_parser("list").add_argument("--json", action="store_true")
    sub.add_parser("update")
    sub.add_parser("status")
    for name in ("search", "vsearch", "query"):
        cmd = sub.add_parser(name)
        cmd.add_argument("query", nargs="+")
        cmd.add_argument("--json", action="store_true")
        cmd.add_argument("--files", action="store_true")
        cmd.add_argument("-n", type=int, default=5)
        cmd.add_argument("-c", "--collection", action="append")
        cmd.add_argument("--min-score", type=float, default=None)
    sub.add_parser("get").add_argument("target")
    embed = sub.add_parser("embed")
    embed.add_argument("-f", "--force", action="store_true")
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
        out(retrieve.get(cfg, args.target).text + "\n")
    elif args.command == "embed":
        sys.stderr.write(NO_VECTORS + "\n")
    elif args.command in ("vsearch", "query"):
        sys.stderr.write(NO_VECTORS + "\n")
        return EXIT_USAGE
    else:
        options = search.SearchOptions(collections=args.collection, limit=max(1, args.n), min_score=args.min_score,
                                       snippet_lines=cfg.snippet_lines)
        hits = search.search(cfg, " ".join(args.query), options)
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


def main() -> None:
    bad = non_utf8_argument(sys.argv[1:])
    if bad:
        sys.stderr.write(f"qmem-qmd: argument {bad} is not valid UTF-8\n")
        sys.exit(EXIT_USAGE)
    try:
        code = run(sys.argv[1:])
    except QmemError as exc:
        sys.stderr.write(f"qmem-qmd: {exc}\n")
        code = exc.exit_code
    except Exception as exc:  # never a traceback for a tool driving us
        sys.stderr.write(f"qmem-qmd: {internal_message(exc)}\n")
        code = EXIT_INTERNAL
    except BaseException as exc:  # a Rust panic is not an Exception
        if not is_engine_panic(exc):
            raise
        sys.stderr.write(f"qmem-qmd: {internal_message(exc)}\n")
        code = EXIT_INTERNAL
    sys.exit(code)


if __name__ == "__main__":
    main()
