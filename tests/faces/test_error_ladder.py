"""One error ladder for every face: the CLI (fast path and Typer), qmem-qmd and the MCP tools
turn the same failure into the same one line (a panic included), Ctrl-C into 130, a closed
pipe into a quiet 0, and QMEM_DEBUG=1 into the traceback."""

from __future__ import annotations

import pytest

from qmem.base import config
from qmem.base.errors import IndexBusyError


class PanicException(BaseException):
    """What pyo3 raises for a Rust panic (recognised by its name)."""


FAILURES = {
    "typed": (IndexBusyError("another refresh holds the index"), 75, "another refresh holds the index"),
    "internal": (ZeroDivisionError("division by zero"), 1,
                 "internal error: ZeroDivisionError: division by zero (QMEM_DEBUG=1 shows the traceback)"),
    "panic": (PanicException("index out of bounds\nbacktrace"), 1,
              "internal error: engine panic: index out of bounds (QMEM_DEBUG=1 shows the traceback)"),
    "interrupt": (KeyboardInterrupt(), 130, "interrupted"),
    "pipe": (BrokenPipeError(32, "Broken pipe"), 0, ""),
}


def qmem_face(argv: list[str]) -> int:
    from qmem.__main__ import main

    try:
        main(argv)
    except SystemExit as exc:
        return exc.code  # type: ignore[return-value]
    return 0


def qmd_face(argv: list[str]) -> int:
    from qmem.faces import qmd

    try:
        qmd.main(argv)
    except SystemExit as exc:
        return exc.code  # type: ignore[return-value]
    return 0


FACES = {
    "fast path": (qmem_face, ["search", "backup"], "qmem: "),
    "typer": (qmem_face, ["status"], "qmem: "),
    "qmem-qmd": (qmd_face, ["search", "backup"], "qmem-qmd: "),
    "qmem-qmd status": (qmd_face, ["status"], "qmem-qmd: "),
}


@pytest.fixture
def failing(monkeypatch, request):
    exc = FAILURES[request.param][0]

    def load(*args, **kwargs):
        raise exc

    monkeypatch.setattr(config, "load", load)
    return request.param


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("failing", FAILURES, indirect=True)
def test_every_face_climbs_the_same_ladder(face, failing, capsys, monkeypatch):
    monkeypatch.delenv("QMEM_DEBUG", raising=False)
    run, argv, prog = FACES[face]
    _, code, line = FAILURES[failing]
    assert run(argv) == code
    err = capsys.readouterr().err
    assert err == (f"{prog}{line}\n" if line else ""), (face, failing)


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("failing", ["internal", "panic"], indirect=True)
def test_qmem_debug_shows_the_traceback(face, failing, monkeypatch):
    monkeypatch.setenv("QMEM_DEBUG", "1")
    run, argv, _ = FACES[face]
    with pytest.raises(BaseException) as info:
        run(argv)
    assert info.value is FAILURES[failing][0]


@pytest.mark.parametrize("failing", ["typed", "internal", "panic"], indirect=True)
def test_an_mcp_tool_answers_the_same_one_line(failing, monkeypatch):
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from qmem.faces.mcp import Memory, build

    monkeypatch.delenv("QMEM_DEBUG", raising=False)
    server = build(Memory())
    tool = server._tool_manager.get_tool("memory_status")
    with pytest.raises(ToolError) as info:
        tool.fn()
    assert str(info.value) == FAILURES[failing][2]


@pytest.mark.parametrize("failing", ["interrupt", "pipe"], indirect=True)
def test_ctrl_c_and_a_closed_pipe_still_end_the_mcp_server(failing):
    pytest.importorskip("mcp")
    from qmem.faces.mcp import Memory, build

    tool = build(Memory())._tool_manager.get_tool("memory_status")
    with pytest.raises(type(FAILURES[failing][0])):
        tool.fn()
