"""Every input a user or a config can give is answered: a result, or one line and exit 2.

Issue 10, findings 5 (values that crashed), 13 (errors longer than a line) and 14 (silent
no-ops). Children run in subprocesses where a failure would abort the interpreter.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from qmem.base.install import install_hint

from ..conftest import PYTHON, subprocess_env


@pytest.fixture
def indexed(cli, workspace):
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def one_line_exit_2(result) -> None:
    assert result.code == 2, result
    assert result.err.count("\n") == 1 and result.err.startswith("qmem: "), result
    assert "Traceback" not in result.err and "panicked" not in result.err


def run_child(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-m", "qmem", *args], capture_output=True, text=True, env=subprocess_env(), timeout=60)


# -- finding 5: values that crashed the engine ---------------------------------------------------

def test_huge_or_bad_result_counts_are_refused_in_one_line(cli, indexed):
    for n in ("18446744073709551615", "99999999999999999"):  # a Rust panic; an allocation abort (134)
        child = run_child("search", "backup", "-n", n)
        assert child.returncode == 2, child
        assert child.stderr.count("\n") == 1 and "between 1 and" in child.stderr, child.stderr
    for n in ("100001", "0", "-3", "99999999999999999999999"):
        for argv in (["search", "backup", "-n", n], ["search", "backup", f"--limit={n}", "--json"],
                     ["vsearch", "backup", "-n", n]):
            result = cli(*argv)
            one_line_exit_2(result)
            assert "between 1 and" in result.err


def test_largest_allowed_count_answers(cli, indexed):
    result = cli("search", "backup", "-n", "100000", "--files")
    assert result.code == 0 and result.out.strip(), result


def test_bad_path_globs_are_one_line_exit_2(cli, indexed):
    for glob in ("[z-a]", "a" * 3000, "**a????????????????????", "\udcff*"):
        one_line_exit_2(cli("search", "backup", "--path", glob))
        one_line_exit_2(cli("search", "--path", glob, "--json"))


@pytest.mark.parametrize(("glob", "matches"), [("[!]]*", True), ("[]M]EMORY.md", True), ("[!M]EMORY.md", False),
                                                ("memory/[0-9][0-9][0-9][0-9]-*", True), ("[a-c&&b]*.md", False)])
def test_glob_classes_follow_glob_rules(cli, indexed, glob, matches):
    result = cli("search", "--path", glob, "--files", "-n", "50")
    assert result.code == 0, result
    assert bool(result.out.strip()) is matches, result


def test_glob_translation():
    import re

    from qmem.base.errors import BadInputError
    from qmem.base.fsutil import glob_to_regex

    assert re.fullmatch(glob_to_regex("[!]]"), "a") and not re.fullmatch(glob_to_regex("[!]]"), "]")
    assert re.fullmatch(glob_to_regex("[]]"), "]")
    assert not re.fullmatch(glob_to_regex("[!a]"), "/")  # a class never crosses a folder
    assert re.fullmatch(glob_to_regex("[a&&b]"), "&")  # no regex set operation sneaks in
    assert re.fullmatch(glob_to_regex("[^x]"), "^")
    for bad in ("[z-a]", "x" * 5000, "\udcff"):
        with pytest.raises(BadInputError):
            glob_to_regex(bad)


def test_bad_numbers_in_the_config_are_one_line_exit_2(cli, indexed):
    good = open(_config_file(), encoding="utf-8").read()
    for key, value in (("limit", "inf"), ("limit", "nan"), ("limit", "1e20"), ("limit", "-inf"), ("limit", "0"),
                       ("limit", "2.5"), ("limit", "100001"), ("snippet_lines", "inf")):
        with open(_config_file(), "w", encoding="utf-8") as handle:
            handle.write(f"{good}\n[search]\n{key} = {value}\n")
        for argv in (["search", "backup"], ["status"], ["collection", "list"]):
            result = cli(*argv)
            one_line_exit_2(result)
            assert f"search.{key}" in result.err
    with open(_config_file(), "w", encoding="utf-8") as handle:
        handle.write(f"{good}\n[index]\nlock_timeout = nan\n")
    one_line_exit_2(cli("index"))


def test_bad_globs_in_the_config_are_one_line_exit_2(cli, workspace):
    for key in ("patterns", "exclude"):
        for glob in ("[z-a]", "a" * 1200):
            with open(_config_file(), "w", encoding="utf-8") as handle:
                handle.write(f'[collections.main]\npath = "{workspace}"\n{key} = ["{glob}"]\n')
            for argv in (["search", "backup"], ["index"], ["get", "MEMORY.md"]):
                result = cli(*argv)
                one_line_exit_2(result)
                assert f"collections.main.{key}" in result.err


def test_bad_globs_on_create_are_refused(cli, workspace):
    one_line_exit_2(cli("collection", "create", "main", str(workspace), "--pattern", "[z-a]"))
    one_line_exit_2(cli("collection", "create", "main", str(workspace), "--exclude", "[!b-a]"))
    assert "main" not in cli("collection", "list").out


def _config_file() -> str:
    import os

    path = os.environ["QMEM_CONFIG"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def test_arguments_that_are_not_utf8_are_one_line_exit_2(indexed):
    for argv in (["search", "\udcff"], ["get", "MEMORY\udcff.md"], ["collection", "show", "x\udcff"]):
        child = subprocess.run([PYTHON, "-m", "qmem", *argv], capture_output=True, env=subprocess_env(), timeout=60)
        assert child.returncode == 2, child
        assert child.stderr.count(b"\n") == 1 and b"not valid UTF-8" in child.stderr, child.stderr


def test_a_rust_panic_is_one_line_not_a_traceback(indexed, capsys):
    """pyo3's PanicException is a BaseException: the faces' last line of defence catches it."""
    import tantivy

    from qmem.base import config
    from qmem.backends.tantivy.searcher import open_reader
    from qmem.faces import guarded

    idx = open_reader(config.load().data_dir)

    def panic() -> None:
        idx.searcher().search(tantivy.Query.all_query(), 18446744073709551615)

    assert guarded(panic) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("qmem: internal error: engine panic"), err


def test_qmd_face_refuses_huge_counts_in_one_line(indexed):
    child = subprocess.run([PYTHON, "-c", "from qmem.faces.qmd import main; main()", "search", "backup", "-n",
                            "18446744073709551615"], capture_output=True, text=True, env=subprocess_env(), timeout=60)
    assert child.returncode == 2, child
    assert child.stderr.count("\n") == 1 and child.stderr.startswith("qmem-qmd: "), child.stderr


# -- finding 13: every error one line; a query may start with '-' --------------------------------

def test_click_usage_errors_are_one_line_exit_2(cli, indexed):
    for argv in (["search", "x", "--bogus"], ["search", "x", "-n", "abc"], ["nosuchcommand"], ["index", "--wait", "x"],
                 ["collection", "create"], ["get"], ["vsearch", "x", "--jsn"], ["--config"]):
        result = cli(*argv)
        one_line_exit_2(result)
    assert "see: qmem search -h" in cli("search", "x", "--bogus").err


def test_help_still_prints(cli):
    assert cli("search", "-h").out.startswith("Usage: qmem search")
    assert "Commands:" in cli().err + cli().out  # `qmem` alone: the help
    for group, commands in (("collection", "create, add"), ("state", "show, set, append, clear"), ("tree", "migrate")):
        result = cli(group)  # a group alone: one line naming what it takes
        one_line_exit_2(result)
        assert f"qmem: {group}: missing command ({commands}" in result.err and f"see: qmem {group} -h" in result.err


@pytest.mark.parametrize("argv", [["search", "-backup cron"], ["search", "-backup", "cron"], ["search", "cron", "-backup"],
                                  ["search", "-backup", "cron", "-n", "3", "--json"], ["search", "--json", "--", "-backup", "cron"]])
def test_a_query_word_may_start_with_a_dash(cli, indexed, argv):
    """`-word` is the documented exclusion; it is the query, not an unknown option (fast path and Typer)."""
    result = cli(*argv)
    assert result.code == 0, result
    assert "backup" not in result.out.lower()


def test_dash_words_reach_typer_as_the_query(cli, indexed):
    """A command line the fast path leaves to Typer (here: a bad value) reads dash words the same way."""
    from qmem.faces.cli.fast import query_argv

    assert query_argv(["search", "-backup", "cron", "-n", "3"]) == ["search", "-n", "3", "--", "-backup", "cron"]
    assert query_argv(["--config", "c.toml", "query", "-x", "y"]) == ["--config", "c.toml", "query", "--", "-x", "y"]
    assert query_argv(["search", "-n5", "x"]) == ["search", "-n5", "x"]
    assert query_argv(["get", "-x"]) == ["get", "-x"]
    result = cli("search", "-backup", "cron", "--since", "nope")
    one_line_exit_2(result)
    assert "bad date" in result.err
    assert cli("vsearch", "-backup", "cron", "-n", "0").err.count("\n") == 1


def test_ctrl_c_on_watch_exits_cleanly(indexed):
    import signal
    import time

    proc = subprocess.Popen([PYTHON, "-m", "qmem", "index", "--watch"], env=subprocess_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr.readline().startswith("qmem: watching")
        time.sleep(1.0)  # past the first refresh, into the watch loop
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode in (0, 130), err
    assert err.count("\n") <= 1 and "KeyboardInterrupt" not in err and "Traceback" not in err, err


# -- finding 6: get (and snippets) never read through a folder swapped for a link -----------------

# The real folder stays in place a moment each round (the sleep): without it the real state lasted
# one syscall a round, and on a loaded machine no search in 400 read the file while it was there,
# so the test could not tell a refusal of everything from a correct answer.
SWAPPER = """
import os, sys, time
root, outside = sys.argv[1], sys.argv[2]
mem, parked = os.path.join(root, "memory"), os.path.join(root, "memory.real")
while not os.path.exists(os.path.join(root, "stop")):
    os.rename(mem, parked)
    os.symlink(outside, mem)
    os.unlink(mem)
    os.rename(parked, mem)
    time.sleep(0.0002)
