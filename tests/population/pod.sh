#!/usr/bin/env bash
# pod.sh: run a command as in a student's lab pod, without touching this machine's /root.
#
#   tests/population/pod.sh HOME_DIR [COMMAND...]      (default COMMAND: an interactive bash)
#
# In a private mount namespace (bubblewrap), HOME_DIR is mounted at /root and the lab's fixture
# tree at /opt/lab/fixtures (read-only): a script that hard-codes /root/q or
# /opt/lab/fixtures/eai/queue/inbox works as in the pod, and writes land in HOME_DIR.
#
#   POD_FIXTURES   the fixture tree (default: built once into .pod-fixtures/ by
#                  `python -m fixtures build`)
#   EAI_AMQP_URL, ERL_EPMD_PORT   passed through (tests/population/broker.sh prints them)
#
# python3 is the project's virtualenv's (pika and requests installed, as in the pod), or
# POD_PYTHON's (an interpreter in a virtualenv's bin/).
#
# A tool for writing and laying out the blind population's submissions (README.md beside this
# file); the grader never uses it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: pod.sh HOME_DIR [COMMAND...]" >&2; exit 2; }
home=$(cd "$1" && pwd)
shift
fixtures=${POD_FIXTURES:-$here/.pod-fixtures}
if [ ! -d "$fixtures/eai/queue/inbox" ]; then
    python=${POD_PYTHON:-$repo/.venv/bin/python}
    [ -x "$python" ] || python=python3
    (cd "$repo" && "$python" -m fixtures build --dest "$fixtures" >/dev/null)
fi
fixtures=$(cd "$fixtures" && pwd)
[ $# -ge 1 ] || set -- bash -i
# The virtualenv's interpreter may live under this machine's /root (pyenv): keep it visible.
venv=$(dirname "$(dirname "${POD_PYTHON:-$repo/.venv/bin/python}")")
prefix=$("$venv/bin/python" -c 'import sys; print(sys.base_prefix)')
keep=()
case "$prefix" in /root/*) keep=(--ro-bind "$prefix" "$prefix") ;; esac
exec bwrap --dev-bind / / --bind "$home" /root "${keep[@]}" --tmpfs /opt --ro-bind "$fixtures" /opt/lab/fixtures \
    --setenv HOME /root --setenv PATH "$venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --chdir /root --die-with-parent -- "$@"
