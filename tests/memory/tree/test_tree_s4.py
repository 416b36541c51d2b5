"""Bonsai tree, session 4: domains on files qmem was not tuned on (issue 27). Every example here is
written for the test (none is taken from a measured file)."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import explain, load_table

TABLE = load_table({})


def domain(heading: str, body: str = "") -> str:
    return explain(heading, body, TABLE).domain


@pytest.mark.parametrize("heading, expected", [
    ("Prompt模板合集", "agents"),      # "prompt" written against Chinese text is a word of its own
    ("常用Skill清单", "agents"),
    ("Nginx反代备忘", "infrastructure"),
    ("Skill一覧", "agents"),
])
def test_a_latin_word_written_against_cjk_text_is_a_word(heading, expected):
    assert domain(heading) == expected


def test_a_latin_word_against_cjk_text_counts_in_the_body_too():
    verdict = explain("杂项", "- 这台Kubernetes集群的Ingress用Traefik\n- Postgres备份每天03:00\n", TABLE)
    assert verdict.domain == "infrastructure" and any("postgres" in c for c in verdict.cues)


@pytest.mark.parametrize("heading, body, expected", [
    ("€€", "- Miete 900 € im Monat\n- Sparplan 200 € auf das Tagesgeld\n", "private"),
    ("$$", "- invoices to the two agencies: net 30\n- revenue this quarter $41k from clients\n", "business"),
])
def test_a_heading_of_currency_signs_is_read_as_money_whose_the_body_says(heading, body, expected):
    verdict = explain(heading, body, TABLE)
    assert verdict.domain == expected and verdict.confident


@pytest.mark.parametrize("heading, expected", [
    # French
    ("À propos de moi", "identity"), ("Mes proches", "people"), ("Projets en cours", "projects"),
    ("Mots de passe et accès", "accounts"), ("Leçons apprises", "lessons"), ("Serveurs et sauvegardes", "infrastructure"),
    ("Rendez-vous et échéances", "dates"), ("Impôts et assurances", "legal"), ("Facturation clients", "business"),
    # Portuguese
    ("Sobre mim", "identity"), ("Família e amigos", "people"), ("Tarefas da semana", "projects"),
    ("Senhas", "accounts"), ("Lições aprendidas", "lessons"), ("Banco de dados e servidores", "infrastructure"),
    ("Datas importantes", "dates"), ("Contratos", "legal"), ("Vendas e orçamentos", "business"),
    # Russian (stems: the cues find their inflected forms)
    ("Обо мне", "identity"), ("Семья и друзья", "people"), ("Проекты", "projects"), ("Текущие задачи", "projects"),
    ("Пароли и доступы", "accounts"), ("Уроки и ошибки", "lessons"), ("Серверы", "infrastructure"),
    ("Расписание", "dates"), ("Налоги", "legal"), ("Клиенты", "business"),
])
def test_french_portuguese_and_russian_headings_find_their_domains(heading, expected):
    assert domain(heading) == expected


@pytest.mark.parametrize("heading, expected", [
    ("Known issues", "codebase"), ("已知缺陷", "codebase"), ("既知の問題", "codebase"), ("Problèmes connus", "codebase"),
    ("Roadmap", "projects"), ("路线图", "projects"), ("路線圖", "projects"), ("Open questions", "projects"),
    ("Customer support", "business"), ("客服与退款", "business"), ("고객 지원", "business"),
    ("Hiring", "people"), ("招聘", "people"), ("Recrutement", "people"),
    ("On call", "infrastructure"), ("oncall", "infrastructure"),
    ("Work", "identity"), ("Beruf", "identity"), ("Car", "identity"), ("Wohnung und Auto", "identity"),
    ("Timezone and languages", "identity"),
])
def test_concepts_every_language_lacked_are_found(heading, expected):
    assert domain(heading) == expected


@pytest.mark.parametrize("heading", ["Health", "Gesundheit", "Santé", "Saúde", "Здоровье", "健康", "건강", "Salud"])
def test_health_is_the_users_private_matter(heading):
    assert domain(heading, "- dentist every six months\n") == "private"


@pytest.mark.parametrize("heading", ["Tech stack", "技术栈", "技術スタック", "Stack technique", "기술 스택"])
def test_a_tech_stack_is_the_codes(heading):
    assert domain(heading, "- TypeScript, Postgres\n") == "codebase"


def test_a_word_for_health_or_a_home_in_a_body_names_no_private_topic():
    """'fleet health', 'home directory', 'home network' are no one's health or home."""
    assert domain("Net", "- home network: 10 devices behind the router\n- ssh into the nas from home\n") == "infrastructure"
    assert domain("Reports", "- weekly fleet health report\n- health check endpoint\n") != "private"


def test_a_topicless_heading_over_personal_details_is_identity():
    assert domain("Misc", "- coffee: espresso, no sugar\n- gym twice a week\n- favorite band: Low\n") == "identity"