"""


def test_get_never_leaks_through_a_symlink_swap_race(tmp_path):
    from qmem.engine import catalog, retrieve, search
    from qmem.base import config
    from qmem.base.errors import QmemError

    ws, outside = tmp_path / "race", tmp_path / "outside"
    (ws / "memory").mkdir(parents=True)
    outside.mkdir()
    (ws / "MEMORY.md").write_text("# M\ninside\n", encoding="utf-8")
    (ws / "memory" / "notes.md").write_text("# Notes\nharmless inside text\n", encoding="utf-8")
    (outside / "notes.md").write_text("# Notes\nSECRET outside text\n", encoding="utf-8")
    cfg = config.load()
    catalog.create(cfg, "race", str(ws))
    swapper = subprocess.Popen([PYTHON, "-c", SWAPPER, str(ws), str(outside)])
    leaks = answered = shown = 0
    try:
        for _ in range(1000):
            try:
                text = retrieve.get(cfg, "memory/notes.md").text
            except QmemError:
                continue  # refused or not found mid-swap: fine
            answered += 1
            leaks += "SECRET" in text
        for attempt in range(400):  # at least 30 searches, more until one ran with the real folder
            if attempt >= 30 and shown:
                break
            for hit in search.search(cfg, "notes text", search.SearchOptions(limit=5)):
                leaks += "SECRET" in hit.snippet.text + hit.body
                shown += "harmless" in hit.snippet.text
    finally:
        (ws / "stop").write_text("")
        swapper.wait(30)
    assert leaks == 0
    assert answered > 0 and shown > 0  # the race ran with the real folder in place part of the time


def test_read_inside_refuses_what_resolves_outside(tmp_path):
    from qmem.base.errors import UnsafePathError
    from qmem.base.fsutil import read_inside

    root, outside = tmp_path / "root", tmp_path / "out"
    root.mkdir()
    outside.mkdir()
    (outside / "s.md").write_text("secret")
    (root / "ok.md").write_text("fine")
    (root / "link").symlink_to(outside)
    assert read_inside(str(root), str(root / "ok.md")) == b"fine"
    with pytest.raises(UnsafePathError):
        read_inside(str(root), str(root / "link" / "s.md"))
    with pytest.raises(OSError):
        read_inside(str(root), str(root))  # a folder is not a file
    os.mkfifo(root / "fifo.md")
    with pytest.raises(OSError):
        read_inside(str(root), str(root / "fifo.md"))  # never blocks on a FIFO


# -- finding 11: no format lists a file deleted since the last refresh ----------------------------

def test_deleted_files_are_in_no_format(cli, indexed):
    from qmem.base import config
    from qmem.engine import search

    before = cli("search", "USDC", "--files", "-n", "50").out
    assert "knowledge.md" in before
    os.unlink(indexed / "memory" / "knowledge.md")
    import json

    assert "knowledge.md" not in cli("search", "USDC", "--files", "-n", "50").out
    assert all(h["path"] != "memory/knowledge.md" for h in json.loads(cli("search", "USDC", "--json", "-n", "50").out))
    openclaw = json.loads(cli("search", "USDC", "--format", "openclaw", "-n", "50").out)["results"]
    assert openclaw and all(not r["path"].endswith("knowledge.md") for r in openclaw)
    assert "memory/knowledge.md:" not in cli("search", "USDC", "-n", "50").out
    bare = search.search(config.load(), "USDC", search.SearchOptions(limit=50, snippet_lines=0))
    assert bare and all(hit.path != "memory/knowledge.md" for hit in bare)


# -- finding 12: the vector commands on a plain install ------------------------------------------

NO_NUMPY = """
import sys
sys.modules["numpy"] = None  # `import numpy` raises ImportError, as on a plain install
from qmem.__main__ import main
for argv in sys.argv[1:]:
    try:
        main(argv.split("|"))
    except SystemExit as exc:
        sys.stderr.write(f"EXIT {exc.code}\\n")
