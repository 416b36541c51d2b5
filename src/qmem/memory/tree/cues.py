"""The default domains of the bonsai tree and the words that point to them, per language.

Pure data; `domains.py` does the matching. A cue is matched case-insensitively after Unicode
NFKC folding (so full-width ＡＰＩ is api):

- `word`    Latin script: a whole word, English plural (-s, -es) allowed. CJK: anywhere.
- `word*`   a word that starts with it (German compounds: `projekt*` finds Projektstart).
- `*word*`  anywhere, even inside a word (`*passwort*` finds Storagepasswort).
- `@word`   only in a heading (`@about` finds "A bit about me", never "about 40 km").
- `^word`   only at the start of a heading (`^about` finds "About Kevin", never "about 40 km").
- `=word`   only a heading that is exactly this (`=me`).
- `~word`   only in a file with Japanese kana: a Japanese word in kanji that Chinese uses otherwise
            (数字 "figures" vs 数字人 "digital human"). The defaults mark their Japanese-only kanji
            words so (`kana_only`); in `[tree.domains]` write the mark yourself.

A cue of several words (or of three or more CJK characters) weighs 2, a single word 1, a cue
ending in `?` half as much (first-person words in a heading: "Kurz zu mir", "Me in a nutshell"):
"api key" is evidence for accounts, "key" alone is evidence for nothing. Heading cues count
three times body cues. Order matters: a tie goes to the domain listed first.
"""

from __future__ import annotations

from .cues_cjk import STEPS as CJK_STEPS
from .cues_more import STEPS

