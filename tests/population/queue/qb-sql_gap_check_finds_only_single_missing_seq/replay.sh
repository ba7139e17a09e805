#!/usr/bin/env bash
Q=/root/q
name="${1:-}"
if [[ -z "$name" || "$name" == */* || "$name" == "." || "$name" == ".." ]]; then
    echo "invalid file name" >&2; exit 2
fi
if [[ ! -f "$Q/error/$name" ]]; then
    echo "not found in error/: $name" >&2; exit 1
fi
if [[ -e "$Q/inbox/$name" ]]; then
    echo "already in inbox: $name" >&2; exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
