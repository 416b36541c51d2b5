"""qmd's own collection config, read so a qmd user's collections come over in one command.

qmd 2.x (npm `@tobilu/qmd`, collections.js) keeps its collections in YAML: a project-local
`.qmd/index.yaml` (or `.yml`) in the current folder or one above it wins; otherwise
`$QMD_CONFIG_DIR/<index>.yml`, else `$XDG_CONFIG_HOME/qmd/<index>.yml`, else
`~/.config/qmd/<index>.yml`, where `<index>` is `index` unless `--index NAME` names another.
Each collection is `name: {path, pattern, ignore?, includeByDefault?, context?, update?}`; a
pattern may be a comma-separated list and hold `{a,b}` groups (qmd's splitGlobMask). qmd's
indexer also skips node_modules, .git, .cache, vendor, dist and build folders and hidden
files; qmem already skips hidden folders and node_modules, the rest become excludes.
"""

from __future__ import annotations

import os

from ..base.conventions import DEFAULT_EXCLUDE
from ..base.errors import BadInputError, ConfigError, QmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.sync import RefreshReport

QMD_SKIPPED = ["**/vendor/**", "**/dist/**", "**/build/**"]  # qmd's excludeDirs qmem does not skip itself


class QmdCollection:
    """One collection of qmd's config, in qmem's terms."""

    __slots__ = ("name", "path", "patterns", "exclude", "default")

    def __init__(self, name: str, path: str, patterns: list[str], exclude: list[str], default: bool) -> None:
        self.name = name
        self.path = path
        self.patterns = patterns
        self.exclude = exclude
        self.default = default  # includeByDefault: searched when no -c is given (qmd's rule)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "path": self.path, "patterns": self.patterns, "exclude": self.exclude,
                "includeByDefault": self.default}


def config_path(index: str | None = None, cwd: str | None = None) -> str:
    """Where qmd reads its collections from, by qmd's own rules (see the module docstring)."""
    if not index:
        folder = os.path.abspath(cwd or os.getcwd())
        while True:
            for name in ("index.yaml", "index.yml"):
                local = os.path.join(folder, ".qmd", name)
                if os.path.isfile(local):
                    return local
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    name = index or "index"
    if "/" in name:  # qmd turns a path into a file name: /a/b -> a_b
        name = os.path.abspath(name).replace("/", "_").lstrip("_")
    if os.environ.get("QMD_CONFIG_DIR"):
        base = os.environ["QMD_CONFIG_DIR"]
    elif os.environ.get("XDG_CONFIG_HOME"):
        base = os.path.join(os.environ["XDG_CONFIG_HOME"], "qmd")
    else:
        base = os.path.join(os.environ.get("HOME") or os.path.expanduser("~"), ".config", "qmd")
    return os.path.join(base, f"{name}.yml")


