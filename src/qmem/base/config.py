"""collections.toml: where it lives, loading with clear errors, saving without losing comments.

Reading TOML costs ~10 ms of imports (tomllib pulls in typing), too much for a search that
should finish in ~25 ms, so the validated config is cached beside the file, keyed by the
file's mtime, size and inode, in `marshal` form (C, built in: `json` would import `re` and
`enum`, ~6 ms). Writing goes through tomlkit so a user's comments survive
`qmem collection create`.
"""

from __future__ import annotations

import os

from .conventions import DEFAULT_EXCLUDE, SHARED_SCOPE
from .errors import BadInputError, ConfigError, NotFoundError
from .fsutil import glob_to_regex
from .writes import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a search's start-up: for the checker only
    from collections.abc import Callable
    from typing import Any

CONFIG_NAME = "collections.toml"
DEFAULT_PATTERNS = ["MEMORY.md", "memory/**/*.md"]
DEFAULT_LOCK_TIMEOUT = 30.0
DEFAULT_LIMIT = 10
MAX_LIMIT = 100_000  # results one search may return (`-n`, `[search] limit`)
DEFAULT_SNIPPET_LINES = 8  # the best entries, each with its reply, then short lines around them (see snippets.py)
_CACHE_VERSION = 5  # 4: [backend], [scopes] and collection scopes; 5: marshal, not JSON


class Collection:
    """One named folder of Markdown files and the globs that pick them."""

    __slots__ = ("name", "path", "patterns", "exclude", "description", "embed", "scope")

    def __init__(
        self,
        name: str,
        path: str,
        patterns: list[str] | None = None,
        exclude: list[str] | None = None,
        description: str = "",
        embed: bool = False,
        scope: str = "",
    ) -> None:
        self.name = name
        self.path = path
        self.patterns = list(patterns) if patterns else list(DEFAULT_PATTERNS)
        self.exclude = list(exclude) if exclude is not None else list(DEFAULT_EXCLUDE)  # [] keeps archives in
        self.description = description
        self.embed = embed  # `qmem index` also embeds new sections (the optional vector tier)
        self.scope = scope  # who may see its sections; "" = the config's own scope

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "path": self.path,
            "patterns": self.patterns,
            "exclude": self.exclude,
            "description": self.description,
            "embed": self.embed,
            "scope": self.scope,
        }


class Config:
    """The loaded config: collections plus a few engine settings.

    `data_root` is the data folder a user names (`$QMEM_DATA`, `data_dir`, the XDG default),
    which several configs may share; `data_dir` is this config's own folder inside it, where
    its index, manifests and lock live (see `layout`)."""

    __slots__ = ("file", "collections", "data_root", "_data_dir", "lock_timeout", "limit", "snippet_lines", "extra",
                 "backend", "scope", "sees")

    def __init__(self, file: str) -> None:
        self.file = file
        self.collections: dict[str, Collection] = {}
        self.data_root = default_data_dir()
        self._data_dir: str | None = None
        self.lock_timeout = DEFAULT_LOCK_TIMEOUT
        self.limit = DEFAULT_LIMIT
        self.snippet_lines = DEFAULT_SNIPPET_LINES
        self.extra: dict[str, object] = {}  # tables other layers own ([tree], [memory], …)
        self.backend: dict[str, object] = {"kind": "tantivy"}  # [backend], validated (no secrets)
        self.scope = SHARED_SCOPE  # [scopes] own: what this config's collections are written as
        self.sees: list[str] = [SHARED_SCOPE]  # [scopes] see: what its searches may see

    @property
    def data_dir(self) -> str:
        """This config's own data folder: `<data_root>/configs/<slug>-<hash of the config path>`."""
        if self._data_dir is None:
            from .layout import config_data_dir

            self._data_dir = config_data_dir(self.data_root, self.file)
        return self._data_dir

    @data_dir.setter
    def data_dir(self, path: str) -> None:
        self._data_dir = path

    def collection(self, name: str) -> Collection:
        try:
            return self.collections[name]
        except KeyError:
            known = ", ".join(sorted(self.collections)) or "none (qmem collection create NAME PATH)"
            raise NotFoundError(f"no collection named {name!r}; known: {known}") from None

    def scope_of(self, coll: Collection) -> str:
        return coll.scope or self.scope

    def table(self, name: str) -> dict[str, object]:
        """A table another layer owns ([tree], [memory], [vector]); {} when absent or not a table."""
        section = self.extra.get(name)
        return section if isinstance(section, dict) else {}

    def select(self, names: list[str] | None) -> list[Collection]:
        """The named collections (all when `names` is empty), unknown names refused."""
        if not names:
            return [self.collections[n] for n in sorted(self.collections)]
        return [self.collection(n) for n in dict.fromkeys(names)]