# Per domain, per language. Languages: en, zh (Simplified), zht (Traditional), ja, de, vi; ko, es, fr, pt, ru
# and it are added by the steps of `cues_more.py` (from `cues_langs.py`), nl, pl, tr, id/ms, sv/da/no, cs, uk, ar,
# hi, th, fa and el by `cues_world.py` (through those steps, in their order).
CUES: dict[str, dict[str, list[str]]] = {
    "accounts": {
        "en": ["passcodes", "sign-in", "access tokens", "keys and tokens", "accounts", "credentials", "logins",
               "login info", "passwords", "api keys", "api key", "access keys", "access key", "tokens?", "secrets?", "api tokens", "bot tokens",
               "app secret", "wallets", "wi-fi password", "service accounts", "service account", "recovery codes",
               "backup codes"],
        "zh": ["登录", "口令", "网盘账号", "邮箱账号", "秘钥", "令牌", "账号", "账户", "密码", "账号密码", "登录信息", "凭证", "私钥", "助记词", "钱包"],
        "zht": ["登入", "口令", "令牌", "帳號", "帳戶", "密碼", "金鑰", "登入資訊", "憑證", "私鑰", "助記詞", "錢包"],
        "ja": ["ログイン", "認証", "暗証番号", "アクセスキー", "アカウント", "ログイン情報", "パスワード", "認証情報", "apiキー", "シークレット", "トークン", "秘密鍵",
               "ウォレット"],
        "de": ["zugänge", "zugang", "anmeldedaten", "kontodaten", "zugangsdaten", "*passwort*", "*passwörter*",
               "konten", "logins", "api-token", "api-schlüssel", "*kennwort*"],
        "vi": ["đăng nhập", "mã pin", "tài khoản", "mật khẩu", "khóa api", "thông tin đăng nhập"],
    },
    "security": {
        "en": ["privacy", "incident response", "access control", "encryption", "malware", "scam", "security",
               "security policy", "2fa", "two-factor", "phishing", "breach", "leaked", "hardening", "access review",
               "vulnerability", "threat model", "security incident"],
        "zh": ["加密", "隐私", "诈骗", "病毒", "漏洞", "网络安全", "安全", "安全规范", "权限审计", "泄露", "钓鱼", "两步验证", "双重验证", "堡垒机", "被盗"],
        "zht": ["加密", "隱私", "詐騙", "漏洞", "資訊安全", "資安", "安全", "權限", "釣魚", "兩步驟驗證", "外洩", "被盜"],
        "ja": ["暗号化", "プライバシー", "詐欺", "ウイルス", "セキュリティ", "二段階認証", "不正ログイン", "情報漏洩", "フィッシング", "脆弱性"],
        "de": ["verschlüsselung", "datensicherheit", "betrug", "sicherheit*", "zwei-faktor*", "phishing"],
        "vi": ["an toàn thông tin", "mã hóa", "lừa đảo trực tuyến", "bảo mật", "xác thực hai yếu tố", "lừa đảo"],
    },
    "archive": {
        "en": ["@recap", "@looking back", "@retrospective of", "@old", "@former", "@previous", "@past", "@retired",
               "@history log", "@year in review", "@archive", "@archived", "@history", "@timeline", "@changelog",
               "@change log", "@key moments", "@old notes", "@incident history", "@completed", "@done", "@finished",
               "@deprecated", "@superseded", "@legacy", "@closed", "@resolved", "@shipped"],
        "zh": ["@回顾", "@年终总结", "@以前", "@过去", "@往年", "@已完成", "@旧", "@归档", "@存档", "@历史", "@旧记录", "@往事",
               "@变更记录", "@变更日志", "@更新日志", "@已废弃", "@已关闭", "@已解决"],
        "zht": ["@回顧", "@年終總結", "@以前", "@過去", "@往年", "@已完成", "@舊", "@歸檔", "@存檔", "@歷史", "@舊紀錄", "@變更紀錄",
                "@更新日誌", "@已結案"],
        "ja": ["@以前", "@過去", "@完了", "@旧", "@アーカイブ", "@過去の記録", "@履歴", "@歴史", "@変更履歴", "@更新履歴", "@終了"],
        "de": ["@früher*", "@vergangen*", "@abgeschlossen*", "@erledigt", "@archiv*", "@verlauf", "@chronik", "@historie",
               "@änderungsprotokoll"],
        "vi": ["@trước đây", "@đã xong", "@cũ", "@lưu trữ", "@lịch sử", "@nhật ký thay đổi", "@đã hoàn thành"],
    },
    "identity": {
        "en": ["@identity", "user information", "user info", "about the owner", "who you are", "owner profile",
               "@me?", "@myself?", "who i am", "about myself", "background", "bio", "biography", "about the user",
               "lifestyle", "routine", "daily routine", "likes", "dislikes", "personal details", "basics",
               "the basics", "@about?", "profile", "user profile", "personal", "personal info", "preferences",
               "personality", "tone", "persona", "habits", "allergies", "allergic", "diet", "hobbies", "likes and dislikes",
               "who we are", "meal", "communication style", "my background", "vegetarian", "vegan"],
        "zh": ["用户信息", "用户画像", "用户偏好", "@身份", "我是谁", "个人简介", "简介", "我的情况", "基本情况", "基本信息", "自我", "生活习惯", "作息", "口味", "@关于", "关于我", "个人", "档案",
               "用户档案", "个人档案", "偏好", "性格", "习惯", "过敏", "爱好", "身份", "个人信息", "自我介绍", "喜欢"],
        "zht": ["使用者資訊", "@身分", "我是誰", "個人簡介", "簡介", "基本資料", "自我介紹", "生活習慣", "作息", "@關於", "關於我", "個人", "檔案", "使用者檔案", "偏好", "性格",
                "習慣", "過敏", "嗜好", "身分", "個人資料", "喜歡"],
        "ja": ["@わたし?", "@私の?", "@僕?", "@自分?", "私は誰", "基本情報", "私のこと", "生活", "好きなもの", "について", "プロフィール", "個人", "私について",
               "好み", "性格", "趣味", "アレルギー", "自己紹介", "好き", "ユーザー情報", "口調"],
        "de": ["@mir?", "@mich?", "@ich?", "wer ich bin", "zur person", "steckbrief", "lebenslauf", "alltag",
               "persönliches", "@über?", "über mich", "profil*", "persönlich*", "vorlieben", "gewohnheiten",
               "hobbys", "allergi*", "*profil"],
        "vi": ["@tôi?", "tôi là ai", "giới thiệu bản thân", "bản thân", "thông tin cơ bản", "tiểu sử", "^về",
               "về tôi", "hồ sơ", "cá nhân", "sở thích", "thói quen", "dị ứng", "người dùng"],
    },
    "people": {
        "en": ["*mates", "relationships", "key relationships", "circle", "partners", "clients contacts",
               "neighbours", "neighbors", "members", "crew", "household members", "workers", "people", "key people",
               "contacts", "key contacts", "team?", "team members", "roster", "colleagues", "coworkers", "friends", "family",
               "relatives", "boss", "*editors", "mentor", "advisor", "supervisor", "staff", "employees", "on-call",
               "stakeholders", "who's who", "wife", "husband", "parents", "kids"],
        "zh": ["伙伴", "合作伙伴", "搭档", "家长", "亲戚", "领导", "老板", "人员", "合伙人", "联系方式", "通讯录", "人脉", "联系人", "团队", "团队成员",
               "同事", "朋友", "家人", "家庭成员", "导师", "同学", "成员", "员工", "老婆", "爸妈", "父母", "组长", "师兄"],
        "zht": ["夥伴", "合作夥伴", "搭檔", "親戚", "主管", "老闆", "人員", "合夥人", "聯絡方式", "通訊錄", "人脈", "聯絡人", "團隊", "團隊成員", "同事",
                "朋友", "家人", "指導教授", "同學", "成員", "員工", "太太", "爸媽", "學長"],
        "ja": ["人間関係", "先輩", "後輩", "指導教員", "先生", "スタッフ", "取引先担当", "人物", "連絡先", "チーム", "メンバー", "同僚", "友人", "家族", "社員",
               "担当編集", "上司", "関係者", "リーダー"],
        "de": ["kommilitonen", "*team", "ansprechpersonen", "bekannte", "verwandte", "nachbarn", "personal",
               "personen", "kontakte", "team", "kollegen", "freunde", "familie", "vorstand", "mitarbeiter*",
               "ansprechpartner"],
        "vi": ["người làm", "công nhân", "người thân", "đối tác", "đồng nghiệp", "bạn bè", "gia đình", "nhân viên",
               "nhân sự", "liên hệ", "trưởng nhóm"],
    },
    "projects": {
        "en": ["in progress", "initiatives", "workstreams", "tracker", "in flight", "ongoing", "research project",
               "project*", "active projects", "current projects", "project log", "roadmap", "milestones", "todo",
               "to-do", "backlog", "decisions", "key decisions", "decision log", "release plan", "side projects",
               "work in progress", "sprint", "thesis", "dissertation", "manuscript", "draft", "launch", "goals",
               "current goals", "objectives", "plans", "open issues", "issues", "blockers", "blocked", "pull requests",
               "open prs", "prs", "status", "current status", "focus", "current focus", "next steps", "priorities",
               "tasks", "active topics", "phases", "phase", "current state",
               # work left open, however it is named ("Long-running threads / open work", "Loose ends")
               "open work", "open items", "open tasks", "open threads", "open loops", "loose ends", "unfinished work"],
        "zh": ["开发", "在做的事", "课题", "计划", "规划", "任务清单", "开题", "迭代", "项目", "进度", "进展", "里程碑", "待办", "决策", "决策记录",
               "开发中", "上线", "论文", "子项目", "目标", "当前状态", "当前进度",
               "待办事项", "阶段", "下一步", "问题清单", "任务", "重点", "焦点"],
        "zht": ["開發", "課題", "規劃", "任務清單", "專題", "專案", "計畫", "計劃", "進度", "里程碑", "待辦", "決策", "研究計畫", "開發中", "上線", "論文", "目標", "階段", "任務",
                "下一步", "待辦事項", "當前狀態", "當前進度", "問題清單", "重點", "焦點"],
        "ja": ["開発", "研究", "卒業研究", "企画", "取り組み", "課題", "プロジェクト", "案件", "進捗", "リリース", "開発中", "執筆", "作品", "マイルストーン",
               "決定事項", "計画", "目標", "タスク", "現状", "次の一手", "フェーズ", "ロードマップ"],
        "de": ["doktorarbeit", "masterarbeit", "bachelorarbeit", "abschlussarbeit", "forschung*", "initiative*",
               "arbeitspaket*", "planung", "projekt*", "*projekt", "meilenstein*", "roadmap", "vorhaben",
               "dissertation", "entwurf"],
        "vi": ["mùa vụ", "công việc đang làm", "nghiên cứu", "đề tài", "dự án", "tiến độ", "kế hoạch", "cột mốc",
               "việc cần làm", "phát hành", "hoàn thành"],
    },
    "business": {
        "en": ["money?", "bills", "expenses", "side income", "engagements", "deals", "consulting", "freelance",
               "billing", "accounting", "fees", "quotes", "vendors", "partnerships", "side job", "part-time job",
               "business", "company", "company overview", "revenue", "arr", "mrr", "customers", "clients",
               "pipeline", "sales", "pricing", "pricing model", "business model", "revenue model", "tariff model",
               "cost model", "tariffs", "invoices", "income", "rates", "fundraising", "investors", "funding",
               "marketing", "brand", "metrics", "kpi", "budget", "finances", "finance", "portfolio", "orders",
               "suppliers", "shop", "churn", "paying customers", "employer", "revenue model"],
        "zh": ["接单", "开支", "账单", "钱?", "收费", "费用", "生意", "合作方", "供应商", "兼职", "工资", "价格", "公司", "业务", "收入", "营收", "客户",
               "销售", "定价", "报价", "品牌", "融资", "营销", "理财", "预算", "订单", "接稿", "财务", "抽佣", "基金"],
        "zht": ["接案", "開支", "帳單", "收費", "費用", "生意", "供應商", "兼職", "薪水", "價格", "自費", "公司", "業務", "營收", "營業額", "收入",
                "客戶", "銷售", "定價", "報價", "品牌", "融資", "行銷", "訂單", "網店", "理財", "預算", "財務"],
        "ja": ["売上目標", "数字", "経費", "アルバイト", "バイト", "仕入れ", "見積", "報酬", "経理", "会社", "会社概要", "事業", "売上", "年商", "取引先",
               "顧客", "価格", "料金", "営業", "取引条件", "請求", "収入", "マーケティング", "ブランド", "財務", "時給"],
        "de": ["auftr*", "finanzielles", "ausgaben", "abrechnung*", "honorar*", "angebote", "lieferanten",
               "buchhaltung", "nebenjob", "firma", "unternehmen", "kunden*", "umsatz*", "einnahmen", "rechnung*",
               "preise", "stundensatz", "finanzen", "marketing", "vertrieb", "budget", "mitgliedsbeitrag",
               "sponsoring"],
        "vi": ["học phí", "thu nhập", "tiền", "đối tác mua hàng", "giá cả", "báo giá", "lợi nhuận", "chi phí",
               "sản lượng", "công ty", "kinh doanh", "doanh thu", "khách hàng", "đơn hàng", "bán hàng", "cửa hàng",
               "tài chính", "tiếp thị", "khách quen"],
    },
    "infrastructure": {
        "en": ["gadgets", "gear", "software?", "apps?", "computer", "pc", "machines", "equipment", "cloud", "storage?",
               "nas", "wifi", "printer", "infrastructure", "infra", "servers", "home server", "hosting", "deploy",
               "deployment", "database", "stack?", "environment?", "dev environment", "setup?", "config?",
               "configuration?", "network?", "dns", "devices?", "hardware", "compute", "cluster", "kubernetes",
               "docker", "ci/cd", "cron", "services?", "tools?", "vps", "monitoring", "alerts", "backup?",
               "router", "nginx", "postgres", "ubuntu", "debian", "macbook", "laptop", "website?", "systemd",
               "integrations", "app integrations", "env vars", "environment variables", "browser configuration",
               "python interpreter", "paths", "windows", "powershell", "terraform", "ports", "operations", "production",
               "staging", "runbooks", "certificates", "ssl certificates", "outages", "incidents", "on-call rotation",
               "virtual machines", "home lab"],
        "zh": ["机器", "器材", "开发机", "电脑", "软件?", "设备", "硬件", "网盘", "存储", "系统?", "服务器", "部署", "配置", "集群", "数据库", "环境",
               "开发环境", "工具", "常用工具", "监控", "告警", "运维", "网络", "主机", "备份", "云"],
        "zht": ["器材", "機器", "設備清單", "軟體", "設備", "硬體", "儲存", "印表機", "伺服器", "部署", "設定", "配置", "叢集", "資料庫", "環境", "工具",
                "監控", "系統?", "網站", "電腦", "工作站", "主機", "備份"],
        "ja": ["機器", "設備", "pc", "パソコン", "ソフトウェア", "機材", "端末", "ストレージ", "サーバー", "サーバ", "インフラ", "構成", "環境", "開発環境",
               "デプロイ", "データベース", "ツール", "システム?", "監視", "ネットワーク", "バックアップ"],
        "de": ["maschine*", "werkzeug*", "ausstattung", "*software", "computer", "geräte*", "drucker", "speicher",
               "server*", "hosting", "infrastruktur", "rechner", "cluster", "technik", "website", "datenbank*",
               "konfiguration", "einrichtung", "netzwerk", "geräte", "backup", "laptop"],
        "vi": ["máy móc", "máy tính", "thiết bị", "ứng dụng", "máy chủ", "hạ tầng", "cấu hình", "triển khai",
               "cơ sở dữ liệu", "phần mềm", "công cụ", "sao lưu", "hệ thống?"],
    },
    "agents": {
        "en": ["bots", "automation", "automations", "tools for the agent", "agents", "sub-agents", "subagents",
               "sub-agent", "subagent", "agent setup", "assistant", "heartbeat", "persona", "soul", "workflow",
               "openclaw", "delegation", "delegate", "prompts", "channels?", "model?", "models?",
               "model providers", "llm", "skills", "skill", "mcp", "mcp server", "hermes", "claude",
               "system prompt", "memory system", "tool priority", "multi-agent", "pipeline?"],
        "zh": ["机器人", "自动化", "代理", "智能体", "助手", "子代理", "工作流程", "工作流", "心跳", "模型?", "技能", "提示词", "记忆体系",
               "记忆系统", "定时任务"],
        "zht": ["機器人", "自動化", "助理", "代理", "子代理", "工作流程", "心跳", "模型?", "技能", "提示詞", "記憶體系"],
        "ja": ["ボット", "自動化", "エージェント", "サブエージェント", "アシスタント", "ワークフロー", "モデル?", "スキル", "プロンプト",
               "記憶の仕組み"],
        "de": ["automatisierung", "bot", "bots", "agent*", "unteragent*", "assistent*", "arbeitsablauf", "heartbeat"],
        "vi": ["tự động hóa", "bot", "agent", "trợ lý", "agent con", "quy trình"],
    },
    "codebase": {
        "en": ["architecture", "codebase", "code structure", "project structure", "repository", "repo", "monorepo",
               "modules", "module", "components", "data model", "schema", "api endpoints", "endpoints", "key files",
               "file structure", "directory structure", "folder structure", "conventions", "coding standards",
               "code style", "naming conventions", "tests", "testing", "build", "dependencies", "tech debt",
               "technical debt", "refactor", "key constants", "constants", "supported formats", "features",
               "feature list", "ui conventions", "design system", "libraries", "frameworks", "sdk", "cli",
               "git workflow", "branching", "release engineering", "source code", "development?", "dev workflow"],
        "zh": ["架构", "项目结构", "目录结构", "代码结构", "文件结构", "模块", "子模块", "组件", "数据模型", "数据结构", "接口", "代码规范",
               "开发规范", "命名规范", "编码规范", "测试", "构建", "依赖", "技术债", "重构", "常量", "功能列表", "功能", "界面规范", "设计规范",
               "代码", "仓库", "前端", "后端", "技术栈", "支持格式", "功能概览"],
        "zht": ["架構", "專案結構", "目錄結構", "程式碼", "模組", "元件", "資料模型", "介面", "程式規範", "開發規範", "測試", "建置", "相依",
                "技術債", "重構", "功能列表", "前端", "後端"],
        "ja": ["アーキテクチャ", "構成図", "ディレクトリ構成", "フォルダ構成", "コード", "モジュール", "コンポーネント", "データモデル", "スキーマ",
               "コーディング規約", "命名規則", "テスト", "ビルド", "依存関係", "技術的負債", "リファクタリング", "機能一覧", "フロントエンド",
               "バックエンド", "リポジトリ"],
        "de": ["architektur", "codebasis", "quellcode", "modul*", "komponente*", "datenmodell", "schnittstelle*",
               "konventionen", "programmierrichtlinien", "tests", "abhängigkeiten", "technische schulden", "repository"],
        "vi": ["kiến trúc", "cấu trúc dự án", "cấu trúc thư mục", "mã nguồn", "mô-đun", "thành phần", "mô hình dữ liệu",
               "quy ước", "kiểm thử", "nợ kỹ thuật", "tính năng"],
    },
    "lessons": {
        "en": ["what i've learned", "learnt", "reflections", "notes to self", "don't repeat", "rules of thumb",
               "best practices", "playbook", "post-mortems", "lessons", "lessons learned", "lesson", "learned",
               "learnings", "gotchas", "pitfalls", "mistakes", "postmortem", "post-mortem", "insights", "tips",
               "knowledge base", "what worked", "retro", "retrospective", "takeaways", "the hard way"],
        "zh": ["的坑", "避坑", "反省", "总结", "体会", "教学反思", "经验", "教训", "经验教训", "学到", "心得", "复盘", "踩坑", "反思", "学到的东西"],
        "zht": ["的坑", "體會", "總結", "反省", "經驗", "教訓", "心得", "學到", "復盤", "反思", "踩坑"],
        "ja": ["学び", "注意点", "コツ", "教わったこと", "学んだこと", "教訓", "反省", "ハマったこと", "振り返り", "失敗", "気づき", "ノウハウ", "知見"],
        "de": ["erfahrung*", "gelernt", "nicht wiederholen", "tipps und tricks", "lektion*", "erkenntnis*", "lehren",
               "gelernt*", "fehler", "tipps", "erfahrungen"],
        "vi": ["bài học", "lưu ý", "rút ra", "kinh nghiệm", "rút kinh nghiệm", "sai lầm"],
    },
    "legal": {
        "en": ["regulations", "regulatory", "policies", "permits", "liability", "privacy policy", "legal",
               "contracts", "compliance", "law", "licence", "license", "terms?", "gdpr", "hipaa", "nda",
               "non-compete", "tax", "trademark", "agreements", "insurance", "copyright"],
        "zh": ["法规", "规定", "许可", "版权", "税务", "法律", "合同", "合规", "协议", "条款", "保险", "税", "知识产权", "商标", "保护法"],
        "zht": ["法規", "規定", "許可", "版權", "稅務", "個資法", "法律", "合約", "合同", "合規", "協議", "條款", "保險", "稅", "商標", "法務"],
        "ja": ["規制", "許可", "著作権", "税金", "確定申告", "法務", "契約", "規約", "法律", "税", "保険", "商標", "コンプライアンス", "特定商取引法"],
        "de": ["recht*", "vertrag*", "verträge", "gesetz*", "vorschrift*", "genehmigung*", "recht", "vertr*",
               "*vertrag", "satzung", "datenschutz*", "dsgvo", "steuer*", "versicherung*", "impressum", "lizenz"],
        "vi": ["quy định pháp luật", "giấy tờ", "bản quyền", "pháp lý", "hợp đồng", "luật", "thuế", "bảo hiểm",
               "giấy phép"],
    },
    "dates": {
        "en": ["shifts", "rota", "rotation", "upcoming", "agenda", "timetable", "exams", "events", "key dates",
               "due dates", "holidays", "dates", "important dates", "birthdays", "birthday", "anniversary",
               "anniversaries", "deadlines", "calendar", "schedule", "reminders", "appointments", "meetings",
               "recurring meetings"],
        "zh": ["值班", "时间点", "档期", "时间安排", "安排", "考试", "时间表", "课表", "节日", "行程", "日期", "重要日期", "生日", "纪念日", "截止", "日程",
               "截止日期", "提醒", "日历"],
        "zht": ["值班", "時間點", "檔期", "安排", "考試", "時間表", "行程", "節日", "日期", "重要日子", "生日", "紀念日", "截止", "行事曆", "日程"],
        "ja": ["今後の予定", "スケジュール", "試験", "行事", "大事な日", "記念日", "誕生日", "締め切り", "予定", "イベント予定", "日程", "カレンダー"],
        "de": ["fortbildungen", "veranstaltung*", "feiertag*", "prüfung*", "termin", "termine", "terminplan*", "terminkalender", "wichtige termine",
               "geburtstag*", "jahrestag", "hochzeitstag", "frist*", "kalender"],
        "vi": ["lịch", "lịch trình", "ngày lễ", "kỳ thi", "ngày quan trọng", "sinh nhật", "kỷ niệm", "hạn nộp",
               "sự kiện sắp tới"],
    },
    "rules": {
        "en": ["@rules", "@rule", "@guidelines", "@instructions", "@standing orders", "@principles", "@protocols",
               "@protocol", "@policies", "@operating rules", "@house rules", "@ground rules", "@dos and don'ts",
               "@working agreement", "@working agreements", "@team agreement", "@team agreements", "@ways of working",
               "@team norms", "@working norms", "@house style"],
        "zh": ["@规则", "@铁律", "@守则", "@原则", "@准则", "@规范", "@须知", "@注意事项", "@行为准则", "@要求"],
        "zht": ["@規則", "@守則", "@原則", "@準則", "@規範", "@須知", "@注意事項"],
        "ja": ["@ルール", "@規則", "@行動指針", "@指針", "@約束", "@お願い", "@注意事項"],
        "de": ["@regeln", "@grundregeln", "@richtlinien", "@anweisungen", "@vorgaben"],
        "vi": ["@quy tắc", "@nguyên tắc", "@quy định", "@lưu ý bắt buộc"],
    },
    "private": {  # personal money is the user's own business, not the business's
        "en": ["personal finances", "personal finance", "salary", "mortgage", "savings", "net worth", "debts",
               "pension", "household budget", "paycheck", "payday", "salary day", "my money"],
        "zh": ["个人财务", "个人理财", "工资", "房贷", "存款", "储蓄", "负债", "家庭开支", "私房钱"],
        "zht": ["個人財務", "個人理財", "薪水", "房貸", "存款", "儲蓄", "負債", "家庭開支"],
        "ja": ["家計", "給料", "住宅ローン", "貯金", "貯蓄", "資産運用", "借金", "家計簿"],
        "de": ["gehalt", "hypothek", "ersparnisse", "privatfinanzen", "schulden", "haushaltsbudget", "rente"],
        "vi": ["tài chính cá nhân", "lương", "tiết kiệm", "khoản vay", "nợ"],
    },
    "community": {
        "en": ["clubs", "hobby groups", "volunteer", "church", "neighbourhood", "groups", "community", "meetup",
               "meetups", "discord", "forum", "open source", "club", "volunteering", "social media", "followers",
               "co-organiser", "co-organizer"],
        "zh": ["社团", "志愿", "协会", "俱乐部", "社区", "社群", "聚会", "开源", "粉丝", "微信群", "学习小组"],
        "zht": ["社團", "志工", "協會", "俱樂部", "社群", "聚會", "開源", "粉絲"],
        "ja": ["サークル", "部活", "ボランティア", "同好会", "町内会", "コミュニティ", "勉強会", "交流会", "オープンソース"],
        "de": ["*gruppe", "*verein", "ehrenamt", "gruppe*", "verein*", "community", "gemeinschaft", "stammtisch",
               "ehrenamt*"],
        "vi": ["hội nhóm", "tình nguyện", "câu lạc bộ", "cộng đồng", "gặp mặt", "nhóm facebook"],
    },
}

