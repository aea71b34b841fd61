#!/bin/sh
# Make sure Graphviz's `dot` is on PATH (called by `make dot`).
#
#   dot found and working            -> one "using ..." line, exit 0
#   missing, root, apt-get present   -> apt-get install graphviz (Debian/Ubuntu, e.g. CI), exit 0 if that worked
#   otherwise                        -> ONE line saying how to install it, exit 1
#
# POSIX sh, no Python: it must never print a traceback.
# EXPECTVIZ_ASSUME_NONROOT=1 behaves as for a normal user, even as root (used by tests/test_environment.py).
set -u

HINT="expectviz: Graphviz's 'dot' is missing; install it with: sudo apt-get install graphviz (Debian/Ubuntu), brew install graphviz (macOS), or conda install -c conda-forge graphviz"

is_root() {
    [ "${EXPECTVIZ_ASSUME_NONROOT:-0}" != 1 ] && [ "$(id -u 2>/dev/null)" = 0 ]
}

# Print "using <path>" and succeed if `dot` is on PATH and can render SVG.
check_dot() {
    dot_path=$(command -v dot 2>/dev/null) || return 1
    if echo 'digraph { a -> b }' | "$dot_path" -Tsvg >/dev/null 2>&1; then
        echo "expectviz: using Graphviz's dot at $dot_path"
        return 0
    fi
    echo "expectviz: '$dot_path' is there but cannot render SVG; reinstall Graphviz (or run 'dot -c' as root)" >&2
    exit 1
}

check_dot && exit 0

if is_root && command -v apt-get >/dev/null 2>&1; then
    echo "expectviz: Graphviz's 'dot' is missing; installing the Debian package 'graphviz' with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update && apt-get install -y graphviz; then
        check_dot && exit 0
    fi
fi

echo "$HINT" >&2
exit 1
