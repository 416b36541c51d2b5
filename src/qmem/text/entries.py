r"""What a line of a section is: a list item, a `speaker: …` message, a reply to the message
before it, and where its lead (list marker, `[tags]`, `speaker:`) ends. Snippets group lines
into these entries and score each.

Entries and line leads are found by hand, not with `re` (~25M instructions of imports, a
quarter of a cold search). The regular expressions they stand for, which
tests/text/test_lean_parsers.py compares them with (`\s` is str.isspace, `\d` str.isdecimal):
"""

from __future__ import annotations

ENTRY_START = r"^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s"  # a list item: `- `, `* `, `1. `, `12) `
SPEAKER = r"^[^\s:：]{1,24}[:：]\s"  # a message line: `user: `, `助手：`
LEAD = r"^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\[[^\]\n]{1,40}\]\s*)*(?:[^\s:：]{1,24}[:：]\s*)?"
COLONS = ":："


def spans(lines: list[str]) -> list[tuple[int, int]]:
    """[first, last] line indexes of each entry: a list item with its continuation lines and
    the items nested under it (a reply under its message), a `speaker: …` line, a paragraph."""
    entries: list[list[int]] = []
    indent = -1  # the current entry's list-item indentation (-1: not a list item)
    for row, line in enumerate(lines):
        if not line.strip():
            continue
        item = entry_start(line)
        if entries and entries[-1][1] == row - 1:
            depth = len(line) - len(line.lstrip())
            if not item and speaker_end(line, 0, True) < 0 or item and 0 <= indent < depth:
                entries[-1][1] = row  # a continuation line, a paragraph's next line, a nested item
                continue
        entries.append([row, row])
        indent = len(line) - len(line.lstrip()) if item else -1
    return [(first, last) for first, last in entries]


def replies(entries: list[tuple[int, int]], lines: list[str]) -> dict[int, tuple[int, int]]:
    """Entry index → the entry right after it when both are messages from different speakers:
    an exchange. A question and its reply are read together: the reply often holds the
    answer and none of the question's words."""
    out: dict[int, tuple[int, int]] = {}
    speakers = [speaker(lines[first]) for first, _ in entries]
    for k in range(len(entries) - 1):
        a, b = speakers[k], speakers[k + 1]
        if a and b and a != b and entries[k + 1][0] == entries[k][1] + 1:
            out[k] = entries[k + 1]
    return out


def speaker(line: str) -> str:
    """The `speaker` of a message line (after its list marker and `[tags]`), or ""."""
    end = lead_end(line)
    head = line[:end].rstrip()
    if not head.endswith(tuple(COLONS)):
        return ""
    i = len(head) - 2
    while i >= 0 and not head[i].isspace() and head[i] not in "]":
        i -= 1
    return head[i + 1:-1]


# The names a two-party log gives its two sides (`用户:`, `- AI: …`, `**User:**`, `assistant: …`,
# `Q:`/`A:`), lower-cased, without Markdown emphasis. Any other speaker is a person, not a side.
ASSISTANT_NAMES = frozenset(("ai", "assistant", "bot", "chatbot", "agent", "model", "a", "claude", "chatgpt", "gpt",
                             "gemini", "copilot", "助手", "助理", "小助手", "机器人", "答", "回答", "ai助手"))
USER_NAMES = frozenset(("user", "human", "me", "q", "用户", "我", "问", "提问"))


def side(name: str) -> str:
    """"assistant" or "user" for a message's speaker name that is one of a log's two sides, else ""."""
    key = name.strip("*_ ").lower()
    return "assistant" if key in ASSISTANT_NAMES else "user" if key in USER_NAMES else ""


def sides(lines: list[str], entries: list[tuple[int, int]]) -> list[str]:
    """Each line's side (`side`): its own speaker's, else that of the line above it in its entry
    (a message's continuation lines); "" outside messages of the two sides."""
    out = [""] * len(lines)
    for first, last in entries:
        current = ""
        for row in range(first, last + 1):
            name = speaker(lines[row])
            if name:
                current = side(name)
            out[row] = current
    return out


# A question about one side's words (`query.speaker_side`): when a section is ranked, an occurrence on
# the other side's lines of a two-party log counts SIDE_OTHER, unless the line asks (a question frames
# the answer after it, whoever asks). The window shown is chosen without it. (Measured, memorybank-
# zh-dev tuning users: pooled MRR 0.752 -> 0.769, per user unchanged; counting the side's own lines
# twice lost 3 first days per user; choosing the window with it lost an evidence line.)
SIDE_OTHER = 0.5


def side_factors(lines: list[str], entries: list[tuple[int, int]], side: str) -> list[float] | None:
    """Per line, what an occurrence counts for a question about `side` (see SIDE_OTHER); None
    when no line belongs to a side (notes, a group log of people)."""
    found = sides(lines, entries)
    if not any(found):
        return None
    return [1.0 if not s or s == side or line.rstrip().endswith(("?", "？")) else SIDE_OTHER
            for s, line in zip(found, lines)]


def starts_entry(line: str) -> bool:
    """A list item or a `speaker: …` message line starts an entry of its own."""
    return entry_start(line) or speaker_end(line, 0, True) >= 0


def spaces(line: str, i: int, most: int = -1) -> int:
    """The index after the whitespace at `i` (at most `most` characters of it when given)."""
    n = len(line) if most < 0 else min(len(line), i + most)
    while i < n and line[i].isspace():
        i += 1
    return i


def marker_end(line: str, i: int) -> int:
    """The end of a list marker at `i` (`-`, `*`, `+`, one to three digits and `.` or `)`), or -1."""
    if i < len(line) and line[i] in "-*+":
        return i + 1
    j = i
    while j < len(line) and j - i < 4 and line[j].isdecimal():
        j += 1
    return j + 1 if 1 <= j - i <= 3 and j < len(line) and line[j] in ".)" else -1


def entry_start(line: str) -> bool:
    """`ENTRY_START` matches `line`."""
    i = spaces(line, 0, 4)
    if i > 3:
        return False
    end = marker_end(line, i)
    return 0 <= end < len(line) and line[end].isspace()


def speaker_end(line: str, i: int, need_space: bool) -> int:
    """The end of `name:` at `i` (1-24 characters, neither whitespace nor a colon, then `:` or
    `：`), followed by whitespace when `need_space`; -1 when there is none."""
    k = i
    while k < len(line) and k - i <= 24 and not line[k].isspace() and line[k] not in COLONS:
        k += 1
    if not (1 <= k - i <= 24 and k < len(line) and line[k] in COLONS):
        return -1
    if need_space and not (k + 1 < len(line) and line[k + 1].isspace()):
        return -1
    return k + 1


def lead_end(line: str) -> int:
    """Where the match of `LEAD` ends: indentation, a list marker, `[tags]`, a `speaker:`."""
    i = spaces(line, 0)
    end = marker_end(line, i)
    if 0 <= end < len(line) and line[end].isspace():
        i = spaces(line, end)
    while i < len(line) and line[i] == "[":
        j = i + 1
        while j < len(line) and j - i <= 41 and line[j] not in "]\n":
            j += 1
        if not (2 <= j - i <= 41 and j < len(line) and line[j] == "]"):
            break
        i = spaces(line, j + 1)
    end = speaker_end(line, i, False)
    return spaces(line, end) if end >= 0 else i