"""


def test_vector_commands_without_numpy_name_the_extra(indexed):
    commands = ["vsearch|backup", "query|backup", "embed", "search|backup|--hybrid", "eval|fixture.jsonl|--mode|vector"]
    (indexed / "fixture.jsonl").write_text('{"query": "backup", "expected": ["MEMORY.md"]}\n', encoding="utf-8")
    child = subprocess.run([PYTHON, "-c", NO_NUMPY, *commands], capture_output=True, text=True, env=subprocess_env(),
                           cwd=indexed, timeout=120)
    codes = [line.split()[1] for line in child.stderr.splitlines() if line.startswith("EXIT ")]
    lines = [line for line in child.stderr.splitlines() if not line.startswith("EXIT ")]
    # the searches answer with BM25 and one warning (one mode policy for every face); embed and eval refuse
    assert codes == ["0", "0", "2", "0", "2"], child
    assert len(lines) == len(commands) and all(install_hint("vector") in line for line in lines), child.stderr
    assert sum("answered with BM25" in line for line in lines) == 3 and child.stdout.count("MEMORY.md") >= 3
    assert "Traceback" not in child.stderr and "ModuleNotFoundError" not in child.stderr
    plain = subprocess.run([PYTHON, "-c", NO_NUMPY, "search|backup|--files", "status"], capture_output=True, text=True,
                           env=subprocess_env(), cwd=indexed, timeout=120)
    assert plain.stderr.split() == ["EXIT", "0", "EXIT", "0"], plain  # BM25 works as ever


# -- finding 14: no silent no-ops ----------------------------------------------------------------

def test_a_config_named_but_missing_is_an_error_except_to_create_it(cli, workspace, tmp_path):
    missing = str(tmp_path / "nope" / "typo.toml")
    for argv in (["search", "x"], ["get", "MEMORY.md"], ["status"], ["index"], ["collection", "list"],
                 ["boot", str(workspace)]):
        result = cli("--config", missing, *argv)
        one_line_exit_2(result)
        assert "no such file" in result.err and missing in result.err, argv
    created = cli("--config", missing, "collection", "create", "main", str(workspace))
    assert created.code == 0, created
    assert cli("--config", missing, "search", "USDC", "--files").out.strip()


def test_searching_a_collection_never_indexed_says_so(cli, indexed, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "MEMORY.md").write_text("# O\nzebra notes\n", encoding="utf-8")
    assert cli("collection", "create", "other", str(other), "--no-index").code == 0
    for argv in (["search", "zebra", "-c", "other"], ["search", "zebra", "--json"]):
        result = cli(*argv)
        assert result.code == 0
        assert "collection other was never indexed" in result.err and "qmem index other" in result.err, result
    assert "never indexed" not in cli("search", "zebra", "-c", "main").err
    assert cli("index", "other").code == 0
    found = cli("search", "zebra", "-c", "other", "--files")
    assert "never indexed" not in found.err and found.out.strip()


def test_index_without_collections_says_so(cli):
    for argv in (["index"], ["index", "-q"], ["update"], ["index", "--watch"]):
        result = cli(*argv)
        one_line_exit_2(result)
        assert "no collections to index" in result.err


def test_a_workspace_that_does_not_exist_is_refused(cli, workspace, tmp_path, monkeypatch):
    typo = tmp_path / "wrkspace"
    for argv in (["remember", "a fact", "-w", str(typo)], ["state", "set", "x", "-w", str(typo)],
                 ["boot", str(typo)]):
        result = cli(*argv)
        one_line_exit_2(result)
        assert "is not a folder" in result.err, argv
    monkeypatch.setenv("QMEM_WORKSPACE", str(typo))
    one_line_exit_2(cli("remember", "a fact"))
    assert not typo.exists()
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    assert cli("remember", "a fact").code == 0


# -- finding 8: overlapping collections (the README's `main` + `all` on one root) -----------------

def test_overlapping_collections_give_one_hit_per_section_and_get_resolves(cli, workspace, tmp_path, capsys):
    import json

    assert cli("collection", "create", "main", str(workspace)).code == 0
    assert cli("collection", "create", "all", str(workspace), "--pattern", "**/*.md").code == 0
    for query in ("USDC", "backup cron", "私钥"):
        hits = json.loads(cli("search", query, "--json", "-n", "50").out)
        places = [(h["abs_path"], h["line_start"]) for h in hits]
        assert hits and len(places) == len(set(places)), query
        assert len(json.loads(cli("search", query, "--json", "-n", "2").out)) == min(2, len(hits))
    assert cli("embed", "--model", "fake").code == 0
    for command in ("vsearch", "query"):
        hits = json.loads(cli(command, "USDC decimals", "--json", "-n", "50").out)
        places = [(h["abs_path"], h["line_start"]) for h in hits]
        assert hits and len(places) == len(set(places)), command
    got = cli("get", "MEMORY.md#security")
    assert got.code == 0 and "## Security" in got.out, got
    assert cli("get", "memory/knowledge.md:1:2").code == 0

    other = tmp_path / "other"  # a different file at the same relative path still needs -c
    other.mkdir()
    (other / "MEMORY.md").write_text("# Other\n## Security\nelsewhere\n", encoding="utf-8")
    assert cli("collection", "create", "other", str(other)).code == 0
    ambiguous = cli("get", "MEMORY.md#security")
    one_line_exit_2(ambiguous)
    assert "pick one with -c" in ambiguous.err
    assert "elsewhere" in cli("get", "MEMORY.md#security", "-c", "other").out

    from qmem.faces.mcp import Memory

    memory = Memory()
    assert "elsewhere" in memory.memory_get("MEMORY.md#security", collection="other")["text"]
    assert "elsewhere" not in memory.memory_get("MEMORY.md#security", collection="main")["text"]

    from qmem.faces.qmd import run as qmd

    capsys.readouterr()
    assert qmd(["get", "qmd://other/MEMORY.md:2"]) == 0
    assert capsys.readouterr().out.startswith("## Security\nelsewhere")
    assert qmd(["get", "MEMORY.md:3", "-c", "other"]) == 0
    assert capsys.readouterr().out.startswith("elsewhere")
    from qmem.base.errors import QmemError

    with pytest.raises(QmemError, match="pick one with -c"):
        qmd(["get", "MEMORY.md"])


def test_qmd_usage_errors_are_one_line_exit_2(monkeypatch, capsys):
    from qmem.faces import qmd

    for argv in (["frobnicate"], ["get"], ["search", "x", "-n", "abc"], ["collection", "add"]):
        monkeypatch.setattr("sys.argv", ["qmem-qmd", *argv])
        with pytest.raises(SystemExit) as exit_info:
            qmd.main()
        err = capsys.readouterr().err
        assert exit_info.value.code == 2 and err.count("\n") == 1 and err.startswith("qmem-qmd: "), (argv, err)
        assert "(see: qmem-qmd" in err
