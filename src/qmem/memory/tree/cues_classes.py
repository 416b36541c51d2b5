"""Kinds of notes that no language's table named, found after the languages (`cues_langs.py`): a
probe of terse headings written for the purpose (tastes, banking, school, editors, CI, leads), then
what real files showed (issue 27): casual Japanese, a household, a student's and a researcher's
life, the agent's own machinery (scheduled jobs, tools, models, its memory files), traps, health,
file storage, a project's layout, the agent's own profile. Steps of `cues_more.py`'s kinds, which
`cues_more.STEPS` applies after the languages', in this order (it decides every tie). With them,
`KNOWN_ISSUES`: the words for what is known to go wrong, which `agentic.py` reads. Data only.
"""

from __future__ import annotations

STEPS: list[tuple[str, dict | list]] = []  # (kind, value): the kinds are cues_more.py's

# Terse headings of everyday and technical life that no list named (session 4, from a probe of
# headings written for the purpose): hobbies and tastes, banking and the dentist, school, editors and
# shells, CI and SLOs, leads, references. A single-word Spanish or English cue that another
# language's word inflects into is exact (`*personas`: never "persona"; `*editors`: people who edit).
STEPS.append(("cues", {
    "identity": {
        "en": ["food", "movies", "films", "music", "sports", "fitness", "exercise", "groceries", "chores",
               "school?", "university", "college", "style guide for replies", "writing style"],
        "zh": ["美食", "书单", "音乐", "电影", "运动", "健身", "学校?", "大学", "家务"],
        "zht": ["美食", "書單", "音樂", "電影", "運動", "健身", "學校?", "大學", "家務"],
        "ja": ["食べ物", "読書", "音楽", "映画", "運動", "筋トレ", "学校?", "大学", "家事"],
        "ko": ["음식", "독서", "음악", "영화", "운동", "헬스", "학교?", "대학", "집안일"],
        "es": ["comida", "libros", "música", "películas", "deporte", "colegio?", "universidad"],
        "fr": ["cuisine", "livres", "musique", "films", "sport", "école?", "université"],
        "pt": ["comida", "livros", "música", "filmes", "esporte", "escola?", "faculdade", "universidade"],
        "de": ["essen", "bücher", "musik", "filme", "sport", "schule?", "universität"],
        "ru": ["еда", "книги", "музыка", "фильмы", "спорт", "школа?", "университет", "вуз"],
        "vi": ["ẩm thực", "sách", "âm nhạc", "phim", "thể thao", "trường học?", "đại học"],
        "it": ["cibo", "libri", "musica", "sport", "scuola?", "università"],
    },
    "private": {
        "en": ["bank", "banking", "dentist", "subscriptions"],
        "zh": ["银行", "牙医", "订阅"], "zht": ["銀行", "牙醫", "訂閱"], "ja": ["銀行", "歯医者", "サブスク"],
        "ko": ["치과", "구독"], "es": ["banco", "dentista", "suscripciones"], "fr": ["banque", "dentiste", "abonnements"],
        "pt": ["banco", "dentista", "assinaturas"], "de": ["bank", "zahnarzt", "abos", "abonnements"],
        "ru": ["банк", "стоматолог", "подписки"], "vi": ["ngân hàng", "nha sĩ"], "it": ["banca", "dentista", "abbonamenti"],
    },
    "infrastructure": {
        "en": ["ci", "ci pipeline", "github actions", "slo", "slos", "uptime", "vim", "neovim", "emacs", "vscode",
               "vs code", "ide", "text editor", "shell", "zsh", "aliases", "hotkeys", "keyboard shortcuts", "terminal"],
        "zh": ["快捷键", "终端", "编辑器"], "zht": ["快捷鍵", "終端機", "編輯器"], "ja": ["ショートカット", "ターミナル", "エディタ"],
        "ko": ["단축키", "터미널", "에디터"],
    },
    "codebase": {"en": ["api design", "dependencies"]},
    "lessons": {"en": ["faq", "faqs", "@links?", "bookmarks", "@resources?", "@references?", "cheatsheet", "cheat sheet",
                       "glossary", "terminology"],
                "zh": ["常见问题", "术语", "参考资料"], "zht": ["常見問題", "術語", "參考資料"], "ja": ["よくある質問", "用語集", "参考資料"],
                "ko": ["자주 묻는 질문", "용어", "참고 자료"], "es": ["preguntas frecuentes", "glosario", "@referencias?"],
                "fr": ["glossaire", "@références?"], "pt": ["perguntas frequentes", "glossário", "@referências?"],
                "de": ["glossar", "häufige fragen"], "ru": ["глоссарий", "частые вопросы"]},
    "business": {"en": ["leads", "prospects", "crm"]},
}))

