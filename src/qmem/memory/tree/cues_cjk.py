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

# -- whole classes a reader lists, per language ----------------------------------------------------
# The tables held these classes in English and Chinese but thinly in Japanese katakana, Korean and
# Vietnamese (an agent's skills, models and scheduled runs; code's scripts, branches and commits; a
# host's cloud, containers and environment variables; pitfalls, troubleshooting and workarounds).
# Written as a reader lists the class, not as one file words it; compounds where a short word is
# everyday speech (Korean 기억 "to remember": only 기억 파일, 기억 시스템).
STEPS.append(("cues", {
    "agents": {
        "zh": ["大语言模型", "语言模型", "大模型", "插件", "图像生成", "生图", "文生图", "语音合成", "语音识别", "知识库检索",
               "系统提示词", "子代理", "子智能体", "定时执行"],
        "zht": ["大型語言模型", "語言模型", "大模型", "外掛", "插件", "圖像生成", "生圖", "語音合成", "語音辨識", "系統提示詞",
                "子代理", "技能", "提示詞", "智能體", "工作流", "定時任務"],
        "ja": ["言語モデル", "大規模言語モデル", "生成ai", "画像生成", "音声合成", "音声認識", "システムプロンプト", "プラグイン",
               "チャットボット", "ナレッジベース", "ベクトル検索", "cron設定", "定期処理", "ツール連携"],
        "ko": ["스킬", "서브 에이전트", "서브에이전트", "챗봇", "언어 모델", "대규모 언어 모델", "모델 설정", "사용 모델", "크론",
               "크론 작업", "정기 작업", "예약 작업", "스케줄 작업", "하트비트", "기억 파일", "메모리 파일", "사용 가능한 도구",
               "도구 목록", "이미지 생성", "음성 인식", "음성 합성", "플러그인", "시스템 프롬프트", "워크플로우"],
        "vi": ["kỹ năng của agent", "mô hình ngôn ngữ", "lời nhắc", "tác tử", "trợ lý ai", "hệ thống bộ nhớ",
               "tệp bộ nhớ", "công việc định kỳ", "lịch chạy", "tạo ảnh", "sinh ảnh", "nhận dạng giọng nói",
               "tổng hợp giọng nói"],
    },
    "codebase": {
        "zh": ["程式", "函数", "代码分支", "分支管理", "提交规范", "单元测试", "依赖项", "依赖管理", "前端", "后端", "组件", "重构", "调试",
               "代码仓库", "源码", "编译", "构建", "类型定义", "数据结构"],
        "zht": ["程式", "程式碼", "函式", "分支管理", "單元測試", "依賴項", "前端", "後端", "元件", "重構", "除錯", "原始碼",
                "編譯", "建置", "資料結構", "代碼", "介面", "架構"],
        "ja": ["ライブラリ", "フレームワーク", "エンドポイント", "関数", "クラス設計", "型定義", "コミット", "ブランチ",
               "プルリクエスト", "デバッグ", "例外処理", "エラー処理", "実装方針", "実装メモ", "ソースコード", "プログラム", "ユニットテスト"],
        "ko": ["코드", "구현", "테스트", "빌드", "리팩토링", "리팩터링", "의존성", "프론트엔드", "백엔드", "컴포넌트", "엔드포인트",
               "라이브러리", "프레임워크", "함수", "커밋", "브랜치", "디버깅", "리포지토리", "레포지토리", "소스 코드"],
        "vi": ["lập trình", "thư viện", "nhánh git", "gỡ lỗi", "tái cấu trúc", "điểm cuối", "giao diện lập trình",
               "kiểm thử đơn vị", "phụ thuộc", "cấu trúc mã", "viết code"],
    },
    "infrastructure": {
        "zh": ["容器", "云服务", "云服务器", "虚拟机", "环境变量", "运维", "硬盘", "磁盘", "主机", "内网"],
        "zht": ["容器", "雲端", "虛擬機", "環境變數", "維運", "硬碟", "磁碟", "主機", "內網", "伺服器", "部署", "資料庫"],
        "ja": ["クラウド", "コンテナ", "環境変数", "ホスト", "仮想マシン", "ディスク", "本番環境", "サーバー構成",
               "インスタンス", "ポート番号", "ネットワーク構成"],
        "ko": ["클라우드", "도커", "컨테이너", "환경 변수", "환경변수", "포트", "경로", "파일 경로", "호스트", "운영 환경", "개발 환경",
               "스토리지", "저장 공간", "라우터", "가상 머신", "디스크", "인스턴스", "서버 설정"],
        "vi": ["đám mây", "biến môi trường", "cổng", "đường dẫn", "môi trường", "môi trường phát triển", "ổ cứng",
               "ổ đĩa", "máy ảo", "máy chủ ảo"],
    },
    "security": {"zh": ["防火墙"], "zht": ["防火牆"], "ja": ["ファイアウォール"], "ko": ["방화벽"], "vi": ["tường lửa"]},
    "lessons": {
        "zh": ["试错", "@坑", "坑点", "大坑", "排错", "故障排查", "问题排查", "排查记录", "经验总结", "绕过方法", "注意点",
               "实战经验", "实战补遗"],
        "zht": ["試誤", "试错", "@坑", "坑點", "大坑", "踩坑", "避坑", "排錯", "故障排除", "疑難排解", "問題排查", "經驗總結", "注意點", "實戰經驗",
                "常見問題", "復盤", "教訓"],
        "ja": ["試行錯誤", "トラブルシューティング", "トラブル対応", "ハマりポイント", "ハマった", "つまずき", "よくあるエラー", "エラー対処", "対処法",
               "回避策", "ワークアラウンド", "注意すべき", "失敗談"],
        "ko": ["주의점", "삽질", "트러블슈팅", "문제 해결", "해결 방법", "팁", "시행착오", "함정", "알게 된 것", "배운 것", "실패 사례",
               "우회 방법", "자주 하는 실수", "@경험"],
        "vi": ["mẹo", "khắc phục sự cố", "xử lý sự cố", "cách khắc phục", "lỗi thường gặp", "cạm bẫy", "điều cần tránh",
               "kinh nghiệm rút ra", "cách giải quyết"],
    },
    "rules": {
        "ko": ["@규정", "@행동 지침", "@금지 사항", "@금지사항", "@필수 사항", "@운영 원칙", "@작업 규칙", "@가이드라인", "@철칙"],
        "vi": ["@điều cấm", "@bắt buộc", "@chỉ thị", "@yêu cầu bắt buộc", "@không được", "@luật"],
        "ja": ["@禁止事項", "@守ること", "@ガイドライン", "@鉄則", "@必須事項"],
        "zh": ["@禁止事项", "@硬性要求", "@必须遵守"], "zht": ["@禁止事項", "@硬性要求", "@必須遵守"],
    },
    "projects": {
        "zh": ["@风险", "@已知风险", "@下一步"], "zht": ["@風險", "@已知風險", "@下一步"],
        "ja": ["@リスク", "@次のステップ", "@現在の状況"],
        "ko": ["@리스크", "@위험 요소", "@현황", "@진행 현황", "우선순위", "결정 사항", "결정사항", "블로커", "다음 단계", "이슈 목록"],
        "vi": ["@rủi ro", "bước tiếp theo", "@quyết định", "vấn đề đang mở", "việc đang làm", "đang thực hiện"],
    },
    "archive": {
        "zh": ["@大事记", "@重要事件", "@事件记录"], "zht": ["@大事記", "@重要事件", "@事件紀錄"],
        "ja": ["@出来事", "@主な出来事", "@できごと"], "ko": ["@주요 사건", "@있었던 일"],
    },
    "identity": {
        "zh": ["=基本", "人设", "角色设定"], "zht": ["=基本", "人設", "角色設定"],
        "ja": ["=基本", "ペルソナ", "キャラ設定", "キャラクター設定"], "ko": ["페르소나", "캐릭터 설정", "=기본"],
        "vi": ["=cơ bản"],
    },
}))

HIDING: tuple[str, ...] = (
    "ロボット", "レポート", "サポート", "パスポート", "インポート", "エクスポート", "トランスポート",
    "コンテスト", "レコード", "ポートフォリオ", "포트폴리오",
)
