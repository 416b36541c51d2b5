"""Secrets found by their shape, not by the heading above them.

A line holds a secret when it contains
- a private-key block, or a token with a known shape (API keys of the common providers, chat-bot
  tokens, JWTs, a 64-hex private key) — a known prefix with a cut-off random tail (`hf_Kx9…`)
  counts too, a run of x's or stars (`tvly-xxx`) does not;
- a URL with a password, or a chat webhook's URL (Discord, Slack, Feishu/Lark, WeCom, DingTalk:
  whoever has it can post as the bot);
- a value assigned to a secret's name (`password: …`, `**Password:** …`, `API key = …`, `密码：…`,
  `password (Tq8vLm2x)`, in several languages): the value must look like a secret — not a word of
  prose, a placeholder, a path or a pointer ("(in 1Password)"); an all-letter value counts only
  after a password's name and a colon, as the last thing on the line;
- a login pair: `email / password`, `admin / Password1`, or `user/pass` on a line about a login or
  a database;
- a table cell under (or beside) a cell naming a secret (`| App Secret | 9f8e… |`);
- a long random-looking token that is not an address (a word path, a link's path or query value,
  a token labelled an id: "Drive folder `1Qw8…`", "Channel ID: UCa1…"), or a seed phrase (12+ lowercase words after seed/mnemonic/助记词…,
  or 12-24 short lowercase words with no English function word among them).

The tree puts a section holding one in a private domain and never copies such a line into a
summary or an index; the shared boot never shows one (`mask` replaces the secret part when a
line has to be shown). The login pairs are `secret_pairs.py`'s, and what makes a value look like a
secret is `secret_values.py`'s.
"""

from __future__ import annotations

import re

from .secret_pairs import colon_pair_spans, pair_spans
from .secret_values import (NAME_LIKE, PATH, WORDS_JOINED, kinds, placeholder, random_tail, random_token,
                            secretish)

MASK = "[secret]"

