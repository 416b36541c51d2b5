"""The house's rules (tests/project/architecture_rules.py), each checked on the real tree and
shown to fail on a violation planted in a copy of it.

The rules: the package order (base → text → backends → vector → engine → memory → faces; a
package imports only lower ones), no import cycle anywhere (lazy imports included), each
library only in its home (tantivy in backends/tantivy, opensearchpy in backends/opensearch,
typer/click in the faces, the MCP SDK in faces/mcp), the two backends apart, every module
inside a package, and the library never prints.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from . import architecture_rules as rules

SRC = Path(__file__).resolve().parents[2] / "src" / "qmem"


@pytest.fixture(scope="module")
def house() -> dict[str, rules.Module]:
    return rules.read_tree(SRC)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the qmem package's modules, to plant a violation in."""
    dest = tmp_path / "qmem"
    shutil.copytree(SRC, dest, ignore=lambda folder, names: [
        n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()] + ["__pycache__", "data"])
    return dest


def plant(src: Path, module: str, code: str) -> None:
    """Add `code` to a module of the copy (created if new), inside a function: a lazy import."""
    path = src.parent / (module.replace(".", "/") + ".py")
    if not path.exists() and (path.with_suffix("") / "__init__.py").exists():
        path = path.with_suffix("") / "__init__.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.read_text(encoding="utf-8") if path.exists() else '"""Planted by a test."""\n'
    body = "".join(f"    {line}\n" for line in code.splitlines())
    path.write_text(before + f"\n\ndef _planted():\n{body}", encoding="utf-8")


def test_the_copy_holds_every_rule(copy: Path):
    """The planted tests below start from a copy where every rule holds, so each failure is the plant's."""
    modules = rules.read_tree(copy)
    assert set(modules) == set(rules.read_tree(SRC))
    assert rules.package_order(modules) == rules.no_cycle(modules) == rules.library_homes(modules) == []
    assert rules.inside_a_package(copy) == rules.never_prints(modules) == rules.siblings_apart(modules) == []


# -- the package order ------------------------------------------------------------------------


def test_packages_import_only_lower_packages(house):
    assert rules.package_order(house) == []


def test_package_order_fails_on_a_lazy_upward_import(copy: Path):
    plant(copy, "qmem.text.snippets", "from ..engine import search")
    assert rules.package_order(rules.read_tree(copy)) == [
        f"qmem.text.snippets:{_last_line(copy, 'text/snippets.py')} (text) imports qmem.engine.search (engine), "
        "a higher tier"]


def test_package_order_fails_on_an_import_of_the_entry_point(copy: Path):
    plant(copy, "qmem.faces.render", "import qmem.__main__")
    assert [v.split(" (")[0].split(":")[0] for v in rules.package_order(rules.read_tree(copy))] == ["qmem.faces.render"]


def test_package_order_fails_on_a_package_no_tier_names(copy: Path):
    """What the old layer table missed: a new package resolved to `"qmem": 0` and passed."""
    (copy / "helpers").mkdir()
    (copy / "helpers" / "__init__.py").write_text('"""Planted."""\n', encoding="utf-8")
    assert rules.package_order(rules.read_tree(copy)) == [
        f"qmem.helpers is in no package of PACKAGE_ORDER {rules.PACKAGE_ORDER}"]


def test_the_root_package_imports_nothing(copy: Path):
    plant(copy, "qmem", "from .base import errors")
    assert len(rules.package_order(rules.read_tree(copy))) == 1


# -- no cycle anywhere ------------------------------------------------------------------------


def test_no_import_cycle_anywhere(house):
    """Not even between two modules of one package (cli/app.py ↔ cli/completion.py was one)."""
    assert rules.no_cycle(house) == []


def test_no_cycle_fails_on_a_lazy_cycle_inside_one_package(copy: Path):
    plant(copy, "qmem.faces.cli.completion", "from . import app")  # app imports completion
    assert rules.no_cycle(rules.read_tree(copy)) == ["qmem.faces.cli.app <-> qmem.faces.cli.completion"]


