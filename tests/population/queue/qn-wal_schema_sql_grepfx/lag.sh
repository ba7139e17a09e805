#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD  ->  inbox=<n> processing=<n> error=<n>
q=$1
limit=$2
if [ -z "$q" ] || [ -z "$limit" ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
# ls -p marks directories with a trailing /, so they are not counted
files_in() { ls -Ap "$1" 2>/dev/null | grep -vc '/$'; }
n_in=$(files_in "$q/inbox")
n_proc=$(files_in "$q/processing")
n_err=$(files_in "$q/error")
printf 'inbox=%s processing=%s error=%s\n' "$n_in" "$n_proc" "$n_err"
[ "$n_in" -gt "$limit" ] && exit 1
exit 0