_SHAPES = [
    ("private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    ("api key", r"\bsk-(?:proj-|ant-|live-)?[A-Za-z0-9_-]{20,}"),
    ("api key", r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_-]{20,})"),
    ("token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    ("token", r"\b(?:hf|npm|glsa|fr|gsk|r8)_[A-Za-z0-9_]{20,}"),
    ("api key", r"\b(?:tvly|pplx)-[A-Za-z0-9_-]{20,}"),
    ("access key", r"\b(?:AKIA|ASIA|LTAI)[0-9A-Za-z]{12,}\b"),
    ("api key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("bot token", r"\b\d{8,10}:[A-Za-z0-9_-]{30,}"),
    ("token", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("private key", r"\b0x[0-9a-fA-F]{64}\b"),
    ("webhook", r"https?://(?:(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]{20,}|"
                r"hooks\.slack\.com/(?:services|workflows|triggers)/[\w/-]{20,}|"
                r"open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/[\w-]{20,}|"
                r"qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=[\w-]{20,}|"
                r"oapi\.dingtalk\.com/robot/send\?access_token=\w{20,})"),
    ("password", r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:(?!(?:password|pass|secret|\*+|x+|<[^@]*>)@)[^/\s@]+@"),
]
_SHAPE = re.compile("|".join(f"(?P<s{i}>{pattern})" for i, (_, pattern) in enumerate(_SHAPES)))
# What every known shape (and every cut-off prefix) holds, as plain text: lines without it skip them.
_SHAPE_HINT = re.compile(r"sk[-_]|rk_|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|hf_|npm_|glsa_|fr_|gsk_|r8_|tvly-|"
                         r"pplx-|AKIA|ASIA|LTAI|AIza|eyJ|0x|://|-----BEGIN|\d{8,10}:")
# A provider's prefix with a short or cut-off tail ("hf_KxQ2vT9…"): part of a real token.
_PARTIAL = re.compile(r"(?<![\w-])(?:sk-(?:proj-|ant-)?|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|hf_|npm_|gsk_|r8_|"
                      r"tvly-|pplx-|AKIA|AIza)(?P<tail>[A-Za-z0-9_-]{6,})(?:…|\.\.\.)?(?![\w-])")

_PASSWORD_WORDS = (r"password|passwd|pwd|pw|passphrase|passcode|pin|"
                   r"密码|密碼|口令|パスワード|暗証番号|passwort|kennwort|mật khẩu|"
                   r"contraseña|contrasena|clave|senha|mot de passe|mdp|비밀번호|암호|패스워드|пароль|"
                   # nl, pl, tr, id/ms, sv/da/no, cs, ar, hi, th, fa, el (uk writes пароль)
                   r"wachtwoord|hasło|haslo|şifresi|şifre|parola|kata sandi|kata laluan|lösenord|adgangskode|"
                   r"passord|heslo|كلمة المرور|كلمة السر|الرقم السري|पासवर्ड|รหัสผ่าน|رمز عبور|رمز(?![\u0600-\u06ff])|"
                   r"گذرواژه|کلمه عبور|κωδικός πρόσβασης|κωδικός|συνθηματικό")
_KEY_WORDS = (rf"{_PASSWORD_WORDS}|secret|token|api[_ -]?key|apikey|access[_ -]?key|secret[_ -]?key|"
              r"client[_ -]?secret|app[_ -]?secret|private[_ -]?key|(?:backup|recovery) codes?|"
              r"密钥|金鑰|秘钥|私钥|私鑰|令牌|シークレット|トークン|khóa api|khóa|"
              r"api-sleutel|klucz api|api anahtarı|api anahtar|kunci api|api-nyckel|api-nøgle|api-nøkkel|api klíč|"
              r"ключ api|مفتاح api|एपीआई कुंजी|คีย์ api|کلید api|κλειδί api")
# name, then up to 24 characters in the same sentence and cell, then ":", "=" or "：" (maybe inside
# **bold**), then the value; or, with no separator, a value that is obviously a secret.
_ASSIGNMENT = re.compile(rf"(?i)(?<![a-z])(?P<key>{_KEY_WORDS})(?:s|es)?(?![a-z])"
                         rf"(?:(?P<gap>(?:(?!\.\s)[^:=：\n|()（）—·…{{}}\",]|\([^()\n]{{0,16}}\)){{0,24}})[:=：][*_]*\s*|(?P<space>\s+))"
                         rf"[`'\"]?(?P<value>[!#-&(-_a-~]+)")
_IN_PARENS = re.compile(rf"(?i)(?<![a-z])(?:{_PASSWORD_WORDS})(?:s)?(?![a-z])[^()（）\n|]{{0,30}}[(（]\s*`?"
                        rf"(?P<value>[^\s()（）`]{{4,64}})`?\s*[)）]")
# An all-letter value counts only after a word that means nothing but a password: Spanish "clave"
# is also "key" in "palabra clave: memoria" (keyword), Italian "parola" a word, Greek "κωδικός" any
# code, so a password after them needs a digit or a mark.
_PASSWORD_KEY = re.compile(rf"(?i)^(?!clave$|parola$|κωδικός$)(?:{_PASSWORD_WORDS})$")
_DIGIT_KEYS = re.compile(r"(?i)pin|code|pass|pw|密码|密碼|口令|パスワード|暗証番号|kennwort|mật khẩu|contrase|clave|senha|"
                         r"mot de passe|비밀번호|암호|пароль|wachtwoord|has[łl]o|şifre|parola|sandi|laluan|lösenord|"
                         r"adgangskode|passord|heslo|كلمة|الرقم السري|पासवर्ड|รหัสผ่าน|رمز|گذرواژه|کلمه عبور|"
                         r"κωδικός πρόσβασης|συνθηματικό")
# an environment variable's NAME ("`NOTION_API_KEY`", "OPENAI_API_KEY"): words of capitals joined by "_",
# a version's digits at most ("GPT4_TOKEN"); "ADMIN_PASS_2024" keeps a segment of digits alone
_VARIABLE_NAME = re.compile(r"^[A-Z]+[0-9]{0,2}(?:_[A-Z]+[0-9]{0,2})+$")
_DIGIT = re.compile(r"\d")
# How every ASCII spelling of a secret's name (_KEY_WORDS) begins, lowercased: _ASSIGNMENT matches a
# name after no ASCII letter, so an ASCII line (or one whose only non-ASCII characters are no letters:
# dashes, arrows, emoji) without one of these after a non-letter cannot match, and the regex (the
# costliest rule, tried at every position) is skipped. Only ſ, ı, İ and K fold to ASCII letters under
# (?i), and they are letters, so a line holding one goes to the regex as before.
# tests/memory/test_secrets_speed.py checks every spelling of _KEY_WORDS.
_KEY_HINTS = ("pass", "pw", "pin", "kennwort", "mot de passe", "contrasena", "clave", "senha", "mdp", "wachtwoord",
              "haslo", "parola", "kata ", "adgangskode", "heslo", "secret", "token", "api", "access", "client",
              "app", "private", "backup", "recovery", "klucz", "kunci")
_NON_ASCII_LETTER = re.compile(r"(?![\x00-\x7f])\w")


def _may_assign(line: str) -> bool:
    """Can _ASSIGNMENT match somewhere in `line`? False only when it cannot (see _KEY_HINTS)."""
    if not line.isascii() and _NON_ASCII_LETTER.search(line):
        return True
    low = line.lower()
    for hint in _KEY_HINTS:
        at = low.find(hint)
        while at >= 0:
            if at == 0 or not "a" <= low[at - 1] <= "z":
                return True
            at = low.find(hint, at + 1)
    return False
_SUDO_PIPE = re.compile(r"echo\s+(?P<q>['\"]?)(?P<value>[^\s'\"|]{3,64})(?P=q)\s*\|\s*sudo\s+(?:-\w+\s+)*-S\b")
_LONG_TOKEN = re.compile(r"(?<![\w/.-])(?P<prefix>[a-z]{2,6}[-_])?(?P<body>[A-Za-z0-9_+/=]{20,})(?![\w/.-])")
_HEX = re.compile(r"^[0-9a-fA-F]{16,}$")
# The prefixes API objects' ids carry (Anthropic trig_/msg_/toolu_, OpenAI run_/thread_/asst_, Stripe
# cus_/sub_/evt_/pi_…): a random tail after one names a thing, it opens nothing ("routine `trig_01US…`").
_OBJECT_ID = frozenset("trig run msg toolu cus sub evt acct ch pi pm py in ii prod price thread asst file batch "
                       "req job call chatcmpl srv plan seti si po cs txn".split())
_SEED_CUE = re.compile(r"(?i)seed[ -]?(?:phrase|words|backup)|seed\s*[:：=]|mnemonic|recovery phrase|"
                       r"助记词|助記詞|ニーモニック|シードフレーズ|cụm từ khôi phục")
_WORD_RUN = re.compile(r"(?:\b[a-z]{3,8} +){11,23}[a-z]{3,8}\b")
_BARE_PHRASE = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:[^:：]{0,30}[:：]\s*)?[`'\"]?((?:[a-z]{3,8} +){11,23}[a-z]{3,8})[`'\"]?\s*$")
_FUNCTION_WORDS = {"the", "and", "for", "with", "that", "this", "from", "are", "was", "not", "you", "but", "into",
                   "when", "then", "than", "has", "have", "had", "its", "our", "your", "will", "can", "who", "all"}
TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_SECRET_CELL = re.compile(rf"(?i)^[*_`]*(?:[\w .-]{{0,20}}\s)?(?:{_KEY_WORDS})(?:s|es)?[*_`]*$")
_LINE_END = re.compile(r"^[`'\"*_]*[.,;!)|]*\s*(?:\|.*)?$")


def _seed_words(line: str) -> re.Match[str] | None:
    """12-24 lowercase words after a seed cue, or making up the whole line (a label aside)."""
    if _SEED_CUE.search(line):
        match = _WORD_RUN.search(line)
        if match and not _FUNCTION_WORDS.intersection(match.group(0).split()):
            return match
    bare = _BARE_PHRASE.match(line)
    if bare and not _FUNCTION_WORDS.intersection(bare.group(1).split()):
        return bare
    return None


_ABOUT_SECRETS = re.compile(r"(?i)manager|policy|policies|reset|rotation|hint|rules?\b|length|strength|format|"
                            r"field|prompt|env|variable|name|location|管理|策略|规则|格式")


def _assigned(line: str, match: re.Match[str]) -> bool:
    """Is the value after a secret's name a secret? ("password manager: 1Password", "token
    format: JWT" talk about secrets.)"""
    value, key = match.group("value"), match.group("key")
    if match.group("gap") and _ABOUT_SECRETS.search(match.group("gap")):
        return False
    if match.group("gap") and match.group("gap")[-1:].isdigit() and value.rstrip(".,;)").isdigit():
        return False  # "pin map on .34:18091": a host and its port, not a PIN
    if match.group("space") is not None:  # "password rotates", "tokens  agents-and-tasks": no colon,
        return any(c.isdigit() for c in value) and kinds(value) >= 3 and secretish(value)  # only an obvious one
    if _VARIABLE_NAME.match(value.rstrip(".,;)`'\"*_")):
        return False  # "API keys still needed: `RISK_OFFICER_TOKEN`, …": which variables, not their values
    quoted = line[match.start("value") - 1:match.start("value")] in "`'\"" and match.start("value") > 0
    if not _PASSWORD_KEY.match(key) and WORDS_JOINED.match(value.rstrip(".,;)`'\"*_")):
        # "secret: telegram-bot-tokens" is words; "**Secret:** `firtl-uvpyo`", a quoted literal, is a value
        bare = value.rstrip(".,;)`'\"*_")
        return quoted and "-" in bare and len(bare) >= 6 and not placeholder(bare)
    if secretish(value, digits=bool(_DIGIT_KEYS.match(key))):
        return True
    bare = value.rstrip(".,;)`'\"*_")
    # An all-letter password ("password: correcthorse") counts after a password's name and a
    # colon when nothing but punctuation follows it: prose goes on ("password: required for login").
    return (bool(_PASSWORD_KEY.match(key)) and bare.isalpha() and len(bare) >= 6 and not placeholder(bare)
            and bool(_LINE_END.match(line[match.end("value"):])))


def spans(line: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every secret on one line (a table row's cells included). Each rule
    runs only on a line holding the character it needs (a colon, a slash, a parenthesis…): a long
    file is mostly lines none of them can match."""
    if len(line) < 6:
        return []
    hint = _SHAPE_HINT.search(line) is not None  # a literal scan: the shapes' own regex is ~10× slower
    # every alternative of _SHAPE is a named group, so each match has a lastgroup (mypy: str | None)
    found = [(m.start(), m.end(), _SHAPES[int(m.lastgroup[1:])][0])  # type: ignore[index]
             for m in _SHAPE.finditer(line) if not (line.startswith("0x", m.start()) and _public(line, m.start()))] \
        if hint else []
    slash = "/" in line
    if hint:
        found += _partial_spans(line)
    if (":" in line or "=" in line or "：" in line or _DIGIT.search(line)) and _may_assign(line):
        found += [(m.start("value"), m.start("value") + len(m.group("value").rstrip(".,;)")), "password")
                  for m in _ASSIGNMENT.finditer(line) if _assigned(line, m)]
    if "(" in line or "（" in line:
        found += _paren_spans(line)
    if "sudo" in line:
        found += [(m.start("value"), m.end("value"), "password") for m in _SUDO_PIPE.finditer(line)]
    if slash:
        found += pair_spans(line)
    if ":" in line:
        found += colon_pair_spans(line)
    if line.lstrip().startswith("|"):
        found += _row_spans(line, None)
    if len(line) >= 20:
        found += _long_token_spans(line)
    if line.count(" ") >= 11:
        seed = _seed_words(line)
        if seed:
            group = 1 if seed.re is _BARE_PHRASE else 0
            found.append((seed.start(group), seed.end(group), "seed phrase"))
    return sorted(set(found))


def _partial_spans(line: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), "token") for m in _PARTIAL.finditer(line) if random_tail(m.group("tail"))]


def _paren_spans(line: str) -> list[tuple[int, int, str]]:
    found = []
    for match in _IN_PARENS.finditer(line):
        value = match.group("value")
        if secretish(value, digits=True) or (kinds(value) >= 2 and len(value) >= 6 and not placeholder(value)
                                              and not PATH.search(value)):
            found.append((match.start("value"), match.end("value"), "password"))
    return found



# What names a long token as the address of a thing, not a key: a label before it on the line
# ("Drive file IDs:", "Sheet:", "YouTube Channel ID:", "folder `1Qw8…`"), unless a secret's name is
# nearer to it ("client id …, client secret …").
_ID_LABEL = re.compile(r"(?i)(?<![a-z])(?:ids?|folders?|files?|sheets?|spreadsheets?|docs?|documents?|channels?|"
                       r"playlists?|records?|pages?|databases?|calendars?|boards?|workspaces?|drive|notion|"
                       r"objects?|items?|assets?|uuid|guid|tx|txid|txn|transactions?|hash(?:es)?|sha\d*|commits?|blocks?|contracts?|"
                       r"addresse?s?|addr|public key|pubkey|cid|ipfs)(?![a-z])|编号|文件夹|表格|文档|频道|資料夾|檔案|哈希|地址|交易|"
                       r"フォルダ|シート|チャンネル|ドキュメント")
_SECRET_NAME = re.compile(rf"(?i)(?<![a-z])(?:{_KEY_WORDS})")
_URL = re.compile(r"[a-z][a-z0-9+.-]*://[^\s<>`'\")\]]+", re.IGNORECASE)
# A URL that is itself the secret: a webhook, a bot endpoint, a callback with its token in the path.
_SECRET_URL = re.compile(r"(?i)hook|/services/|/bot|callback|/api/v\d+/keys")
_SECRET_QUERY = re.compile(r"(?i)(?:token|key|secret|sig|signature|auth\w*|pass\w*|pwd|code|credential\w*)=$")
_PATH_SEGMENT = re.compile(r"^(?:[A-Za-zÀ-ÿ]+|\d+)?$")


def _labelled_id(line: str, at: int) -> bool:
    """Is the nearest name before `at` an id's label rather than a secret's?"""
    before = line[:at]
    label = max((m.end() for m in _ID_LABEL.finditer(before)), default=-1)
    return label >= 0 and label > max((m.end() for m in _SECRET_NAME.finditer(before)), default=-1)


def _link_at(line: str, at: int) -> re.Match[str] | None:
    """The URL of the line that holds position `at`, if any."""
    return next((url for url in _URL.finditer(line) if url.start() <= at < url.end()), None)


def _in_link(line: str, at: int) -> bool:
    url = _link_at(line, at)
    return url is not None and not _SECRET_URL.search(url.group(0))


def _public(line: str, at: int) -> bool:
    """A 0x… hex run in a block explorer's link or after "TX:", "hash": a transaction, not a key."""
    return _in_link(line, at) or _labelled_id(line, at)


def _addresses(line: str, match: re.Match[str]) -> bool:
    """Is a long token part of an address rather than a key: a word path (`Clients/AcmeCorp/2026/04`),
    a link's path or query value (a Drive or Notion page, `?recordId=500Ab…`), or labelled an id?
    A webhook's path, a query value named token/key/sig…, or a label naming a secret keeps it a key."""
    body = match.group("body")
    if "/" in body and all(_PATH_SEGMENT.match(part) for part in body.split("/")):
        return True  # words and numbers between slashes: a path (a key's "/"s sit between random runs)
    url = _link_at(line, match.start())
    if url is not None:
        head = line[url.start():match.start()]
        value_start = match.start() + (len(body.split("=", 1)[0]) + 1 if "=" in body else 0)
        query = line[url.start():value_start]
        return not _SECRET_URL.search(url.group(0)) and not _SECRET_QUERY.search(query) and "@" not in head
    return _labelled_id(line, match.start())  # the nearer name decides


def _long_token_spans(line: str) -> list[tuple[int, int, str]]:
    found = []
    for match in _LONG_TOKEN.finditer(line):  # 24+ characters, or 20+ after a "kr-" style prefix
        if match.group("body").startswith("/"):
            continue  # a path, not a key
        if (match.group("prefix") or "")[:-1] in _OBJECT_ID:
            continue  # an object's id, not a key
        if _addresses(line, match):
            continue
        if (match.group("prefix") or len(match.group("body")) >= 24) and random_token(match.group("body")):
            found.append((match.start(), match.end(), "token"))
    return found


def _cells(line: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of each cell of a table row, stripped."""
    out, at = [], line.index("|") + 1
    for piece in line[at:].split("|"):
        stripped = piece.strip()
        if stripped:
            start = at + piece.index(stripped)
            out.append((start, start + len(stripped), stripped))
        at += len(piece) + 1
    return out


def _cell_secret(text: str) -> bool:
    value = text.strip("`*_ ")
    if " " in value or placeholder(value) or PATH.search(value) or value.startswith(("$", "{", "~", "(")):
        return False
    return (_HEX.match(value) is not None or (len(value) >= 8 and kinds(value) >= 2 and not value.isalpha())
            or (value.isdigit() and len(value) >= 4))


def _row_spans(line: str, secret_columns: set[int] | None) -> list[tuple[int, int, str]]:
    """Cells of a table row that hold a secret: beside a cell naming one (`| App Secret | 9f8e… |`)
    or under a header naming one (`secret_columns`)."""
    if not line.lstrip().startswith("|") or TABLE_SEPARATOR.match(line.strip()):
        return []
    cells = _cells(line)
    found = []
    for k, (start, end, text) in enumerate(cells):
        named = secret_columns is not None and k in secret_columns
        beside = k > 0 and _SECRET_CELL.match(cells[k - 1][2]) is not None
        if (named or beside) and _cell_secret(text):
            found.append((start, end, "password"))
    return found


def has_secret(line: str) -> bool:
    return bool(spans(line))


# A heading naming keys or credentials ("## API Keys", "### 密钥", "## Credentials") makes each
# `label: value` line under it a key when the value looks like one ("**Finnhub**: `d6l5…`").
_KEYS_HEADING = re.compile(rf"(?i)^\s{{0,3}}#{{1,6}}\s.*(?<![a-z])(?:(?:api|access|secret)[ _-]?keys?|keys|credentials?|"
                           rf"tokens|secrets|passwords|{_PASSWORD_WORDS}|密钥|秘钥|金鑰|凭证|憑證|認証情報|アクセスキー|"
                           rf"トークン|シークレット)(?![a-z])")
_HEADING_LINE = re.compile(r"^\s{0,3}#{1,6}\s")
_LABELLED_VALUE = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*[*_`]*[^:：`]{1,40}?[*_`]*\s*[:：]\s*[`'\"]?(?P<value>[^\s`'\"]{8,})[`'\"]?\s*$")




def _listed_key(line: str) -> list[tuple[int, int, str]]:
    """`label: value` under a keys heading: the value is a key when it looks like one (mixed,
    not a name, a number, a link or a placeholder)."""
    match = _LABELLED_VALUE.match(line)
    value = match.group("value") if match else ""
    if match and _cell_secret(value) and "://" not in value and not value.isdigit() and not NAME_LIKE.match(value) \
            and any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
        return [(match.start("value"), match.end("value"), "api key")]
    return []


def find(text: str) -> list[tuple[int, str]]:
    """(line number, kind) of every line of `text` that holds a secret; a PEM block counts once.
    Table rows are read with their header: a cell under a column named "Secret", "Token",
    "Password", "密码"… is one when it looks like a value; so is a `label: value` line under a
    heading that names keys ("## API Keys")."""
    out = []
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # numbered as workspace.raw_lines
    lines = text.split("\n")
    columns: set[int] | None = None
    keys_section = False
    for number, line in enumerate(lines, 1):
        found = spans(line)
        if _HEADING_LINE.match(line):
            keys_section = bool(_KEYS_HEADING.match(line))
        elif keys_section and not found:
            found = _listed_key(line)
        if line.lstrip().startswith("|"):
            nxt = lines[number].strip() if number < len(lines) else ""
            if TABLE_SEPARATOR.match(nxt):  # a header row: which columns name a secret
                columns = {k for k, (_, _, cell) in enumerate(_cells(line)) if _SECRET_CELL.match(cell)}
            elif columns:
                found = found or _row_spans(line, columns)
        else:
            columns = None
        if found:
            out.append((number, found[0][2]))
    return out


def mask(line: str) -> str:
    """The line with every secret replaced by [secret]."""
    found = spans(line)
    if not found:
        return line
    pieces, last = [], 0
    for start, end, _ in found:
        if start < last:
            continue
        pieces += [line[last:start], MASK]
        last = end
    return "".join(pieces) + line[last:]
