#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
#   prints exactly one line:  inbox=<n> processing=<n> error=<n>
#   exit 0 when inbox <= THRESHOLD, 1 when inbox > THRESHOLD, 2 on bad usage.
#   <n> = regular files directly inside the directory (no recursion, no dirs, no symlinks).
set -u

die() { echo "lag.sh: $*" >&2; exit 2; }

[ $# -eq 2 ] || die "usage: lag.sh QUEUE_DIR THRESHOLD"
qdir=$1 threshold=$2
[ -d "$qdir" ] || die "$qdir: no such directory"
[[ $threshold =~ ^[+-]?[0-9]+$ ]] || die "THRESHOLD must be an integer, got '$threshold'"

count() {
    if [ -d "$1" ]; then
        # one '.' per file: immune to newlines in names
        find "$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c
    else
        echo "lag.sh: warning: $1 missing, counted as 0" >&2
        echo 0
    fi
}

inbox=$(count "$qdir/inbox")
processing=$(count "$qdir/processing")
error=$(count "$qdir/error")
printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"

# inbox > threshold, without trusting 64-bit arithmetic for a very long threshold
gt() {  # gt COUNT THRESHOLD  (COUNT >= 0)
    local n=$1 t=$2 sign=+
    case $t in -*) sign=-; t=${t#-} ;; +*) t=${t#+} ;; esac
    t=${t#"${t%%[!0]*}"}; t=${t:-0}
    [ "$sign" = - ] && { [ "$t" = 0 ] && [ "$n" -eq 0 ] && return 1; return 0; }
    if [ ${#t} -gt 18 ]; then return 1; fi
    [ "$n" -gt "$t" ]
}
if gt "$inbox" "$threshold"; then
    exit 1
fi
exit 0
