"""The file's own world (`file_prior`): a section its first verdict left weak, or decided only by
broad words, joins the domain most of the file's other sections hold, when it has evidence for
it. Invented files (a compiler's memory, a family's), never copied from real ones."""

from __future__ import annotations

from qmem.memory.tree import shape

COMPILER = """# Memory of the Quill compiler

## Architecture
The parser feeds a typed IR; the build runs in a monorepo with tests per crate.

## Git Workflow
Rebase before merging; commit messages say why. The repo has one main branch.

## Code Conventions
Modules are small, every public function has a docstring, tests sit next to the code.

## Test Suite
Unit tests run in CI; the build fails on a warning. Integration tests cover the parser.

## Repository Layout
src/ holds the compiler, tests/ the fixtures, docs/ the handbook for the build.
"""

FAMILY = """
## Family
Mum lives in Porto; her birthday is in May and she calls on Sundays.

## My brother
My brother Tiago has two kids; his wife is a nurse.

## Friends
Ana and Rui from school; we meet for dinner every month.

## My sister
My sister lives abroad with her husband.
"""


def parts(text: str) -> dict[str, shape.Part]:
    return {p.title: p for p in shape.plan(text, {}).parts}


def test_a_weak_section_joins_the_domain_most_of_the_file_holds() -> None:
    # alone, "Lantern" is a tie (printer: infrastructure, refactor: codebase); the file is about code
    found = parts(COMPILER + "\n## Lantern\nThe pretty printer keeps comments after a refactor.\n")["Lantern"]
    assert found.domain == "codebase"
    assert found.verdict is not None and found.verdict.confident
    assert "mostly codebase (5 of 5)" in found.verdict.cues[0]
    assert any("on its own no domain was clear" in c for c in found.verdict.cues)


def test_a_weak_section_with_no_evidence_for_it_keeps_its_own_name() -> None:
    found = parts(COMPILER + "\n## Heron\nHeron is the name of the parrot who sits on the desk.\n")["Heron"]
    assert found.domain == "heron"


def test_a_small_file_has_no_majority() -> None:
    small = COMPILER.split("## Test Suite")[0]  # two sections filed with confidence
    found = parts(small + "\n## Lantern\nThe pretty printer keeps comments after a refactor.\n")["Lantern"]
    assert found.domain == "lantern"


def test_a_file_split_between_two_worlds_has_no_majority() -> None:
    # four sections about code, four about family: neither holds more than the other
    split = COMPILER.split("## Test Suite")[0] + "\n## Repository Layout\nsrc/ holds the compiler, tests/ the build.\n"
    found = parts(split + FAMILY + "\n## Lantern\nThe pretty printer keeps comments after a refactor.\n")["Lantern"]
    assert found.domain == "lantern"


def test_broad_heading_words_give_way_to_the_file_s_world() -> None:
    # "Tooling setup": tools and setup are broad words for infrastructure; the body names the build too
    text = COMPILER + ("\n## Tooling setup\nInstall the formatter, then the build cache; the tests need the nightly "
                       "toolchain and the repo hooks.\n")
    found = parts(text)["Tooling setup"]
    assert found.domain == "codebase"
    assert found.verdict is not None
    assert found.verdict.cues[0].startswith("infrastructure rests on broad words or the body alone")
    assert "mostly codebase (5 of 5)" in found.verdict.cues[0]


def test_a_full_heading_cue_is_not_overruled_by_the_file() -> None:
    text = COMPILER + "\n## Deployment\nThe build is shipped to the server by the repo's release job.\n"
    assert parts(text)["Deployment"].domain == "infrastructure"


def test_secrets_and_rules_stay_where_they_are() -> None:
    text = COMPILER + ("\n## Build notes\nThe build cache token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n"
                       "\n## Rules\n- Always run the tests before a commit.\n- Never push to main.\n")
    found = parts(text)
    assert found["Build notes"].domain == "accounts"
    assert found["Rules"].pinned
