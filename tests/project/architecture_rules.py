"""The architecture's rules as functions over a source tree, so a test can run each one on the
real tree and on a copy with a violation planted in it (a rule that cannot fail proves nothing).

Every `import` counts: top-level, inside functions (lazy), under `if TYPE_CHECKING:`. A lazy
import that goes the wrong way is still a dependency, only hidden. Each rule returns a list of
violations, one readable line each; an empty list means the rule holds.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# The tiers, lowest first: a package imports only packages before it in this list (and itself).
PACKAGE_ORDER = ("base", "text", "backends", "vector", "engine", "memory", "faces")
# The two modules outside every tier: the root `__init__` (only `__version__`: below everything,
# imports nothing) and the `qmem` entry point (above everything; nothing imports it).
ROOT, ENTRY = "qmem", "qmem.__main__"

# Third-party libraries only one part of the house may know, and the few modules elsewhere that
# must, each with its reason (an exception that no longer imports the library is a violation too).
LIBRARY_HOMES: dict[str, tuple[str, ...]] = {
    "tantivy": ("qmem.backends.tantivy",),
    "opensearchpy": ("qmem.backends.opensearch",),
    "typer": ("qmem.faces", ENTRY),
    "click": ("qmem.faces", ENTRY),
    "mcp": ("qmem.faces.mcp",),
}
LIBRARY_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("qmem.text.analysis", "tantivy"): (
        "the tokenizer itself: qmem's tokens are Tantivy's regex tokenizer + lowercase + Snowball "
        "stemmer, and every backend's queries are tokenized with it (OpenSearch reproduces it with "
        "stock parts); the index-side registration lives in backends/tantivy/searcher.py. A "
        "pure-Python stemmer would remove this, at a cost in start-up and token drift"),
}

# Sibling packages that must not know each other (each backend knows only the seam).
SIBLINGS_APART = (("qmem.backends.tantivy", "qmem.backends.opensearch"),)

# The faces that talk to a terminal (with what is below them); everything else returns data (the
# MCP face writes its protocol through the SDK, never by hand). The faces package's own
# `__init__` (alone, not the faces below it) writes the error ladder's one line for them.
PRINTING_FACES = ("qmem.faces.cli", "qmem.faces.qmd", ENTRY)
PRINTING_MODULES = ("qmem.faces",)


@dataclass(frozen=True)
class Import:
    target: str  # a qmem module (resolved to the module file or package) or a library's top name
    line: int


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module
    imports: tuple[Import, ...]


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def module_name(path: Path, src: Path) -> str:
    """`src/qmem/engine/sync.py` → `qmem.engine.sync`; a package's `__init__` is the package."""
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str, src: Path) -> bool:
    path = src.parent / name.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imports(tree: ast.Module, name: str, is_package: bool, src: Path) -> tuple[Import, ...]:
    package = name if is_package else name.rsplit(".", 1)[0]
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                found.append(Import(alias.name if top == ROOT else top, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != ROOT:
                found.append(Import(target.split(".")[0], node.lineno))
                continue
            for alias in node.names:  # `from ..base import config` imports qmem.base.config
                candidate = f"{target}.{alias.name}"
                found.append(Import(candidate if _is_module(candidate, src) else target, node.lineno))
    return tuple(found)


_PARSED: dict[str, ast.Module] = {}  # source text -> its tree: the planted copies reparse only what changed


def read_tree(src: Path) -> dict[str, Module]:
    """Every module under `src` (the `qmem` package folder) with what it imports."""
    modules = {}
    for path in sorted(src.rglob("*.py")):
        name = module_name(path, src)
        text = path.read_text(encoding="utf-8")
        tree = _PARSED.get(text) or _PARSED.setdefault(text, ast.parse(text))
        modules[name] = Module(name, path, tree, _imports(tree, name, path.name == "__init__.py", src))
    return modules


def tier(name: str) -> int | None:
    """A module's place in PACKAGE_ORDER (the root below all, the entry above all); None: no tier."""
    if name == ROOT:
        return -1
    if name == ENTRY:
        return len(PACKAGE_ORDER)
    package = name.split(".")[1]
    return PACKAGE_ORDER.index(package) if package in PACKAGE_ORDER else None


def _tier_name(name: str) -> str:
    place = tier(name)
    return name if place in (-1, len(PACKAGE_ORDER)) else name.split(".")[1]


def package_order(modules: Mapping[str, Module]) -> list[str]:
    """A module imports only its own package or packages below it in PACKAGE_ORDER."""
    wrong = []
    for module in modules.values():
        mine = tier(module.name)
        if mine is None:
            wrong.append(f"{module.name} is in no package of PACKAGE_ORDER {PACKAGE_ORDER}")
            continue
        for imp in module.imports:
            if not within(imp.target, ROOT) or (module.name != ROOT and within(imp.target, module.name)):
                continue  # a library, or the module's own package (the root has none: it is below all)
            theirs = tier(imp.target)
            if theirs is not None and (theirs > mine or module.name == ROOT):
                wrong.append(f"{module.name}:{imp.line} ({_tier_name(module.name)}) imports "
                             f"{imp.target} ({_tier_name(imp.target)}), a higher tier")
    return wrong


def cycles(modules: Mapping[str, Module]) -> list[list[str]]:
    """The module graph's cycles (strongly connected components of more than one module, or a
    module importing itself through a name), each sorted, found by Tarjan's algorithm."""
    graph = {name: sorted({imp.target for imp in m.imports if imp.target in modules and imp.target != name})
             for name, m in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(found)


def no_cycle(modules: Mapping[str, Module]) -> list[str]:
    """No import cycle between any two modules, same package or not."""
    return [" <-> ".join(component) for component in cycles(modules)]


def library_homes(modules: Mapping[str, Module], homes: Mapping[str, Iterable[str]] = LIBRARY_HOMES,
                  exceptions: Mapping[tuple[str, str], str] = LIBRARY_EXCEPTIONS) -> list[str]:
    """Each library in `homes` is imported only inside its home packages (or by a listed exception)."""
    wrong = []
    used: set[tuple[str, str]] = set()
    for module in modules.values():
        for imp in module.imports:
            if imp.target not in homes or any(within(module.name, home) for home in homes[imp.target]):
                continue
            if (module.name, imp.target) in exceptions:
                used.add((module.name, imp.target))
            else:
                wrong.append(f"{module.name}:{imp.line} imports {imp.target}, which only "
                             f"{' and '.join(homes[imp.target])} may import")
    wrong += [f"{name} no longer imports {library}: drop its exception" for name, library in exceptions
              if (name, library) not in used and name in modules]
    return wrong


def siblings_apart(modules: Mapping[str, Module], pairs: Iterable[tuple[str, str]] = SIBLINGS_APART) -> list[str]:
    """Sibling packages named together (the two backends) never import each other."""
    wrong = []
    for a, b in pairs:
        for mine, other in ((a, b), (b, a)):
            for module in modules.values():
                if within(module.name, mine):
                    wrong += [f"{module.name}:{imp.line} imports {imp.target}" for imp in module.imports
                              if within(imp.target, other)]
    return wrong


def inside_a_package(src: Path) -> list[str]:
    """Every module lives in a tier's package: no top-level module besides `__init__`/`__main__`,
    no folder of modules without an `__init__.py` (a namespace package the rules would misread)."""
    wrong = [f"{path.relative_to(src.parent)} is a top-level module: put it in a package of {PACKAGE_ORDER}"
             for path in sorted(src.glob("*.py")) if path.name not in ("__init__.py", "__main__.py")]
    folders = {path.parent for path in src.rglob("*.py")}
    wrong += [f"{folder.relative_to(src.parent)} holds modules but no __init__.py" for folder in sorted(folders)
              if not (folder / "__init__.py").exists()]
    return wrong


def never_prints(modules: Mapping[str, Module], faces: Iterable[str] = PRINTING_FACES,
                 exact: Iterable[str] = PRINTING_MODULES) -> list[str]:
    """Outside the terminal faces no module calls print() or touches sys.stdout/sys.stderr."""
    faces, exact = tuple(faces), tuple(exact)
    wrong = []
    for module in modules.values():
        if module.name in exact or any(within(module.name, face) for face in faces):
            continue
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                wrong.append(f"{module.name}:{node.lineno} calls print()")
            elif (isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr", "__stdout__", "__stderr__")
                  and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                wrong.append(f"{module.name}:{node.lineno} uses sys.{node.attr}")
    return wrong
