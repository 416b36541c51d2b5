"""The bonsai tree: invariants on hand-written and generated MEMORY.md files."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qmem.text.analysis import estimate_tokens
from qmem.base.errors import BadInputError
from qmem.memory.tree import grow as tree
from qmem.memory.tree.domains import DEFAULT_DOMAINS, classify, load_table

from ...conftest import PYTHON, ROOT, subprocess_env

FLAT = ROOT / "examples" / "flat-memory"
DAY = "2026-03-01"


def snapshot(folder) -> dict[str, bytes]:
    out = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(dirpath, name)
            out[os.path.relpath(path, folder)] = open(path, "rb").read()
    return out


def make_ws(tmp_path, text: str, name: str = "ws"):
    root = tmp_path / name
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_bytes(text.encode("utf-8"))
    (root / "memory" / "2026-02-28.md").write_text("# 2026-02-28\n- [E] a daily log entry\n", encoding="utf-8")
    return tree.Workspace(str(root))


def check_invariants(ws: tree.Workspace, original: str, budget: int = tree.DEFAULT_ROOT_BUDGET) -> None:
    preamble, parts = tree.split(original)
    assert preamble + "".join(p.text for p in parts) == original  # the split loses nothing
    root = open(ws.memory_md, encoding="utf-8", newline="").read()
    leaves = {}
    for dirpath, _, files in os.walk(ws.domains):
        for name in files:
            if name.endswith(".md") and name != tree.INDEX_NAME:
                leaves[os.path.join(dirpath, name)] = open(os.path.join(dirpath, name), encoding="utf-8", newline="").read()
    kept = tree.reassemble(ws).decode("utf-8")  # the root's own text and the leaves, in the original's order
    for part in parts:  # a section over the leaf budget is a folder of leaves, consecutive in the order
        assert part.text in root or part.text in leaves.values() or part.text in kept, part.title
    for path in leaves:  # three reads: the domain's own index lists every leaf below it
        domain = os.path.relpath(path, ws.domains).split(os.sep)[0]
        index = open(os.path.join(ws.domains, domain, tree.INDEX_NAME), encoding="utf-8").read()
        assert f"- `{os.path.basename(path)}` (" in index
    for dirpath, _, files in os.walk(ws.domains):
        depth = os.path.relpath(dirpath, ws.domains).count(os.sep)
        assert tree.INDEX_NAME not in files or depth == 0, dirpath  # no index below a domain's
    for branch in tree.scan_branches(ws):
        assert f"- **{branch.name}**" in root
    manifest = tree.load_manifest(ws)
    assert manifest and manifest["root_digest"] == tree.digest(root.encode("utf-8"))
    assert tree.reassemble(ws) == original.encode("utf-8")  # root + leaves give back every byte, in order
    if tree.root_index(tree.pinned_core(tree.plan(original, {})), [], budget)[1]:
        assert estimate_tokens(root) <= budget


def test_hand_written_memory_migrates_and_rolls_back_byte_identical(tmp_path):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    daily = (tmp_path / "ws" / "memory" / "2026-02-28.md").read_bytes()
    result = tree.migrate(ws, day=DAY)
    assert result.changed and result.backup == "MEMORY.md.bak"
    assert result.tokens_before == estimate_tokens(original) and result.tokens_after <= 400
    assert result.reduction > 0.6
    check_invariants(ws, original)
    root = open(ws.memory_md, encoding="utf-8").read()
    assert root.startswith("# MEMORY.md — long-term memory of Lin's assistant\n")
    # the pinned rules do not fit a root this small (~1,100 tokens: a 120-token root): filed as a leaf, named
    assert "## [pin] Core rules" in root or "`memory/domains/rules/core-rules.md`" in root
    assert any("Core rules" in w for w in result.warnings) or "## [pin] Core rules" in root
    assert set(result.domains) >= {"identity", "business", "infrastructure", "security", "dates", "legal"}
    assert (tmp_path / "ws" / "memory" / "2026-02-28.md").read_bytes() == daily  # daily logs never move
    assert (tmp_path / "ws" / "MEMORY.md.bak").read_text(encoding="utf-8") == original
    back = tree.rollback(ws)
    assert back.changed
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original
    assert not os.path.exists(ws.domains)


def test_classification_examples():
    table = load_table({})
    assert classify("Infrastructure", "", table) == "infrastructure"
    assert classify("服务器配置", "", table) == "infrastructure"
    assert classify("家庭与偏好", "", table) == "identity"
    assert classify("Key dates", "", table) == "dates"  # a tie (key vs dates) goes to the earlier domain
    assert classify("Misc", "the nightly cron job on the server", table) == "infrastructure"  # the body
    assert classify("Misc", "nothing known here", table) == "misc"  # no evidence: named after its own heading
    assert classify("[infra] Backup plan", "", table) == "infrastructure"
    assert classify("Backup plan <!-- domain: pets -->", "", table) == "pets"
    assert classify("[sec] Password reset", "", table) == "security"
    custom = load_table({"domains": {"pets": ["dog", "猫"]}})
    assert classify("Our dog", "", custom) == "pets" and list(custom)[:len(DEFAULT_DOMAINS)] == list(DEFAULT_DOMAINS)
    assert list(load_table({"domains": {"pets": ["dog"]}, "domains_mode": "replace"})) == ["pets"]


def test_slugs_collisions_and_empty_titles(tmp_path):
    text = "# M\n## Notes\na\n## Notes\nb\n## 🚀🚀\nc\n## " + "Very long title " * 10 + "\nd\n"
    the_plan = tree.plan(text, {})
    slugs = [p.slug for p in the_plan.parts]
    assert slugs[:2] == ["notes", "notes-2"]
    assert slugs[2] == "section-3"
    assert len(slugs[3]) <= 60 and not slugs[3].endswith("-")
    assert tree.leaf_slug("[S] Windows PS5 编码地狱") == "windows-ps5-编码地狱"


def test_edge_case_files(tmp_path):
    cases = {
        "no-headings": "Just some facts about the user.\n" * 40,
        "h1-only": "# Memory\n" + "- [K] fact about deploy servers\n" * 40,
        "fenced": "# M\n\n## Infra\n```\n## not a heading\n```\nmore\n## Security\n- key rotation\n",
        "duplicates": "# M\n## Notes\n- a\n## Notes\n- b\n## Notes\n- c\n",
        "chinese": "# 记忆\n\n## 家庭\n- 女儿生日五月\n## 服务器\n- 生产库\n## 安全\n- 私钥不要发\n",
        "crlf": "# M\r\n\r\n## Infra\r\n- cron job\r\n## Legal\r\n- contract\r\n",
        "no-trailing-newline": "# M\n## Infra\n- cron",
    }
    for name, text in cases.items():
        ws = make_ws(tmp_path, text, name)
        tree.migrate(ws, force=True, day=DAY)
        check_invariants(ws, text)
        tree.rollback(ws)
        assert open(ws.memory_md, "rb").read() == text.encode("utf-8"), name


def test_90kb_file_fits_the_root_budget(tmp_path):
    rng = random.Random(3)
    words = ["deploy", "server", "client", "family", "password", "contract", "meetup", "agent", "birthday", "misc"]
    parts = ["# Memory\n\nIntro line.\n"]
    while sum(map(len, parts)) < 90_000:
        title = f"{rng.choice(words).title()} {rng.randrange(10**4)}"
        parts.append(f"\n## {title}\n" + "".join(f"- [K] {' '.join(rng.choices(words, k=12))}\n" for _ in range(8)))
    text = "".join(parts)
    ws = make_ws(tmp_path, text)
    result = tree.migrate(ws, day=DAY)
    assert result.root_fits and result.tokens_after <= 400
    check_invariants(ws, text)
    assert result.tokens_before > 20 * result.tokens_after


def test_migrate_is_deterministic(tmp_path):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    a, b = make_ws(tmp_path, original, "a"), make_ws(tmp_path, original, "b")
    tree.migrate(a, day=DAY)
    tree.migrate(b, day=DAY)
    snap_a, snap_b = snapshot(a.root), snapshot(b.root)
    manifest_a = json.loads(snap_a.pop(os.path.join("memory", "domains", tree.MANIFEST)))
    manifest_b = json.loads(snap_b.pop(os.path.join("memory", "domains", tree.MANIFEST)))
    manifest_a.pop("migrated_at"), manifest_b.pop("migrated_at")
    assert snap_a == snap_b and manifest_a == manifest_b


def test_small_files_refused_unless_forced_and_second_migrate_is_a_noop(tmp_path):
    ws = make_ws(tmp_path, "# M\n## Infra\n- cron\n")
    with pytest.raises(tree.TreeError, match="--min-tokens"):
        tree.migrate(ws)
    assert tree.migrate(ws, force=True, day=DAY).changed
    again = tree.migrate(ws, force=True, day=DAY)
    assert not again.changed and "already migrated" in again.message
    with pytest.raises(BadInputError, match="no MEMORY.md"):
        tree.migrate(tree.Workspace(str(tmp_path / "nowhere")))


def test_dry_run_writes_nothing(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    before = snapshot(ws.root)
    result = tree.migrate(ws, dry_run=True, day=DAY)
    assert result.dry_run and "memory/domains/security/security.md" in result.written
    assert snapshot(ws.root) == before


def test_backups_are_numbered_never_overwritten(tmp_path):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    (tmp_path / "ws" / "MEMORY.md.bak").write_text("someone else's backup", encoding="utf-8")
    assert tree.migrate(ws, day=DAY).backup == "MEMORY.md.bak.2"
    assert (tmp_path / "ws" / "MEMORY.md.bak").read_text(encoding="utf-8") == "someone else's backup"


def test_reindex_picks_up_hand_edits_and_nested_subdomains(tmp_path):
    ws = make_ws(tmp_path, (FLAT / "MEMORY.md").read_text(encoding="utf-8"))
    tree.migrate(ws, day=DAY)
    infra = os.path.join(ws.domains, "infrastructure")
    os.makedirs(os.path.join(infra, "cloud"))
    with open(os.path.join(infra, "cloud", "hetzner.md"), "w", encoding="utf-8") as handle:
        handle.write("## Hetzner\n- [K] three servers in Falkenstein\n")
    os.rename(os.path.join(ws.domains, "legal", "legal.md"), os.path.join(ws.domains, "business", "legal.md"))
    result = tree.reindex(ws, day=DAY)
    assert "memory/domains/infrastructure/_index.md" in result.written  # three reads: no cloud/_index.md
    assert not os.path.exists(os.path.join(infra, "cloud", tree.INDEX_NAME))
    assert "memory/domains/legal/_index.md" in result.removed  # nothing stale is left
    parent = open(os.path.join(infra, tree.INDEX_NAME), encoding="utf-8").read()
    assert "## cloud/ (" in parent and "- `hetzner.md` (" in parent and "three servers in Falkenstein" in parent
    root = open(ws.memory_md, encoding="utf-8").read()
    assert "- **legal**" not in root and ("## [pin] Core rules" in root or "memory/domains/rules/core-rules.md" in root)
    assert not tree.reindex(ws, day=DAY).changed  # idempotent
    with pytest.raises(tree.TreeError, match="hetzner.md \\(added\\)"):
        tree.rollback(ws)  # a file migrate did not write: refused without --force
    back = tree.rollback(ws, force=True)
    rescued = os.path.join(ws.root, back.rescue, "domains", "infrastructure", "cloud", "hetzner.md")
    assert "three servers in Falkenstein" in open(rescued, encoding="utf-8").read()  # not ours: kept, named
    assert os.path.exists(os.path.join(ws.root, back.rescue, "domains", "business", "legal.md"))
    assert not os.path.exists(ws.domains)  # nothing stranded: the next migrate can run
    assert tree.migrate(ws, day=DAY).changed


def test_rollback_refuses_edited_leaves_unless_forced_and_rescues_them(tmp_path):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    tree.migrate(ws, day=DAY)
    leaf = os.path.join(ws.domains, "security", "security.md")
    with open(leaf, "a", encoding="utf-8") as handle:
        handle.write("- [!] edited after migrate\n")
    with pytest.raises(tree.TreeError, match="edited since migrate"):
        tree.rollback(ws)
    result = tree.rollback(ws, force=True)
    assert result.rescue.startswith("memory/rescue-")
    rescued = tmp_path / "ws" / result.rescue / "domains" / "security" / "security.md"
    assert "edited after migrate" in rescued.read_text(encoding="utf-8")
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original


@pytest.mark.parametrize("step", ["stage", "switch_half", "backup_original"])
def test_crash_during_migrate_leaves_old_or_new_state(tmp_path, monkeypatch, step):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)

    class Crash(Exception):
        pass

    if step == "switch_half":  # dies after the tree moved in, before MEMORY.md is replaced
        def half(ws_):
            os.rename(os.path.join(tree.staging_path(ws_), "domains"), ws_.domains)
            raise Crash()
        monkeypatch.setattr(tree, "switch", half)
    else:
        def boom(*args, **kwargs):
            raise Crash()
        monkeypatch.setattr(tree, step, boom)
    with pytest.raises(Crash):
        tree.migrate(ws, day=DAY)
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original  # still the old state
    monkeypatch.undo()
    assert tree.migrate(ws, day=DAY).changed  # the next run cleans up and completes
    check_invariants(ws, original)
    tree.rollback(ws)
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original


KILL = """
import os, signal, sys
from qmem.memory.tree import grow as tree
real = tree.switch
def die(ws):
    os.rename(os.path.join(tree.staging_path(ws), "domains"), ws.domains)
    os.kill(os.getpid(), signal.SIGKILL)
