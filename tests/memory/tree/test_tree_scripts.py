"""Headings in every script name their own domain and leaf: a heading in Cyrillic, Greek,
Arabic, Devanagari or Thai with no cue used to slug to nothing and so fell into `general`, the
catch-all, and Devanagari words were cut at their vowel signs."""

from __future__ import annotations

import os

import pytest

from qmem.memory.tree import grow as tree
from qmem.memory.tree.domains import GENERAL, explain, load_table
from qmem.memory.tree.headings import domain_slug, heading_domain
from qmem.memory.tree.units import leaf_slug

from .test_tree_invariants import check_invariants, make_ws

TABLE = load_table({})
CUELESS = "- Четверг, пятница.\n- Ещё раз проверить.\n"  # words no cue table lists

HEADINGS = {
    "Синяя полка": "синяя-полка",
    "Ελληνικά σημειώσεις": "ελληνικά-σημειώσεισ",  # folded like every cue match (ς → σ)
    "नीली अलमारी": "नीली-अलमारी",  # (सुरक्षा नियम, "security rules", has cues since Hindi has a table)
    "ภาษาไทย งาน": "ภาษาไทย-งาน",
    "الرف الأزرق": "الرف-الأزرق",  # (ملاحظات العمل, "work notes", has cues since Arabic has a table)
    "רשימת קניות": "רשימת-קניות",
}


@pytest.mark.parametrize("heading", sorted(HEADINGS))
def test_a_heading_in_any_script_names_its_own_domain(heading):
    assert heading_domain(heading) == HEADINGS[heading]
    assert explain(heading, CUELESS, TABLE).domain == HEADINGS[heading] != GENERAL


def test_combining_marks_stay_inside_their_words():
    assert leaf_slug("सुरक्षा नियम") == "सुरक्षा-नियम"
    decomposed = "Cafe\u0301 notes"  # é written as e + a combining acute accent
    assert leaf_slug(decomposed) == "cafe\u0301-notes"
    assert heading_domain(decomposed) == "caf\u00e9-notes"  # domains are NFKC-folded: é composed


def test_what_was_named_before_keeps_its_name():
    assert domain_slug("c_lawd notes") == "c-lawd-notes"
    assert heading_domain("Key Issues (Blocked on Human Action)") == "key-issues"
    assert heading_domain("三、用户明确要求（永久有效）") == "用户明确要求"
    assert leaf_slug("User's notes: 2026") == "users-notes-2026"
    assert domain_slug("🔥🔥") == GENERAL  # no letter or digit at all


def test_a_russian_memory_without_cues_has_no_catch_all(tmp_path):
    sections = ["Синяя полка", "Четверговые звонки", "Мелочи по дому", "Разное старое", "Книжная полка",
                "Планы на зиму"]
    body = "".join(f"## {h}\n\n- Первая строка раздела {i}.\n- Вторая строка, подлиннее, раздела {i}.\n"
                   + "- Ещё немного текста, чтобы файл был больше порога.\n" * 30 + "\n"
                   for i, h in enumerate(sections))
    original = "# Память\n\n" + body
    ws = make_ws(tmp_path, original)
    tree.migrate(ws, day="2026-03-01")
    domains = sorted(os.listdir(os.path.join(ws.root, "memory", "domains")))
    assert GENERAL not in domains
    check_invariants(ws, original)
