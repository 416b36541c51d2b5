"""Bonsai tree: classes of words the real CJK sets showed missing in Japanese katakana, Korean and
Vietnamese (and some Chinese): an agent's skills and image generation, code's commits and
branches, a host's cloud and containers, pitfalls (坑) and troubleshooting, risks, events that
happened, "the basics" of the agent itself. Every example is written for the test."""

from __future__ import annotations

import pytest

from qmem.memory.tree.domains import Context, explain, load_table

TABLE = load_table({})


def domain(heading: str, body: str = "", context: Context | None = None) -> str:
    return explain(heading, body, TABLE, context).domain


@pytest.mark.parametrize("heading, body, expected", [
    # an agent's machinery
    ("스킬 목록", "- 요약, 번역, 일정 정리\n", "agents"),
    ("크론 작업", "- 매일 아침 7시에 뉴스 요약\n", "agents"),
    ("画像生成", "- 朝のイラストを一枚作る\n", "agents"),
    ("图像生成流程", "- 先写描述，再出三张图\n", "agents"),
    ("Hệ thống bộ nhớ", "- ghi lại mỗi ngày một tệp\n", "agents"),
    # code
    ("커밋 메시지", "- 한 줄 요약을 먼저 쓴다\n", "codebase"),
    ("ブランチ運用", "- main に直接入れない\n", "codebase"),
    ("Thư viện đang dùng", "- ba gói cho giao diện\n", "codebase"),
    # the machine
    ("클라우드", "- 서울 리전 한 대\n", "infrastructure"),
    ("コンテナ一覧", "- 三つ動いている\n", "infrastructure"),
    ("Biến môi trường", "- đặt trong tệp riêng\n", "infrastructure"),
    # lessons
    ("排版坑", "- 标题里不能有空格\n", "lessons"),
    ("트러블슈팅", "- 재시작하면 대부분 풀린다\n", "lessons"),
    ("トラブルシューティング", "- 再起動で直ることが多い\n", "lessons"),
    ("Mẹo nhỏ", "- tắt máy trước khi cập nhật\n", "lessons"),
    # a project's risks, a record of what happened, the basics of the agent itself
    ("Rủi ro hiện tại", "- hạn chót quá gần\n", "projects"),
    ("出来事", "- 初めて話した日\n", "archive"),
    ("重要事件", "- 第一次见面\n", "archive"),
    ("基本", "- 名前はミナ、敬語で話す\n", "identity"),
])
def test_classes_of_words_a_reader_lists_per_language(heading, body, expected):
    """Each heading names its class by a word of the class in its own language; before, these
    words were in the tables only in English (or not in this script), and the section kept its
    heading's name or went by a stray body word."""
    assert domain(heading, body) == expected


def test_a_word_that_holds_port_inside_is_no_machine_s_port():
    """포트폴리오 / ポートフォリオ (portfolio) hold 포트 / ポート (port): words of no domain, so the
    port inside them names no machine."""
    assert domain("2026-02-21 포트폴리오 리뷰", "- 남은 세 개를 정리한다\n") != "infrastructure"
    assert domain("ポートフォリオ", "- 作品を三つ載せる\n") != "infrastructure"