tree.switch = die
tree.migrate(tree.Workspace(sys.argv[1]))
"""


def test_kill_9_mid_switch_then_recover(tmp_path):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    proc = subprocess.run([PYTHON, "-c", KILL, ws.root], env=subprocess_env())
    assert proc.returncode == -signal.SIGKILL
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original
    stats = tree.stats(ws)  # the half-switched tree is ours and unchanged: cleaned up
    assert "not migrated" in stats.message and not os.path.exists(ws.domains)
    assert tree.migrate(ws, day=DAY).changed
    check_invariants(ws, original)


headings = st.sampled_from(["Infra", "Security", "家庭", "Notes", "Notes", "Clients", "[pin] Rules", "[P0] Keys",
                            "Misc", "生日", "API quirks", "🚀", "Legal stuff"])
lines = st.one_of(st.sampled_from(["- [K] fact", "```", "## inside fence?", "", "text 中文", "---"]), st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
    max_size=30))
memory_files = st.builds(
    lambda pre, sections: pre + "".join(f"## {h}\n" + "".join(f"{line}\n" for line in body) for h, body in sections),
    st.sampled_from(["", "# Memory\n\nintro\n\n"]),
    st.lists(st.tuples(headings, st.lists(lines, max_size=6)), min_size=1, max_size=8),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=memory_files)
def test_generated_files_keep_every_byte(tmp_path, text):
    folder = tmp_path / f"gen-{abs(hash(text))}"
    if folder.exists():
        shutil.rmtree(folder)
    ws = make_ws(folder, text)
    try:
        tree.migrate(ws, force=True, day=DAY)
    except tree.TreeError as exc:
        assert "no sections to move" in str(exc)
        return
    check_invariants(ws, text)
    tree.rollback(ws)
    assert open(ws.memory_md, "rb").read() == text.encode("utf-8")


def test_tree_cli_commands_and_flags(cli, tmp_path, monkeypatch):
    original = (FLAT / "MEMORY.md").read_text(encoding="utf-8")
    ws = make_ws(tmp_path, original)
    assert cli("collection", "create", "main", ws.root).code == 0
    monkeypatch.chdir(ws.root)
    dry = cli("tree", "migrate", "--dry-run")
    assert dry.code == 0 and "dry run: nothing written" in dry.out and "would write:" in dry.out
    small = cli("tree", "migrate", "--min-tokens", "5000")
    assert small.code == 2 and "--min-tokens 5000" in small.err
    data = json.loads(cli("tree", "migrate", ws.root, "--root-budget", "300", "--json").out)
    assert data["changed"] and data["tokens_after"] <= 300 and data["refreshed"] == ["main"]
    hits = json.loads(cli("search", "Hetzner servers", "--json").out)
    assert hits[0]["path"] == "memory/domains/infrastructure/infrastructure.md"  # the index saw the move
    assert "already migrated" in cli("tree", "migrate").out
    stats = json.loads(cli("tree", "stats", "--json").out)
    assert stats["tokens_before"] == estimate_tokens(original) and "security" in stats["domains"]
    assert "boot tokens:" in cli("tree", "stats").out
    assert cli("tree", "reindex", "--root-budget", "350").code == 0
    assert json.loads(cli("tree", "reindex", "--json").out)["action"] == "reindex"
    with open(os.path.join(ws.domains, "legal", "legal.md"), "a", encoding="utf-8") as handle:
        handle.write("- edited\n")
    refused = cli("tree", "rollback")
    assert refused.code == 2 and "edited since migrate" in refused.err
    forced = json.loads(cli("tree", "rollback", "--force", "--json").out)
    assert forced["rescue"].startswith("memory/rescue-")
    assert open(ws.memory_md, encoding="utf-8", newline="").read() == original
    assert cli("tree", "rollback").code == 2
    assert cli("tree", "stats", str(tmp_path / "missing")).code == 2
    for sub in ("migrate", "reindex", "rollback", "stats"):
        assert cli("tree", sub, "--help").code == 0
