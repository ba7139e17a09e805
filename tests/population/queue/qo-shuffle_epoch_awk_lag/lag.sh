#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
# one find over the three dirs; %h (the dir a file sits in) is safe for any file name
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
q=${1%/}
case $2 in ''|*[!0-9]*) echo "lag.sh: bad THRESHOLD '$2'" >&2; exit 2;; esac
for d in inbox processing error; do [ -d "$q/$d" ] || { echo "lag.sh: no $q/$d" >&2; exit 2; }; done

find "$q/inbox" "$q/processing" "$q/error" -mindepth 1 -maxdepth 1 -type f -printf '%h\n' |
awk -v q="$q" -v max="$2" '
    { n[$0]++ }
    END {
        i = n[q "/inbox"] + 0; p = n[q "/processing"] + 0; e = n[q "/error"] + 0
        printf "inbox=%d processing=%d error=%d\n", i, p, e
        exit (i > max + 0) ? 1 : 0
    }'
