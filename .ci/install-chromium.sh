#!/usr/bin/env bash
# Headless Chromium for the web page's browser tests (tests/web/test_web_browser.py), from Debian's own package,
# with a font for the page's text (chromium alone depends on none): installed only where missing, without
# questions, and only as root (elsewhere the tests skip and name the apt command). Quiet: apt's output is
# shown only if the install fails, which does not fail CI: the browser tests then skip and say why.
set -euo pipefail
if command -v chromium >/dev/null && [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-chromium: not root; skipping (the browser tests will say: apt-get install -y chromium)" >&2
    exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-chromium: apt-get install -y chromium failed; the browser tests will be skipped" >&2
    exit 0
fi