def read(path: str) -> list[QmdCollection]:
    """qmd's collections from its YAML file; [] when there is no file. A file that is not
    qmd's shape is a one-line ConfigError naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read qmd's config ({exc})") from None
    try:
        import yaml
    except ImportError:
        raise ConfigError("reading qmd's config needs PyYAML: pip install pyyaml") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise ConfigError(f"{path}: not valid YAML{at}") from None
    collections = (data or {}).get("collections") if isinstance(data, dict) or data is None else None
    if collections is None:
        return []
    if not isinstance(collections, dict):
        raise ConfigError(f"{path}: 'collections' is not a mapping of name → {{path, pattern}}")
    found = []
    here = os.path.dirname(os.path.abspath(path))  # a project-local .qmd/: paths count from the project
    base = os.path.dirname(here) if os.path.basename(here) == ".qmd" else os.getcwd()
    for name, body in collections.items():
        if not isinstance(body, dict) or not isinstance(body.get("path"), str):
            raise ConfigError(f"{path}: collection {name!r} has no path")
        pattern = body.get("pattern") or "**/*.md"
        ignore = body.get("ignore") or []
        if not isinstance(pattern, str) or not isinstance(ignore, list) or not all(isinstance(g, str) for g in ignore):
            raise ConfigError(f"{path}: collection {name!r}: pattern must be a string, ignore a list of strings")
        root = os.path.normpath(os.path.join(base, os.path.expanduser(body["path"])))
        found.append(QmdCollection(
            str(name), root, globs(pattern),
            DEFAULT_EXCLUDE + QMD_SKIPPED + [g for i in ignore for g in globs(i)],
            body.get("includeByDefault") is not False))
    return found


def globs(mask: str) -> list[str]:
    """qmd's mask as plain globs: split at commas outside `{}`/`[]`, then `{a,b}` expanded
    (qmem's globs have no braces). `**/*.{md,markdown}, notes/*.md` → three globs."""
    parts, current, braces, brackets = [], "", 0, 0
    for ch in mask:
        if ch == "{":
            braces += 1
        elif ch == "}" and braces:
            braces -= 1
        elif ch == "[":
            brackets += 1
        elif ch == "]" and brackets:
            brackets -= 1
        elif ch == "," and not braces and not brackets:
            parts.append(current.strip())
            current = ""
            continue
        current += ch
    parts.append(current.strip())
    out: list[str] = []
    for part in filter(None, parts):
        for glob in _expand(part):
            if glob not in out:
                out.append(glob)
    if not out:
        raise BadInputError(f"qmd mask {mask!r} holds no glob")
    return out


def _expand(glob: str) -> list[str]:
    """`a{b,c}d` → [abd, acd], innermost-first, nested groups too; an unclosed `{` stays literal."""
    start = glob.find("{")
    if start < 0:
        return [glob]
    depth, cut, options = 0, start + 1, []
    for i in range(start, len(glob)):
        ch = glob[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                options.append(glob[cut:i])
                head, tail = glob[:start], glob[i + 1:]
                return [head + one + rest for option in options for one in _expand(option) for rest in _expand(tail)]
        elif ch == "," and depth == 1:
            options.append(glob[cut:i])
            cut = i + 1
    return [glob]


class ImportReport:
    """What `collection import` did with each of qmd's collections."""

    def __init__(self, source: str) -> None:
        self.source = source  # qmd's config file
        self.created: list[tuple[QmdCollection, RefreshReport | None]] = []  # (collection, its refresh)
        self.present: list[str] = []  # already a qmem collection with the same folder
        self.skipped: list[tuple[str, str]] = []  # (name, why)

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source,
                "created": [{**c.to_dict(), "refresh": r.to_dict() if r is not None else None}
                            for c, r in self.created],
                "present": self.present, "skipped": [{"name": n, "why": w} for n, w in self.skipped]}


def pending(cfg, found: list[QmdCollection]) -> list[QmdCollection]:  # qmem.base.config.Config
    """qmd's collections that qmem does not have yet (by name)."""
    return [c for c in found if c.name not in cfg.collections]


def import_all(cfg, found: list[QmdCollection], source: str, names: list[str] | None = None,
               index: bool = True, progress=None) -> ImportReport:
    """Create a qmem collection for each of qmd's (or the named ones), indexed at once. A name
    qmem already has is left alone: `present` when it holds the same folder, `skipped` with the
    way out otherwise; so is a folder that is gone or a name qmem cannot take."""
    from ..base.config import validate_name
    from ..engine import catalog

    report = ImportReport(source)
    wanted = {c.name: c for c in found}
    unknown = [n for n in names or [] if n not in wanted]
    if unknown:
        known = ", ".join(wanted) or "none"
        raise BadInputError(f"qmd's config {source} has no collection {unknown[0]!r}; it has: {known}")
    for coll in (wanted[n] for n in (names or list(wanted))):
        mine = cfg.collections.get(coll.name)
        if mine is not None:
            if os.path.realpath(mine.path) == os.path.realpath(coll.path):
                report.present.append(coll.name)
            else:
                report.skipped.append((coll.name, f"qmem already has a collection {coll.name} for {mine.path}; "
                                                  f"qmem collection create OTHER-NAME {coll.path}"))
            continue
        if not os.path.isdir(coll.path):
            report.skipped.append((coll.name, f"{coll.path} is not a folder any more"))
            continue
        try:
            validate_name(coll.name)
        except QmemError as exc:
            report.skipped.append((coll.name, f"{exc}; qmem collection create NEW-NAME {coll.path}"))
            continue
        made, refreshed = catalog.create(cfg, coll.name, coll.path, coll.patterns, coll.exclude, index=index,
                                         progress=progress)
        report.created.append((coll, refreshed))
    return report
