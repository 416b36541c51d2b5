"""The proof of issue 11: seeded random walks over the memory writers.

Each walk starts from a small MEMORY.md and applies a short random sequence of what agents,
people and cron do — remember, flush, state set, edit the root, append a section to the
root, edit a leaf, add a leaf, migrate, reindex, distill, janitor, maintain, rollback with
and without --force — calling the library directly. After every step: every line anyone
wrote (and did not delete by hand) is still somewhere in the workspace (in place, moved,
archived or rescued), every file there is a regular file, and nothing outside changed.
"""

from __future__ import annotations

import os
import random
from datetime import date, timedelta

import pytest

from qmem.base.errors import QmemError
from qmem.memory import daily, distill, janitor, maintain, state
from qmem.memory.tree import grow as tree
from qmem.memory.workspace import Workspace

WALKS = 300
FAST_WALKS = 40  # the default run walks these seeds; CI's slow step walks the other 260
TODAY = date(2026, 3, 1)
TYPES = ["K", "E", "S", "!", "P", "B", None]
HEADINGS = ["Servers", "Family", "Clients", "[pin] Rules", "Security keys", "Notes", "API quirks", "生日",
            "[P2|expire:2026-01-01] Old project", "Tools"]


class StubConfig:
    """What maintain needs of a config: no collections to refresh."""

    extra: dict = {}
    file = ""
    collections: dict = {}

    def table(self, name: str) -> dict:
        return {}


