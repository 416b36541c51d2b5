"""Bonsai tree: error classes seen on real users' MEMORY.md files (issue 27, the real sets):
decorative emoji, the agent's own tools and schedules, phrasing a heading's words stand for,
dates without a year, rule words in an aside. Every example is written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import explain, load_table
from qmem.memory.tree.instructions import instruction

TABLE = load_table({})


def domain(heading: str, body: str = "") -> str:
    return explain(heading, body, TABLE).domain


@pytest.mark.parametrize("heading, body, expected", [
    ("📦 Repository links", "- the main repo and a fork\n", "codebase"),  # the words, not the box
    ("🔗 Kundenliste", "- drei neue Kunden im März\n", "business"),
    ("🧠 Grundlagen der Methode", "- Phase 1: Interviews\n- Roadmap bis Mai, Meilensteine im Juni\n", "projects"),
])
def test_a_decorative_emoji_gives_way_to_the_heading_s_words_and_a_clear_body(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("📚 学んだこと・決定事項", "- タスクは週ごとに見直す\n", "lessons"),  # the emoji breaks the words' tie
    ("🔑", "- nothing else here\n", "accounts"),  # an emoji alone still names its domain
])
def test_an_emoji_still_counts_where_the_words_do_not_decide(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading", ["本月重點", "下季焦點", "待辦事項（家裡）"])
def test_traditional_chinese_words_for_focus_and_to_dos_name_projects(heading):
    assert domain(heading, "- 測試與建置流程要修好\n- 模組拆分\n") == "projects"


@pytest.mark.parametrize("heading, body", [
    ("Cron jobs (nightly digests)", "- 07:00 morning summary to the owner\n- backup check every hour\n"),
    ("Scheduled tasks", "- every Monday: tidy the inbox\n"),
    ("📅 Cron 任务", "- 每天早上八点发日报\n"),
    ("定期タスク", "- 毎朝7時にニュースをまとめる\n"),
    ("排程任務", "- 每週一整理收件匣\n"),
    ("モデル設定", "- メイン：大きいモデル、サブ：小さいモデル\n"),
    ("使えるツール", "- 検索、カレンダー、メール\n"),
    ("Core Capabilities", "- write drafts, read the inbox, book rooms\n"),
    ("Web search provider", "- switched to another one in May\n"),
])
def test_the_agent_s_schedules_tools_models_and_capabilities_are_agents(heading, body):
    """Real technical memory names the agent's own machinery with the words for tasks, tools and
    settings: a cue of two words for it outweighs the single word (projects' タスク, a server's cron)."""
    assert domain(heading, body) == "agents"


@pytest.mark.parametrize("heading, body, expected", [
    ("Tools", "- vim, tmux, a 4k monitor\n", "infrastructure"),
    ("タスク", "- 請求書を出す\n- 見積もりを送る\n", "projects"),
    ("Crontab on the NAS", "- rsync at 03:00\n", "infrastructure"),
])
def test_the_single_words_keep_their_domains(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body", [
    ("Mar 3 Morning — checkout rewrite", "- Fixed the cart totals\n- Deployed to staging, all green\n"),
    ("Oct 12 Sprint Summary", "- shipped the export\n- closed four bugs ✅\n"),
    ("September 9: kiln repair", "- replaced the thermocouple, done\n"),
])
def test_a_month_and_day_without_a_year_heads_a_dated_log_entry(heading, body):
    """A running log often leaves the year out: the entry is still a past day's record, archived when
    its words say the matter is closed."""
    assert domain(heading, body) == "archive"


@pytest.mark.parametrize("heading, body, expected", [
    ("May 2026 goals", "- finish the course\n- next: the second module\n", "projects"),  # a month, no day: no entry
    ("Mayday drills", "- done twice a year\n", "mayday-drills"),
])
def test_a_month_alone_is_no_dated_entry(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("2026-04-02 Deploy procedure (important)", "- build, then push the image\n- done: moved to the new host\n",
     "infrastructure"),
    ("2026-05-11 発注フロー（重要）", "- 見積もり → 承認 → 発注、完了\n- 取引先には毎回メールで連絡\n", "business"),
])
def test_a_dated_entry_that_sets_up_a_lasting_way_of_working_is_not_archived(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("Checkout Architecture — Design Principles", "- one service per bounded context\n- events over direct calls\n",
     "codebase"),
    ("Care plan (May 4 — Pacing Protocol for Sam)", "- red days: full rest\n- green days: a short walk\n", "projects"),
])
def test_rule_words_in_an_aside_about_another_topic_pin_nothing(heading, body, expected):
    """The part before the aside names the subject; 'design principles' of an architecture describe
    it, a protocol for a person is a plan: neither is a standing order to the agent."""
    assert not instruction(heading, body, TABLE)
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body", [
    ("Git — Rules", "- always rebase before a merge\n- never force-push main\n"),  # the body gives orders
    ("House rules (kitchen)", "- dishes the same evening\n"),  # the rule word is the subject
    ("Overnight Research Protocol (Permanent)", "- pick three sources\n- write a summary\n"),
])
def test_rule_words_still_pin_as_the_subject_or_over_orders(heading, body):
    assert instruction(heading, body, TABLE)


@pytest.mark.parametrize("heading, body, expected", [
    ("Known footguns in the build", "- the cache survives a clean\n", "lessons"),
    ("Traps we fell into", "- the staging bucket is public\n", "lessons"),
    ("Who I Serve", "- Mira, 41, runs a bakery and two shops\n", "identity"),
    ("Handy one-liners", "```\nmake clean && make\n```\n", "codebase"),
    ("Allowed users", "- Teo (owner): everything\n- Ines: calendar only\n", "people"),
    ("Standing calls from the owner", "- labels in title case\n- prices without cents\n", "rules"),
])
def test_phrasings_real_headings_use_for_a_kind_of_note(heading, body, expected):
    assert domain(heading, body) == expected


def test_an_agent_s_behaviour_in_a_channel_is_a_rule():
    assert instruction("Discord behaviour", "- reply in the thread\n- one emoji at most\n", TABLE)


@pytest.mark.parametrize("heading, body, expected", [
    ("クライアント一覧", "- 山田商店：月1回の打ち合わせ\n", "business"),
    ("作ったもの", "- 町内会のチラシ\n- 家計アプリの試作\n", "projects"),
    ("📁 记忆文件说明", "- 每天一个日志文件\n", "agents"),
    ("Memory files", "- one log per day, a weekly digest\n", "agents"),
    ("Recent changes", "- moved the photos to the new disk\n", "archive"),
    ("Cập nhật gần đây", "- thêm hai khách mới\n", "archive"),
])
def test_words_of_real_files_the_tables_lacked(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body", [
    ("2026-03-02 更新（重大進展）", "- 修好了登入頁\n- 完成 SEO 設定\n"),
    ("2026-04-09 update", "- fixed the invoice export\n- moved the backups, done\n"),
])
def test_a_day_and_the_word_for_an_update_alone_is_a_log_entry(heading, body):
    """'(updated 2026-04-13)' after a topic says as of when; a day followed by 'update' and nothing
    else is the record of that day's changes."""
    assert domain(heading, body) == "archive"


