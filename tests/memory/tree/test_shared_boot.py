"""The shared (group-chat) boot never leaks and keeps the rules (issue 27 finding 5, finding 10)."""

from __future__ import annotations

from datetime import date

import pytest

from qmem.memory import secrets, shared
from qmem.memory.boot import boot
from qmem.memory.tree import grow as tree

from .test_tree_invariants import make_ws

DAY = date(2026, 3, 1)
FILE = """# Memory of Lin's assistant

## Iron rules
- Never share passwords, API keys or account logins with anyone but Lin.
- Always answer in the language the question was asked in.

## Finances
- Rent is paid on the 1st; the landlord wants a bank transfer.
- Quarterly VAT return due 10 April.

### Personal debt (CONFIDENTIAL — owner-only)
- Lin owes her brother 12,000 EUR, repaid 500 a month.

### 私人借款（机密）
- 欠表哥三万元，每月还两千。

## Notes
- [P] Lin Wei, born 1990 in Chengdu.
- [K] The office printer is on the second floor.
- [K] The team lunch is on Thursdays.

## Projects
- Shop relaunch in May; the designer sends drafts on Fridays.
""" + "".join(f"\n## Project {n}\n" + "- [K] a note about the relaunch, sprint and milestones\n" * 30 for n in range(4))

LEAKS = ["12,000", "owes her brother", "三万元", "Lin Wei", "born 1990"]


def shared_text(ws) -> str:
    return "".join(part.text for part in boot(ws, scope="shared", today=DAY, budget=100000).parts)


def test_flat_memory_shared_boot_leaves_out_confidential_and_profile_keeps_rules(tmp_path):
    ws = make_ws(tmp_path, FILE)
    text = shared_text(ws)
    assert not any(leak in text for leak in LEAKS), text
    assert "Never share passwords" in text and "Always answer in the language" in text  # rules stay
    assert "Quarterly VAT return" in text and "office printer" in text  # public lines stay


def test_tree_root_shared_boot_keeps_the_pinned_rules(tmp_path):
    ws = make_ws(tmp_path, FILE)
    tree.migrate(ws, day="2026-03-01")
    root = open(ws.memory_md, encoding="utf-8").read()
    assert "Never share passwords" in root  # pinned
    text = shared_text(ws)
    assert "Never share passwords" in text and "Always answer" in text
    assert not any(leak in text for leak in LEAKS), text


def test_daily_logs_and_state_lose_profile_lines_and_secrets_in_shared_scope(tmp_path):
    ws = make_ws(tmp_path, FILE)
    with open(f"{ws.root}/memory/2026-03-01.md", "w", encoding="utf-8") as handle:
        handle.write("# 2026-03-01\n- [P] Lin's home address is 12 Rue Vieille, Lyon\n"
                     "- [E] shipped the relaunch banner\n- [K] wifi password: Tq8#vLm2!xR9\n"
                     "- **Private:** Lin is thinking of quitting\n  - told nobody yet\n")
    with open(ws.session_state, "w", encoding="utf-8") as handle:
        handle.write("# State\n- [P] Lin prefers to be called Wei\n- task: finish the banner\n")
    text = shared_text(ws)
    assert "Rue Vieille" not in text and "Tq8#vLm2" not in text and "quitting" not in text
    assert "told nobody" not in text and "called Wei" not in text
    assert "shipped the relaunch banner" in text and "finish the banner" in text
    main = "".join(p.text for p in boot(ws, scope="main", today=DAY, budget=100000).parts)
    assert "Rue Vieille" in main and "quitting" in main  # the owner's own boot keeps everything


@pytest.mark.parametrize("heading", [
    "### Personal debt (CONFIDENTIAL — owner-only)", "### 私人借款（机密）", "### 借金（社外秘）",
    "### 私人借貸（僅限本人）", "### Nợ cá nhân (bí mật)", "### Schulden (vertraulich)", "## [private] Health",
    "### Health — private", "## Private", "### [P] Family", "#### Do not share: salary talks",
])
def test_confidential_headings_in_every_language(heading):
    assert shared.confidential(heading.lstrip("# "))
    text = f"## Finances\n- rent on the 1st\n{heading}\n- hidden line\n## Next\n- shown line\n"
    kept, gone = shared.without_private(text)
    assert "hidden line" not in kept and "shown line" in kept and gone


@pytest.mark.parametrize("heading", ["Private key handling in CI", "Personal projects", "Secrets rotation policy",
                                     "Privacy policy of the shop", "私钥管理规范"])
def test_ordinary_headings_are_not_confidential(heading):
    assert not shared.confidential(heading)


def test_a_private_entry_takes_its_sub_items_along():
    kept, gone = shared.without_private("- [P] Lin, 36\n  - lives in Lyon\n- [K] printer on floor 2\n")
    assert kept == "- [K] printer on floor 2\n" and gone == ["2 private lines"]
    assert not secrets.find(shared.without_private("- key: sk-proj-4fG7hQ2mN8pR1sT6vX9zB3cD5eF0gH2j\n")[0])


def test_over_budget_advice_fits_what_is_big(tmp_path):
    """Finding 10: a tree whose pinned core is over the boot budget is not told to migrate."""
    rules = "## [pin] Rules\n" + "".join(f"- Always check rule number {n} before acting on anything.\n" for n in range(60))
    text = "# M\n\n" + rules + "".join(f"\n## Project {n}\n" + "- a note about sprint and milestones\n" * 30 for n in range(4))
    ws = make_ws(tmp_path, text)
    tree.migrate(ws, root_budget=2000, day="2026-03-01")
    notes = " ".join(boot(ws, today=DAY, budget=300).notes)
    assert "never cut" in notes and "tree migrate" not in notes and "pinned" in notes and "reindex" in notes
    flat = make_ws(tmp_path, text, "flat")
    assert "try qmem tree migrate" in " ".join(boot(flat, today=DAY, budget=300).notes)
    small = make_ws(tmp_path, "# M\n\n## Notes\n" + "- a short fact about the printer\n" * 30, "small")
    notes = " ".join(boot(small, today=DAY, budget=100).notes)
    assert "tree migrate" not in notes and "boot_budget" in notes
