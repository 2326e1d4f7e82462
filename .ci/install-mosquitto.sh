#!/usr/bin/env bash
# Debian's Mosquitto broker for the remote-play tests (tests/remote/test_remote_link.py start their own on 127.0.0.1):
# installed only where missing, without questions, and only as root (elsewhere the tests skip and name the apt
# command). Quiet: apt's output is shown only if the install fails, which does not fail CI: the broker tests
# then skip and say why. The package's own service is not needed by the tests; it is left as Debian ships it.
set -uo pipefail
if command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-mosquitto: not root; skipping (the broker tests will say: apt-get install -y mosquitto)" >&2
    exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends mosquitto; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-mosquitto: apt-get install -y mosquitto failed; the broker tests will be skipped" >&2
fi
exit 0
