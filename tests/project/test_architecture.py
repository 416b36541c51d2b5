"""Dependencies point one way: faces → memory layer → engine → markdown/analysis/fsutil.

Every `import` counts, including lazy ones inside functions: a lazy import that goes the
wrong way is still a cycle, only hidden.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "qmem"

# Lower layers never import higher ones; a module may import any strictly lower layer.
LAYERS: dict[str, float] = {
    "qmem.base.errors": -1,  # imports nothing: every layer may raise its errors
    "qmem": 0, "qmem.base.conventions": 0, "qmem.base.jsontext": 0, "qmem.base.fsutil": 0, "qmem.base.layout": 0.5, "qmem.base.backend_config": 0.5,
    "qmem.base.dates": 0, "qmem.base.install": 0, "qmem.text.fences": 0.8, "qmem.text.when": 1,
    "qmem.text.record": 0.8, "qmem.text.token_classes": 0.9, "qmem.text.analysis": 1, "qmem.text.markdown": 1, "qmem.base.config": 1,
    "qmem.text.query": 2, "qmem.engine.scan": 1.9, "qmem.engine.reading": 2.5, "qmem.engine.manifest": 2, "qmem.text.snippets": 2,
    "qmem.backends.tantivy.index": 3, "qmem.backends.tantivy.seal": 3.05, "qmem.backends.tantivy.searcher": 3.1, "qmem.backends.tantivy.writer": 3.2, "qmem.backends.seam": 3.4, "qmem.backends.opensearch.client": 3.42,
    "qmem.backends.opensearch.mapping": 3.44, "qmem.backends.opensearch.query": 3.44,
    "qmem.backends.opensearch.backend": 3.5, "qmem.backends.tantivy.refresh": 3.5,
    "qmem.backends": 3.6,
    "qmem.vector": 3.62, "qmem.vector.e5np": 3.63, "qmem.vector.models": 3.64, "qmem.vector.store": 3.66,  # below the engine
    "qmem.engine.parallel": 3.7,
    "qmem.engine.hits": 3.9, "qmem.engine.sync": 4, "qmem.engine.search": 4, "qmem.engine.retrieve": 4,
    "qmem.engine.catalog": 5, "qmem.engine.evaluate": 5.3, "qmem.engine.watch": 5,
    "qmem.engine.hybrid": 5.2,
    "qmem.engine.modes": 5.25,
    "qmem.memory": 6,
    "qmem.memory.secrets": 6.05, "qmem.memory.tree.cues": 6.05, "qmem.memory.tree.match": 6.05,
    "qmem.memory.entries": 6.1, "qmem.memory.workspace": 6.1, "qmem.memory.shared": 6.12,
    "qmem.memory.tree.units": 6.13, "qmem.memory.tree.indexes": 6.14, "qmem.memory.tree.domains": 6.15,
    "qmem.memory.daily": 6.2, "qmem.memory.tree.shape": 6.2, "qmem.memory.state": 6.2, "qmem.memory.protocol": 6.2,
    "qmem.memory.tree.files": 6.25, "qmem.memory.tree.rollback": 6.28, "qmem.memory.tree.grow": 6.3,
    "qmem.memory.boot": 6.4, "qmem.memory.forget": 6.5, "qmem.memory.distill": 6.4, "qmem.memory.janitor": 6.4,
    "qmem.memory.maintain": 6.6,
    "qmem.faces.doctor": 6.8,
    "qmem.faces.render": 7,
    "qmem.faces.mcp_config": 7.4, "qmem.faces.qmd_config": 7.6, "qmem.faces.qmd_files": 7.7,
    "qmem.faces.cli": 8, "qmem.faces.mcp": 7.5, "qmem.faces.qmd": 8, "qmem.__main__": 9,
}


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(name: str) -> float:
    while name not in LAYERS:
        if "." not in name:
            raise AssertionError(f"{name} has no layer in LAYERS; add it")
        name = name.rsplit(".", 1)[0]
    return LAYERS[name]


def imports(path: Path, name: str) -> set[str]:
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("qmem"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("qmem"):
                continue
            for alias in node.names:  # `from .. import config` imports qmem.base.config
                candidate = f"{target}.{alias.name}"
                found.add(candidate if (SRC.parent / candidate.replace(".", "/")).with_suffix(".py").exists()
                          or (SRC.parent / candidate.replace(".", "/")).is_dir() else target)
    return found


def test_every_module_has_a_layer():
    for path in SRC.rglob("*.py"):
        layer(module_name(path))


def test_imports_point_down():
    wrong = []
    for path in SRC.rglob("*.py"):
        name = module_name(path)
        mine = layer(name)
        for target in imports(path, name):
            if target == name or target.startswith(name + ".") or name == "qmem":
                continue
            same_face = name.startswith("qmem.faces.cli") and target.startswith("qmem.faces.cli")
            if layer(target) >= mine and not same_face:
                wrong.append(f"{name} (layer {mine}) imports {target} (layer {layer(target)})")
    assert wrong == []


def test_library_never_prints():
    offenders = []
    for path in SRC.rglob("*.py"):
        name = module_name(path)
        if name.startswith("qmem.faces.cli") or name in ("qmem.__main__", "qmem.faces", "qmem.faces.qmd"):
            continue  # the faces (and their package: the error ladder writes the one line)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                offenders.append(f"{name}:{node.lineno}")
            if isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr") and \
                    isinstance(node.value, ast.Name) and node.value.id == "sys":
                offenders.append(f"{name}:{node.lineno}")
    assert offenders == []


def import_cycles() -> list[list[str]]:
    """Cycles among qmem's modules, every import counted (lazy ones too; a package's
    `__init__` is its own node)."""
    graph = {}
    for path in SRC.rglob("*.py"):
        name = module_name(path)
        graph[name] = {t for t in imports(path, name) if t != name}
    cycles, done, stack = [], set(), []

    def visit(node: str) -> None:
        if node in stack:
            cycles.append(stack[stack.index(node):] + [node])
            return
        if node in done or node not in graph:
            return
        stack.append(node)
        for target in sorted(graph[node]):
            visit(target)
        stack.pop()
        done.add(node)

    for node in sorted(graph):
        visit(node)
    return cycles


def test_no_import_cycle_anywhere():
    """Not even between two modules of one face (cli/app.py ↔ cli/completion.py was one)."""
    assert import_cycles() == []
