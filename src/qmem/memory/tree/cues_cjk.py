"""Cue data for Chinese (Simplified and Traditional), Japanese, Korean and Vietnamese found missing
or misleading on real files (issue 27, the real CJK sets), as steps `cues.py` applies after
`cues_more.STEPS` (same kinds; "broaden" marks words a domain lists already as broad, `?`: a heading
that names the domain only by them is filed by its body when the body is clear). Data only.

HIDING: words written in a script matched as a substring that hold a cue inside them but are other
words (ロボット "robot" holds ボット "bot", レポート "report" and サポート "support" hold ポート "port"):
the matcher finds them as words of no domain, so the cue inside is not found.
"""

from __future__ import annotations

STEPS: list[tuple[str, dict | list]] = []

# Research and a planned work are pieces of work: "リサーチ: X", "调研：X", "アート構想: Y" are the
# user's projects, whatever the study is about (agents, robots, a policy). Heading words only: a body's
# "研究" (to look into) is no project.
STEPS.append(("cues", {
    "projects": {"ja": ["@リサーチ", "@サーベイ", "@調査研究", "@構想", "@研究メモ"],
                 "zh": ["@调研", "@研究", "@构想", "@课题研究"], "zht": ["@調研", "@研究", "@構想"],
                 "ko": ["@리서치", "@연구", "@구상"], "vi": ["@nghiên cứu", "@khảo sát"]},
}))

# What the user or agent is focused on, and what is still pending, is open work (当前关注点, 待处理,
# 關注事項), in a heading (a body's "待处理" is one item among others); routine tasks in an agent's memory are its scheduled runs (例行任务), as 定时任务 are.
STEPS.append(("cues", {
    "projects": {"zh": ["@关注点", "@当前关注", "@待处理", "@待跟进", "@跟进事项"],
                 "zht": ["@關注點", "@當前關注", "@待處理", "@待跟進", "@跟進事項"],
                 "ja": ["@対応中", "@未対応", "@懸案", "@今後の課題"], "ko": ["@진행 상황", "@대기 중", "@후속 조치"]},
    "agents": {"zh": ["@例行任务", "@日常任务"], "zht": ["@例行任務", "@日常任務"], "ja": ["@ルーティンタスク"]},
}))

# Settings and the system are said of the agent as often as of a machine ("重要設定" over a model
# registry, "系統設定" over the agent's models): broad words, as English "setup", "config" are.
STEPS.append(("broaden", {"infrastructure": ["設定", "配置"]}))

# The agent's memory system as CJK files spell it (メモリーシステム, 記憶システム, 记忆管理), and its
# scheduler in either word order (中央任務排程器, 任务调度): the agent's machinery, as 记忆系统 and 排程任務 are.
STEPS.append(("cues", {
    "agents": {"ja": ["メモリーシステム", "メモリシステム", "記憶システム", "メモリー構造", "メモリ構造", "メモリー管理", "メモリ管理",
                      "記憶管理"],
               "zh": ["记忆管理", "记忆维护", "@任务排程", "@任务调度", "@排程器"],
               "zht": ["記憶系統", "記憶管理", "記憶維護", "@任務排程", "@任務調度", "@排程器"],
               "ko": ["메모리 시스템", "기억 시스템", "메모리 관리"]},
}))
# A record of updates is a changelog (更新記錄, 更新记录, 修改記錄), as 更新日誌 and 変更履歴 are; a Japanese
# "planned addition" (追加予定, 実装予定) is work still to do, not a day in the calendar (予定 alone stays dates).
STEPS.append(("cues", {
    "archive": {"zh": ["@更新记录", "@修改记录", "@更新纪录"], "zht": ["@更新記錄", "@更新紀錄", "@修改記錄", "@改版記錄"],
                "ko": ["@업데이트 기록", "@변경 기록"]},
    "projects": {"ja": ["追加予定", "実装予定", "導入予定", "対応予定", "開発予定", "作成予定", "公開予定"]},
}))

# Words of the real CJK files for classes the tables hold in English: decided matters (確定事項) and
# blockers (阻塞問題) are a project's, the user's standing instructions (核心指令) are rules, paths on a
# host (路徑對應) are the machine's, stopped or expired work (已停止, 已过期) is closed, what the agent can
# newly do (新增能力) and a team of AI agents (AI 团队) are the agent's, technical decisions (技术决策记录,
# an architecture decision record) are the code's.
STEPS.append(("cues", {
    "projects": {"ja": ["確定事項", "決まったこと", "ブロッカー"], "zh": ["@确定事项", "阻塞问题", "@阻塞"],
                 "zht": ["@確定事項", "阻塞問題", "@阻塞"]},
    "rules": {"zh": ["@核心指令", "@用户指令", "@长期指令"], "zht": ["@核心指令", "@用戶指令", "@長期指令"],
              "ja": ["@基本指示", "@常時指示"]},
    "infrastructure": {"zh": ["路径", "文件路径", "路径对应"], "zht": ["路徑", "檔案路徑", "路徑對應"],
                       "ja": ["ファイルパス", "パス一覧", "保存先"]},
    "archive": {"zh": ["@已停止", "@已过期", "@已终止", "@已下线"], "zht": ["@已停止", "@已過期", "@已終止", "@已下線"],
                "ja": ["@停止済み", "@終了済み", "@期限切れ"]},
    "agents": {"zh": ["@新增能力", "@核心能力", "@能力清单", "ai 团队", "ai团队", "智能体团队"],
               "zht": ["@新增能力", "@核心能力", "ai 團隊", "ai團隊"], "ja": ["aiチーム", "ai チーム"], "ko": ["ai 팀"]},
    "codebase": {"zh": ["技术决策", "架构决策"], "zht": ["技術決策", "架構決策"], "ja": ["技術的決定", "技術選定"]},
}))
STEPS.append(("rules", ["核心指令", "用户指令", "用戶指令", "长期指令", "長期指令"]))

# Best practices (最佳實踐) and known technical limits (技術限制) are lessons, as "best practices" and
# "gotchas" are.
STEPS.append(("cues", {
    "lessons": {"zh": ["最佳实践", "技术限制", "已知限制"], "zht": ["最佳實踐", "技術限制", "已知限制"],
                "ja": ["ベストプラクティス", "技術的制約", "既知の制約"], "ko": ["모범 사례", "베스트 프랙티스"],
                "vi": ["thực tiễn tốt nhất"]},
}))
# 存档/存檔 after a subject is where a copy of it is kept ("Dashboard 代码存档", "投资分析报告存档": the code,
# the reports): a broad word, so the subject's domain files it; alone ("存档", "2025 存档") it is still archive.
STEPS.append(("broaden", {"archive": ["@存档", "@存檔"]}))

# A code convention said with 约定 (目录约定, 命名约定, 提交约定) is the code's, as 代码规范 and "naming
# conventions" are; 约定 alone ("重要约定") stays a standing agreement with the agent (rules).
STEPS.append(("cues", {
    "codebase": {"zh": ["目录约定", "命名约定", "代码约定", "编码约定", "接口约定", "提交约定", "分支约定", "目录规范"],
                 "zht": ["目錄約定", "命名約定", "程式碼約定", "介面約定", "提交約定", "分支約定", "目錄規範"],
                 "ja": ["命名の約束", "ディレクトリ規約", "コミット規約"]},
}))

HIDING: tuple[str, ...] = (
    "ロボット", "レポート", "サポート", "パスポート", "インポート", "エクスポート", "トランスポート",
    "コンテスト", "レコード",
)
