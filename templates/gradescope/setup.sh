#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (Ubuntu). It
# installs RabbitMQ and Python 3.11+ from the distribution's packages, and this grader (the
# bundle's source, unpacked in /autograder/source) into a virtualenv /autograder/venv.
#
# AUTOGRADER_ROOT (default /autograder) lets the self-test run it against a temporary tree.
set -euo pipefail
AG=${AUTOGRADER_ROOT:-/autograder}

python_ok() {  # $1 is a Python 3.11+ with venv support
    command -v "$1" >/dev/null \
        && "$1" -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

need=()
command -v rabbitmq-server >/dev/null || need+=(rabbitmq-server)
PY=python3
if ! python_ok python3; then
    if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        need+=(python3-venv)          # the right Python, without ensurepip
    else
        PY=python3.11                 # Ubuntu 22.04's python3 is 3.10
        python_ok python3.11 || need+=(python3.11 python3.11-venv)
    fi
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "setup.sh: installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

"$PY" -m venv "$AG/venv"
"$AG/venv/bin/python" -m pip install -q --upgrade pip
"$AG/venv/bin/python" -m pip install -q -e "$AG/source"
"$AG/venv/bin/python" -m grader --version