# Everyday CJK words the lists lacked (a probe of headings written for the purpose).
STEPS.append(("cues", {
    "identity": {"zh": ["@工作?", "兴趣"], "zht": ["@工作?", "興趣"], "ko": ["취미", "관심사"]},
    "projects": {"zh": ["学习?"], "zht": ["學習?"], "ko": ["공부?"]},
    "business": {"ja": ["注文", "受注"], "ko": ["주문", "재정", "재무"]},
    "private": {"ko": ["가계부"]},
    "archive": {"ko": ["@완료", "@끝난 일"]},
}))
STEPS.append(("cues", {
    "identity": {"vi": ["giới thiệu", "thông tin cá nhân"]},
    "community": {"vi": ["nhóm?", "nhóm zalo", "hội"]},
    "projects": {"de": ["offen?", "offene punkte"]},
    "dates": {"de": ["*termine", "*termin"]},   # Arzttermine, Zahnarzttermin: a compound is what its last part says
    "infrastructure": {"de": ["heimnetz*", "*netzwerk", "*server"]},
}))
STEPS.append(("cues", {
    "people": {"de": ["leute", "menschen"]},
    "private": {"ru": ["зарплат*", "ипотек*", "сбережени*"]},
}))
STEPS.append(("rules", ["how to work with me", "working with me", "so arbeitest du mit mir", "wie du mit mir arbeitest",
                  "comment travailler avec moi", "como trabalhar comigo", "cómo trabajar conmigo",
                  "come lavorare con me", "как со мной работать", "cách làm việc với tôi"]))
STEPS.append(("cues", {
    "people": {"ko": ["팀?", "팀원들"]},
    "projects": {"ko": ["남은 일", "남은 작업", "해야 할 일"], "zh": ["剩下的事", "待做"], "ja": ["残りの作業"]},
    "infrastructure": {"ja": ["道具", "仕事道具"]},
}))
STEPS.append(("emoji", {
    "🏠": "identity", "🏡": "identity", "🐶": "identity", "🐱": "identity", "🐾": "identity", "🍽": "identity",
    "🍳": "identity", "☕": "identity", "🏋": "identity", "🏃": "identity", "🎵": "identity", "🎮": "identity",
    "🏥": "private", "💊": "private", "🩺": "private", "🦷": "private", "🏦": "private", "💳": "private",
    "✈": "dates", "🧳": "dates", "🗺": "dates", "🏖": "dates", "⏰": "dates", "🎉": "dates",
    "🔧": "infrastructure", "🧰": "infrastructure", "🖨": "infrastructure", "📱": "infrastructure", "📡": "infrastructure",
    "🐛": "codebase", "🧪": "codebase", "📖": "lessons", "🧠": "lessons", "🔗": "lessons",
    "📊": "business", "🧾": "business", "🛒": "business", "🏪": "business", "📞": "people", "☎": "people", "📇": "people",
    "🚫": "rules", "⛔": "rules",
}))
STEPS.append(("cues", {"identity": {"fr": ["@identité"], "pt": ["@identidade"], "es": ["@identidad"], "it": ["@identità"],
                      "de": ["@identität"], "ru": ["@личность"]}}))
