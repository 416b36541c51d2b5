"""Secrets found by their shape, not by the heading above them.

A line holds a secret when it contains a private-key block, a token with a known shape (API
keys of the common providers, chat-bot tokens, JWTs, a 64-hex private key), a URL with a
password, `password: value` style assignments in several languages (the value must look like
a secret: not a word, not a placeholder, not "(in 1Password)"), `email / password` pairs, a
long random-looking token, or a seed phrase (12+ lowercase words after seed/mnemonic/助记词…,
or 12-24 short lowercase words with no English function word among them).

The tree puts a section holding one in a private domain and never copies such a line into a
summary or an index (`mask` replaces the secret part when a line has to be shown).
"""

from __future__ import annotations

import re

MASK = "[secret]"

_SHAPES = [
    ("private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    ("api key", r"\bsk-(?:proj-|ant-|live-)?[A-Za-z0-9_-]{20,}"),
    ("api key", r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_-]{20,})"),
    ("token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    ("token", r"\b(?:hf|npm|glsa|fr)_[A-Za-z0-9_]{20,}"),
    ("access key", r"\b(?:AKIA|ASIA|LTAI)[0-9A-Za-z]{12,}\b"),
    ("api key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("bot token", r"\b\d{8,10}:[A-Za-z0-9_-]{30,}"),
    ("token", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("private key", r"\b0x[0-9a-fA-F]{64}\b"),
    ("password", r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:(?!(?:password|pass|secret|\*+|x+|<[^@]*>)@)[^/\s@]+@"),
]
_SHAPE = re.compile("|".join(f"(?P<s{i}>{pattern})" for i, (_, pattern) in enumerate(_SHAPES)))

_KEY_WORDS = (r"password|passwd|pwd|passphrase|passcode|secret|token|api[_ -]?key|apikey|access[_ -]?key|secret[_ -]?key|"
              r"client[_ -]?secret|app[_ -]?secret|private[_ -]?key|(?:backup|recovery) codes?|pin|"
              r"密码|密碼|口令|密钥|金鑰|秘钥|私钥|私鑰|令牌|パスワード|シークレット|トークン|暗証番号|"
              r"passwort|kennwort|mật khẩu|khóa api|khóa")
_ASSIGNMENT = re.compile(rf"(?i)(?<![a-z])(?P<key>{_KEY_WORDS})(?:s|es)?(?![a-z])"
                         rf"(?:[^:=：\n|]{{0,24}}[:=：]\s*|(?P<space>\s+))[`'\"]?(?P<value>[!#-&(-_a-~]+)")
_DIGIT_KEYS = re.compile(r"(?i)pin|code|pass|密码|密碼|口令|パスワード|暗証番号|kennwort|mật khẩu")
_EMAIL_PAIR = re.compile(r"\S+@\S+\.[A-Za-z]{2,}\s*/\s*([^\s/]{6,})")
_USER_PAIR = re.compile(r"(?<![^\s:：])[\w.+-]{3,}\s+/\s+([^\s/]{6,})")  # "login / Pa55#word"
_LONG_TOKEN = re.compile(r"(?<![\w/.-])(?P<prefix>[a-z]{2,6}[-_])?(?P<body>[A-Za-z0-9_+/=]{20,})(?![\w/.-])")
_SEED_CUE = re.compile(r"(?i)seed[ -]?(?:phrase|words|backup)|seed\s*[:：=]|mnemonic|recovery phrase|"
                       r"助记词|助記詞|ニーモニック|シードフレーズ|cụm từ khôi phục")
_WORD_RUN = re.compile(r"(?:\b[a-z]{3,8} +){11,23}[a-z]{3,8}\b")
_BARE_PHRASE = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:[^:：]{0,30}[:：]\s*)?[`'\"]?((?:[a-z]{3,8} +){11,23}[a-z]{3,8})[`'\"]?\s*$")
_FUNCTION_WORDS = {"the", "and", "for", "with", "that", "this", "from", "are", "was", "not", "you", "but", "into",
                   "when", "then", "than", "has", "have", "had", "its", "our", "your", "will", "can", "who", "all"}
_PLACEHOLDER = re.compile(r"(?i)^(?:<.*>|\*+|x{3,}|\.{3}|…|tbd|todo|none|n/a|redacted|\[secret\])$")


def _secretish(value: str, digits: bool = False) -> bool:
    """Does an assigned value look like a secret rather than a word or a pointer?"""
    value = value.rstrip(".,;)")
    if _PLACEHOLDER.match(value) or value.startswith(("$", "{", "~", "/")) or "(" in value or "[" in value:
        return False
    if value.isdigit():
        return digits and len(value) >= 4
    if len(value) < 6 or "://" in value:
        return False
    return _kinds(value) >= 2 and not value.isalpha()


def _kinds(value: str) -> int:
    """How many of lowercase, uppercase, digits and symbols a value mixes."""
    return sum((any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value),
                any(not c.isalnum() for c in value)))


def _random_token(token: str) -> bool:
    """Mixed case and digits throughout, as random keys are (a word with a number is not; a
    0x… hex address or hash, whole or cut, is not a key either)."""
    return (sum(c.islower() for c in token) >= 3 and sum(c.isupper() for c in token) >= 3
            and sum(c.isdigit() for c in token) >= 3 and not token.startswith(("http", "www"))
            and not re.fullmatch(r"0x[0-9a-fA-F]+", token))


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


def spans(line: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every secret on one line."""
    found = [(m.start(), m.end(), _SHAPES[int(m.lastgroup[1:])][0]) for m in _SHAPE.finditer(line)]  # type: ignore[index]
    for match in _ASSIGNMENT.finditer(line):
        value = match.group("value")
        if match.group("space") and not (any(c.isdigit() for c in value) and _kinds(value) >= 3):
            continue  # "password rotates", "tokens  agents-and-tasks": no colon, so only an obvious secret
        if _secretish(value, digits=bool(_DIGIT_KEYS.match(match.group("key")))):
            found.append((match.start("value"), match.end("value"), "password"))
    for match in _EMAIL_PAIR.finditer(line):
        if _secretish(match.group(1)):
            found.append((match.start(1), match.end(1), "password"))
    for match in _USER_PAIR.finditer(line):
        value = match.group(1)
        if any(c.isdigit() for c in value) and _kinds(value) >= 3 and _secretish(value):
            found.append((match.start(1), match.end(1), "password"))
    for match in _LONG_TOKEN.finditer(line):  # 24+ characters, or 20+ after a "kr-" style prefix
        if (match.group("prefix") or len(match.group("body")) >= 24) and _random_token(match.group("body")):
            found.append((match.start(), match.end(), "token"))
    seed = _seed_words(line)
    if seed:
        group = 1 if seed.re is _BARE_PHRASE else 0
        found.append((seed.start(group), seed.end(group), "seed phrase"))
    return sorted(found)


def has_secret(line: str) -> bool:
    return bool(spans(line))


def find(text: str) -> list[tuple[int, str]]:
    """(line number, kind) of every line of `text` that holds a secret; a PEM block counts once."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        found = spans(line)
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
