"""Bonsai tree, session 4: domains on files qmem was not tuned on (issue 27). Every example here is
written for the test (none is taken from a measured file)."""

from __future__ import annotations

import pytest

from qmem.memory.tree import grow as tree
from qmem.memory.tree.domains import explain, load_table

from .test_tree_invariants import check_invariants, make_ws

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


# -- the body's shape, when the heading names nothing -------------------------------------------

@pytest.mark.parametrize("heading, body, expected", [
    ("Lea", "- **Name:** Lea Hartmann\n- **Born:** 1990\n- **Timezone:** CET\n", "identity"),
    ("Kurz", "- Nom : Léa\n- Ville : Lyon\n- Langues : français, anglais\n", "identity"),
    ("Orbit", "- Jonas — my brother, lives in Graz\n- Mira (colleague, backend)\n- Olek: landlord\n", "people"),
    ("Круг", "- Аня — сестра\n- Павел (коллега)\n", "people"),
    ("圈子", "- 小林：同事，做前端\n- 阿杰（室友）\n", "people"),
    ("Jahrestage", "- 14.02 — Hochzeitstag\n- 3.9 Oma\n- 12/24 Weihnachtsessen\n", "dates"),
    ("Boxes", "- 10.0.4.12 build runner\n- 10.0.4.13 grafana:3000\n", "infrastructure"),
    ("Ingest", "- `ingest/reader.py` parses frames\n- `ingest/map.py` holds the registers\n- `tests/test_map.py`\n", "codebase"),
])
def test_the_shape_of_a_body_names_its_subject_when_the_heading_does_not(heading, body, expected):
    from qmem.memory.tree import shapes
    assert expected in {row[0] for row in shapes.evidence(body)}
    assert domain(heading, body) == expected


@pytest.mark.parametrize("body", [
    "- Docker: 24.0 on the laptop\n- Redis: 7.2\n",         # a tool, not a person, before the colon
    "- 2024-03-14 — moved the backups\n- 2025-01-02 — new router\n",  # a log with years, not days of the year
    "- v1.2.3 shipped\n- see chapter 3.4\n",                   # versions are no addresses
])
def test_shapes_do_not_read_into_lists_that_only_look_alike(body):
    from qmem.memory.tree import shapes
    assert not [row for row in shapes.evidence(body) if row[0] in ("people", "dates", "infrastructure")]


@pytest.mark.parametrize("heading, body, expected", [
    ("Réunion du 3 mars 2026 : migration du serveur", "- migration terminée, serveur déployé\n", "archive"),
    ("Sessão 12.02.2026: novo painel", "- a fazer: testes\n- ainda não publicado\n", "projects"),
    ("Встреча 3 марта 2026", "- договор подписан, всё решено\n", "archive"),
    ("Sitzung 04.03.2026 – Umzug der Server", "- noch nicht erledigt: DNS\n- offen: Zertifikate\n", "infrastructure"),
])
def test_a_dated_entry_in_another_language_is_read_as_one(heading, body, expected):
    assert domain(heading, body) == expected


def test_a_german_prefix_cue_does_not_take_a_french_or_spanish_word():
    """de `termin*` took "terminée"/"terminado" as appointments, `bot*` took "botão" (a button)."""
    assert explain("Notes", "- migration terminée\n- tout est terminé\n", TABLE).scores.get("dates", 0) == 0
    assert explain("Tela", "- o botão azul abre o menu\n", TABLE).scores.get("agents", 0) == 0


@pytest.mark.parametrize("heading, expected", [
    ("Su di me", "identity"), ("Famiglia", "people"), ("Progetti in corso", "projects"), ("Clienti e fatture", "business"),
    ("Credenziali", "accounts"), ("Lezioni imparate", "lessons"), ("Scadenze", "dates"), ("Tasse", "legal"),
    ("Salute", "private"), ("Regole per l'assistente", "rules"),
    # what a personal memory holds that no list had, in any language
    ("Urlaub", "dates"), ("Voyages", "dates"), ("Путешествия", "dates"), ("Du lịch", "dates"),
    ("Haustiere", "identity"), ("Animaux de compagnie", "identity"), ("Thú cưng", "identity"),
    ("Studium", "projects"), ("Estudos", "projects"), ("Учёба", "projects"),
    ("Lagerbestand", "business"), ("Estoque", "business"), ("Kho hàng", "business"), ("Inventory", "business"),
    ("Bankverbindung", "private"), ("Coordonnées bancaires", "private"),
])
def test_italian_and_the_everyday_matters_every_language_lacked(heading, expected):
    assert domain(heading) == expected


