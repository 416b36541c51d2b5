"""Bonsai tree: error classes seen on real Chinese, Japanese and Vietnamese MEMORY.md files (issue 27,
the real CJK sets): research and planned works as projects, katakana words that hold a shorter cue,
settings said of the agent, open and pending work, an agent's routine runs. Every example is
written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree import shape
from qmem.memory.tree.domains import Context, explain, load_table

TABLE = load_table({})

_AGENT_FILE = ["- 使うスキル：要約、翻訳\n", "- MCP サーバー：検索、カレンダー\n", "- モデルは小さいローカル LLM、プロンプトは prompts/ に\n",
               "- サブエージェントで下調べ\n", "- VPS とそのバックアップ\n", "- 家族の誕生日\n"]


def domain(heading: str, body: str = "", context: Context | None = None) -> str:
    return explain(heading, body, TABLE, context).domain


@pytest.mark.parametrize("heading, body", [
    ("リサーチ: 自律エージェントの記憶モデル", "- 論文を三本読んだ\n- プロンプト設計との比較\n"),
    ("リサーチ: ロボットの睡眠と休息（2026-04-02）", "- 睡眠中に記憶を整理する仕組み\n"),
    ("調研：多代理協作框架", "- 三篇論文，比較智能體的分工\n"),
    ("调研：开源智能体记忆方案", "- 对比三个智能体的记忆方式\n"),
    ("アート構想: 光る森の展示", "- 来年の展示に向けたアイデア\n"),
    ("Nghiên cứu: mô hình ngôn ngữ nhỏ", "- so sánh ba bài báo về agent\n"),
])
def test_research_and_a_planned_work_are_the_user_s_projects(heading, body):
    """A research note or a planned work is a piece of work, whatever it studies (agents, robots,
    models): its subject's words in the heading or body do not make it the agent's machinery."""
    assert domain(heading, body) == "projects"


def test_a_research_heading_s_title_words_for_policy_do_not_pin_it():
    text = ("# メモ\n\n## リサーチ: Reward Policy as Precision（2026-05-01）\n\n- 報酬と方策の関係を整理した論文のメモ\n\n"
            "## 作業ルール\n\n- 必ず日本語で返答する\n")
    plan = shape.plan(text, {})
    research = next(p for p in plan.parts if p.title.startswith("リサーチ"))
    assert not research.pinned and research.domain == "projects"


@pytest.mark.parametrize("heading, body, expected", [
    ("ロボット図鑑", "- 週末に紙で作った\n", "ロボット図鑑"),  # no bot in ロボット
    ("週次レポート作成", "- 毎週金曜に画像を作る\n", "週次レポート作成"),  # no port in レポート
    ("ボット一覧", "- 通知用のボット\n", "agents"),  # the word itself still counts
    ("サーバーのポート", "- 8080 と 443\n", "infrastructure"),
])
def test_a_katakana_word_that_holds_a_shorter_cue_is_its_own_word(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading", ["当前关注点", "待处理", "🔧 待處理事項", "關注點（本月）"])
def test_what_is_in_focus_or_pending_is_open_work(heading):
    assert domain(heading, "- 申请新的接口密钥\n- 整理测试用例\n") == "projects"


def test_a_body_s_pending_item_is_no_project():
    assert domain("最近结论", "- 告警已经收敛\n- 运维脚本待处理\n- 监控面板正常\n") == "infrastructure"


@pytest.mark.parametrize("heading", ["例行任務", "例行任务"])
def test_routine_tasks_are_the_agent_s_scheduled_runs(heading):
    assert domain(heading, "- 每天早上八點整理新聞\n- 每週一備份筆記\n") == "agents"


def test_settings_over_the_agent_s_models_are_the_agent_s():
    body = "- 新しいモデルは二か所に登録する\n- サブエージェントの既定モデル\n- グループでの呼び名\n"
    assert domain("🔧 重要設定", body, Context(TABLE, _AGENT_FILE)) == "agents"


def test_settings_over_a_machine_stay_with_the_machine():
    body = "- 自動バックアップのスクリプト\n- ボリュームを永続化した\n"
    assert domain("⚙️ システム設定", body, Context(TABLE, _AGENT_FILE)) == "infrastructure"


@pytest.mark.parametrize("heading", ["工具配置", "ツール設定"])
def test_in_an_agent_s_own_memory_its_tools_settings_are_the_agent_s(heading):
    assert domain(heading, "- 搜索：先用技能市场，失败再换\n", Context(TABLE, _AGENT_FILE)) == "agents"


@pytest.mark.parametrize("heading", ["📁 メモリーシステム構造", "記憶システムの整理", "記憶維護方式", "🗂️ 任務排程器", "中央任务调度"])
def test_the_agent_s_memory_system_and_scheduler_in_cjk_spellings_are_the_agent_s(heading):
    assert domain(heading, "- 每天整理一次\n- 舊的移到別處\n") == "agents"


@pytest.mark.parametrize("heading, body, expected", [
    ("🗓️ 更新記錄", "- 4/2 改了兩處\n- 4/5 新增一節\n", "archive"),
    ("修改记录", "- 改了两处\n", "archive"),
    ("今後の実装予定", "- [ ] 天気の連携\n- [ ] 通知の整理\n", "projects"),
    ("今後の予定", "- 4月3日 打ち合わせ\n", "dates"),  # the calendar's plans stay dates
])
def test_a_record_of_updates_is_a_changelog_and_a_planned_addition_is_work(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("2026-02-23", "- 画像生成スキルを入れた\n- サーバーの証明書を更新\n- 家族の誕生日を登録\n", "archive"),
    ("📅 2026年2月25日", "- 新しい検索の設定を試した\n", "archive"),
    ("2026-02-28", "- TODO: 请求書の送付（まだ）\n", "projects"),  # the day's matter is still open
])
def test_a_heading_that_is_only_a_day_is_that_day_s_record(heading, body, expected):
    """A daily log inside MEMORY.md heads each day's notes with the day alone: nothing but the day
    says what the section is about, so it is a past day's record, not the subject of one of its lines."""
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("🤝 協業の確定事項", "- 4月に試験導入\n- 担当は二名\n", "projects"),  # not the handshake's people
    ("阻塞問題（5月起）", "- 瀏覽器登入一直失敗\n", "projects"),  # a blocker, whatever blocks it
    ("⭐ 核心指令（优先级最高）", "- 先查笔记再回答\n", "rules"),
    ("路徑對應", "- 筆記在 /data/notes\n- 圖片在 /data/img\n", "infrastructure"),
    ("已停止 / 已过期项目", "- 旧的小程序\n- 去年的活动页\n", "archive"),
    ("新增能力：日历 集成", "- 可以读写日程\n", "agents"),
    ("AI 团队", "- 三个助手分工：写作、检索、校对\n", "agents"),  # a team of agents, not colleagues
    ("技术决策记录", "- 选用 SQLite 而不是 Postgres\n", "codebase"),
])
def test_cjk_words_for_classes_the_english_tables_hold(heading, body, expected):
    assert domain(heading, body) == expected


