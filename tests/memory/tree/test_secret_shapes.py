"""Secrets by shape (issue 27 finding 6): the shapes real files hold, and harmless look-alikes.

Every case is written here (the real files hold few secrets); each secret case failed before v3
of the detector, each harmless case is one that a looser rule would flag.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qmem.memory import secrets

from ...conftest import SHARED_DATA

SECRETS_V3 = [
    "- **Password:** Tq8vLm2x",                                   # markdown bold around the name
    "- **密码：** Lm8#qz2026",
    "- password: correcthorsebattery",                            # all lowercase, the whole value
    "- WLAN-Passwort: sonnenblumenfeld",
    "- Router login: admin / Xkcdpass",                           # admin / Password
    "- NAS: root / Hn2026abc",
    "- the NAS web UI logs in as admin (password Tq8vLm2x)",      # in parentheses after prose
    "- 家里 Wi-Fi 用同一个密码（Wm9rt2xk）",
    "- The staging box uses the same password (Wm9#rt2)",
    "- DB user/pass: hermes/hermes2026",                          # user/pass pairs on a database line
    "- Postgres: app/Secr3tPw on localhost:5432",
    "- MySQL 账号/密码：shop/Shop#2026",
    "- Tavily API key: 3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f",     # a UUID-shaped key
    "| App Secret | 9f8e7d6c5b4a39281706f5e4d3c2b1a0 |",          # a 32-hex secret in a table
    "| 飞书 | AppSecret | 0a1b2c3d4e5f60718293a4b5c6d7e8f9 |",
    "- HF token: hf_KxQ2vT9…",                                    # a partial token with a known prefix
    "- token hf_KxQ2vT9mP",
    "- GitHub: ghp_Zk81mQ…",
    "- パスワード：Kyoto#2026mdr",
    "- Mật khẩu wifi: Hn@2026#nha",
    "- 資料庫密碼：Tp!2026db#guan",
]

NOT_SECRETS_V3 = [
    "No API keys. Output: `path`",                                 # the name and the colon in two sentences
    "No API keys. Output: `reports/daily.md`",
    "- Tavily key: tvly-xxx",                                      # placeholders
    "- API key: tvly-xxxxxxxx",
    "- token: sk-…",
    "- password: <ask Lin>",
    "- password: required for the admin panel",                   # prose goes on after the word
    "- password manager: 1Password",                              # talk about secrets
    "- token format: JWT with a 15-minute expiry",
    "- roles: admin / user / guest",
    "- src/api, docs/legal and infra/terraform",
    "- login via SSO (Okta)",
    "- the database lives in data/app.db",
    "the insulin receptor/IGF-1R pathway and p300/CBP-associated factors",  # science, not a login
    "- Database: transcriptional repression/de-repression of genes",
    "- Secret sauce: patience",
    "- Discord server ID: 1453031874082373687",                   # ids are not secrets
    "- cron job id 3b7f197706e9 runs every minute",
    "| Service | Token |",
]


@pytest.mark.parametrize("line", SECRETS_V3)
def test_real_secret_shapes_are_found_and_masked(line):
    assert secrets.has_secret(line), line
    masked = secrets.mask(line)
    assert secrets.MASK in masked and not secrets.has_secret(masked.replace(secrets.MASK, "x"))


@pytest.mark.parametrize("line", NOT_SECRETS_V3)
def test_harmless_look_alikes_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)


def test_a_column_named_secret_makes_its_cells_secrets():
    table = ("| Service | Token | Notes |\n|---|---|---|\n| Brave | BSAx9k2LmQ7 | search |\n"
             "| Slack | (in vault) | - |\n| Feishu | 9f8e7d6c5b4a39281706f5e4d3c2b1a0 | bot |\n")
    assert secrets.find(table) == [(3, "password"), (5, "password")]
    plain = "| Service | Owner |\n|---|---|\n| Brave | BSAx9k2LmQ7 |\n"
    assert secrets.find(plain) == []  # the same value in a column that names no secret


def test_the_dev_memory_files_flag_nothing():
    """The dev part of memory-md-dev holds no secret (its README: e-mails redacted, no keys)."""
    folder = next((p for p in (SHARED_DATA / "memory-md-dev", Path("/work/shared/data/memory-md-dev")) if p.is_dir()), None)
    if folder is None:
        pytest.skip("memory-md-dev not here")
    names = sorted(p.name for p in folder.glob("*__MEMORY.md"))
    held_out = {"aeonfun__aeon__MEMORY.md", "autogame-17__evolver__MEMORY.md", "City-Syntax__openclaw-ubem__MEMORY.md",
                "MathClaw-ruc__MathClaw__MEMORY.md", "15025639392__xiao_yan__MEMORY.md"}
    flagged = {name: secrets.find((folder / name).read_text(encoding="utf-8")) for name in names if name not in held_out}
    assert len(flagged) == 10 and not any(flagged.values()), flagged


INDEX_LOOK_ALIKES = [  # lines the tree's own indexes wrote before their format changed
    "- `五待办事项按优先级/最后更新.md` (~15 tokens) — *最后更新：2026-06-04…",
    "- `notes.md` (~87 tokens) — 项目根目录：`/Users/admin/CodeBuddy/20260517172203/Cele…",
    "- **accounts** — Telegram bot tokens (and similar secret… · also: telegram-bot-tokens",
    "- `auth.md` (~263 tokens) — Auth: banned-user guard on wallet/oracles",
]


@pytest.mark.parametrize("line", INDEX_LOOK_ALIKES)
def test_index_lines_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)


def test_a_passphrase_after_password_still_counts():
    assert secrets.has_secret("- password: correct-horse-battery-staple")
    assert secrets.has_secret("- API key (prod): sk_live_4fG7hQ2mN8pR1sT6vX9zB3cD")


# Found on the held-out real files at the end measurement (so these cases are not held out):
# a code word quoted after "Secret:" was missed; model tags and snake_case names were taken for logins.
AFTER_HELD_OUT_SECRETS = ["  - **Secret:** `firtl-uvpyo` and any reports go only to Master"]
AFTER_HELD_OUT_HARMLESS = [
    "- [Session](x.md) — 5 phases: OpenRouter, then local llama3.2:3b / qwen2.5:7b-instruct, for triage",
    "- Phase 1 **deferred** until paper_triage / factor_extractor land (db schema first)",
    "## Database / Migrations",
]


@pytest.mark.parametrize("line", AFTER_HELD_OUT_SECRETS)
def test_a_quoted_code_word_after_secret_is_a_secret(line):
    assert secrets.has_secret(line)


@pytest.mark.parametrize("line", AFTER_HELD_OUT_HARMLESS)
def test_model_tags_and_names_are_no_login_pairs(line):
    assert not secrets.has_secret(line), secrets.spans(line)


# Session 2: API objects' ids (a random tail after an id prefix) are no keys; a key beside one still is.
OBJECT_IDS = [
    "- Stage 2 PR #21 opened by routine `trig_01USVATWYoxg5JYry6UhJLcD` on schedule",
    "- customer cus_NffrFeUfNV2HibQx9aB3kD paid twice; refund evt_1NfqL2Ab3Cd4Ef5Gh6Ij7Kl",
    "- the reply was msg_01XFDUDYJgAACzvnptvVoYEL (toolu_01A09q90qw90lq917835lq9)",
]


@pytest.mark.parametrize("line", OBJECT_IDS)
def test_object_ids_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)


def test_a_key_beside_an_object_id_is_still_found():
    assert secrets.has_secret("- run run_aB3dE5gH7jK9mN1pQ3sT with key kr-Zx81Pq0wLm3Nb7Vc5Xz2Qa9Ws")
    assert secrets.has_secret("- deploy token Zx81Pq0wLm3Nb7Vc5Xz2Qa9WsE4rT6 for trig_01USVATWYoxg5JYry6UhJLcD")


# Session 6, from real files' shapes (values invented): addresses are no keys — a Drive or Sheets id
# labelled as one, a link's path or query value, words between slashes — and a login word matches
# whole ("Contador" is no "conta"); a chat webhook's URL is a secret.
ADDRESSES = [
    "- **Drive backups**: synced to Drive (reports folder `1Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcV`)",
    "- **Drive file IDs**: Daily Log (1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5c), Digest (9zY8xW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7bA6zY5x)",
    "- Sheet: `1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5c`",
    "- **YouTube Channel ID:** UCa1B2c3D4e5F6g7H8i9J0kL",
    "- Ticket: https://support.example.com/s/case-detail?recordId=500Ab00001XyZQwERTzz",
    "| Clientes/AcmeCorp/Facturas/2026/04 - Abril | 1288 |",
    "- **Conta / Cash / Tarjeta** → `Pending`",                  # a login word, then bold markers, not a password
    "| Subagent (Contador/Capataz) | `anthropic/claude-haiku-4-5` |",
]
KEYS_STILL = [
    "- https://api.example.com/v1/send?token=Zx81Pq0wLm3Nb7Vc5Xz2Qa9WsE4rT6",    # a query value named token
    "- aws wJalrXUtnFEMI/K7MDENG/bPxRfiCYZXQ81KEY",                               # a key's "/"s between random runs
    "- client id 1234abcd, client secret Zx81Pq0wLm3Nb7Vc5Xz2Qa9WsE4rT6",         # an id label beside a secret's name
    "- Drive API key: 1Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcV",
    "- DB login: shop/Shop#2026",
    "- alerts: https://discord.com/api/webhooks/1453031874082373687/Zx81Pq0wLm3Nb7Vc5Xz2Qa9WsE4rT6abc",
    "- alerts: https://hooks.slack.com/services/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",
    "- 飞书机器人 https://open.feishu.cn/open-apis/bot/v2/hook/3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f",
]


@pytest.mark.parametrize("line", ADDRESSES)
def test_addresses_and_labelled_ids_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)


@pytest.mark.parametrize("line", KEYS_STILL)
def test_keys_beside_addresses_and_webhooks_are_secrets(line):
    assert secrets.has_secret(line), line
    assert secrets.MASK in secrets.mask(line)


def test_the_docs_page_about_webhooks_is_no_webhook():
    assert not secrets.has_secret("- docs: https://discord.com/developers/docs/resources/webhook")


def test_the_nearer_name_decides_between_an_id_and_a_key():
    assert not secrets.has_secret("- `cash-flow.md` (~94 tokens) — Sheet: `1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5c`")
    assert secrets.has_secret("- Sheet for the report; its API token: 1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5c")


# Session 6, from 40 more real files' hits (values invented): chain data and ports are public,
# code's identifiers are no names of secrets; keys listed under a keys heading, logins in
# backticks, after ssh, and a password piped into `sudo -S` are secrets.
PUBLIC_LOOK_ALIKES = [
    "- **Mint TX:** https://basescan.org/tx/0x" + "5f6b" * 16,                 # a transaction in an explorer link
    "- tx hash 0x" + "86a4" * 16,
    "- [Map](map.md) — the shared pin map on .34:18091, GPS and photos",       # a map pin and a port
    '    headers={"Authorization": f"Bearer {jwt_token}", "Accept": "application/vnd.github+json"},',
    "- model references changed from GPT-5.2 to `gpt-4o` / `gpt-4o-mini`",   # two model names
    "- VM on the VPS, SSH :2222, wg tunnels (wg0=VM/wg1=CRS)",               # key=value pairs after a login word
]
SECRETS_TOO = [
    "- deployer private key 0x" + "5f6b" * 16,
    "- 0x" + "5f6b" * 16,                                                      # a bare 64-hex run still is one
    "- PIN: 4821",
    "- Agent login: `admin` / `team2026x`",
    "- Router SSH access: 192.168.66.1, root/a596kq2x",
    '- restart: echo "0210" | sudo -S systemctl restart nginx',
]


@pytest.mark.parametrize("line", PUBLIC_LOOK_ALIKES)
def test_chain_data_ports_and_code_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)


@pytest.mark.parametrize("line", SECRETS_TOO)
def test_logins_in_backticks_after_ssh_and_sudo_pipes_are_secrets(line):
    assert secrets.has_secret(line), line


def test_keys_listed_under_a_keys_heading_are_secrets():
    text = ("## API Keys\n- **Alpha Vantage**：`QK7Z2M9XJ1PLWRTV`\n- **Finnhub**：`d6l5qk2m9zt1pq`\n"
            "- OpenAI: OPENAI_API_KEY\n- Model: gpt-4o-mini\n- Where: stored in 1Password\n- Provider: OpenRouter\n"
            "- Updated: 2026-03-01\n## Notes\n- Finnhub: d6l5qk2m9zt1pq\n")
    assert secrets.find(text) == [(2, "api key"), (3, "api key")]  # names, places and dates are not; nor the same under Notes


def test_a_value_keeps_its_closing_bracket_out_of_the_mask():
    assert secrets.mask("- password: Tq8vLm2x)") == "- password: [secret])"


NAMES_NOT_VALUES = [
    "- API keys still needed: `BILLING_TOKEN`, `CALENDAR_API_KEY`, `GPT4_TOKEN`.",  # variables' names, to be set
    "- token: set as DEPLOY_HOOK_TOKEN in the runner",
    "- Name: Мария (Maria) Петрова, goes by Masha / @Mashka7",                  # a name and a social handle
]
VALUES_STILL = [
    "- password: ADMIN_PASS_2024",          # capitals and a segment of digits: a value, not a variable's name
    "- admin / @dm1n!x",                    # after a login name, '@' opens a password like any other mark
    "- token: ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5",
]


@pytest.mark.parametrize("line", NAMES_NOT_VALUES)
def test_variable_names_and_handles_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)


@pytest.mark.parametrize("line", VALUES_STILL)
def test_values_beside_variable_names_and_handles_still_are(line):
    assert secrets.has_secret(line), line


# RFC 7617's user:password (values invented): found after basic auth, curl -u, htpasswd or a login
# word; a colon pair elsewhere is an image tag, a port, a route or a key path.
COLON_LOGINS = [
    ("- tunnel basic auth configured: `mira:Velvet2031!`, domain `example.invalid`", "Velvet2031!"),
    ("- curl -u deploy:Vx7#kq2m https://staging.example.invalid", "Vx7#kq2m"),
    ("- htpasswd for the dashboard: `ops:Rt9!wq4z`", "Rt9!wq4z"),
    ("- Router login: admin:Tq8vLm2x", "Tq8vLm2x"),
]
COLON_NOT_LOGINS = [
    "- Postgres login: image postgres:16-alpine",
    "- SSH: root@host:2222",
    "- basic auth was set at 12:30:00",
    "- DB credentials in config:database.yml",
    "- login route: app:signin",
    "- credentials: vault:secret/data/app",
    "- tags: build:Release2 and stage:Prod3",             # no login word before them
]


@pytest.mark.parametrize(("line", "value"), COLON_LOGINS)
def test_a_user_colon_password_after_a_login_word_is_a_secret(line, value):
    masked = secrets.mask(line)
    assert value not in masked and secrets.MASK in masked and not secrets.has_secret(masked), masked


@pytest.mark.parametrize("line", COLON_NOT_LOGINS)
def test_colon_pairs_without_a_login_are_not_secrets(line):
    assert not secrets.has_secret(line), secrets.spans(line)
