#!/usr/bin/env bash
# Demo: index the bundled sample workspace (English and Chinese memory) in a throw-away
# config and data folder, then search it the way an agent would. Touches nothing else.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
export QMEM_CONFIG="$tmp/collections.toml" QMEM_DATA="$tmp/data"
ws="$tmp/workspace"
cp -r "$here/workspace" "$ws"

run() { printf '\n$ %s\n' "$*"; "$@"; }
run qmem collection create demo "$ws"
run qmem search "私钥 泄露"
run qmem search "powershell encoding" -n 2
run qmem search "USDC decimals" --type K --since 2026-02-28 --json
run qmem search "钱包 余额" --files
run qmem get "MEMORY.md#windows-ps5-编码地狱"
run qmem get memory/2026-02-28.md:7:3
run qmem status
printf '\n(demo config and index in %s; remove it when done)\n' "$tmp"
