#!/bin/sh
# usage: replay.sh FILENAME  -- error/FILENAME back to inbox/
Q=${LAB_ROOT:-/root}/q
f=$1
case $f in
	"" | . | .. | */*) echo "replay: bad name '$f'" >&2; exit 1 ;;
esac
if [ ! -f "$Q/error/$f" ]; then
	echo "replay: $f not in $Q/error" >&2
	exit 1
fi
mv -- "$Q/error/$f" "$Q/inbox/$f" || exit 1
echo "replayed $f"