def test_no_cycle_fails_on_a_longer_cycle(copy: Path):
    plant(copy, "qmem.base.errors", "from . import jsontext")
    plant(copy, "qmem.base.jsontext", "from . import dates")
    plant(copy, "qmem.base.dates", "from . import errors")
    assert rules.no_cycle(rules.read_tree(copy)) == ["qmem.base.dates <-> qmem.base.errors <-> qmem.base.jsontext"]


# -- each library in its home -----------------------------------------------------------------


def test_each_library_is_imported_only_in_its_home(house):
    assert rules.library_homes(house) == []


@pytest.mark.parametrize(("module", "code", "library"), [
    ("qmem.engine.search", "import tantivy", "tantivy"),
    ("qmem.text.markdown", "from tantivy import Index", "tantivy"),
    ("qmem.backends.seam", "import opensearchpy.helpers", "opensearchpy"),
    ("qmem.memory.boot", "import typer", "typer"),
    ("qmem.engine.catalog", "from click import echo", "click"),
    ("qmem.faces.render", "from mcp.types import ToolAnnotations", "mcp"),
])
def test_library_homes_fail_on_an_import_outside_the_home(copy: Path, module: str, code: str, library: str):
    plant(copy, module, code)
    wrong = rules.library_homes(rules.read_tree(copy))
    assert len(wrong) == 1 and wrong[0].startswith(f"{module}:") and f"imports {library}," in wrong[0]


def test_an_exception_that_no_longer_imports_its_library_fails(copy: Path):
    path = copy / "text" / "analysis.py"
    path.write_text(path.read_text(encoding="utf-8").replace("import tantivy\n", "tantivy = None\n"), encoding="utf-8")
    assert rules.library_homes(rules.read_tree(copy)) == [
        "qmem.text.analysis no longer imports tantivy: drop its exception"]


def test_the_backends_never_import_each_other(house):
    assert rules.siblings_apart(house) == []


def test_siblings_apart_fails_when_one_backend_imports_the_other(copy: Path):
    plant(copy, "qmem.backends.opensearch.query", "from ..tantivy.searcher import compile_query")
    assert [v.split(":")[0] for v in rules.siblings_apart(rules.read_tree(copy))] == ["qmem.backends.opensearch.query"]


# -- every module inside a package ------------------------------------------------------------


def test_every_module_is_inside_a_package():
    assert rules.inside_a_package(SRC) == []


def test_inside_a_package_fails_on_a_new_top_level_module(copy: Path):
    plant(copy, "qmem.util", "pass")
    assert rules.inside_a_package(copy) == [
        f"qmem/util.py is a top-level module: put it in a package of {rules.PACKAGE_ORDER}"]


def test_inside_a_package_fails_on_a_folder_without_init(copy: Path):
    plant(copy, "qmem.engine.extra.thing", "pass")
    assert rules.inside_a_package(copy) == ["qmem/engine/extra holds modules but no __init__.py"]


# -- the library never prints -----------------------------------------------------------------


def test_library_never_prints(house):
    assert rules.never_prints(house) == []


@pytest.mark.parametrize("code", ['print("done")', 'import sys\nsys.stderr.write("x")'])
def test_never_prints_fails_on_a_print_below_the_faces(copy: Path, code: str):
    plant(copy, "qmem.memory.janitor", code)
    wrong = rules.never_prints(rules.read_tree(copy))
    assert len(wrong) == 1 and wrong[0].startswith("qmem.memory.janitor:")


def test_never_prints_exempts_the_faces_package_alone_not_the_faces_below_it(copy: Path):
    """faces/__init__ writes the error ladder's one line; the MCP face, doctor and render may not print."""
    for module in ("qmem.faces.mcp", "qmem.faces.doctor", "qmem.faces.render"):
        plant(copy, module, 'print("done")')
    plant(copy, "qmem.faces", 'print("the ladder")')
    wrong = rules.never_prints(rules.read_tree(copy))
    assert [line.split(":")[0] for line in wrong] == ["qmem.faces.doctor", "qmem.faces.mcp", "qmem.faces.render"]


def _last_line(src: Path, rel: str) -> int:
    return len((src / rel).read_text(encoding="utf-8").splitlines())