class Walk:
    def __init__(self, root: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = 0
        self.ws = Workspace(os.path.join(root, "ws"))
        self.outside = os.path.join(root, "outside")
        os.makedirs(self.ws.memory_dir)
        os.makedirs(self.outside)
        with open(os.path.join(self.outside, "keep.md"), "w", encoding="utf-8") as handle:
            handle.write("- not the agent's\n")
        self.expected: set[str] = set()  # lines written and not deleted by hand
        self.state_lines: set[str] = set()
        sections = self.rng.sample(HEADINGS, self.rng.randint(2, 5))
        text = self.rng.choice(["", "# Agent Mia\n\nintro line mia\n\n"])
        for heading in sections:
            text += f"## {heading}\n" + "".join(f"{self.line()}\n" for _ in range(self.rng.randint(1, 3)))
        if self.rng.random() < 0.25:
            text = text.replace("\n", "\r\n")  # a file saved on Windows
        self.write(self.ws.memory_md, text)
        self.track(text)

    # -- helpers --------------------------------------------------------------------------
    def line(self, prefix: str = "- ") -> str:
        self.n += 1
        body = f"fact-{self.seed}-{self.n} " + self.rng.choice(["zebra", "server", "家庭 生日", "key\u2028rotated", "x"])
        if self.rng.random() < 0.25:
            body = f"[K] [P2|expire:{(TODAY - timedelta(days=self.rng.randint(1, 40))).isoformat()}] {body}"
        elif self.rng.random() < 0.3:
            body = f"[{self.rng.choice(['K', 'S', '!'])}] {body}"
        return prefix + body

    def track(self, text: str) -> None:
        for line in text.split("\n"):
            if "fact-" in line:
                self.expected.add(line.strip())

    @staticmethod
    def write(path: str, text: str, mode: str = "w") -> None:
        with open(path, mode, encoding="utf-8", newline="") as handle:
            handle.write(text)

    def leaves(self) -> list[str]:
        found = []
        for dirpath, _, files in os.walk(self.ws.domains):
            found.extend(os.path.join(dirpath, n) for n in sorted(files) if n.endswith(".md"))
        return found

    def insert_line(self, path: str) -> None:
        text = open(path, encoding="utf-8", newline="").read()
        lines = text.split("\n")
        at = self.rng.randint(0, len(lines))
        new = self.line(self.rng.choice(["- ", "", "## "]))
        lines.insert(at, new)
        self.write(path, "\n".join(lines))
        self.track(new)

    # -- the operations -------------------------------------------------------------------
    def op_remember(self) -> None:
        day = TODAY - timedelta(days=self.rng.randint(0, 3))
        expired = self.rng.random() < 0.3
        written = daily.remember(self.ws, self.line(""), type_=self.rng.choice(TYPES),
                                 expire=(TODAY - timedelta(days=5)).isoformat() if expired else None, day=day)
        self.expected.add(written.entry)

    def op_flush(self) -> None:
        notes = [self.line("- ") for _ in range(2)]
        report = daily.flush(self.ws, "\n".join(notes + ["{bad json"]) + "\n", day=TODAY)
        self.expected.update(report.kept)

    def op_state_set(self) -> None:
        text = self.line("")
        state.set_state(self.ws, text)
        self.state_lines = {text}

    def op_edit_root(self) -> None:
        self.insert_line(self.ws.memory_md)

    def op_append_root_section(self) -> None:
        section = f"\n## {self.rng.choice(HEADINGS)}\n{self.line()}\n{self.line()}\n"
        self.write(self.ws.memory_md, section, "a")
        self.track(section)

    def op_edit_leaf(self) -> None:
        leaves = self.leaves()
        if leaves:
            self.insert_line(self.rng.choice(leaves))

    def op_add_leaf(self) -> None:
        folder = os.path.join(self.ws.domains, self.rng.choice(["general", "security", "handmade"]))
        if not os.path.isdir(self.ws.domains):
            return  # a domains folder made by hand before migrate is covered by its own test
        os.makedirs(folder, exist_ok=True)
        text = f"## Added {self.n}\n{self.line()}\n"
        self.write(os.path.join(folder, f"added-{self.n}.md"), text)
        self.track(text)

    def op_migrate(self) -> None:
        tree.migrate(self.ws, force=True, min_tokens=0, day=TODAY.isoformat())

    def op_reindex(self) -> None:
        tree.reindex(self.ws, day=TODAY.isoformat())

    def op_distill(self) -> None:
        distill.distill(self.ws, days=3, today=TODAY)

    def op_janitor(self) -> None:
        janitor.janitor(self.ws, today=TODAY)

    def op_maintain(self) -> None:
        maintain.maintain(self.ws, StubConfig(), today=TODAY)

    def op_rollback(self) -> None:
        tree.rollback(self.ws)

    def op_rollback_force(self) -> None:
        tree.rollback(self.ws, force=True)

    # -- the invariant --------------------------------------------------------------------
    def generated_indexes(self) -> set[str]:
        manifest = tree.load_manifest(self.ws) if self.ws.has_tree else None
        return set((manifest or {}).get("index_digests", {}).values())

    def check(self, history: list[str]) -> None:
        everything = []
        generated = self.generated_indexes()
        for dirpath, dirnames, files in os.walk(self.ws.root):
            for name in dirnames + files:
                path = os.path.join(dirpath, name)
                assert not os.path.islink(path), (history, path)
            for name in files:
                path = os.path.join(dirpath, name)
                assert os.path.isfile(path), (history, path)
                text = open(path, encoding="utf-8", errors="replace", newline="").read()
                if name == "_index.md" and tree.digest(text.encode("utf-8")) in generated:
                    continue  # generated summaries repeat leaf lines: they prove nothing
                manifest = tree.load_manifest(self.ws) if path == self.ws.memory_md else None
                if manifest is not None:  # a tree root: only its own text counts, not the domain list
                    text = "".join(tree.cut_root(text, manifest))
                everything.append(text)
        text = "\n".join(everything)
        missing = [line for line in self.expected | self.state_lines if line not in text]
        assert not missing, (self.seed, history, missing)
        assert os.listdir(self.outside) == ["keep.md"], history
        assert open(os.path.join(self.outside, "keep.md"), encoding="utf-8").read() == "- not the agent's\n"
        assert sorted(os.listdir(os.path.dirname(self.ws.root))) == ["outside", "ws"], history


OPS = [name[3:] for name in vars(Walk) if name.startswith("op_")]
TREE_OPS = {"reindex", "rollback", "rollback_force", "edit_leaf", "add_leaf"}


def pick(walk: Walk) -> str:
    """Any step; without a tree, often migrate and rarely a step that needs one."""
    if not walk.ws.has_tree and walk.rng.random() < 0.35:
        return "migrate"
    ops = OPS if walk.ws.has_tree or walk.rng.random() < 0.2 else [op for op in OPS if op not in TREE_OPS]
    return walk.rng.choice(ops)


@pytest.mark.parametrize("seeds", [
    pytest.param(range(FAST_WALKS), id="first"),
    pytest.param(range(FAST_WALKS, WALKS), id="rest", marks=pytest.mark.slow),
])
def test_random_walks_never_lose_a_line(tmp_path, seeds: range):
    for seed in seeds:
        walk = Walk(str(tmp_path / f"w{seed}"), seed)
        history: list[str] = []
        for _ in range(walk.rng.randint(4, 8)):
            name = pick(walk)
            history.append(name)
            try:
                getattr(walk, f"op_{name}")()
            except QmemError as exc:  # a refusal (nothing to roll back, already migrated…) changes nothing
                history[-1] += f" (refused: {str(exc)[:60]})"
            walk.check(history)


@pytest.mark.parametrize("seed", [7])
def test_a_walk_that_migrates_edits_and_rolls_back(tmp_path, seed):
    """One fixed sequence through every kind of step, so a regression names its step."""
    walk = Walk(str(tmp_path / "fixed"), seed)
    history: list[str] = []
    for name in ["remember", "flush", "distill", "migrate", "append_root_section", "edit_root", "edit_leaf",
                 "add_leaf", "remember", "maintain", "rollback", "reindex", "janitor", "state_set",
                 "rollback_force", "migrate", "rollback_force"]:
        history.append(name)
        try:
            getattr(walk, f"op_{name}")()
        except QmemError as exc:
            history[-1] += f" (refused: {exc})"
        walk.check(history)
    assert "rollback (refused" in " ".join(history)  # the hand edits made plain rollback refuse
