"""Does a value look like a secret: mixed kinds of characters, not a placeholder (`<your key>`,
`tvly-xxx`), a path, a date or a word of prose. Shared by `secrets.py`'s rules and the login
pairs of `secret_pairs.py`, which is why it stands alone."""

from __future__ import annotations

import re

WORDS_JOINED = re.compile(r"^[A-Za-z]+(?:-[A-Za-z]+)*$|.*[()]")  # "de-repression", "Dp71Delta(110": prose
NAME_LIKE = re.compile(r"^[A-Z][A-Z0-9]*_[A-Z0-9_]+$|^[a-z]+(?:[-_.][a-z0-9]+)+$")  # OPENAI_API_KEY, gpt-4o-mini: names
PLACEHOLDER = re.compile(r"(?i)^(?:<.*>|\{.*\}|\*+|x{3,}|\.{3}|…|tbd|todo|none|null|nil|empty|n/a|na|redacted|"
                         r"hidden|required|optional|unknown|unset|same|see\b.*|\[secret\]|"
                         r"1password|bitwarden|lastpass|keepass(?:xc)?|keychain|vault|pass)$")
MASKED_RUN = re.compile(r"(?i)x{3,}|\*{3,}|•{3,}|…|\.{3}|<[^>]*>")
_DATE_VALUE = re.compile(r"^\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?:[T ]?\d{1,2}:\d{2}(?::\d{2})?)?$")
PATH = re.compile(r"^(?:[\w.-]+/)+[\w.-]*$|\.[a-z]{1,5}$")


def secretish(value: str, digits: bool = False) -> bool:
    """Does an assigned value look like a secret rather than a word, a placeholder or a pointer?"""
    value = value.rstrip(".,;)`'\"*_")
    if placeholder(value) or value.startswith(("$", "{", "~", "/", "%")) or "(" in value or "[" in value:
        return False
    if value.isdigit():
        return digits and len(value) >= 4
    if _DATE_VALUE.match(value):
        return False
    if len(value) < 6 or "://" in value or PATH.search(value):
        return False
    return kinds(value) >= 2 and not value.isalpha()


def placeholder(value: str) -> bool:
    """`<your key>`, `***`, `tvly-xxx`, `sk-…`, `none`: a value that stands for a secret, not one."""
    return bool(PLACEHOLDER.match(value) or MASKED_RUN.search(value))


def kinds(value: str) -> int:
    """How many of lowercase, uppercase, digits and symbols a value mixes."""
    return sum((any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value),
                any(not c.isalnum() for c in value)))


def random_token(token: str) -> bool:
    """Mixed case and digits throughout, as random keys are (a word with a number is not; a
    0x… hex address or hash, whole or cut, is not a key either)."""
    return (sum(c.islower() for c in token) >= 3 and sum(c.isupper() for c in token) >= 3
            and sum(c.isdigit() for c in token) >= 3 and not token.startswith(("http", "www"))
            and not re.fullmatch(r"0x[0-9a-fA-F]+", token))


def random_tail(tail: str) -> bool:
    """A cut-off token's tail: letters and digits mixed, or both cases (never all x's)."""
    return not MASKED_RUN.search(tail) and len(set(tail.lower())) >= 4 and (
        any(c.isdigit() for c in tail) + any(c.isupper() for c in tail) + any(c.islower() for c in tail) >= 2)
