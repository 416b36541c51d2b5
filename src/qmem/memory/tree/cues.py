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

from .cues_world import INSTRUCTION_WORDS_WORLD, RULE_HEADINGS_WORLD, TOPICLESS_WORLD, WORLD

# Per domain, per language. Languages: en, zh (Simplified), zht (Traditional), ja, de, vi; ko, es, fr, pt, ru
# and it are added by the blocks at the end, nl, pl, tr, id/ms, sv/da/no, cs, uk, ar, hi, th, fa and el by
# `cues_world.py`.
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
               "who we are", "meal", "household", "communication style", "my background", "vegetarian", "vegan"],
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
               "tasks", "active topics", "phases", "phase", "current state"],
        "zh": ["开发", "在做的事", "课题", "计划", "规划", "任务清单", "开题", "迭代", "项目", "进度", "进展", "里程碑", "待办", "决策", "决策记录",
               "开发中", "上线", "论文", "子项目", "目标", "当前状态", "当前进度",
               "待办事项", "阶段", "下一步", "问题清单", "任务", "重点", "焦点"],
        "zht": ["開發", "課題", "規劃", "任務清單", "專題", "專案", "計畫", "計劃", "進度", "里程碑", "待辦", "決策", "研究計畫", "開發中", "上線", "論文", "目標", "階段", "任務",
                "下一步"],
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


# Korean and Spanish (session 3, added after the s3 held-out run: its ko/es figures before them are
# the measured ones). The same concepts as the English lists; Hangul is matched as CJK (anywhere).
_KO_ES: dict[str, dict[str, list[str]]] = {
    "accounts": {"ko": ["계정", "계정 정보", "비밀번호", "로그인 정보", "인증 정보", "api 키", "토큰", "지갑"],
                 "es": ["cuentas", "contraseñas", "credenciales", "accesos", "datos de acceso", "claves de acceso",
                        "claves api", "inicio de sesión", "billeteras"]},
    "security": {"ko": ["보안", "개인정보 보호", "암호화", "사기", "피싱", "해킹", "2단계 인증"],
                 "es": ["seguridad", "privacidad", "cifrado", "estafas", "fraude", "phishing"]},
    "archive": {"ko": ["@지난", "@과거", "@완료된", "@보관", "@기록 보관", "@변경 이력", "@예전"],
                "es": ["@archivo", "@archivado", "@historial", "@completado", "@completados", "@terminados",
                       "@anteriores", "@antiguo", "@pasado", "@registro de cambios"]},
    "identity": {"ko": ["기본 정보", "프로필", "자기소개", "나에 대해", "사용자 정보", "취향", "성격", "습관", "생활",
                        "좋아하는 것", "알레르기"],
                 "es": ["sobre mí", "perfil", "datos personales", "información personal", "quién soy", "gustos",
                        "preferencias", "aficiones", "hábitos", "alergias", "rutina", "personalidad"]},
    "people": {"ko": ["가족", "친구", "지인", "동료", "사람들", "연락처", "팀원", "인맥", "남편", "아내", "부모님", "상사"],
               "es": ["familia", "amigos", "compañeros", "colegas", "contactos", "*personas", "equipo?", "pareja",
                      "hijos", "padres", "jefe", "vecinos"]},
    "projects": {"ko": ["프로젝트", "진행 중", "할 일", "목표", "계획", "로드맵", "마일스톤"],
                 "es": ["proyecto", "proyectos en curso", "en curso", "tareas", "pendientes", "objetivos", "metas",
                        "planes", "hoja de ruta"]},
    "business": {"ko": ["클라이언트", "고객", "거래처", "매출", "수입", "견적", "단가", "사업", "프리랜서", "청구", "세금계산서",
                        "마케팅"],
                 "es": ["clientes", "negocio", "empresa", "ingresos", "facturas", "facturación", "ventas",
                        "presupuestos", "tarifas", "precios", "autónomo", "marketing"]},
    "infrastructure": {"ko": ["서버", "인프라", "배포", "데이터베이스", "네트워크", "장비", "기기", "컴퓨터", "노트북", "백업",
                              "설정?", "도구", "호스팅", "도메인"],
                       "es": ["servidores", "infraestructura", "despliegue", "base de datos", "red?",
                              "dispositivos", "ordenador", "portátil", "copias de seguridad", "configuración",
                              "herramientas", "aplicaciones", "alojamiento", "dominio?"]},
    "agents": {"ko": ["비서", "에이전트", "자동화", "봇", "어시스턴트", "프롬프트", "워크플로"],
               "es": ["asistente", "agentes", "automatización", "bots", "flujo de trabajo", "prompts"]},
    "codebase": {"ko": ["코드베이스", "저장소", "아키텍처", "디렉터리 구조", "폴더 구조", "모듈", "데이터 모델", "스키마", "코딩 규칙"],
                 "es": ["código", "arquitectura", "repositorio", "estructura de carpetas", "módulos", "modelo de datos",
                        "esquema", "convenciones de código"]},
    "lessons": {"ko": ["배운 점", "교훈", "깨달은 점", "실수", "회고", "노하우", "주의할 점"],
                "es": ["lecciones", "lecciones aprendidas", "lo aprendido", "aprendizajes", "aprendido", "consejos",
                       "errores", "trucos"]},
    "legal": {"ko": ["법률", "계약", "계약서", "세금", "세무", "보험", "규정", "저작권", "개인정보처리방침"],
              "es": ["legal", "contratos", "impuestos", "seguros", "normativa", "licencias", "derechos de autor",
                     "hacienda"]},
    "dates": {"ko": ["일정", "달력", "캘린더", "생일", "기념일", "마감", "약속", "예약", "행사", "시험", "휴일"],
              "es": ["calendario", "agenda", "fechas", "fechas importantes", "cumpleaños", "aniversarios", "plazos",
                     "citas", "eventos", "exámenes", "horario", "festivos"]},
    "rules": {"ko": ["@규칙", "@원칙", "@지침", "@주의사항"],
              "es": ["@normas", "@reglas", "@pautas", "@instrucciones", "@principios"]},
    "private": {"ko": ["개인 재정", "월급", "급여", "대출", "적금", "저축", "예금"],
                "es": ["finanzas personales", "sueldo", "salario", "nómina", "hipoteca", "ahorros", "deudas", "pensión"]},
    "community": {"ko": ["동호회", "커뮤니티", "모임", "봉사", "스터디", "동아리", "오픈소스"],
                  "es": ["comunidad", "asociación", "club", "voluntariado", "grupo?", "redes sociales", "seguidores"]},
}
for _domain, _by_language in _KO_ES.items():
    CUES[_domain].update(_by_language)
