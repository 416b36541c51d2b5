"""One JSON road: base/jsonio.py (orjson, the stack's library) writes and reads every JSON file
and prints every `--json` off the start-up path; faces/render.startup_json (a hand encoder,
no JSON library) prints on the start-up path. No other module imports a JSON library or pretty-prints
JSON its own way."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "qmem"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

# module → the JSON libraries it may import
ALLOWED = {"qmem.base.jsonio": {"orjson"}}
LIBRARIES = {"json", "_json", "orjson", "ujson", "simplejson", "rapidjson", "msgspec"}


def json_offenders(sources: dict[str, str]) -> list[str]:
    """Each import of a JSON library outside ALLOWED, and each `dumps(..., indent=...)` call
    (a module printing JSON its own way), in `sources` (module name → its text)."""
    offenders = []
    for name, text in sorted(sources.items()):
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                found = [(node.module or "").split(".")[0]]
            else:
                found = []
            offenders += [f"{name}:{node.lineno} imports {lib}" for lib in found  # type: ignore[attr-defined]
                          if lib in LIBRARIES and lib not in ALLOWED.get(name, ())]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "dumps" \
                    and any(k.arg == "indent" for k in node.keywords):
                offenders.append(f"{name}:{node.lineno} pretty-prints JSON itself (use faces.render.to_json)")
    return offenders


def _sources() -> dict[str, str]:
    return {module_name(p): p.read_text(encoding="utf-8") for p in SRC.rglob("*.py")}


def test_one_json_road():
    assert json_offenders(_sources()) == []


def test_the_rule_fails_on_a_planted_violation():
    planted = {
        "qmem.engine.planted": "def f():\n    import json\n    return json.loads('1')\n",
        "qmem.faces.planted": "import orjson\n",
        "qmem.memory.planted": "from json import dumps\n",
        "qmem.faces.pretty": "def g(x, lib):\n    return lib.dumps(x, indent=2)\n",
        "qmem.faces.render": "import orjson\n",
    }
    assert json_offenders(planted) == [
        "qmem.engine.planted:2 imports json",
        "qmem.faces.planted:1 imports orjson",
        "qmem.faces.pretty:2 pretty-prints JSON itself (use faces.render.to_json)",
        "qmem.faces.render:1 imports orjson",
        "qmem.memory.planted:1 imports json",
    ]


def test_orjson_stays_a_dependency():
    text = (SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    deps = text.split("dependencies = [", 1)[1].split("]", 1)[0]
    assert '"orjson' in deps