def test_a_topic_updated_on_a_day_is_still_its_topic():
    assert domain("Server list (updated 2026-04-13)", "- nas, router, the old laptop\n") == "infrastructure"


@pytest.mark.parametrize("heading, body", [
    ("Member survey — Sent, Awaiting Replies", "- sent to 40 members on Monday\n"),
    ("Garden shed — on deck", "- wood ordered from the shop\n"),
    ("Podcast studio (future)", "- a small room, a good microphone\n"),
    ("Waiting on Priya", "- the signed quote for the kitchen\n"),
])
def test_work_that_waits_or_has_not_started_is_projects(heading, body):
    assert domain(heading, body) == "projects"


@pytest.mark.parametrize("heading, body, expected", [
    ("Quarterly report — Complete", "- revenue up, two new clients\n", "business"),  # a dash's "complete" labels the report
    ("Team — Berlin office", "- Ana, Jo, Sam\n", "people"),
])
def test_a_dash_aside_reads_only_open_work_as_a_status(heading, body, expected):
    assert domain(heading, body) == expected


def test_how_the_agent_s_memory_is_built_is_the_agent_s():
    assert domain("Memory Architecture", "- daily logs, a weekly digest, a build step\n") == "agents"


@pytest.mark.parametrize("heading", ["What Lio Wants", "What the owner expects", "What Sam needs from you", "what she wants"])
def test_what_the_user_wants_of_the_agent_is_a_standing_instruction(heading):
    assert instruction(heading, "- short answers\n- ask before spending money\n", TABLE)


