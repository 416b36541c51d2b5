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


LANTERN = "\n## Lantern\nThe pretty printer keeps comments after a refactor.\n"


def test_a_weak_section_joins_the_domain_most_of_the_file_holds() -> None:
    # alone, "Lantern" is a tie (printer: infrastructure, refactor: codebase); the file is about code
    text = COMPILER + LANTERN + "\n## Heron\nHeron is the name of the parrot who sits on the desk.\n"
    found = parts(text)
    lantern = found["Lantern"]
    assert lantern.domain == "codebase"
    assert lantern.verdict is not None and lantern.verdict.confident
    assert "mostly codebase (5 of 5)" in lantern.verdict.cues[0]
    assert any("on its own no domain was clear" in c for c in lantern.verdict.cues)
    assert found["Heron"].domain == "heron"  # no evidence for the file's domain: it keeps its own name


def test_it_takes_a_majority_of_five_sections_or_more() -> None:
    assert parts(COMPILER + LANTERN)["Lantern"].domain == "codebase"
    small = COMPILER.split("## Test Suite")[0]  # two sections filed with confidence
    assert parts(small + LANTERN)["Lantern"].domain == "lantern"
    # four sections about code, four about family: neither holds more than the other
    split = small + "\n## Repository Layout\nsrc/ holds the compiler, tests/ the build.\n" + FAMILY
    assert parts(split + LANTERN)["Lantern"].domain == "lantern"


def test_broad_heading_words_give_way_to_the_file_s_world_full_cues_do_not() -> None:
    # "Tooling setup": tools and setup are broad words for infrastructure; the body names the build too
    text = COMPILER + ("\n## Tooling setup\nInstall the formatter, then the build cache; the tests need the nightly "
                       "toolchain and the repo hooks.\n"
                       "\n## Deployment\nThe build is shipped to the server by the repo's release job.\n")
    found = parts(text)
    tooling = found["Tooling setup"]
    assert tooling.domain == "codebase"
    assert tooling.verdict is not None
    assert tooling.verdict.cues[0].startswith("infrastructure rests on broad words or the body alone")
    assert "mostly codebase (5 of 6)" in tooling.verdict.cues[0]  # Deployment is the sixth
    assert found["Deployment"].domain == "infrastructure"  # a full heading cue is not overruled


def test_secrets_and_rules_stay_where_they_are() -> None:
    text = COMPILER + LANTERN + ("\n## Build notes\nThe build cache token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
                                 + "\n\n## Rules\n- Always run the tests before a commit.\n- Never push to main.\n")
    found = parts(text)
    assert found["Lantern"].domain == "codebase"
    assert found["Build notes"].domain == "accounts"
    assert found["Rules"].pinned