# A heading emoji is a cue of its own, whatever the language.
EMOJI: dict[str, str] = {
    "🔑": "accounts", "🗝": "accounts", "🔐": "security", "🛡": "security", "🔒": "security",
    "👤": "identity", "🧑": "identity", "👩": "identity", "👨": "identity", "🙋": "identity",
    "👥": "people", "👨‍👩‍👦": "people", "👪": "people", "🤝": "people",
    "🚀": "projects", "🏗": "projects", "🎯": "projects", "📋": "projects",
    "💼": "business", "💰": "business", "💵": "business", "📈": "business",
    "🖥": "infrastructure", "💻": "infrastructure", "🛠": "infrastructure", "⚙": "infrastructure",
    "🤖": "agents", "💡": "lessons", "📚": "lessons", "🎓": "lessons",
    "⚖": "legal", "📜": "legal", "📅": "dates", "🗓": "dates", "🎂": "dates",
    "🌐": "community", "🗄": "archive", "📦": "archive",
}

# Headings that make a section an instruction to the agent (kept in the root at boot).
RULE_HEADINGS: list[str] = [
    "standing orders", "don'ts", "please note", "must know", "how to work with me",
    "须知", "注意事项", "准则", "準則", "須知", "注意事項", "お願い", "約束", "anweisung*", "*anweisungen", "vorgaben",
    "lưu ý bắt buộc", 
    "rules", "rule", "iron rules", "ground rules", "house rules", "instructions", "guidelines", "style guide",
    "boot checklist", "checklist", "must", "always", "never", "do's and don'ts", "dos and don'ts", "principles",
    "commandments", "operating rules", "assistant rules",
    "规则", "铁律", "守则", "原则", "核心原则", "必须", "每次", "规矩", "准则",
    "規則", "守則", "原則", "必須", "每次", "遵守",
    "ルール", "規則", "行動指針", "指針", "必ず", "毎回", "心得る",
    "regeln", "grundregeln", "regel", "richtlinien", "immer", "niemals",
    "quy tắc", "quy định", "nguyên tắc", "luôn luôn",
]