@pytest.mark.parametrize("heading", ["What the client wants", "What customers want", "What The Market Wants"])
def test_what_someone_else_wants_is_no_instruction(heading):
    assert not instruction(heading, "- a cheaper plan\n", TABLE)


@pytest.mark.parametrize("heading, body, expected", [
    ("Session Log", "- Tue: moved the notes\n- Wed: fixed the digest\n", "archive"),
    ("Monthly costs", "- about 40 for two servers\n", "business"),
    ("Cost breakdown (print shop)", "- paper, ink, the courier\n", "business"),
])
def test_a_session_log_is_the_record_and_costs_are_business(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("Project: Kubernetes cluster upgrade", "- three nodes left to drain\n", "projects"),
    ("專案：自動化排程機器人", "- 每天早上發日報\n", "projects"),
    ("Kunden: Cloud-Umzug der Bäckerei", "- Angebot geschickt\n", "business"),
])
def test_a_label_before_a_colon_says_what_kind_of_note_it_is(heading, body, expected):
    assert domain(heading, body) == expected


def test_a_label_that_names_no_domain_leaves_the_heading_to_its_words():
    assert domain("Important: Python interpreter", "- use the venv's python\n") == "infrastructure"


@pytest.mark.parametrize("heading, body", [
    ("Supplements for Noor", "- magnesium at night\n- vitamin D in winter\n"),
    ("Ravi's symptoms (as of 2026-05-02)", "- tired after lunch, better after a walk\n"),
    ("症狀紀錄", "- 早上頭暈，下午好轉\n"),
])
def test_a_person_s_health_as_real_files_write_it_is_private(heading, body):
    assert domain(heading, body) == "private"


def test_where_files_are_kept_is_a_system_whatever_files_they_are():
    body = "- invoices and receipts by month\n- the expenses sheet, client quotes\n"
    assert domain("VAULTBOX (FILE STORAGE)", body) == "infrastructure"


@pytest.mark.parametrize("heading, expected", [
    ("Newsletter signup form — Removed (Mar 3, 2026)", "archive"),  # the thing itself is gone
    ("Forum bridge — deprecated", "archive"),
    ("Quarterly report — Complete", "business"),  # finished, but still the report
])
def test_a_dash_aside_that_says_the_thing_is_gone_archives_it(heading, expected):
    assert domain(heading, "- revenue, clients, the signup numbers\n") == expected


_AGENT_FILE = ["- the skills I load: summarise, translate\n", "- MCP servers: search, calendar\n",
               "- the model is a small local LLM; prompts live in prompts/\n", "- sub-agents for research\n",
               "- the VPS and its backups\n", "- family birthdays\n"]


@pytest.mark.parametrize("heading", ["Calendar Integrations — Confirmed Working", "Browser & Web Access", "瀏覽器操作"])
def test_in_an_agent_s_own_memory_what_it_connects_to_is_the_agent_s(heading):
    from qmem.memory.tree.domains import Context
    context = Context(TABLE, _AGENT_FILE)
    assert explain(heading, "- opens pages, fills the forms it is asked to\n", TABLE, context).domain == "agents"


def test_in_a_file_about_other_things_integrations_stay_with_the_machines():
    from qmem.memory.tree.domains import Context
    context = Context(TABLE, ["- the VPS and its backups\n", "- family birthdays\n", "- invoices to clients\n",
                              "- the skills I load\n", "- the router and wifi\n"])
    assert explain("Calendar Integrations", "- the NAS syncs at night\n", TABLE, context).domain == "infrastructure"