# Whole classes the tables lacked (issue 27, unseen files): the everyday words of casual Japanese written
# in kana (友だち, おかね), a household and the family as the people around the user, a student's own money
# (scholarship, allowance) as private, theses as projects, and the plain word for "code" and for automatons.
STEPS.append(("cues", {
    "people": {"en": ["household", "the household", "housemates", "in-laws"],
               "ja": ["友だち", "友達", "ともだち", "仲間", "同期", "知り合い", "かぞく", "両親", "親戚", "家族とか"]},
    "private": {"en": ["scholarship", "student loan", "student loans", "allowance", "pocket money", "living costs", "tuition"],
                "zh": ["奖学金", "助学贷款", "生活费", "零花钱", "学费"], "zht": ["獎學金", "就學貸款", "生活費", "零用錢", "學費"],
                "ja": ["おかね?", "奨学金", "仕送り", "生活費", "おこづかい", "お小遣い", "学費", "返済"]},
    "projects": {"ja": ["修論", "卒論", "博論", "修士論文", "卒業論文", "論文"], "zht": ["論文"]},
    "community": {"en": ["oss"], "ja": ["オフ会", "ファン", "リスナー"]},
    "codebase": {"ru": ["код", "кода"], "uk": ["код"], "pl": ["kod"], "tr": ["kod", "kod kuralları"], "cs": ["kód"]},
    "agents": {"pl": ["automaty"], "de": ["automatisch*"], "en": ["automated jobs", "scheduled agents"]},
    "dates": {"ru": ["даты"], "uk": ["дати"]},
    "lessons": {"pl": ["czego się nauczyłam", "czego się nauczyliśmy", "nauczyłam się", "nauczyłem się"]},
}))
STEPS.append(("rules", ["規矩", "相處的規矩", "相处的规矩"]))
# The people of a student's or researcher's life (advisor, supervisor, lab mates) in each table language;
# what we learned in Turkish; tests that flake and end-to-end runs as code; a creator's income as business.
STEPS.append(("cues", {
    "people": {"id": ["pembimbing", "dosen pembimbing", "rekan", "rekan kerja", "rekan lab"],
               "tr": ["danışman", "danışmanım", "hocam", "iş arkadaşları"], "pl": ["promotor", "promotorka"],
               "it": ["relatore", "relatrice"], "es": ["director de tesis", "directora de tesis"],
               "pt": ["orientador", "orientadora"], "de": ["betreuer", "betreuerin", "doktorvater", "doktormutter"],
               "ru": ["научрук", "научный руководитель"], "vi": ["giáo viên hướng dẫn", "thầy hướng dẫn", "cô hướng dẫn"],
               "ja": ["研究室の同期", "ラボメンバー"], "zh": ["师姐", "师弟", "师妹", "课题组"], "zht": ["學姊", "學弟", "學妹"]},
    "lessons": {"tr": ["öğrendiklerim*", "öğrendikler*", "öğrendiğim*"]},
    "codebase": {"en": ["e2e", "flaky tests", "flaky test", "test suite", "regression tests"]},
    "business": {"ja": ["収益", "収益化", "投げ銭", "スパチャ", "広告収入", "案件単価"], "zh": ["打赏", "广告收入", "带货"],
                 "en": ["ad revenue", "sponsorships", "brand deals", "payouts"]},
}))
# The agent's own machinery in real technical memory (issue 27, the real sets): its scheduled jobs
# (cron jobs, 定期タスク, Cron 任务: the agent's runs, not a project's tasks nor a server's crontab), the
# tools and skills it may use (使えるツール), the models and providers it runs on (モデル設定), and what
# it can do (capabilities). A cue of two words outweighs the single word for tasks, tools or settings.
# "Cron jobs" names the agent's runs in a heading only: in a body ("the nightly cron job on the server")
# it is the server's.
STEPS.append(("cues", {
    "agents": {
        "en": ["@cron jobs", "@cron job", "@cron tasks", "@scheduled tasks", "@scheduled jobs", "@periodic tasks",
               "@recurring tasks", "heartbeat tasks", "heartbeats", "available tools", "tools i can use", "tools available", "tool list",
               "model config", "model configuration", "model settings", "model setup", "model routing", "llm providers",
               "ai providers", "model provider", "search provider", "web search provider", "inference provider",
               "capabilities", "core capabilities", "what i can do", "mcp servers"],
        "zh": ["@cron 任务", "定期任务", "周期任务", "计划任务", "心跳任务", "可用工具", "可用的工具", "模型配置", "模型设置",
               "模型选择", "使用的模型", "技能列表"],
        "zht": ["@cron 任務", "定時任務", "排程任務", "週期任務", "可用工具", "可用的工具", "模型設定", "模型配置", "模型選擇"],
        "ja": ["定期タスク", "定期実行", "定期ジョブ", "@cron ジョブ", "@cronジョブ", "スケジュールタスク", "ハートビート", "使えるツール",
               "利用できるツール", "利用可能なツール", "使用できるツール", "モデル設定", "モデル構成", "使用モデル", "スキル一覧",
               "できること"],
        "vi": ["tác vụ định kỳ", "@cron job", "công cụ có thể dùng", "cấu hình model"],
    },
}))
# Phrasings real headings use for a kind of note (issue 27, the real sets): traps and footguns are
# lessons, "who I help" is the agent's own identity, one-liners and snippets are code, the users allowed
# to talk to the agent are people, an agent's behaviour in a channel and the operator's standing calls
# are rules.
STEPS.append(("cues", {
    "lessons": {"en": ["traps", "known traps", "footguns", "foot-guns", "caveats", "landmines", "sharp edges", "watch-outs"],
                "zh": ["陷阱", "注意坑"], "zht": ["陷阱"], "ja": ["落とし穴", "ハマりどころ"]},
    "identity": {"en": ["who i help", "who i serve", "who i work for", "who i'm helping", "who i assist"]},
    "codebase": {"en": ["one-liners", "snippets", "code snippets"]},
    "people": {"en": ["authorized users", "allowed users", "approved users", "authorised users"]},
    "rules": {"en": ["@behavior", "@behaviour", "@etiquette", "@standing decisions", "@standing calls", "@design calls",
                     "@standing requests", "@standing preferences"]},
}))
# Words of the real CJK files the tables lacked (issue 27, the real sets): the katakana word for a client
# (クライアント), what the agent or user made (作成したもの), the agent's own memory files and their index
# (记忆文件索引), and recent updates as a record of changes (Cập nhật gần đây, 最近更新).
STEPS.append(("cues", {
    "business": {"ja": ["クライアント", "クライアント情報"]},
    "projects": {"en": ["things i built", "what i've built", "what i built"], "ja": ["作成したもの", "作ったもの", "成果物"],
                 "zh": ["做过的东西", "已做的东西"], "zht": ["做過的東西"]},
    "agents": {"en": ["memory files", "memory index", "memory layout"], "zh": ["记忆文件", "记忆索引"], "zht": ["記憶檔案", "記憶索引"],
               "ja": ["記憶ファイル", "メモリファイル"]},
    "archive": {"en": ["@recent updates", "@recent changes"], "vi": ["@cập nhật gần đây"], "zh": ["@最近更新", "@近期更新"],
                "zht": ["@最近更新", "@近期更新"], "ja": ["@最近の更新"]},
}))
# How the agent's memory is built is the agent's ("Memory Architecture"), as its memory system is.
STEPS.append(("cues", {
    "agents": {"en": ["memory architecture", "memory structure", "memory design"], "zh": ["记忆架构", "记忆结构"],
               "zht": ["記憶架構", "記憶結構"], "ja": ["記憶構造", "メモリ構成", "記憶の構成"]},
}))
# A log of past sessions is their record (archive); what things cost is business (issue 27, the real sets).
STEPS.append(("cues", {
    "archive": {"en": ["@session log", "@session logs", "@session history", "@work log"], "zh": ["@会话记录", "@会话日志"],
                "zht": ["@會話紀錄"], "ja": ["@セッションログ", "@作業ログ"]},
    "business": {"en": ["costs", "cost analysis", "cost breakdown"], "zh": ["成本", "成本分析"], "zht": ["成本", "成本分析"],
                 "ja": ["コスト分析", "原価"]},
}))
# A person's health as real files write it (supplements, symptoms, a diagnosis, lab results): private.
# Symptoms and a diagnosis are also a bug's ("Symptoms when the gateway hangs"): broad, the body decides.
STEPS.append(("cues", {
    "private": {"en": ["supplements", "probiotics", "symptoms?", "diagnosis?", "diagnoses?", "phenotype", "lab results",
                       "blood work", "bloodwork", "flare-ups"],
                "zh": ["症状?", "诊断?", "保健品", "益生菌", "化验"], "zht": ["症狀?", "診斷?", "保健食品", "益生菌", "檢驗報告"],
                "ja": ["症状?", "診断?", "サプリ", "サプリメント", "検査結果"]},
}))
# Where files are kept is a system ("KDRIVE (FILE STORAGE)"): the two words outweigh a body about the invoices kept there.
STEPS.append(("cues", {
    "infrastructure": {"en": ["file storage", "cloud storage", "object storage", "file hosting", "file server"],
                       "zh": ["文件存储", "云存储", "对象存储"], "zht": ["檔案儲存", "雲端儲存"], "ja": ["ファイルストレージ", "クラウドストレージ"]},
}))

