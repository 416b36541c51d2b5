"""Login pairs: `email / password`, `admin / Password1`, `user/pass` and `user:pass` after a word
for a login, a database or basic auth. Without such a word a pair is two names, a tag or a port
(`gpt-4o / gpt-4o-mini`, `postgres:16-alpine`, `host:2222`). `secrets.spans` calls these."""

from __future__ import annotations

import re

from .secret_values import NAME_LIKE, PATH, WORDS_JOINED, kinds, placeholder, secretish

_EMAIL_PAIR = re.compile(r"\S+@\S+\.[A-Za-z]{2,}\s*/\s*([^\s/]{6,})")
_USER_PAIR = re.compile(r"(?<![^\s:：(`'\"])[`'\"]?(?P<user>[\w.+-]{2,})[`'\"]?\s+/\s+[`'\"]?(?P<value>[^\s/`'\"]{4,})")  # "admin / Pa55#word", "`admin` / `Pa55`"
_LOGIN_NAMES = {"admin", "root", "administrator", "sa", "postgres", "pi", "ubuntu", "guest", "user", "test", "demo"}
_TIGHT_PAIR = re.compile(r"(?<![\w/.~:@=-])(?P<user>[A-Za-z_][\w.-]{1,31})/(?P<value>[^\s/`'\"|),;]{4,64})(?![\w/])")
# Latin-script words match whole ("conta", an account in Portuguese, is not the start of "Contador").
_LOGIN_LINE = re.compile(r"(?i)(?<![a-zà-ÿ])(?:user(?:name)?\s*/\s*pass|logins?|credentials?|db|database|mysql|postgres(?:ql)?|"
                         r"redis|mongo(?:db)?|zugang|tài khoản|cuenta|usuario|contraseña|conta|senha|compte|identifiant|"
                         r"inlog(?:gen)?|logowani\w*|kullanıcı adı|inloggning|přihlášení|ssh|sftp|ftp|vnc|rdp|smb|sudo)(?![a-zà-ÿ])|"
                         r"账号|帳號|账户|用户名|密码|密碼|ユーザー|ログイン|계정|아이디|비밀번호|учётная|логин|"
                         r"логін|تسجيل الدخول|लॉगिन|เข้าสู่ระบบ|σύνδεση")
# RFC 7617's `user:password`, written where basic auth, curl -u or a login word stands just before
_COLON_PAIR = re.compile(r"(?<![\w/.~:@=-])(?P<user>[A-Za-z_][\w.-]{1,31}):(?P<value>[^\s:/`'\"|),;@]{6,64})"
                         r"(?=[`'\")\],;.]*(?:\s|$))")
_AUTH_LINE = re.compile(r"(?i)basic[ -]?auth|htpasswd|curl\s+(?:-\w+\s+)*-u\b|--user\b")
_VERSION = re.compile(r"\d\.\d|:\d")  # "qwen2.5", "llama3.2:3b": a model or version tag
_HANDLE = re.compile(r"^@[A-Za-z][\w.]{1,30}$")  # "@Evolv3": someone's name on a network, not a password


def pair_spans(line: str) -> list[tuple[int, int, str]]:
    """`email / password`, `admin / Password1`, `user/pass` after a login word."""
    found = [(m.start(1), m.end(1), "password") for m in _EMAIL_PAIR.finditer(line) if secretish(m.group(1))] \
        if "@" in line else []
    heading = line.lstrip().startswith("#")
    for match in _USER_PAIR.finditer(line):
        value, user = match.group("value").rstrip(",;.*_"), match.group("user")  # "**Cash / Card**": emphasis
        if heading or value.lower() in _LOGIN_NAMES or placeholder(value) or PATH.search(value) or \
                _VERSION.search(value) or _VERSION.search(user):
            continue  # "## Database / Migrations", "llama3.2:3b / qwen2.5:7b": names, not a login
        if user.lower() in _LOGIN_NAMES:  # "admin / Xkcdpass"
            secret = kinds(value) >= 2 and len(value) >= 4
        elif _LOGIN_LINE.search(line):  # a login line: a password has a digit or a symbol in it
            secret = kinds(value) >= 2 and any(c.isdigit() or not (c.isalnum() or c == "_") for c in value) \
                and not WORDS_JOINED.match(value)
        else:  # no login in sight: "gpt-4o / gpt-4o-mini" is two names, "Ev / @Evolv3" a name and a handle
            secret = any(c.isdigit() for c in value) and kinds(value) >= 3 and secretish(value) \
                and not NAME_LIKE.match(value) and not NAME_LIKE.match(user) and not _HANDLE.match(value)
        if secret:
            found.append((match.start("value"), match.start("value") + len(value), "password"))
    for match in _TIGHT_PAIR.finditer(line):  # "db user/pass: app/S3cret!": a login word just before
        value = match.group("value").rstrip(".:")
        if (not _LOGIN_LINE.search(line, max(0, match.start() - 40), match.start()) or value.lower() in _LOGIN_NAMES
                or placeholder(value) or PATH.search(value) or WORDS_JOINED.match(value)):
            continue
        if kinds(value) >= 2 and any(c.isdigit() or not c.isalnum() for c in value) and len(value) >= 6:
            found.append((match.start("value"), match.start("value") + len(value), "password"))
    return found


def colon_pair_spans(line: str) -> list[tuple[int, int, str]]:
    """`user:Passw0rd!` after "basic auth", `curl -u` or a login word. Without such a word a
    colon pair is a tag, a port or a key path (`postgres:16-alpine`, `host:2222`, `vault:secret`)."""
    found = []
    for match in _COLON_PAIR.finditer(line):
        before = line[max(0, match.start() - 40):match.start()]
        if not (_AUTH_LINE.search(before) or _LOGIN_LINE.search(before)):
            continue
        value = match.group("value").rstrip(".")
        if (value[0].isdigit() or value.lower() in _LOGIN_NAMES or placeholder(value) or PATH.search(value)
                or _VERSION.search(value) or WORDS_JOINED.match(value)):
            continue
        if kinds(value) >= 2 and any(c.isdigit() or not c.isalnum() for c in value) and len(value) >= 6:
            found.append((match.start("value"), match.start("value") + len(value), "password"))
    return found