RULE_HEADINGS += ["규칙", "원칙", "지침", "normas", "reglas", "pautas", "instrucciones", "principios"]
INSTRUCTION_WORDS += ["항상", "반드시", "절대", "siempre", "nunca", "jamás", "debes", "no debes"]
TOPICLESS += ["메모", "기타", "중요", "기억", "notas", "varios", "otros", "otras", "cosas", "importante", "memoria",
              "recuerdos", "de", "y", "la", "el", "los", "las", "mis"]


# Session 4: French, Portuguese and Russian, and what every language's lists lacked: the same
# concepts written from general knowledge of what people keep in such files (no held-out file's
# words). Russian inflects: its cues are stems (`проект*`). Health is the user's private matter
# (it moved from identity); a tech stack is the code's (from infrastructure); work and a job describe
# the user (identity), a side job earns (business); a heading that only says "money" is split between
# the business's money and the user's own, and the body decides.
_MORE: dict[str, dict[str, list[str]]] = {
    "accounts": {
        "en": ["account?", "logins", "passkeys", "ssh keys", "license keys"],
        "fr": ["comptes", "identifiants", "mots de passe", "mot de passe", "accès?", "codes d'accès", "clés api", "clé api",
               "jetons", "connexion", "portefeuilles", "informations de connexion"],
        "pt": ["contas", "senhas", "credenciais", "acessos", "dados de acesso", "chaves de api", "chave de api", "login",
               "carteiras", "informações de login"],
        "ru": ["аккаунт*", "учётные записи", "учетные записи", "пароли", "пароль", "доступы", "логины", "ключи api",
               "api-ключи", "токены", "кошельки", "реквизиты доступа"],
        "de": ["api-keys", "schlüssel?"],
        "vi": ["khóa bí mật", "ví điện tử"],
    },
    "security": {
        "en": ["pci", "pci dss", "soc 2", "soc2", "iso 27001", "firewall", "audit logs", "access rights"],
        "fr": ["sécurité", "chiffrement", "arnaques", "fraude", "hameçonnage", "phishing", "double authentification",
               "authentification à deux facteurs", "vulnérabilités", "fuite de données"],
        "pt": ["segurança", "privacidade", "criptografia", "golpes", "fraude", "phishing", "autenticação de dois fatores",
               "vulnerabilidades", "vazamento de dados"],
        "ru": ["безопасност*", "шифровани*", "мошенничеств*", "фишинг", "двухфакторн*", "уязвимост*", "утечк*"],
        "ko": ["취약점", "유출"],
        "es": ["vulnerabilidades", "filtración"],
    },
    "archive": {
        "fr": ["@archives", "@archivé", "@archivés", "@historique", "@terminé", "@terminés", "@ancien", "@anciens",
               "@passé", "@journal des modifications", "@clos", "@clôturé"],
        "pt": ["@arquivo", "@arquivado", "@arquivados", "@histórico", "@concluído", "@concluídos", "@antigo", "@antigos",
               "@passado", "@registro de alterações"],
        "ru": ["@архив*", "@история", "@завершённ*", "@завершенн*", "@выполненн*", "@прошл*", "@старое", "@старые",
               "@журнал изменений"],
        "es": ["@hecho", "@cerrados", "@finalizados"],
        "de": ["@ehemalig*"],
    },
    "identity": {
        "en": ["=who", "=whoami", "=who am i", "@work?", "@job?", "occupation", "career", "timezone", "time zone",
               "pronouns", "prefers", "favorite", "favourite", "favorites", "favourites", "@home", "@house", "apartment",
               "@car", "vehicle", "living situation", "native language", "hometown",
               "nationality", "education", "resume", "personal life", "coffee", "marathon", "gym", "workouts"],
        "zh": ["用户资料", "个人资料", "住在", "时区", "昵称", "姓名", "职业", "工作经历", "家乡", "母语", "住房", "房子", "汽车",
               "车辆", "座驾", "穿衣", "饮食", "咖啡"],
        "zht": ["使用者資料", "用戶資料", "住在", "時區", "暱稱", "姓名", "職業", "工作經歷", "家鄉", "母語", "房子", "汽車", "車輛",
                "飲食", "咖啡"],
        "ja": ["名前", "タイムゾーン", "住まい", "自宅", "職業", "@仕事?", "好きなこと", "苦手", "食事", "コーヒー"],
        "ko": ["소개", "직업", "자동차", "차량", "주거", "거주", "시간대", "이름", "선호", "좋아함", "싫어함", "커피"],
        "es": ["@trabajo?", "casa", "coche", "vivienda", "zona horaria", "nombre", "profesión", "ocupación", "café",
               "me gusta", "no me gusta"],
        "fr": ["à propos de moi", "@moi?", "qui je suis", "profil", "informations personnelles", "données personnelles",
               "présentation", "préférences", "goûts", "loisirs", "passe-temps", "habitudes", "routine", "personnalité",
               "allergies", "régime alimentaire", "fuseau horaire", "maison", "logement", "appartement", "voiture",
               "@travail?", "métier", "profession", "biographie", "parcours", "j'aime", "je n'aime pas"],
        "pt": ["sobre mim", "@eu?", "quem sou", "perfil", "informações pessoais", "dados pessoais", "preferências", "gostos",
               "hobbies", "passatempos", "hábitos", "rotina", "personalidade", "alergias", "fuso horário", "casa",
               "moradia", "apartamento", "carro", "@trabalho?", "profissão", "biografia", "gosta de", "não gosta"],
        "ru": ["обо мне", "о себе", "кто я", "профиль", "личная информация", "личные данные", "предпочтени*", "вкусы",
               "хобби", "увлечени*", "привычки", "распорядок дня", "характер", "аллерги*", "часовой пояс", "жильё", "жилье",
               "квартира", "машина", "автомобиль", "@работа?", "профессия", "биография", "любит", "не любит"],
        "de": ["zeitzone", "wohnung", "auto", "beruf", "@arbeit?", "@job?", "wohnort", "zuhause", "mag", "mag nicht"],
        "vi": ["nghề nghiệp", "nhà ở", "múi giờ", "thích", "không thích"],
    },
    "people": {
        "en": ["hiring", "recruiting", "recruitment", "candidates", "org chart", "direct reports", "landlord", "son",
               "daughter", "mother", "father", "mom", "dad", "brother", "sister", "girlfriend", "boyfriend", "children",
               "manager", "managers", "team lead", "tech lead", "cofounder", "co-founder", "in-laws", "best friend"],
        "zh": ["招聘", "面试", "候选人", "孩子", "儿子", "女儿", "老公", "男朋友", "女朋友", "室友", "妈妈", "爸爸", "哥哥", "姐姐",
               "弟弟", "妹妹"],
        "zht": ["招募", "面試", "孩子", "兒子", "女兒", "老公", "男友", "女友", "室友", "媽媽", "爸爸", "哥哥", "姊姊", "弟弟", "妹妹"],
        "ja": ["採用", "面接", "子ども", "子供", "息子", "両親", "パートナー", "母親", "父親", "兄弟"],
        "ko": ["채용", "면접", "자녀", "아이들", "남자친구", "여자친구", "엄마", "아빠", "팀장"],
        "es": ["contratación", "selección de personal", "hermanos", "hermana", "hermano", "esposa", "marido", "novia",
               "novio", "madre", "padre", "hija", "hijo"],
        "fr": ["famille", "amis", "collègues", "contacts", "personnes", "équipe?", "proches", "entourage", "conjoint",
               "épouse", "mari", "enfants", "parents", "patron", "voisins", "recrutement", "interlocuteurs", "mère",
               "père", "frère", "sœur", "copine", "copain"],
        "pt": ["família", "amigos", "colegas", "contatos", "contactos", "pessoas", "equipe?", "equipa?", "esposa", "marido",
               "filhos", "pais", "chefe", "vizinhos", "recrutamento", "mãe", "irmão", "irmã", "namorada", "namorado"],
        "ru": ["семья", "семьи", "друзья", "коллеги", "контакты", "люди", "команда?", "жена", "муж", "дети", "родители",
               "начальник", "руководитель", "соседи", "найм", "подбор персонала", "сотрудники", "мама", "папа", "брат",
               "сестра"],
        "de": ["rekrutierung", "bewerber", "ehefrau", "ehemann", "kinder", "eltern", "chef", "mutter", "vater", "bruder",
               "schwester"],
        "vi": ["tuyển dụng", "phỏng vấn", "vợ", "chồng", "con cái", "bố mẹ", "anh trai", "chị gái", "em gái"],
    },
    "projects": {
        "en": ["open questions", "unknowns", "learning?", "studying", "study plan", "courses", "certifications",
               "reading list", "current work", "active work", "next up", "in the works", "ideas", "experiments",
               "prototypes", "mvp", "epics", "okrs", "deliverables", "wishlist"],
        "zh": ["路线图", "待确认", "待解决", "想法", "计划中", "正在做", "学习计划", "实验"],
        "zht": ["路線圖", "待確認", "待解決", "想法", "正在做", "學習計畫"],
        "ja": ["やること", "未決事項", "アイデア", "検討事項", "進行中", "取り組み中"],
        "ko": ["아이디어", "미결 사항", "작업 목록", "백로그", "진행 상황"],
        "es": ["preguntas abiertas", "ideas", "por hacer", "en marcha", "próximos pasos", "prioridades"],
        "fr": ["projets", "projet", "en cours", "tâches", "à faire", "objectifs", "plans", "feuille de route", "jalons",
               "priorités", "questions ouvertes", "idées", "prochaines étapes", "chantiers"],
        "pt": ["projetos", "projeto", "em andamento", "tarefas", "a fazer", "objetivos", "metas", "planos", "roteiro",
               "marcos", "prioridades", "questões em aberto", "ideias", "próximos passos"],
        "ru": ["проект*", "задачи", "цели", "планы", "дорожная карта", "в работе", "текущие задачи", "приоритеты",
               "открытые вопросы", "идеи", "следующие шаги", "вехи"],
        "de": ["aufgaben", "ziele", "pläne", "offene fragen", "ideen", "nächste schritte", "prioritäten"],
        "vi": ["mục tiêu", "nhiệm vụ", "ý tưởng", "câu hỏi mở", "lộ trình", "ưu tiên"],
    },
    "business": {
        "en": ["customer support", "user support", "support tickets", "helpdesk", "refunds",
               "hourly rate", "per hour", "tutoring", "private lessons", "grants", "grant", "sponsors", "donations",
               "side gig", "money?"],
        "zh": ["客服", "售后", "退款", "付款", "收款", "时薪", "家教", "资助", "赞助"],
        "zht": ["客服", "售後", "退款", "付款", "收款", "時薪", "家教", "贊助"],
        "ja": ["サポート", "問い合わせ", "返金", "支払い", "入金", "家庭教師", "助成金", "お金?"],
        "ko": ["고객 지원", "문의", "환불", "결제", "시급", "과외", "지원금", "돈?"],
        "es": ["atención al cliente", "soporte", "reembolsos", "devoluciones", "pagos", "pago", "cobros", "por hora",
               "dinero?"],
        "fr": ["clients", "entreprise", "société", "chiffre d'affaires", "revenus", "factures", "facturation", "ventes",
               "devis", "tarifs", "prix", "fournisseurs", "commandes", "marketing", "budget", "finances", "paiements",
               "paiement", "service client", "remboursements", "indépendant", "freelance", "par heure", "de l'heure",
               "argent?"],
        "pt": ["clientes", "empresa", "negócio", "negócios", "faturamento", "receita", "faturas", "vendas", "orçamentos",
               "orçamento", "preços", "fornecedores", "pedidos", "marketing", "finanças", "pagamentos", "pagamento",
               "atendimento", "suporte", "reembolsos", "autônomo", "por hora", "dinheiro?"],
        "ru": ["клиент*", "компания", "бизнес", "выручка", "доход*", "продажи", "цены", "прайс", "поставщик*", "заказы",
               "маркетинг", "бюджет", "финансы", "оплата", "платежи", "поддержка клиентов", "возврат*", "фриланс", "в час",
               "деньги?"],
        "de": ["zahlung*", "kundensupport", "kundendienst", "erstattung*", "pro stunde", "fördermittel", "geld?"],
        "vi": ["thanh toán", "hỗ trợ khách hàng", "hoàn tiền", "mỗi giờ"],
    },
    "infrastructure": {
        "en": ["oncall", "on call", "ip", "ip address", "ip addresses", "mac", "mac mini", "imac", "browser", "browsers",
               "hosts", "ssh", "vpn", "domain names", "self-hosted", "raspberry pi", "home network",
               "smart home", "phone", "iphone", "android phone"],
        "zh": ["浏览器", "域名", "端口", "路由器", "内网", "手机", "智能家居"],
        "zht": ["瀏覽器", "網域", "連接埠", "路由器", "手機", "智慧家庭"],
        "ja": ["ブラウザ", "ドメイン", "ポート", "オンコール", "スマホ", "ルーター"],
        "ko": ["브라우저", "온콜", "모니터링", "휴대폰", "공유기"],
        "es": ["servidor", "navegador", "monitorización", "móvil", "router"],
        "fr": ["serveurs", "serveur", "infrastructure", "hébergement", "déploiement", "base de données", "bases de données",
               "réseau", "appareils", "matériel", "ordinateur", "ordinateurs", "sauvegardes", "sauvegarde",
               "configuration", "outils", "logiciels", "supervision", "navigateur", "téléphone"],
        "pt": ["servidores", "servidor", "infraestrutura", "hospedagem", "implantação", "banco de dados", "rede",
               "dispositivos", "equipamentos", "computador", "notebook", "backups", "cópias de segurança", "configuração",
               "ferramentas", "programas", "aplicativos", "monitoramento", "navegador", "celular"],
        "ru": ["сервер*", "инфраструктур*", "хостинг", "деплой", "развёртывани*", "развертывани*", "база данных",
               "базы данных", "сеть", "устройства", "оборудование", "компьютер*", "ноутбук", "бэкап*", "резервн*",
               "настройк*", "конфигурац*", "инструменты", "программы", "приложения", "мониторинг", "браузер", "телефон"],
        "de": ["hardware", "wlan", "router", "dienste", "hosts", "browser", "handy"],
        "vi": ["mạng", "tên miền", "giám sát", "trình duyệt", "điện thoại"],
    },
    "agents": {
        "fr": ["assistant", "agents", "automatisation", "bots", "flux de travail", "prompts"],
        "pt": ["assistente", "agentes", "automação", "bots", "fluxo de trabalho", "prompts"],
        "ru": ["ассистент*", "агент*", "автоматизац*", "бот*", "промпт*", "рабочий процесс"],
    },
    "codebase": {
        "en": ["tech stack", "technology stack", "known issues", "known bugs", "bugs", "bug list", "known gaps",
               "known limitations", "code review", "commit messages"],
        "zh": ["已知问题", "已知缺陷", "缺陷", "代码审查", "提交规范"],
        "zht": ["技術棧", "已知問題", "已知缺陷", "缺陷", "程式碼審查"],
        "ja": ["技術スタック", "既知の不具合", "不具合", "バグ", "既知の問題", "コードレビュー"],
        "ko": ["기술 스택", "알려진 문제", "알려진 이슈", "버그", "코드 리뷰"],
        "es": ["stack tecnológico", "problemas conocidos", "errores conocidos", "fallos conocidos", "bugs"],
        "fr": ["stack technique", "architecture", "code source", "dépôt", "modules", "composants", "modèle de données",
               "schéma", "conventions de code", "tests", "dépendances", "dette technique", "structure du projet",
               "arborescence", "problèmes connus", "bugs connus", "bogues"],
        "pt": ["stack tecnológica", "arquitetura", "código-fonte", "código fonte", "repositório", "módulos", "componentes",
               "modelo de dados", "esquema", "convenções de código", "testes", "dependências", "dívida técnica",
               "estrutura do projeto", "problemas conhecidos", "bugs conhecidos"],
        "ru": ["стек технологий", "технологический стек", "архитектур*", "кодовая база", "исходный код", "репозитори*",
               "модули", "компоненты", "модель данных", "схема данных", "тесты", "зависимости", "технический долг",
               "структура проекта", "известные проблемы", "известные ошибки", "баги"],
        "de": ["tech-stack", "technologie-stack", "bekannte probleme", "bekannte fehler", "bugs"],
        "vi": ["công nghệ sử dụng", "lỗi đã biết", "vấn đề đã biết"],
    },
    "lessons": {
        "en": ["note to self", "today i learned", "learned the hard way", "what went wrong", "what didn't work"],
        "fr": ["leçons", "leçons apprises", "enseignements", "retours d'expérience", "ce que j'ai appris", "erreurs",
               "astuces", "conseils", "pièges", "bonnes pratiques"],
        "pt": ["lições", "lições aprendidas", "aprendizados", "o que aprendi", "erros", "dicas", "armadilhas",
               "boas práticas"],
        "ru": ["уроки", "извлечённые уроки", "выводы", "ошибки", "советы", "подводные камни", "грабли",
               "лучшие практики", "что я узнал"],
    },
    "legal": {
        "en": ["audit", "audits", "terms of service", "legal entity", "visa", "immigration"],
        "fr": ["juridique", "contrats", "contrat", "impôts", "fiscalité", "assurances", "assurance", "conformité", "rgpd",
               "licences", "droits d'auteur", "réglementation", "mentions légales"],
        "pt": ["jurídico", "contratos", "impostos", "seguros", "conformidade", "lgpd", "licenças", "direitos autorais",
               "regulamentação"],
        "ru": ["юридическ*", "договор*", "налог*", "страхов*", "лицензи*", "авторское право", "законодательство"],
        "zh": ["审计", "签证"], "zht": ["稽核", "簽證"], "ja": ["監査", "ビザ"], "ko": ["감사", "비자"],
    },
    "dates": {
        "fr": ["calendrier", "agenda", "dates importantes", "anniversaires", "rendez-vous", "échéances", "réunions",
               "événements", "emploi du temps", "horaires", "examens", "jours fériés", "rappels"],
        "pt": ["calendário", "agenda", "datas importantes", "aniversários", "compromissos", "prazos", "reuniões",
               "eventos", "horário", "provas", "feriados", "lembretes"],
        "ru": ["календарь", "расписание", "важные даты", "дни рождения", "день рождения", "годовщин*", "дедлайн*",
               "сроки", "встречи", "события", "экзамен*", "праздники", "напоминания"],
        "de": ["besprechungen", "stundenplan"],
    },
    "rules": {
        "en": ["@how we work", "@collaboration rules", "@conventions for the agent"],
        "zh": ["@约定", "@协作约定", "@工作约定", "@约束", "@硬性要求"],
        "zht": ["@約定", "@協作約定", "@工作約定"],
        "ja": ["@取り決め", "@約束事", "@方針"],
        "ko": ["@약속", "@협업 규칙", "@지켜야 할"],
        "fr": ["@règles", "@consignes", "@instructions", "@principes", "@directives", "@à respecter"],
        "pt": ["@regras", "@instruções", "@diretrizes", "@princípios", "@normas"],
        "ru": ["@правила", "@инструкции", "@принципы", "@указания", "@регламент"],
        "de": ["@vereinbarungen", "@arbeitsweise"],
    },
    "private": {
        "en": ["@health", "medical", "medication", "medications", "doctor", "therapy", "physio",
               "physiotherapy", "mental health", "prescriptions", "rent", "bank account", "bank accounts",
               "credit card", "credit cards", "savings plan", "investments", "brokerage", "loan", "loans", "money?"],
        "zh": ["健康", "医疗", "看病", "体检", "病历", "用药", "药物", "房租", "信用卡", "银行卡", "投资", "股票", "贷款", "钱?"],
        "zht": ["健康", "醫療", "看病", "體檢", "病歷", "用藥", "房租", "信用卡", "投資", "股票", "貸款"],
        "ja": ["健康", "医療", "通院", "病院", "家賃", "クレジットカード", "投資", "ローン", "お金?"],
        "ko": ["건강", "병원", "진료", "월세", "카드값", "신용카드", "투자", "주식", "은행", "돈?"],
        "es": ["salud", "médico", "medicación", "alquiler", "tarjeta de crédito", "cuenta bancaria", "inversiones",
               "préstamo", "dinero?"],
        "fr": ["santé", "médical", "médecin", "finances personnelles", "salaire", "épargne", "loyer", "crédit immobilier",
               "prêt", "dettes", "retraite", "carte bancaire", "compte bancaire", "placements", "argent?"],
        "pt": ["saúde", "médico", "finanças pessoais", "salário", "poupança", "aluguel", "financiamento", "empréstimo",
               "dívidas", "aposentadoria", "cartão de crédito", "conta bancária", "investimentos", "dinheiro?"],
        "ru": ["здоровье", "врач", "лекарства", "личные финансы", "зарплата", "сбережения", "аренда", "ипотека", "кредит",
               "долги", "пенсия", "банковская карта", "инвестиции", "деньги?"],
        "de": ["gesundheit", "arzt", "ärztin", "medikamente", "miete", "kreditkarte", "bankkonto", "investitionen",
               "sparplan", "geld?"],
        "vi": ["sức khỏe", "bác sĩ", "thuốc", "tiền nhà", "thẻ tín dụng", "đầu tư"],
    },
    "community": {
        "fr": ["communauté", "association", "club", "bénévolat", "réseaux sociaux", "abonnés", "groupe?"],
        "pt": ["comunidade", "associação", "clube", "voluntariado", "redes sociais", "seguidores", "grupo?"],
        "ru": ["сообществ*", "клуб", "волонтёрство", "волонтерство", "соцсети", "подписчики", "группа?"],
    },
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


# Dutch, Polish, Turkish, Indonesian/Malay, Swedish/Danish/Norwegian, Czech, Ukrainian, Arabic, Hindi,
# Thai, Persian and Greek (`cues_world.py`), merged by the same loop.
_extend(WORLD)
RULE_HEADINGS += RULE_HEADINGS_WORLD
INSTRUCTION_WORDS += INSTRUCTION_WORDS_WORLD
TOPICLESS += TOPICLESS_WORLD

_extend(_MORE)
RULE_HEADINGS += ["règles", "consignes", "principes", "regras", "diretrizes", "princípios", "правила", "инструкции",
                  "принципы", "约定", "約定", "取り決め", "약속"]
INSTRUCTION_WORDS += ["toujours", "jamais", "ne pas", "il faut", "interdit", "obligatoire", "sempre", "não faça",
                      "não use", "proibido", "obrigatório", "всегда", "никогда", "нельзя", "не надо", "не нужно",
                      "обязательно", "запрещено", "하지 마", "하지 말", "금지"]
TOPICLESS += ["divers", "autres", "général", "générales", "mémoire", "souvenirs", "infos", "à retenir", "du", "des",
              "et", "le", "les", "diversos", "outros", "geral", "memória", "coisas", "e", "do", "da", "dos", "das",
              "заметки", "разное", "прочее", "другое", "общее", "важное", "память", "инфо", "и", "о"]

# Italian, and what a personal memory holds that no list had in any language: travel and holidays
# (dates: trips are planned days; travel *preferences* are the user's), pets and daily routine
# (identity), studies and coursework (projects: ongoing work), a shop's stock and products
# (business), bank details (private).
_extend({
    "accounts": {"it": ["account", "credenziali", "password", "accessi", "dati di accesso", "chiavi api", "token",
                        "portafogli"]},
    "security": {"it": ["sicurezza", "privacy", "crittografia", "truffe", "frode", "phishing",
                        "autenticazione a due fattori", "vulnerabilità"]},
    "archive": {"it": ["@archivio", "@archiviato", "@storico", "@cronologia", "@completato", "@completati",
                       "@concluso", "@vecchio", "@passato"],
                "ru": ["@сделано", "@готово"], "vi": ["@đã làm"]},
    "identity": {
        "en": ["pets", "daily routine", "morning routine", "travel preferences", "favorite food", "favourite food",
               "schedule preferences"],
        "zh": ["宠物", "日常", "旅行偏好", "最喜欢"], "zht": ["寵物", "日常", "最喜歡"],
        "ja": ["ペット", "日課", "一日の流れ"], "ko": ["반려동물", "하루 일과", "일과"],
        "es": ["mascotas", "rutina diaria", "favoritos", "favorito"],
        "fr": ["animaux", "animaux de compagnie", "routine quotidienne", "favoris", "préféré", "préférée"],
        "pt": ["animais de estimação", "pets", "rotina diária", "favoritos", "favorito"],
        "ru": ["питомц*", "домашние животные", "распорядок", "любимые", "любимое"],
        "de": ["haustier*", "tagesablauf", "lieblings*", "morgenroutine"],
        "vi": ["thú cưng", "thói quen hằng ngày", "yêu thích", "=nhà", "=xe", "xe máy", "ô tô", "xe hơi",
               "@công việc?"],
        "it": ["su di me", "chi sono", "profilo", "informazioni personali", "dati personali", "preferenze", "gusti",
               "hobby", "passatempi", "abitudini", "routine", "personalità", "allergie", "fuso orario", "@casa",
               "appartamento", "@macchina", "@auto", "@lavoro?", "professione", "biografia", "animali domestici",
               "mi piace", "non mi piace"],
    },
    "people": {"it": ["famiglia", "amici", "colleghi", "contatti", "persone", "squadra?", "moglie", "marito", "figli",
                      "genitori", "capo", "vicini", "mamma", "papà", "fratello", "sorella", "fidanzata", "fidanzato",
                      "assunzioni"]},
    "projects": {
        "en": ["studies", "coursework", "homework", "assignments", "semester", "thesis work"],
        "zh": ["学业", "课程", "作业", "学期"], "zht": ["學業", "課程", "作業", "學期"],
        "ja": ["授業", "宿題", "学期", "履修"], "ko": ["학업", "수업", "과제", "학기"],
        "es": ["estudios", "asignaturas", "deberes", "semestre"],
        "fr": ["études", "cours", "devoirs", "semestre"],
        "pt": ["estudos", "disciplinas", "semestre"],
        "ru": ["учёба", "учеба", "курсы", "домашнее задание", "семестр"],
        "de": ["studium", "kurse", "hausaufgaben", "semester", "vorlesungen"],
        "vi": ["học tập", "môn học", "bài tập", "học kỳ"],
        "it": ["progetti", "progetto", "in corso", "attività", "da fare", "obiettivi", "piani", "roadmap", "priorità",
               "domande aperte", "idee", "prossimi passi", "studi", "corsi"],
    },
    "business": {
        "en": ["inventory", "stock", "products", "product catalog", "catalog", "catalogue", "store", "online store",
               "wholesale", "shipping", "deliveries"],
        "zh": ["库存", "产品", "商品", "进货", "发货", "网店", "店铺"], "zht": ["庫存", "產品", "商品", "進貨", "出貨", "店鋪"],
        "ja": ["在庫", "商品", "製品", "発送", "仕入"], "ko": ["재고", "상품", "제품", "배송", "매장", "쇼핑몰"],
        "es": ["inventario", "existencias", "productos", "catálogo", "tienda", "envíos", "pedidos"],
        "fr": ["inventaire", "stock", "produits", "catalogue", "boutique", "magasin", "livraisons", "expéditions"],
        "pt": ["estoque", "inventário", "produtos", "catálogo", "loja", "entregas", "envios"],
        "ru": ["склад", "остатки", "товары", "товар*", "каталог", "магазин", "доставк*"],
        "de": ["lager*", "bestand", "produkte", "katalog", "laden", "versand", "lieferungen", "bestellungen", "shop"],
        "vi": ["kho hàng", "tồn kho", "sản phẩm", "hàng hóa", "giao hàng", "nhà cung cấp", "bảng giá", "=giá", "nhập hàng"],
        "it": ["clienti", "azienda", "attività commerciale", "fatturato", "entrate", "fatture", "vendite", "preventivi",
               "prezzi", "tariffe", "fornitori", "ordini", "marketing", "budget", "finanze", "pagamenti", "negozio",
               "magazzino", "prodotti", "soldi?", "freelance"],
    },
    "infrastructure": {"it": ["server", "infrastruttura", "hosting", "database", "rete", "dispositivi", "computer",
                              "portatile", "backup", "configurazione", "strumenti", "programmi", "app", "browser",
                              "telefono"]},
    "agents": {"it": ["assistente", "agenti", "automazione", "bot", "flusso di lavoro", "prompt"]},
    "codebase": {"it": ["architettura", "codice sorgente", "repository", "moduli", "componenti", "modello dati",
                        "convenzioni di codice", "test", "dipendenze", "debito tecnico", "struttura del progetto",
                        "problemi noti", "bug noti", "stack tecnologico"]},
    "lessons": {"it": ["lezioni", "lezioni imparate", "cosa ho imparato", "errori", "consigli", "trucchi",
                       "buone pratiche"]},
    "legal": {"it": ["legale", "contratti", "contratto", "tasse", "imposte", "assicurazioni", "assicurazione",
                     "conformità", "gdpr", "licenze", "diritto d'autore", "normativa"]},
    "dates": {
        "en": ["travel?", "trips", "trip", "vacation", "vacations", "upcoming trips", "travel plans", "itinerary"],
        "zh": ["旅行", "旅游", "出行", "假期", "行程安排"], "zht": ["旅行", "旅遊", "出遊", "假期"],
        "ja": ["旅行", "休暇", "出張"], "ko": ["여행", "휴가", "출장"],
        "es": ["viajes", "vacaciones", "horarios"],
        "fr": ["voyages", "vacances", "congés", "déplacements"],
        "pt": ["viagens", "férias", "agenda semanal"],
        "ru": ["путешестви*", "отпуск", "поездки", "командировк*"],
        "de": ["urlaub", "reisen", "zeitplan", "dienstreisen", "ferien"],
        "vi": ["du lịch", "kỳ nghỉ", "chuyến đi", "công tác"],
        "it": ["calendario", "agenda", "date importanti", "compleanni", "anniversari", "scadenze", "appuntamenti",
               "riunioni", "eventi", "orari", "esami", "viaggi", "vacanze", "ferie", "promemoria"],
    },
    "rules": {"it": ["@regole", "@istruzioni", "@principi", "@linee guida", "@norme"]},
    "private": {
        "en": ["bank details", "iban", "tax return"],
        "de": ["bankverbindung", "kontoverbindung", "steuererklärung"],
        "fr": ["coordonnées bancaires", "rib", "déclaration d'impôts"],
        "es": ["datos bancarios", "declaración de la renta"], "pt": ["dados bancários", "declaração de imposto"],
        "ru": ["банковские реквизиты", "реквизиты"], "vi": ["số tài khoản"],
        "it": ["salute", "medico", "finanze personali", "stipendio", "risparmi", "affitto", "mutuo", "prestito",
               "debiti", "pensione", "carta di credito", "conto corrente", "investimenti", "dati bancari"],
    },
    "community": {"it": ["comunità", "associazione", "club", "volontariato", "social", "follower", "gruppo?"]},
})
RULE_HEADINGS += ["regole", "istruzioni", "principi"]
INSTRUCTION_WORDS += ["sempre", "mai", "non devi", "devi", "è vietato", "obbligatorio"]
TOPICLESS += ["varie", "altro", "altri", "generale", "memoria", "ricordi", "note", "cose", "di", "del", "della", "il",
              "lo", "gli", "le"]

# Terse headings of everyday and technical life that no list named (session 4, from a probe of
# headings written for the purpose): hobbies and tastes, banking and the dentist, school, editors and
# shells, CI and SLOs, leads, references. A single-word Spanish or English cue that another
# language's word inflects into is exact (`*personas`: never "persona"; `*editors`: people who edit).
_extend({
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
    "lessons": {"en": ["faq", "faqs", "@links?", "bookmarks", "@resources?", "references", "cheatsheet", "cheat sheet",
                       "glossary", "terminology"],
                "zh": ["常见问题", "术语", "参考资料"], "zht": ["常見問題", "術語", "參考資料"], "ja": ["よくある質問", "用語集", "参考資料"],
                "ko": ["자주 묻는 질문", "용어", "참고 자료"], "es": ["preguntas frecuentes", "glosario", "referencias"],
                "fr": ["glossaire", "références"], "pt": ["perguntas frequentes", "glossário", "referências"],
                "de": ["glossar", "häufige fragen"], "ru": ["глоссарий", "частые вопросы"]},
    "business": {"en": ["leads", "prospects", "crm"]},
})

# Everyday CJK words the lists lacked (a probe of headings written for the purpose).
_extend({
    "identity": {"zh": ["@工作?", "兴趣"], "zht": ["@工作?", "興趣"], "ko": ["취미", "관심사"]},
    "projects": {"zh": ["学习?"], "zht": ["學習?"], "ko": ["공부?"]},
    "business": {"ja": ["注文", "受注"], "ko": ["주문", "재정", "재무"]},
    "private": {"ko": ["가계부"]},
    "archive": {"ko": ["@완료", "@끝난 일"]},
})
_extend({
    "identity": {"vi": ["giới thiệu", "thông tin cá nhân"]},
    "community": {"vi": ["nhóm?", "nhóm zalo", "hội"]},
    "projects": {"de": ["offen?", "offene punkte"]},
    "dates": {"de": ["*termine", "*termin"]},   # Arzttermine, Zahnarzttermin: a compound is what its last part says
    "infrastructure": {"de": ["heimnetz*", "*netzwerk", "*server"]},
})
_extend({
    "people": {"de": ["leute", "menschen"]},
    "private": {"ru": ["зарплат*", "ипотек*", "сбережени*"]},
})
RULE_HEADINGS += ["how to work with me", "working with me", "so arbeitest du mit mir", "wie du mit mir arbeitest",
                  "comment travailler avec moi", "como trabalhar comigo", "cómo trabajar conmigo",
                  "come lavorare con me", "как со мной работать", "cách làm việc với tôi"]
_extend({
    "people": {"ko": ["팀?", "팀원들"]},
    "projects": {"ko": ["남은 일", "남은 작업", "해야 할 일"], "zh": ["剩下的事", "待做"], "ja": ["残りの作業"]},
    "infrastructure": {"ja": ["道具", "仕事道具"]},
})
EMOJI.update({
    "🏠": "identity", "🏡": "identity", "🐶": "identity", "🐱": "identity", "🐾": "identity", "🍽": "identity",
    "🍳": "identity", "☕": "identity", "🏋": "identity", "🏃": "identity", "🎵": "identity", "🎮": "identity",
    "🏥": "private", "💊": "private", "🩺": "private", "🦷": "private", "🏦": "private", "💳": "private",
    "✈": "dates", "🧳": "dates", "🗺": "dates", "🏖": "dates", "⏰": "dates", "🎉": "dates",
    "🔧": "infrastructure", "🧰": "infrastructure", "🖨": "infrastructure", "📱": "infrastructure", "📡": "infrastructure",
    "🐛": "codebase", "🧪": "codebase", "📖": "lessons", "🧠": "lessons", "🔗": "lessons",
    "📊": "business", "🧾": "business", "🛒": "business", "🏪": "business", "📞": "people", "☎": "people", "📇": "people",
    "🚫": "rules", "⛔": "rules",
})
_extend({"identity": {"fr": ["@identité"], "pt": ["@identidade"], "es": ["@identidad"], "it": ["@identità"],
                      "de": ["@identität"], "ru": ["@личность"]}})
