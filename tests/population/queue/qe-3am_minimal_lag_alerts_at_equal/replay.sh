#!/bin/bash
f="$1"
[ -n "$f" ] || exit 1
case "$f" in */*) exit 1 ;; esac
[ -f "/root/q/error/$f" ] || exit 1
mv "/root/q/error/$f" "/root/q/inbox/$f"
