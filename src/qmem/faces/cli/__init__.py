"""The `qmem` command: the Typer app, and the Typer-free fast path for what agents call most."""