def default_config_path() -> str:
    explicit = os.environ.get("QMEM_CONFIG")
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "qmem", CONFIG_NAME)


def default_data_dir() -> str:
    """The data root: `$QMEM_DATA`, else the XDG data folder (a config's `data_dir` key
    overrides the latter)."""
    explicit = os.environ.get("QMEM_DATA")
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "qmem")


def _cache_path(file: str) -> str:
    return os.path.join(os.path.dirname(file), f".{os.path.basename(file)}.cache")


def load(file: str | None = None, required: bool = False) -> Config:
    """Load and validate the config; a missing file is an empty config, not an error, unless
    `required` (a file the user named explicitly, for a command that does not create it)."""
    file = os.path.abspath(os.path.expanduser(file)) if file else default_config_path()
    try:
        st = os.stat(file)
    except FileNotFoundError:
        if required:
            raise ConfigError(f"config {file}: no such file (`qmem --config {file} collection create NAME PATH` "
                              "starts one)") from None
        return Config(file)
    except OSError as exc:
        raise ConfigError(f"config {file}: cannot read: {exc.strerror}") from None
    stamp = [st.st_mtime_ns, st.st_size, st.st_ino]
    cache = _cache_path(file)
    import marshal

    try:
        with open(cache, "rb") as handle:
            cached = marshal.loads(handle.read())
        if cached.get("v") == _CACHE_VERSION and cached.get("stamp") == stamp and _sane(cached["data"]):
            return _from_dict(file, cached["data"])
    except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
        pass  # missing, damaged or from another version: read the TOML
    data = _validated(file, _read_toml(file))
    try:
        atomic_write(cache, marshal.dumps({"v": _CACHE_VERSION, "stamp": stamp, "data": data}))
        os.unlink(cache + ".json")  # the JSON cache of qmem before cache version 5
    except (OSError, ValueError):
        pass  # a read-only config folder (or a value marshal cannot hold) only costs the fast path
    return _from_dict(file, data)


def _read_toml(file: str) -> dict[str, object]:
    import tomllib

    try:
        with open(file, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {file}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config {file}: not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"config {file}: cannot read: {exc.strerror}") from None


def _fail(file: str, key: str, problem: str) -> ConfigError:
    return ConfigError(f"config {file}: {key}: {problem}")


