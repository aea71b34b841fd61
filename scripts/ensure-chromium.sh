#!/bin/sh
# Make sure Chromium is there for the browser tests (called by `make chromium`).
#
#   chromium found                   -> one "using ..." line, exit 0
#   missing, root, apt-get present   -> apt-get install chromium (Debian, e.g. CI)
#   otherwise                        -> ONE line saying the browser tests will be skipped, exit 0
#
# Never fails: the browser tests skip themselves when there is no Chromium.
# EXPECTVIZ_ASSUME_NONROOT=1 behaves as for a normal user, even as root (used by tests/test_environment.py).
# EXPECTVIZ_CHROMIUM names the browser to look for first (default /usr/bin/chromium, Debian's package).
set -u

SKIP="expectviz: Chromium is missing, so the browser tests will be skipped (install it with: sudo apt-get install chromium)"

is_root() {
    [ "${EXPECTVIZ_ASSUME_NONROOT:-0}" != 1 ] && [ "$(id -u 2>/dev/null)" = 0 ]
}

find_chromium() {
    candidate=${EXPECTVIZ_CHROMIUM:-/usr/bin/chromium}
    if [ -x "$candidate" ]; then
        echo "expectviz: using Chromium at $candidate"
        return 0
    fi
    for name in chromium chromium-browser; do
        if candidate=$(command -v "$name" 2>/dev/null); then
            echo "expectviz: using Chromium at $candidate"
            return 0
        fi
    done
    return 1
}

find_chromium && exit 0

if is_root && command -v apt-get >/dev/null 2>&1; then
    echo "expectviz: Chromium is missing; installing the Debian package 'chromium' with apt-get (about 480 MB)"
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update && apt-get install -y chromium; then
        find_chromium && exit 0
    fi
fi

echo "$SKIP" >&2
exit 0