def test_core_instructions_are_pinned():
    text = "# 记忆\n\n## 核心指令（用户明示）\n\n- 先查笔记再回答\n- 回答用中文\n\n## 项目\n\n- 新版官网\n"
    plan = shape.plan(text, {})
    assert next(p for p in plan.parts if p.title.startswith("核心指令")).pinned


@pytest.mark.parametrize("heading, body, expected", [
    ("2026-03-26 OpenClaw 插件安裝", "- 已完成安裝，設定好預設值\n", "agents"),  # the plugin is still there
    ("2026-04-02 搜索功能整合（已完成）", "- 三个页面接上新接口\n", "codebase"),
    ("2026-04-03 部落格排版修復", "- 已修復，三篇文章重新排版\n", "archive"),  # a fix is the day's record
    ("2026-04-04 安裝", "- 已完成\n", "archive"),  # set up, but nothing says what
])
def test_a_dated_entry_that_set_something_up_is_filed_by_what_it_set_up(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, body, expected", [
    ("📋 OpenClaw Cron 最佳實踐", "- 每個任務寫清楚時區\n- 失敗要重試三次\n", "lessons"),  # the kind of note, whatever it is about
    ("⚠️ 重要技術限制", "- 終端機不能開圖形介面\n", "lessons"),
    ("Dashboard 代码存档", "- v2 的页面代码放在 archive/ 下\n", "codebase"),  # a saved copy of the code is the code
    ("存档", "- 去年的笔记\n", "archive"),
    ("2025 存檔", "- 舊的筆記\n", "archive"),
])
def test_best_practices_and_limits_are_lessons_and_a_saved_copy_is_its_subject(heading, body, expected):
    assert domain(heading, body) == expected


@pytest.mark.parametrize("heading, expected, pinned", [
    ("目录约定（重整后）", "codebase", False),  # the code's conventions, not an agreement with the agent
    ("命名約定", "codebase", False),
    ("重要约定", "rules", True),  # an agreement alone stays a standing rule
])
def test_a_code_convention_said_with_yueding_is_the_code_s(heading, expected, pinned):
    text = f"# 记忆\n\n## {heading}\n\n- 目录按模块分\n- 文件名用小写\n\n## 项目\n\n- 新版官网\n"
    part = shape.plan(text, {}).parts[0]
    assert (part.domain if not part.pinned else "rules", part.pinned) == (expected, pinned)


def test_of_two_domains_a_body_names_as_strongly_the_heading_s_emoji_picks_one():
    """"🔑 重要設定": the broad word for settings lets the body decide; the body names the keys and
    the agent's bots as strongly, and the key emoji breaks that tie (emoji decorate: they break ties)."""
    body = "- API Keys（加密存放）：搜尋平台、Telegram 機器人\n- 載入腳本在 scripts/ 下\n"
    assert domain("🔑 重要設定", body, Context(TABLE, _AGENT_FILE)) == "accounts"