def _str_list(file: str, key: str, value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _fail(file, key, "expected a list of non-empty strings")
    return list(value)


def _globs(file: str, key: str, value: object) -> list[str]:
    globs = _str_list(file, key, value)
    problem = check_globs(globs)
    if problem:
        raise _fail(file, key, problem)
    return globs


def check_globs(globs: list[str]) -> str | None:
    """Why one of `globs` cannot select files (bad class, not UTF-8, too long), or None."""
    import re

    for glob in globs:
        try:
            re.compile(glob_to_regex(glob))
        except BadInputError as exc:
            return str(exc)
        except re.error as exc:
            return f"bad glob {glob!r}: {exc}"
    return None


def _number(file: str, key: str, value: object, minimum: float, maximum: float | None = None,
            whole: bool = False) -> float:
    """A finite number in [minimum, maximum] (a whole one when `whole`), else a ConfigError."""
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    ok = (number is not None and number == number  # NaN != NaN
          and minimum <= number <= (maximum if maximum is not None else float("inf")) and number != float("inf"))
    if ok and whole and number is not None and number != int(number):
        ok = False
    if not ok or number is None:
        upper = f" and <= {maximum:g}" if maximum is not None else ""
        kind = "a whole number" if whole else "a number"
        raise _fail(file, key, f"expected {kind} >= {minimum:g}{upper}, got {value!r}")
    return int(number) if whole else number


# key → (minimum, maximum, whole number)
_LIMITS = {"lock_timeout": (0, None, False), "limit": (1, MAX_LIMIT, True), "snippet_lines": (1, 1000, True)}
_TOP_KEYS = {"data_dir", "collections", "index", "search", "backend", "scopes"}
_EXTENSION_TABLES = {"tree", "memory", "vector"}  # owned by the memory layer and later tiers
_COLLECTION_KEYS = {"path", "patterns", "pattern", "exclude", "description", "embed", "scope"}


def _validated(file: str, raw: dict[str, object]) -> dict[str, object]:
    """Check every key and return a plain dict that `_from_dict` trusts (and the cache stores)."""
    unknown = set(raw) - _TOP_KEYS - _EXTENSION_TABLES
    if unknown:
        raise _fail(file, sorted(unknown)[0], f"unknown key (known: {', '.join(sorted(_TOP_KEYS))})")
    checked: dict[str, dict[str, object]] = {}  # the collections, by name
    out: dict[str, object] = {"collections": checked, "extra": {k: raw[k] for k in _EXTENSION_TABLES if k in raw}}
    if "data_dir" in raw:
        if not isinstance(raw["data_dir"], str) or not raw["data_dir"]:
            raise _fail(file, "data_dir", "expected a path string")
        out["data_dir"] = os.path.abspath(os.path.expanduser(raw["data_dir"]))
    for table, keys in (("index", {"lock_timeout"}), ("search", {"limit", "snippet_lines"})):
        section = raw.get(table, {})
        if not isinstance(section, dict):
            raise _fail(file, table, "expected a table")
        for key, value in section.items():
            if key not in keys:
                raise _fail(file, f"{table}.{key}", f"unknown key (known: {', '.join(sorted(keys))})")
            out[key] = _number(file, f"{table}.{key}", value, *_LIMITS[key])
    collections = raw.get("collections", {})
    if not isinstance(collections, dict):
        raise _fail(file, "collections", "expected a table of collections")
    for name, body in collections.items():
        key = f"collections.{name}"
        if not _good_name(name):
            raise _fail(file, key, "a name is letters, digits, '.', '_' or '-' (at most 64)")
        if not isinstance(body, dict):
            raise _fail(file, key, "expected a table")
        for sub in body:
            if sub not in _COLLECTION_KEYS:
                raise _fail(file, f"{key}.{sub}", f"unknown key (known: {', '.join(sorted(_COLLECTION_KEYS - {'pattern'}))})")
        path = body.get("path")
        if not isinstance(path, str) or not path:
            raise _fail(file, f"{key}.path", "missing or not a string")
        patterns = body.get("patterns", body.get("pattern", DEFAULT_PATTERNS))
        description = body.get("description", "")
        if not isinstance(description, str):
            raise _fail(file, f"{key}.description", "expected a string")
        if not isinstance(body.get("embed", False), bool):
            raise _fail(file, f"{key}.embed", "expected true or false")
        if "scope" in body:
            from .backend_config import check_scope

            check_scope(file, f"{key}.scope", body["scope"])
        checked[name] = {
            "path": os.path.abspath(os.path.expanduser(path)),
            "patterns": _globs(file, f"{key}.patterns", patterns),
            "exclude": _globs(file, f"{key}.exclude", body.get("exclude", DEFAULT_EXCLUDE)),
            "description": description,
            "embed": body.get("embed", False),
            "scope": body.get("scope", ""),
        }
    if "backend" in raw or "scopes" in raw:  # only read when the TOML is (the JSON cache keeps it)
        from .backend_config import validated_backend, validated_scopes

        out["backend"] = validated_backend(file, raw.get("backend", {}))
        out["scopes"] = validated_scopes(file, raw.get("scopes", {}))
    return out


def _sane(data: object) -> bool:
    """A cached config has the shapes `_validated` gives (a damaged or hand-edited cache, such as
    a path that is a number, is read again from the TOML instead of failing later)."""
    if type(data) is not dict or type(data.get("collections")) is not dict:
        return False
    for body in data["collections"].values():
        if not (type(body) is dict and type(body.get("path")) is str and type(body.get("description")) is str
                and all(type(body.get(k)) is list and all(type(x) is str for x in body[k])
                        for k in ("patterns", "exclude"))):
            return False
    numbers = all(type(data.get(k, 0)) in (int, float) for k in ("lock_timeout", "limit", "snippet_lines"))
    return numbers and type(data.get("data_dir", "")) is str and type(data.get("extra", {})) is dict \
        and type(data.get("scopes", {})) is dict


def _from_dict(file: str, data: dict[str, Any]) -> Config:
    """The Config of `data`, a dict whose every key and shape `_validated` (or `_sane`, for the
    cache) has checked: typed Any here, as TOML and marshal give it."""
    cfg = Config(file)
    for name, body in data["collections"].items():
        cfg.collections[name] = Collection(name, body["path"], body["patterns"], body["exclude"], body["description"],
                                           bool(body.get("embed", False)), body.get("scope", ""))
    if "data_dir" in data and not os.environ.get("QMEM_DATA"):
        cfg.data_root = data["data_dir"]
    cfg.lock_timeout = float(data.get("lock_timeout", DEFAULT_LOCK_TIMEOUT))
    cfg.limit = int(data.get("limit", DEFAULT_LIMIT))
    cfg.snippet_lines = int(data.get("snippet_lines", DEFAULT_SNIPPET_LINES))
    cfg.extra = data.get("extra", {})
    cfg.backend = data.get("backend", cfg.backend)
    scopes = data.get("scopes", {})
    cfg.scope = scopes.get("own", SHARED_SCOPE)
    cfg.sees = scopes.get("see", [cfg.scope, SHARED_SCOPE] if cfg.scope != SHARED_SCOPE else [SHARED_SCOPE])
    return cfg


def _good_name(name: str) -> bool:
    import re

    return re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", name) is not None


def validate_name(name: str) -> str:
    if not _good_name(name):
        raise ConfigError(f"bad collection name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    return name


_HEADER = """\
# qmem collections: each [collections.NAME] table is one folder of Markdown files.
# Edit by hand or with `qmem collection create|remove|rename`; comments are kept.
"""


def _edit(cfg: Config, change: Callable[[dict], object]) -> None:
    """Apply `change(collections_table)` to the TOML document and write it atomically."""
    import tomlkit

    try:
        with open(cfg.file, encoding="utf-8") as handle:
            doc = tomlkit.parse(handle.read())
    except FileNotFoundError:
        doc = tomlkit.parse(_HEADER)
    except (OSError, UnicodeDecodeError, tomlkit.exceptions.ParseError) as exc:
        raise ConfigError(f"config {cfg.file}: cannot update: {exc}") from None
    if "collections" not in doc:
        doc["collections"] = tomlkit.table(is_super_table=True)
    table = doc["collections"]
    if not isinstance(table, dict):  # a tomlkit Table is a dict
        raise ConfigError(f"config {cfg.file}: collections: expected a table of collections")
    change(table)
    atomic_write(cfg.file, tomlkit.dumps(doc))


def add_collection(cfg: Config, coll: Collection) -> None:
    """Add `coll` to the file and to `cfg`; an existing name is refused."""
    import tomlkit

    validate_name(coll.name)
    problem = check_globs(coll.patterns + coll.exclude)
    if problem:
        raise BadInputError(problem)
    if coll.name in cfg.collections:
        raise ConfigError(f"collection {coll.name!r} already exists (root {cfg.collections[coll.name].path})")

    def change(table: dict) -> None:
        body = tomlkit.table()
        body["path"] = coll.path
        body["patterns"] = coll.patterns
        if coll.exclude:
            body["exclude"] = coll.exclude
        if coll.description:
            body["description"] = coll.description
        if coll.scope:
            body["scope"] = coll.scope
        table[coll.name] = body

    _edit(cfg, change)
    cfg.collections[coll.name] = coll


def remove_collection(cfg: Config, name: str) -> Collection:
    coll = cfg.collection(name)
    _edit(cfg, lambda table: table.pop(name, None))
    del cfg.collections[name]
    return coll


def rename_collection(cfg: Config, old: str, new: str) -> Collection:
    coll = cfg.collection(old)
    validate_name(new)
    if new in cfg.collections:
        raise ConfigError(f"collection {new!r} already exists")

    def change(table: dict) -> None:
        table[new] = table.pop(old)

    _edit(cfg, change)
    del cfg.collections[old]
    coll.name = new
    cfg.collections[new] = coll
    return coll

