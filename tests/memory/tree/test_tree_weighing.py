"""Bonsai tree: how evidence is weighed, so that a heading nobody listed still finds its domain
(issue 27, accuracy on unseen files). Every example is written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import explain, load_table

TABLE = load_table({})


def domain(heading: str, body: str = "") -> str:
    return explain(heading, body, TABLE).domain


@pytest.mark.parametrize("heading, body, expected", [
    ("Ferry booking app (in progress)", "- server on the VPS, app store review next\n", "projects"),
    ("Quiltshop — online store (since 2025-11)", "- hosting on a small server\n", "projects"),
    ("Oprava střechy (probíhá)", "", "projects"),
    ("Katalog z cenami (w trakcie, od 2026-01)", "- ceny dla klientów\n", "projects"),
    ("「点心」小程序（开发中）", "- 服务器在阿里云\n", "projects"),
    ("Winter fair booth (done)", "- stand fees paid, clients met\n", "archive"),
    ("Loja virtual da padaria (concluído, 2025)", "- servidor desligado\n", "archive"),
    ("社区活动报名页（已结束，2025-10）", "", "archive"),
    ("✅ Kiosk firmware", "- deployed on every machine\n", "archive"),
])
def test_a_heading_whose_aside_states_the_work_s_status_names_a_piece_of_work(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading", ["Server notes (2026-02-11)", "Server notes (as of March)", "Servers (always on)"])
def test_an_aside_that_states_no_status_is_no_evidence_of_work(heading):
    assert domain(heading, "- the VPS runs nginx and postgres\n") == "infrastructure"


@pytest.mark.parametrize("heading", ["Who Marguerite is", "About Oskar", "Chi è Lucia", "O Tomku", "Tentang Budi",
                                     "Wer ist Henrike", "Quem é Joana", "Ai là Minh", "Aylin hakkında", "Кто такой Фёдор"])
def test_a_heading_about_a_named_person_is_a_profile(heading):
    body = "- works nights, lives by the sea\n- likes long walks and the radio\n- servers at home, two laptops\n"
    assert domain(heading, body) == "identity"


@pytest.mark.parametrize("heading", ["About Docker", "About This Repo", "Meet the Team", "Who we are hiring"])
def test_about_a_topic_or_a_group_is_no_person(heading):
    assert "about a person" not in " ".join(explain(heading, "- notes\n", TABLE).cues)