def test_a_word_one_domain_lists_twice_weighs_as_one_cue_not_half():
    """de `projekt*` and `*projekt` (and en/de "marketing", "budget"…) are one word of one domain:
    the weight is split only between domains ("Über das Projekt" tied the broad "über" and went to identity)."""
    assert domain("Über das Projekt") == "projects"
    verdict = explain("Marketing", "", TABLE)
    assert verdict.domain == "business" and verdict.scores["business"] == 3


def test_an_identifier_in_code_is_one_word():
    """`payout-worker` is a service's name, not "workers" (people)."""
    body = "- `payout-worker` → redis\n- `ledger-team-sync` (go)\n- `webhooks-out` retries 5x\n"
    assert explain("svc", body, TABLE).scores.get("people", 0) == 0
    assert domain("svc", body) == "infrastructure"


def test_a_dated_entry_whose_subject_is_unclear_goes_where_its_body_leans_not_to_archive():
    """No heading word, two subjects close together: the one with more evidence, not the catch-all."""
    body = "- nginx, the vps and dns for the shop site\n- a code review of the tests\n"
    verdict = explain("2026-01-05 — Saturday", body, TABLE)
    assert verdict.scores["infrastructure"] == verdict.scores["codebase"]  # tied: no clear lead
    assert verdict.domain == "infrastructure" and "leans to infrastructure" in verdict.cues[0]


@pytest.mark.parametrize("heading, expected", [
    ("boxes", "infrastructure"), ("deps", "codebase"), ("apt", "identity"), ("subs", "private"),
    ("food", "identity"), ("music", "identity"), ("Bank", "private"), ("dentist", "private"),
    ("vim", "infrastructure"), ("shell aliases", "infrastructure"), ("CI", "infrastructure"), ("SLOs", "infrastructure"),
    ("FAQ", "lessons"), ("Glossar", "lessons"), ("leads", "business"),
    ("School calendar", "dates"),   # a school's calendar is dates: "school" alone is a broad word
    ("Persona", "identity"),        # Spanish "personas" (people) never takes the English "persona"
])
def test_terse_headings_of_everyday_and_technical_life(heading, expected):
    assert domain(heading) == expected


@pytest.mark.parametrize("body", [
    "- dentist 2026-03-18 10:30\n- visa appointment 2026-05-02 at 9:00\n- car tax due 2026-10\n",
    "- Zahnarzt am 18.03. um 10:30\n- Steuer bis 31.07.2026\n",
])
def test_a_list_of_appointments_and_deadlines_is_dates(body):
    from qmem.memory.tree import shapes
    assert "dates" in {row[0] for row in shapes.evidence(body)}
    assert not shapes.evidence("- 2026-03-03 09:12 restarted nginx\n- 2026-03-04 10:00 rotated certs\n")  # a log


def test_one_source_file_named_is_some_evidence_of_code():
    from qmem.memory.tree import shapes
    assert ("codebase", 1.0) in {row[:2] for row in shapes.evidence("- wrote `sync/merge.go` and a test for it\n")}
    verdict = explain("2026-02-01 — Merge queue", "- `sync/merge.go` holds the queue\n- a test runs it on recorded runs\n", TABLE)
    assert verdict.domain == "codebase"


@pytest.mark.parametrize("heading, expected", [
    ("工作", "identity"), ("兴趣", "identity"), ("興趣", "identity"), ("취미", "identity"),
    ("注文", "business"), ("주문", "business"), ("가계부", "private"), ("완료", "archive"),
    ("팀", "people"), ("남은 일", "projects"), ("使っている道具", "infrastructure"),
])
def test_everyday_cjk_words_the_lists_lacked(heading, expected):
    assert domain(heading, "- です。\n" if heading in ("注文",) else "") == expected


@pytest.mark.parametrize("heading, expected", [("Skill迭代", "agents"), ("Agent 架构", "agents"), ("架构与 Agent", "codebase")])
def test_a_tie_goes_to_the_domain_the_heading_names_first_even_when_its_cue_is_inflected(heading, expected):
    """"skill" is the cue "skills", "Agent" the cue "agents": their place in the heading was not found, so
    the other domain always came first."""
    assert domain(heading) == expected


