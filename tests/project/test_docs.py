"""The docs tell the truth and cover every command.

- docs/commands.md is what `python scripts/gen_docs.py` writes from every command's `--help`:
  a stale reference fails, and each command without an entry fails by name (the checks are shown
  to fail on a planted deletion).
- Every ```console block of README.md and docs/*.md is run on the sample workspace and its output
  compared (paths, times and durations normalised, numbers within a tolerance).
- The cron and systemd examples run as cron and systemd would, with a virtualenv's qmem and a
  bare PATH.
- The README stays a front page, and user docs name no issue numbers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import ROOT, SAMPLE

README = ROOT / "README.md"
DOCS = ROOT / "docs"
DOC_FILES = [README, *sorted(DOCS.glob("*.md"))]
DEMO = "/tmp/demo"  # how the docs write the demo folder
_CONSOLE = re.compile(r"^```console( continued)?\n(.*?)^```", re.S | re.M)
_FLOAT = re.compile(r"-?\d+\.\d+")
_NORMAL = [
    (re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}"), "<time>"),
    (re.compile(r"\d{8}-\d{6}(?:-\d+)?"), "<stamp>"),
    (re.compile(r"done in \d+\.\d+s"), "done in <s>"),
    (re.compile(r"memory/archive/\d{4}-\d{2}\.md"), "memory/archive/<month>.md"),
    (re.compile(r"configs/[A-Za-z0-9._-]*-[0-9a-f]{16}"), "configs/<config folder>"),  # keyed by the config's path
]
TOLERANCE = 0.25  # scores and sizes may move this much (relative) before the docs must change


def _load_gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_docs = _load_gen_docs()


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# -- the command reference ----------------------------------------------------------------------

_ENTRY = re.compile(r"^#{2,3} (qmem(?:-qmd)?(?: [a-z][\w-]*)*)\n(.*?)^```text\n(.*?)^```", re.S | re.M)


def reference_entries(text: str) -> dict[str, str]:
    """`qmem PATH` (or `qmem-qmd PATH`) → the help text of its entry in docs/commands.md."""
    return {name: body for name, _, body in _ENTRY.findall(text)}


def expected_entries() -> dict[str, str]:
    """What each entry must say: the `--help` of every command, now."""
    out = {f"qmem {path}".strip(): gen_docs.qmem_help(path) for path, _ in gen_docs.qmem_commands()}
    out.update({f"qmem-qmd {path}".strip(): text for path, text in gen_docs.qmd_helps()})
    return out


def reference_problems(text: str, expected: dict[str, str]) -> list[str]:
    """One line per command whose entry is missing or differs from its --help."""
    entries = reference_entries(text)
    problems = []
    for name, help_text in expected.items():
        if name not in entries:
            problems.append(f"{name}: no entry in docs/commands.md")
        elif entries[name].rstrip("\n") != help_text.rstrip("\n"):
            problems.append(f"{name}: its entry differs from `{name} --help`")
    return problems


@pytest.fixture(scope="module")
def expected() -> dict[str, str]:
    return expected_entries()


def test_reference_is_what_gen_docs_writes():
    current = (DOCS / "commands.md").read_text(encoding="utf-8")
    diff = gen_docs.stale(current, gen_docs.render())
    assert not diff, f"docs/commands.md is stale; run python scripts/gen_docs.py\n{diff[:4000]}"


def _all_commands() -> list[str]:
    names = [f"qmem {path}".strip() for path, _ in gen_docs.qmem_commands()]
    return names + [f"qmem-qmd {path}".strip() for path, _ in gen_docs.qmd_helps()]


@pytest.mark.parametrize("name", _all_commands())
def test_every_command_has_a_current_entry(name, expected):
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    assert [p for p in reference_problems(text, expected) if p.startswith(f"{name}:")] == []


def _without_section(text: str, heading: str) -> str:
    start = text.index(f"\n{heading}\n")
    end = text.index("\n#", start + len(heading) + 2)
    return text[:start] + text[end:]


def test_a_deleted_entry_is_named(expected):
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    assert reference_problems(text, expected) == []
    planted = _without_section(text, "## qmem status")
    assert reference_problems(planted, expected) == ["qmem status: no entry in docs/commands.md"]
    assert gen_docs.stale(planted, gen_docs.render())  # the whole-file check fails too
    planted = _without_section(text, "### qmem tree stats")
    assert reference_problems(planted, expected) == ["qmem tree stats: no entry in docs/commands.md"]


def test_a_deleted_option_is_named(expected):
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if row.lstrip().startswith("--since DATE"))
    planted = text.replace(line + "\n", "", 1)
    assert reference_problems(planted, expected) == ["qmem search: its entry differs from `qmem search --help`"]


def test_a_command_without_a_guide_stops_the_generator(tmp_path, monkeypatch):
    """Each entry links to the guide heading that names the command; a guide that lost it, or a
    command GROUPS does not place, stops gen_docs with the command's name."""
    shutil.copytree(DOCS, tmp_path / "docs")
    memory = tmp_path / "docs" / "memory.md"
    memory.write_text(memory.read_text(encoding="utf-8").replace("## `qmem janitor`", "## The janitor"),
                      encoding="utf-8")
    monkeypatch.setattr(gen_docs, "DOCS", tmp_path / "docs")
    with pytest.raises(gen_docs.DocsError, match=r"qmem janitor: docs/memory.md has no heading"):
        gen_docs.render()
    monkeypatch.setattr(gen_docs, "DOCS", DOCS)
    groups = [(title, [entry for entry in entries if entry[0] != "eval"]) for title, entries in gen_docs.GROUPS]
    monkeypatch.setattr(gen_docs, "GROUPS", groups)
    with pytest.raises(gen_docs.DocsError, match=r"no place for: qmem eval"):
        gen_docs.render()


