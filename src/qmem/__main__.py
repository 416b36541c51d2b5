"""Entry point of the `qmem` command and of `python -m qmem`.

`search` and `get` (what agents call most) go through a Typer-free fast path; everything
else, and any command line the fast path is unsure of, goes to the Typer app.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-V"]):
        from . import __version__

        sys.stdout.write(f"qmem {__version__}\n")
        sys.exit(0)
    if args[:1] == ["__collections"]:  # for shell completion scripts (cli/completion.py)
        _collection_names()
    from .base.errors import EXIT_USAGE, non_utf8_argument

    bad = non_utf8_argument(args)
    if bad:
        sys.stderr.write(f"qmem: argument {bad} is not valid UTF-8\n")
        sys.exit(EXIT_USAGE)
    from .faces.cli.fast import read_only, try_fast

    if read_only(args):
        if argv is None:
            import gc

            gc.disable()  # a read-only command lives ~25 ms: collecting costs more than it frees
        _c_datetime()
    code = try_fast(args)
    if code is not None:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            from .faces import silence_stdout

            silence_stdout()
        if argv is None:  # a finished fast command left nothing open: skip the teardown (~3 ms)
            import os

            try:
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            os._exit(code)
        sys.exit(code)
    from .faces.cli.app import run

    run(args)


def _c_datetime() -> None:
    """Let `import datetime` give the C module itself, as Python 3.12 does.

    Python 3.11's datetime.py runs its whole pure-Python implementation and then replaces it
    with `_datetime`'s classes (~5.6M instructions); tantivy's extension imports it on load
    (for timezone.utc). A process that has not imported it yet gets the same classes for
    less. Nothing changes on 3.12+, where datetime.py is just `from _datetime import *`."""
    if "datetime" in sys.modules or sys.version_info >= (3, 12):
        return
    try:
        import _datetime
    except ImportError:
        return
    if all(hasattr(_datetime, name) for name in _DATETIME_NAMES):
        sys.modules["datetime"] = _datetime


_DATETIME_NAMES = ("MAXYEAR", "MINYEAR", "UTC", "date", "datetime", "datetime_CAPI", "time", "timedelta", "timezone",
                   "tzinfo")


def _collection_names() -> None:
    """The configured collection names, one a line; nothing at all when the config is broken."""
    from .base import config
    from .base.errors import QmemError

    try:
        names = sorted(config.load().collections)
    except QmemError:
        names = []
    sys.stdout.write("".join(f"{name}\n" for name in names))
    sys.exit(0)


if __name__ == "__main__":
    main()
