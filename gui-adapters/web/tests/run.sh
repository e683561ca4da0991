#!/usr/bin/env bash
# Browser tests of the web GUI in headless Chromium.
#
#   bash gui-adapters/web/tests/run.sh path/to/ludus
#
# Needs Debian's chromium (apt-get install -y chromium) and node with npm; installs
# playwright-core from package-lock.json (npm ci) if it is missing. Starts `ludus web --port 0`,
# runs moves.test.mjs, browser.test.mjs, board.test.mjs, isaac.test.mjs, layout.test.mjs,
# analysis.test.mjs and rated.test.mjs against it (two tests start servers of their own, with $LUDUS), stops the
# server, and exits non-zero if a test failed. Screenshots go to target/browser-screenshots/ (or
# $SCREENSHOT_DIR); with SCREENSHOT_DOCS=1 layout.test.mjs also writes each game at a desktop's
# and a phone's size to docs/screenshots/<game>-desktop.png and <game>-phone.png (the README's
# pictures).
set -euo pipefail
ludus=$(realpath "${1:?usage: run.sh path/to/ludus}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$here"
if [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund
fi
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  echo "no Chromium at $CHROMIUM: apt-get install -y chromium" >&2
  exit 1
fi
work=$(mktemp -d)
# Tabs of earlier tests linger for a few seconds after they close (their sessions end 10 s
# after), so the server allows more than the eight tabs one test opens at once.
"$ludus" web --port 0 --max-sessions 24 >"$work/stdout" 2>"$work/stderr" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
url=""
for _ in $(seq 300); do
  url=$(sed -n 's/^listening on //p' "$work/stdout" | head -n 1)
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "ludus web exited:" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "ludus web did not say where it listens" >&2
  exit 1
fi
echo "ludus web at $url"
export BASE_URL=$url
export LUDUS=$ludus
export SCREENSHOT_DIR=${SCREENSHOT_DIR:-$root/target/browser-screenshots}
# TESTS="layout.test.mjs …" runs only those files (all of them by default).
read -r -a tests <<<"${TESTS:-moves.test.mjs browser.test.mjs board.test.mjs isaac.test.mjs layout.test.mjs analysis.test.mjs rated.test.mjs}"
node --test --test-concurrency=1 "${tests[@]}"