# Words that make one list item an instruction ("Always check…", "每次会话必须先…").
INSTRUCTION_WORDS: list[str] = [
    "always", "never", "must", "do not", "don't", "every session", "before answering",
    "每次", "必须", "绝对", "不要", "禁止", "一律", "務必", "必須", "絕對", "不可以", "永遠不要", "一定要",
    "必ず", "絶対", "毎回", "常に", "しないこと", "すること",
    "immer", "niemals", "nie", "jede sitzung", "vor dem",
    "luôn", "không bao giờ", "phải", "không được",
]

# Words that name no topic, only that a section holds memory: a heading made of them alone
# ("Core Memories", "Misc notes", "雜項", "その他") is no better home than a weak body's lead.
TOPICLESS: list[str] = [
    "core", "key", "main", "important", "essential", "memory", "memories", "memo", "memos", "note", "notes",
    "misc", "miscellaneous", "other", "others", "general", "fact", "facts", "thing", "things", "stuff", "info",
    "information", "detail", "details", "highlights", "remember", "random", "assorted", "long", "term",
    "persistent", "saved", "useful", "quick", "bits", "and", "the", "of", "to", "for", "my", "a",
    "核心", "记忆", "記憶", "重要", "其他", "其它", "杂项", "雜項", "备注", "備註", "笔记", "筆記", "杂记", "雜記", "要点", "要點",
    "关键", "關鍵", "长期", "長期", "事项", "事項", "信息", "資訊", "零散", "随记", "隨記", "与", "與", "和", "的",
    "メモ", "その他", "覚え書き", "備忘録", "雑記", "雑多", "情報",
    "sonstiges", "diverses", "notizen", "wichtiges", "wichtig", "kern", "erinnerungen", "allgemeines",
    "ghi", "chú", "khác", "linh", "tinh", "quan", "trọng", "ký", "ức",
]

