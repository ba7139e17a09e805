#!/usr/bin/env bash
set -u
if [ $# -lt 2 ]; then echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; fi
count() { find "$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
inbox=$(count "$1/inbox"); processing=$(count "$1/processing"); error=$(count "$1/error")
echo "inbox=${inbox} processing=${processing} error=${error}"
if (( inbox > $2 )); then exit 1; else exit 0; fi
