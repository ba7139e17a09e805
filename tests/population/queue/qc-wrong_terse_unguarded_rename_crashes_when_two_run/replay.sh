#!/bin/bash
f=${1:?};[[ $f = */* ]]&&exit 1;[ -f "/root/q/error/$f" ]||exit 1;mv "/root/q/error/$f" /root/q/inbox/
