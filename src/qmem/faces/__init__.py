"""The faces: the CLI (`cli/`, with its start-up fast path), the MCP server, `qmem-qmd`, and
what they share to render. Each parses its own arguments, calls the library and renders.

Here: the face side of the one error ladder (`base.errors.failure` gives the rungs), so that
every command line face reports every failure alike. It lives in the package itself because
every face imports it on the way in: a module of its own would cost each cold search a load.
"""

from __future__ import annotations

import os
import sys

from ..base.errors import failure

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def guarded(action: Callable[[], int | None], prog: str = "qmem") -> int:
    """Run `action()` (it returns the exit code, None for 0); a failure becomes one line
    `PROG: …` on stderr and its exit code, a closed pipe a quiet 0 (see `failure`)."""
    try:
        return action() or 0
    except BaseException as exc:
        landed = failure(exc)
        if landed is None:
            raise
        line, code = landed
        if isinstance(exc, BrokenPipeError):
            silence_stdout()
        elif line:
            sys.stderr.write(f"{prog}: {line}\n")
        return code


def silence_stdout() -> None:
    """After a closed pipe, let the interpreter exit quietly (its final flush would fail)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