def test_check_mode_exits_1_on_a_stale_reference(tmp_path, monkeypatch, capsys):
    stale_copy = tmp_path / "commands.md"
    stale_copy.write_text(_without_section((DOCS / "commands.md").read_text(encoding="utf-8"), "## qmem status"),
                          encoding="utf-8")
    monkeypatch.setattr(gen_docs, "REFERENCE", stale_copy)
    assert gen_docs.main(["--check"]) == 1
    assert "docs/commands.md is stale" in capsys.readouterr().err
    monkeypatch.setattr(gen_docs, "REFERENCE", DOCS / "commands.md")
    assert gen_docs.main(["--check"]) == 0


# -- the console blocks -------------------------------------------------------------------------
# A block opts in by its fence: ```console (the output of each `$ ` line follows it). Each block
# starts from a fresh copy of the sample workspace at /tmp/demo/workspace, indexed as collection
# `main` (unless the block itself starts with `qmem collection create`); ```console continued
# goes on from the state the previous block of the same file left.

def console_blocks(text: str) -> list[tuple[int, bool, list[tuple[str, str]]]]:
    """(line of the block, continues the previous one, [(command, expected output)]) for every
    ```console block."""
    found = []
    for match in _CONSOLE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        runs: list[tuple[str, list[str]]] = []
        for row in match.group(2).splitlines():
            if row.startswith("$ "):
                runs.append((row[2:], []))
            elif runs:
                runs[-1][1].append(row)
        found.append((line, match.group(1) == " continued", [(cmd, "\n".join(out).strip("\n")) for cmd, out in runs]))
    return found