# and words that name only the occasion of writing, a log's label ("Update: 2026-02-20", "Session 3",
# "Today's notes", "Morning session", "更新 2026-03-01", "今日のメモ" minus its の, "업데이트", "Обновление"):
# when and how a note was written says nothing of what it is about.
TOPICLESS += [
    "update", "updates", "session", "sessions", "log", "logs", "journal", "diary", "entry", "entries", "recap",
    "today", "yesterday", "tonight", "morning", "afternoon", "evening", "night", "daily", "weekly", "day", "week",
    "latest", "recent", "new",
    "更新", "日志", "日誌", "日记", "日記", "今天", "今日", "本日", "昨天", "早上", "晚上", "セッション", "日報",
    "업데이트", "세션", "오늘", "일지", "일기", "것", "것들",
    "heute", "tagebuch", "aujourd'hui", "séance", "actualización", "sesión", "hoy", "diario", "atualização",
    "sessão", "hoje", "aggiornamento", "sessione", "oggi", "cập", "nhật", "hôm", "nay", "обновление", "сессия",
    "сегодня", "журнал", "дневник",
]

def kana_only(cue: str) -> bool:
    """Is a Japanese cue a word in kanji alone that no Chinese list holds (数字, 経費, 見積)?"""
    text = cue.strip("~*^=@? ")
    chinese = {w.strip("~*^=@? ") for by_language in CUES.values() for lang in ("zh", "zht")
               for w in by_language.get(lang, [])}
    return bool(text) and all("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in text) \
        and text not in chinese


# Short forms people write in terse notes, read as the words they stand for before cues are
# matched ("## ppl" is people, "## bkps" backups). HEADING_ONLY: short forms that are words of
# their own in running text ("net", "ops", "fin", "dev"), expanded only in a heading, where a
# lone short word names the section. Latin script, whole words, after folding.
ABBREVIATIONS: dict[str, str] = {
    "ppl": "people", "ppls": "people", "fam": "family", "fams": "family", "bro": "brother", "sis": "sister",
    "gf": "girlfriend", "bf": "boyfriend", "mgr": "manager", "mgrs": "managers", "colleages": "colleagues",
    "prefs": "preferences", "pref": "preference", "bio": "biography",
    "hw": "hardware", "sw": "software", "infra": "infrastructure", "k8s": "kubernetes", "k3s": "kubernetes",
    "svc": "services", "svcs": "services", "srv": "server", "srvs": "servers", "vm": "virtual machine",
    "vms": "virtual machines", "db": "database", "dbs": "databases", "cfg": "configuration",
    "conf": "configuration", "config": "configuration", "configs": "configuration", "env": "environment",
    "envs": "environments", "envvars": "environment variables", "bkp": "backup", "bkps": "backups",
    "bak": "backup", "baks": "backups", "cert": "certificate", "certs": "certificates",
    "dotfiles": "dotfiles configuration", "homelab": "home lab servers", "devops": "infrastructure operations",
    "creds": "credentials", "cred": "credential", "pw": "password", "pws": "passwords", "pwd": "password",
    "pwds": "passwords", "passwd": "password", "acct": "account", "accts": "accounts", "2fa": "two factor",
    "mtg": "meeting", "mtgs": "meetings", "appt": "appointment", "appts": "appointments", "bday": "birthday",
    "bdays": "birthdays", "cal": "calendar", "sched": "schedule", "hols": "holidays", "vacay": "vacation",
    "wip": "work in progress", "todo": "to do", "todos": "to do", "tbd": "to be decided",
    "proj": "project", "projs": "projects", "biz": "business", "til": "today i learned", "tils": "lessons",
    "howto": "how to", "howtos": "how to", "kb": "knowledge base", "docs": "documentation",
    "misc": "miscellaneous", "meds": "medication", "med": "medical", "edu": "education",
    "uni": "university", "addr": "address", "msgs": "messages", "dept": "department", "hr": "human resources",
    "pms": "postmortems", "rca": "root cause analysis", "infosec": "security", "appsec": "security",
}
HEADING_ONLY: dict[str, str] = {
    "ops": "operations", "net": "network", "fin": "finances", "dev": "development", "prod": "production",
    "perf": "performance", "sec": "security", "box": "machine", "boxes": "machines", "deps": "dependencies",
    "apt": "apartment", "subs": "subscriptions", "refs": "references",
}


def _extend(more: dict[str, dict[str, list[str]]]) -> None:
    """Add cues per domain and language. A word the domain lists already (in any language) is not
    listed again: a cue the table holds twice weighs half (the matcher splits a word's weight
    between the entries that list it)."""
    for domain, by_language in more.items():
        listed = {w for words in CUES[domain].values() for w in words}
        for lang, words in by_language.items():
            new = [w for w in dict.fromkeys(words) if w not in listed]
            CUES[domain].setdefault(lang, []).extend(new)
            listed.update(new)


def _apply(steps: list[tuple[str, dict | list]]) -> None:
    """Merge `cues_more.STEPS` (then `cues_cjk.STEPS`) into the tables, in order."""
    lists = {"rules": RULE_HEADINGS, "instructions": INSTRUCTION_WORDS, "topicless": TOPICLESS}
    for kind, value in steps:
        if isinstance(value, list):
            lists[kind].extend(value)
        elif kind == "emoji":
            EMOJI.update(value)
        elif kind == "languages":
            for domain, by_language in value.items():
                CUES[domain].update(by_language)
        elif kind == "broaden":
            for domain, broad in value.items():
                for words in CUES[domain].values():
                    words[:] = [w + "?" if w in broad else w for w in words]
        else:
            _extend(value)


_apply(STEPS + CJK_STEPS)
