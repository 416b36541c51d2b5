"""The cue tables of every language past the first ones (`cues.py`), as steps that `cues.py`
applies in this order: "cues" adds words per domain and language (`cues._extend`: a word the domain
lists already is not listed again), "languages" sets a language's words of a domain, "rules",
"instructions" and "topicless" extend those lists, "emoji" the emoji table. The order is kept as the
lists grew, so the tables (and every tie they break) stay what they were. Data only.
"""

from __future__ import annotations

from .cues_world import INSTRUCTION_WORDS_WORLD, RULE_HEADINGS_WORLD, TOPICLESS_WORLD, WORLD

STEPS: list[tuple[str, dict | list]] = []  # (kind, value): see above

# Korean and Spanish (session 3, added after the s3 held-out run: its ko/es figures before them are
# the measured ones). The same concepts as the English lists; Hangul is matched as CJK (anywhere).
KO_ES: dict[str, dict[str, list[str]]] = {
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
STEPS.append(("languages", KO_ES))
STEPS.append(("rules", ["규칙", "원칙", "지침", "normas", "reglas", "pautas", "instrucciones", "principios"]))
STEPS.append(("instructions", ["항상", "반드시", "절대", "siempre", "nunca", "jamás", "debes", "no debes"]))
STEPS.append(("topicless", ["메모", "기타", "중요", "기억", "notas", "varios", "otros", "otras", "cosas", "importante", "memoria",
              "recuerdos", "de", "y", "la", "el", "los", "las", "mis"]))


# Session 4: French, Portuguese and Russian, and what every language's lists lacked: the same
# concepts written from general knowledge of what people keep in such files (no held-out file's
# words). Russian inflects: its cues are stems (`проект*`). Health is the user's private matter
# (it moved from identity); a tech stack is the code's (from infrastructure); work and a job describe
# the user (identity), a side job earns (business); a heading that only says "money" is split between
# the business's money and the user's own, and the body decides.
MORE: dict[str, dict[str, list[str]]] = {
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


# Dutch, Polish, Turkish, Indonesian/Malay, Swedish/Danish/Norwegian, Czech, Ukrainian, Arabic, Hindi,
# Thai, Persian and Greek (`cues_world.py`), merged by the same loop.
STEPS.append(("cues", WORLD))
STEPS.append(("rules", RULE_HEADINGS_WORLD))
STEPS.append(("instructions", INSTRUCTION_WORDS_WORLD))
STEPS.append(("topicless", TOPICLESS_WORLD))

STEPS.append(("cues", MORE))
STEPS.append(("rules", ["règles", "consignes", "principes", "regras", "diretrizes", "princípios", "правила", "инструкции",
                  "принципы", "约定", "約定", "取り決め", "약속"]))
STEPS.append(("instructions", ["toujours", "jamais", "ne pas", "il faut", "interdit", "obligatoire", "sempre", "não faça",
                      "não use", "proibido", "obrigatório", "всегда", "никогда", "нельзя", "не надо", "не нужно",
                      "обязательно", "запрещено", "하지 마", "하지 말", "금지"]))
STEPS.append(("topicless", ["divers", "autres", "général", "générales", "mémoire", "souvenirs", "infos", "à retenir", "du", "des",
              "et", "le", "les", "diversos", "outros", "geral", "memória", "coisas", "e", "do", "da", "dos", "das",
              "заметки", "разное", "прочее", "другое", "общее", "важное", "память", "инфо", "и", "о"]))

# Italian, and what a personal memory holds that no list had in any language: travel and holidays
# (dates: trips are planned days; travel *preferences* are the user's), pets and daily routine
# (identity), studies and coursework (projects: ongoing work), a shop's stock and products
# (business), bank details (private).
STEPS.append(("cues", {
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
}))
STEPS.append(("rules", ["regole", "istruzioni", "principi"]))
STEPS.append(("instructions", ["sempre", "mai", "non devi", "devi", "è vietato", "obbligatorio"]))
STEPS.append(("topicless", ["varie", "altro", "altri", "generale", "memoria", "ricordi", "note", "cose", "di", "del", "della", "il",
              "lo", "gli", "le"]))

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
    "lessons": {"en": ["faq", "faqs", "@links?", "bookmarks", "@resources?", "references", "cheatsheet", "cheat sheet",
                       "glossary", "terminology"],
                "zh": ["常见问题", "术语", "参考资料"], "zht": ["常見問題", "術語", "參考資料"], "ja": ["よくある質問", "用語集", "参考資料"],
                "ko": ["자주 묻는 질문", "용어", "참고 자료"], "es": ["preguntas frecuentes", "glosario", "referencias"],
                "fr": ["glossaire", "références"], "pt": ["perguntas frequentes", "glossário", "referências"],
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