# Where a project's code lives and what files a piece of work wrote: the project's root, its key
# directories, the files created or changed (the tables had "directory structure" and "key files").
STEPS.append(("cues", {"codebase": {"en": [
    "project root", "repo root", "repository root", "root directory", "key directories", "directory layout",
    "folder layout", "file layout", "code layout", "source tree", "files created", "files changed", "files modified",
    "files touched", "new files"]}}))

# The words for what is known to go wrong (listed above with the code's): in an agent's own memory
# `agentic.py` reads them as gotchas.
KNOWN_ISSUES = frozenset((
    "known issues", "known bugs", "known limitations", "known gaps", "已知问题", "已知缺陷", "已知問題", "既知の不具合",
    "既知の問題", "알려진 문제", "알려진 이슈", "problemas conocidos", "errores conocidos", "fallos conocidos",
    "problèmes connus", "bugs connus", "problemas conhecidos", "bugs conhecidos", "известные проблемы",
    "известные ошибки", "bekannte probleme", "bekannte fehler", "lỗi đã biết", "vấn đề đã biết", "problemi noti",
    "bug noti", "bekende problemen", "bekende bugs", "znane problemy", "znane błędy", "bilinen sorunlar",
    "bilinen hatalar", "masalah yang diketahui"))

# The agent's own profile is identity (the judging rule: "who the user (or the agent itself) is"): "About This
# Agent" describes who the agent is, not the agents it runs.
STEPS.append(("cues", {"identity": {"en": [
    "about this agent", "about the agent", "about this assistant", "about the assistant", "about this bot",
    "about the bot", "agent identity", "assistant identity", "bot identity", "agent profile", "assistant profile",
    "who the agent is", "who this agent is"]}}))

# "Framework" names a structure of whatever the rest says: a program's ("Frontend frameworks"), as often a way of
# thinking ("Strategic Intelligence Framework", "Decision framework", "Trading frameworks"). A broad word: a body
# clearly about another domain files the section there; a heading that is the word alone is still the code's.
# ("Architecture" is as broad, but a broad word alone names no topic for `rules_only_aside`, and "Checkout
# Architecture — Design Principles" must stay the code's: left as it is.)
STEPS.append(("broaden", {"codebase": ["frameworks"]}))
# So is "workflow": an agent's procedure, as often the user's way of doing anything ("Job Application and CV
# Workflow", "Content Pipeline Workflow" over the posts it makes, "Git Workflow"): the body or another heading
# word says whose; alone ("## Workflow") it is still the agent's.
STEPS.append(("broaden", {"agents": ["workflow"]}))
