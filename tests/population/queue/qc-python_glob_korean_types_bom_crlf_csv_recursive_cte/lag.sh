#!/bin/bash
# lag.sh <큐디렉터리> <임계치>
dir=${1:?큐디렉터리}
limit=${2:?임계치}
find "$dir/inbox" "$dir/processing" "$dir/error" -mindepth 1 -maxdepth 1 -type f -printf '%h\n' 2>/dev/null |
awk -v limit="$limit" '
	{ sub(/.*\//, ""); n[$0]++ }
	END {
		printf "inbox=%d processing=%d error=%d\n", n["inbox"], n["processing"], n["error"]
		exit (n["inbox"] + 0 > limit + 0) ? 1 : 0
	}'
