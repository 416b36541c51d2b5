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


@pytest.mark.parametrize("heading", ["ひみつ（わたしだけ）", "内緒の話", "Личное (никому не говорить)", "Health (only me)",
                                     "Between us", "Don't tell the kids", "Notatki (nie pokazywać)", "只有我知道的事",
                                     "Sağlık (kimseye söyleme)", "Catatan (jangan bilang siapa-siapa)"])
def test_a_heading_that_says_only_me_or_tell_no_one_is_private(heading):
    from qmem.memory import shared
    assert shared.confidential(heading)
    assert domain(heading, "- thinking about quitting in spring\n- the clinic on Tuesday\n") == "private"


@pytest.mark.parametrize("heading", ["Only me and the dog", "Between us and the suppliers", "Secrets management",
                                     "비밀번호 변경 주기", "Show only the errors"])
def test_words_near_a_private_mark_are_no_mark(heading):
    from qmem.memory import shared
    assert not shared.confidential(heading)


@pytest.mark.parametrize("heading, body, expected", [
    ("👨‍👩‍👦‍👦 Os meus", "- Ana, a minha mulher\n- os miúdos na escola\n", "people"),
    ("👩 Sobre mim", "- gosto de café\n", "identity"),
    ("Our household", "- partner works nights; the kids walk to school\n", "people"),
    ("ともだち", "- タクヤ：大学の同期\n", "people"),
    ("おかね", "- 仕送り：月3万円\n- おこづかいは週末に使う\n", "private"),
    ("卒論", "- テーマ：方言の研究、締切は1月\n- 指導教員に毎週みせる\n", "projects"),
    ("Kod", "- Python 3.12, testy w pytest\n", "codebase"),
    ("Даты", "- 12 мая — годовщина\n", "dates"),
    ("Czego się nauczyliśmy", "- zawsze sprawdzaj kopie\n- nigdy nie wysyłaj w piątek\n", "lessons"),
    ("oss", "- maintain two small libraries\n", "community"),
])
def test_whole_word_classes_the_tables_lacked(heading, body, expected):
    assert domain(heading, body) == expected


_CODE_HEAVY = ("- the repo is a monorepo with modules under src/ and a schema file\n"
               "- unit tests and integration tests before every merge\n"
               "- code review rules: commit messages say why, small pull requests\n"
               "- dependencies pinned; the data model lives in one module\n"
               "- tech debt: the parser\n"
               "- the VPS runs nginx and a cron job for backups\n")


def test_when_two_domains_reach_the_body_cap_the_one_with_far_more_evidence_wins():
    verdict = explain("Workbench", _CODE_HEAVY, TABLE)
    assert verdict.domain == "codebase" and verdict.confident


def test_at_the_cap_half_again_as_much_evidence_wins():
    body = ("- revenue this quarter: invoices sent to three clients\n- pricing for the new plan; marketing budget\n"
            "- sales calls on Mondays\n- the VPS runs nginx\n- backups nightly to the NAS\n")
    verdict = explain("Lantern", body, TABLE)
    assert verdict.domain == "business" and verdict.confident, verdict.scores


_AGENT_HEAVY = ("- the agent's prompts and skills; the MCP servers it calls\n- model fallbacks: claude, then a local llama\n"
                "- subagents for research\n- the VPS runs nginx, backups nightly to the NAS\n"
                "- the repo has modules and unit tests\n")


def test_reference_is_a_broad_word_and_a_tie_at_the_cap_goes_by_evidence_not_by_name():
    # "X Reference" is reference material about X: the body says what X is; of the domains its body
    # fills to the cap, the one with the most evidence wins (never the alphabet's order)
    assert domain("Technical Reference", _AGENT_HEAVY) == "agents"
    assert domain("References", "- a few links I keep\n") == "lessons"


def test_two_bodies_with_as_much_evidence_each_still_keep_their_own_heading():
    body = "- the repo has modules and unit tests\n- the VPS runs nginx; backups nightly to the NAS\n"
    assert explain("Workbench", body, TABLE).domain == "workbench"


@pytest.mark.parametrize("heading, expected", [("me", "identity"), ("Tokens", "accounts"), ("Team", "people")])
def test_a_broad_word_that_is_the_whole_heading_is_its_topic(heading, expected):
    body = "- laptop: a thinkpad; the home server and the NAS\n- a VPS for the blog\n"
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, expected", [
    ("Kubernetes upgrade gotchas", "lessons"), ("Postgres MCP", "agents"), ("Docker skills", "agents"),
])
def test_a_heading_that_names_a_kind_of_note_and_a_subject_is_the_kind(heading, expected):
    body = "- the cluster config, ports and paths\n- the VPS and its nginx setup\n"
    assert domain(heading, body) == expected


_AGENT_FILE = ["- the skills I load: summarise, translate\n", "- MCP servers: search, calendar\n",
               "- the model is a small local LLM; prompts live in prompts/\n", "- sub-agents for research\n",
               "- the VPS and its backups\n", "- family birthdays\n"]


@pytest.mark.parametrize("heading", ["工具搜索优先级", "Tools for search", "Discord统一CLI"])
def test_in_an_agent_s_own_memory_its_tools_are_the_agent_s(heading):
    from qmem.memory.tree.domains import Context
    context = Context(TABLE, _AGENT_FILE)
    assert context.agentic
    assert explain(heading, "- 先用浏览器 browser 查，再用命令行\n", TABLE, context).domain == "agents"


def test_in_a_file_about_other_things_tools_stay_with_the_machines():
    from qmem.memory.tree.domains import Context
    context = Context(TABLE, ["- the VPS and its backups\n", "- family birthdays\n", "- invoices to clients\n",
                              "- the skills I load\n", "- the router and wifi\n"])
    assert not context.agentic
    assert explain("Tools for search", "- the browser and a CLI\n", TABLE, context).domain == "infrastructure"
    assert explain("Tools & Infrastructure", "- the browser\n", TABLE, Context(TABLE, _AGENT_FILE)).domain == "infrastructure"


def test_an_open_dated_entry_under_a_broad_heading_word_is_work_in_progress():
    verdict = explain("2026-05-04 工作记录：安卓上架被拒", "- 还没改完截图，下周再提交\n", TABLE)
    assert verdict.domain == "projects"


@pytest.mark.parametrize("heading, body, expected", [
    ("10/7 花見", "- 公園で8人と花見した\n- 写真は共有ずみ。おわり\n", "archive"),
    ("4月2日 ゼミ", "- やること：先行研究のまとめ\n- まだ手をつけてない\n", "projects"),
])
def test_a_heading_opening_with_a_day_without_a_year_is_a_dated_entry(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("7. Minutes 02.03.2026 – roof inspection", "- inspector came, all settled and closed\n", "archive"),
    ("3) Verbale 12.01.2026 — assemblea", "- tutto approvato, chiuso\n", "archive"),
])
def test_a_numbered_heading_that_records_a_dated_meeting_is_a_dated_entry(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, expected", [
    ("Promotor i koledzy z labu", "people"), ("Orientadora", "people"), ("Betreuerin und Kollegen", "people"),
    ("Öğrendiklerim", "lessons"), ("e2e runs", "codebase"), ("配信の収益", "business"),
])
def test_the_people_of_a_student_s_life_and_other_whole_classes(heading, expected):
    assert domain(heading) == expected