def normalise(text: str, root: str) -> str:
    text = text.replace(root, DEMO)
    for pattern, repl in _NORMAL:
        text = pattern.sub(repl, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def same(expected: str, actual: str) -> bool:
    """Equal but for numbers with a decimal point, which may differ by TOLERANCE (relative)."""
    if _FLOAT.sub("#", expected) != _FLOAT.sub("#", actual):
        return False
    for a, b in zip(_FLOAT.findall(expected), _FLOAT.findall(actual)):
        x, y = float(a), float(b)
        if abs(x - y) > TOLERANCE * max(abs(x), abs(y), 0.01):
            return False
    return True


def demo_env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QMEM_", "XDG_"))}
    env.update(HOME=str(root / "home"), QMEM_CONFIG=str(root / "config" / "collections.toml"),
               QMEM_DATA=str(root / "data"), QMEM_WORKSPACE=str(root / "workspace"), NO_COLOR="1", TZ="UTC",
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return env


def _fresh(root: Path, env: dict[str, str], index: bool) -> None:
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(SAMPLE, root / "workspace")
    (root / "home").mkdir()
    if index:
        code, out = run_in_process(["qmem", "collection", "create", "main", str(root / "workspace")], env)
        assert code == 0, out


# Outside quotes, any of these makes bash do more than pass the words to qmem (a pipe, a
# redirect, a variable, a glob, a subshell, a comment, an escape, history).
_SHELL_CHARS = set("|&;<>$`*?[]{}()~\\!#\n")


def plain_qmem(cmd: str) -> list[str] | None:
    """The argv bash would give `qmem`/`qmem-qmd` for this command line when bash would only split
    it into words (quotes allowed); None for anything else (pipes, redirects, globs, variables,
    `VAR=value cmd`, other programs), which must run in a real shell."""
    quote = ""
    for ch in cmd:
        if quote:
            if ch == quote:
                quote = ""
            elif quote == '"' and ch in "$`\\!":
                return None
        elif ch in "'\"":
            quote = ch
        elif ch in _SHELL_CHARS:
            return None
    if quote:
        return None
    argv = shlex.split(cmd)
    return argv if argv and argv[0] in ("qmem", "qmem-qmd") else None


@contextlib.contextmanager
def _shell_state(env: dict[str, str]):
    """This process as a child started with `env` in the repository would be: its environment
    (TZ applied), working folder, an empty stdin and a terminal size it cannot ask a pipe for."""
    saved_env, saved_cwd, saved_stdin = dict(os.environ), os.getcwd(), sys.stdin
    os.environ.clear()
    os.environ.update(env)
    for name, value in (("COLUMNS", "80"), ("LINES", "24")):  # a pipe has no size: Python's fallback
        os.environ.setdefault(name, value)
    time.tzset()
    os.chdir(ROOT)
    sys.stdin = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        time.tzset()


def run_in_process(argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    """(exit code, stdout then stderr) of `qmem`/`qmem-qmd` ARGV run by its own `main` in this
    process, as a child with `env` would print them (test_in_process_runs_print_what_a_shell_prints
    compares the two ways)."""
    from qmem.__main__ import main as qmem_main
    from qmem.faces.qmd import main as qmd_main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    code = 0
    try:
        with _shell_state(env):
            (qmem_main if argv[0] == "qmem" else qmd_main)(argv[1:])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdout, sys.stderr = saved
    printed = []
    for stream in (out, err):
        stream.flush()
        printed.append(stream.buffer.getvalue().decode("utf-8", "replace"))
    return code, "".join(printed)


def run_command(cmd: str, env: dict[str, str]) -> str:
    """What `cmd` prints (stdout, then stderr): a plain qmem command in this process, anything else
    in bash."""
    argv = plain_qmem(cmd)
    if argv is not None:
        return run_in_process(argv, env)[1]
    proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    return proc.stdout + proc.stderr


def run_console_blocks(root: Path, text: str) -> list[tuple[int, str, str, str]]:
    """Run every console block of `text` (see above) with /tmp/demo at `root`; (block line,
    command, expected, actual with `root` written as /tmp/demo) for each command."""
    env = demo_env(root)
    results = []
    for line, continued, runs in console_blocks(text):
        if not continued:
            _fresh(root, env, index=not (runs and runs[0][0].startswith("qmem collection create")))
        for cmd, expected in runs:
            actual = run_command(cmd.replace(DEMO, str(root)), env).replace(str(root), DEMO).strip("\n")
            results.append((line, cmd, expected, "\n".join(row.rstrip() for row in actual.splitlines())))
    return results


WITH_BLOCKS = [path for path in DOC_FILES if console_blocks(path.read_text(encoding="utf-8"))]


def test_the_docs_show_real_runs():
    runs = sum(len(block[2]) for path in WITH_BLOCKS for block in console_blocks(path.read_text(encoding="utf-8")))
    assert runs >= 40, "the docs should show real runs in ```console blocks"
    assert README in WITH_BLOCKS and DOCS / "search.md" in WITH_BLOCKS and DOCS / "memory.md" in WITH_BLOCKS


@pytest.mark.parametrize("path", WITH_BLOCKS, ids=rel)
def test_console_blocks_tell_the_truth(tmp_path, path):
    results = [(line, cmd, expected, normalise(actual, DEMO))
               for line, cmd, expected, actual in run_console_blocks(tmp_path / "demo", path.read_text(encoding="utf-8"))]
    wrong = [f"{rel(path)}:{line}: $ {cmd}\n--- docs\n{expected}\n--- actual\n{actual}"
             for line, cmd, expected, actual in results if not same(normalise(expected, DEMO), actual)]
    assert not wrong, "\n\n".join(wrong)


def update_console_blocks(paths: list[Path] | None = None) -> list[Path]:
    """Rewrite every console block's output with what the commands print now
    (`python scripts/gen_docs.py --examples`): for a change that means to change the output.
    Review the diff. Returns the files that changed."""
    import tempfile

    changed = []
    for path in paths or DOC_FILES:
        text = path.read_text(encoding="utf-8")
        if not console_blocks(text):
            continue
        with tempfile.TemporaryDirectory() as scratch:
            actual = iter(run_console_blocks(Path(scratch) / "demo", text))
            out_before = [False]  # a blank line after a command's output, none between silent commands

            def block(match: re.Match) -> str:
                rows: list[str] = []
                for row in match.group(2).splitlines():
                    if row.startswith("$ "):
                        _, cmd, expected, out = next(actual)
                        if same(normalise(expected, DEMO), normalise(out, DEMO)):
                            out = expected  # only outputs that really changed are rewritten
                        rows += ([""] if rows and out_before[0] else []) + [f"$ {cmd}"] + ([out] if out else [])
                        out_before[0] = bool(out)
                return f"```console{match.group(1) or ''}\n" + "\n".join(rows) + "\n```"

            new = _CONSOLE.sub(block, text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def test_plain_qmem_commands_are_told_from_shell_work():
    assert plain_qmem("qmem search opsgenie --json -n 1") == ["qmem", "search", "opsgenie", "--json", "-n", "1"]
    assert plain_qmem("qmem search --type S --path \"memory/*\"") == ["qmem", "search", "--type", "S", "--path", "memory/*"]
    assert plain_qmem("qmem-qmd get 'MEMORY.md:16'") == ["qmem-qmd", "get", "MEMORY.md:16"]
    for shell in ("qmem search x | head -3", "qmem status; echo $?", "QMEM_WORKSPACE= qmem remember x",
                  "qmem tree migrate /tmp/x > /dev/null", "qmem search memory/*", "qmem search \"$HOME\"",
                  "cp -r a b", "qmem get a#b", "qmem remember 'open", "touch x && qmem index"):
        assert plain_qmem(shell) is None, shell


def test_in_process_runs_print_what_a_shell_prints(tmp_path):
    """The console blocks run plain qmem commands in this process: each of these prints the same
    text and exits with the same code as in a shell (fast path, Typer, an error, qmem-qmd)."""
    root = tmp_path / "demo"
    env = demo_env(root)
    _fresh(root, env, index=True)
    for cmd in ("qmem search opsgenie -n 2", "qmem search 'rsync partial' --json -n 1", "qmem status",
                "qmem get MEMORY.md:1 -l 3", "qmem search --limit 0 x", "qmem collection show nosuch",
                "qmem-qmd search opsgenie", "qmem --version"):
        argv = plain_qmem(cmd)
        assert argv is not None, cmd
        shell = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert run_in_process(argv, env) == (shell.returncode, shell.stdout + shell.stderr), cmd


def test_a_block_whose_output_changed_fails(tmp_path):
    """The comparison the docs are held to, on search.md's first block and on a copy whose shown
    output lost a word: the first passes, the copy fails on that command."""
    block = _CONSOLE.search((DOCS / "search.md").read_text(encoding="utf-8")).group(0)
    shown = next(row for row in block.splitlines()[1:] if row and not row.startswith(("$ ", "```")))
    planted = block.replace(shown, shown.rsplit(" ", 1)[0] if " " in shown.strip() else shown + " more", 1)
    assert planted != block
    for text, holds in ((block, True), (planted, False)):
        results = run_console_blocks(tmp_path / "demo", text)
        assert all(same(normalise(e, DEMO), normalise(a, DEMO)) for _, _, e, a in results) is holds, text


def test_runs_left_unchecked_are_only_the_vector_tier_ones():
    """A block that shows a run (`$ `) but is not ```console needs a model the tests do not
    install; anything else must be opted in."""
    for path in DOC_FILES:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^ *```(\w*)\n( *\$ .*?)^ *```", text, re.S | re.M):
            if match.group(1) != "console":
                assert re.search(r"\$ qmem (query|vsearch|embed)\b", match.group(2)), (rel(path), match.group(2)[:200])


def test_normalising_keeps_what_matters():
    assert same("score 3.3558, 13.2 KB", "score 3.40, 13.9 KB")
    assert not same("score 3.3558", "score 9.1")
    assert not same("4 files", "5 files")
    assert normalise("/x/y/ws at 2026-11-30T02:36:54+0000, done in 0.14s", "/x/y") == \
        "/tmp/demo/ws at <time>, done in <s>"


# -- cron and systemd, as they run them ------------------------------------------------------------

def fenced(fence: str) -> list[tuple[Path, str]]:
    """(file, body) of every ```FENCE block of the docs."""
    found = []
    for path in DOC_FILES:
        for match in re.finditer(rf"^```{fence}\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M):
            found.append((path, match.group(1)))
    return found


@pytest.fixture
def venv_home(tmp_path, cli):
    """A HOME with qmem installed in a virtualenv at ~/.venvs/qmem (this test's own, linked) and
    a workspace at ~/agent/workspace indexed in the default config."""
    home = tmp_path / "cronhome"
    (home / ".venvs" / "qmem").mkdir(parents=True)
    os.symlink(os.path.dirname(sys.executable), home / ".venvs" / "qmem" / "bin")
    (home / ".local" / "bin").mkdir(parents=True)  # where pipx, uv tool and the README's pip line put it
    os.symlink(home / ".venvs" / "qmem" / "bin" / "qmem", home / ".local" / "bin" / "qmem")
    shutil.copytree(SAMPLE, home / "agent" / "workspace")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}  # what cron gives a job
    proc = subprocess.run([str(home / ".venvs/qmem/bin/qmem"), "collection", "create", "main",
                           str(home / "agent" / "workspace")], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return home, env


def test_cron_lines_work_for_a_virtualenv_install(venv_home):
    home, env = venv_home
    blocks = fenced("cron")
    assert {path for path, _ in blocks} >= {README, DOCS / "operations.md"}
    for path, block in blocks:
        lines = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
        assert lines, rel(path)
        for line in lines:
            job = line.split(None, 5)[5]  # after the five schedule fields
            assert "$HOME/.venvs/qmem/bin/qmem" in job or "$HOME/.local/bin/qmem" in job, \
                f"{rel(path)}: cron's PATH has neither the virtualenv nor ~/.local/bin: {job}"
            proc = subprocess.run(["/bin/sh", "-c", job], env=env, capture_output=True, text=True, cwd=home)
            assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), job


def test_systemd_service_works_for_a_virtualenv_install(venv_home):
    home, env = venv_home
    [(_, unit)] = [(path, body) for path, body in fenced("ini") if "[Service]" in body]
    service = dict(line.split("=", 1) for line in unit.split("# qmem-maintain.timer")[0].splitlines()
                   if "=" in line and not line.startswith("#"))
    extra = dict(pair.split("=", 1) for pair in service.get("Environment", "").split())
    run_env = {**env, **{k: v.replace("%h", str(home)) for k, v in extra.items()}}
    argv = service["ExecStart"].replace("%h", str(home)).split()
    assert argv[0].endswith("/.venvs/qmem/bin/qmem"), "systemd has no virtualenv on its PATH"
    proc = subprocess.run(argv, env=run_env, capture_output=True, text=True, cwd="/")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


# -- the shape of the user docs --------------------------------------------------------------------

_ISSUE = re.compile(r"\bissues? #?\d+|\(#\d+\)", re.I)


def test_the_readme_is_a_front_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    links = set(re.findall(r"\]\((docs/[\w.-]+\.md|ARCHITECTURE\.md)", text))
    assert links >= {"docs/contributing.md", "ARCHITECTURE.md", "docs/commands.md"}
    assert links >= {rel(path) for path in DOCS.glob("*.md")}, "every guide is one click from the README"


def test_user_docs_name_no_issue_numbers():
    found = [f"{rel(path)}: {m.group(0)}" for path in [*DOC_FILES, ROOT / "ARCHITECTURE.md"]
             for m in _ISSUE.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def test_links_between_docs_resolve():
    """Every relative link of README.md, ARCHITECTURE.md and docs/*.md names a file that exists,
    and its #anchor a heading of that file."""
    from qmem.text.markdown import list_anchors, split_lines

    def anchors(path: Path) -> set[str]:
        return set(list_anchors(split_lines(path.read_text(encoding="utf-8"))))

    broken = []
    for path in [*DOC_FILES, ROOT / "ARCHITECTURE.md"]:
        text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
        text = re.sub(r"(`+)[^\n]+?\1", "", text)  # inline code
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                broken.append(f"{rel(path)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{rel(path)}: {target} (no such heading)")
    assert broken == []


if __name__ == "__main__":
    sys.exit("use: python scripts/gen_docs.py --examples")