FRENCH_MEMORY = """# Mémoire de l'assistant de Camille

## À propos de moi
- Camille, traductrice indépendante à Nantes, fuseau horaire Europe/Paris.
- J'aime le thé vert ; je n'aime pas les appels avant 10 h.

## Consignes
- Toujours répondre en français, sauf pour le code.
- Ne jamais envoyer un devis sans me le montrer.
- Il faut citer la source de chaque chiffre.

## Proches
- Hugo — mon frère, vit à Lille
- Inès (amie, avocate)
- Mme Roux : voisine, a un double des clés

## Clients et factures
- Agence Lumen : 0,12 € le mot, paiement à 30 jours
- Éditions Brume : facturation mensuelle, relancer la facture de mars

## Dates
- 14/02 — anniversaire de Hugo
- 3 mai — fête des voisins
- chaque année en juin : déclaration d'impôts

## Ordinateur et sauvegardes
- Portable sous Ubuntu, sauvegarde chaque nuit sur le NAS 192.168.1.20
- Le NAS sert aussi les photos : 192.168.1.20:5000

## Réunion du 12 février 2026 avec Lumen
- Nouveau glossaire validé, décision prise, dossier clos.

## Divers
- Migration du site vers un autre hébergeur : à faire, pas encore commencé
- Choisir entre deux offres d'hébergement, reste à comparer les prix
"""


def test_a_french_memory_migrates_into_the_domains_a_reader_would_choose(tmp_path):
    ws = make_ws(tmp_path, FRENCH_MEMORY)
    result = tree.migrate(ws, force=True, day="2026-03-01", explain=True)
    got = {row["section"]: row["domain"] for row in result.sections}
    assert got["À propos de moi"] == "identity"
    assert got["Consignes"] in ("(root: pinned)", "rules")   # the agent's rules are pinned
    assert got["Proches"] == "people"
    assert got["Clients et factures"] == "business"
    assert got["Dates"] == "dates"
    assert got["Ordinateur et sauvegardes"] == "infrastructure"
    assert got["Réunion du 12 février 2026 avec Lumen"] == "archive"   # a closed dated entry
    assert "general" not in got.values()
    check_invariants(ws, FRENCH_MEMORY)


@pytest.mark.parametrize("heading, body, expected", [
    ("Riunione del 3 marzo 2026", "- contratto approvato e firmato, tutto concluso\n", "archive"),
    ("Sessione 2026-03-05: nuovo sito", "- da fare: le traduzioni\n- non ancora pubblicato\n", "projects"),
    ("Réunion du 12 février 2026", "- devis validé, dossier clos\n", "archive"),
])
def test_italian_and_more_french_words_say_whether_a_dated_entry_is_closed(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading", ["So arbeitest du mit mir", "Comment travailler avec moi", "Как со мной работать"])
def test_how_to_work_with_me_in_any_language_names_rules(heading):
    from qmem.memory.tree.instructions import instruction
    assert instruction(heading, "- Antworte kurz.\n", TABLE).startswith("heading names rules")


def test_two_orders_under_a_heading_with_only_a_broad_cue_are_instructions():
    """"setup" is a broad word: it does not make a list of orders less of one."""
    from qmem.memory.tree.instructions import instruction
    assert instruction("Setup", "- always use the project's venv\n- never pip install globally\n", TABLE)
    assert not instruction("Backups", "- always at 03:00\n- never on the same disk\n", TABLE)  # a real cue: facts


@pytest.mark.parametrize("heading, body, expected", [
    ("Buổi họp 05/02/2026 với kế toán", "- Báo cáo thuế đã xong\n", "archive"),
    ("Leute", "- Anna, Paul\n", "people"),
    ("Деньги", "- ипотека до 2035\n- откладываю 20% зарплаты\n", "private"),
])
def test_more_words_of_german_russian_and_vietnamese(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, expected", [
    ("🐾 Mochi", "identity"), ("🧳 Sommer 2026", "dates"), ("💳 Karten", "private"), ("🐛 Stuff", "codebase"),
    ("🏠 Home server", "infrastructure"),  # the words still name their domain more strongly
])
def test_everyday_emoji_in_a_heading_name_a_domain(heading, expected):
    assert domain(heading) == expected


@pytest.mark.parametrize("heading, expected", [("2) Về Lan", "identity"), ("IV. Về tôi và gia đình", "identity"),
                                               ("I. Identité", "identity")])
def test_a_numbered_heading_is_read_after_its_number(heading, expected):
    """`^về` (a cue for the start of a heading) starts after "2)"; a French "Identité" is identity."""
    assert domain(heading) == expected
