#!/bin/bash
[[ $# == 1 && $1 && $1 != */* && $1 != . && $1 != .. && -f /root/q/error/$1 && ! -e /root/q/inbox/$1 ]] || exit 1
mv "/root/q/error/$1" /root/q/inbox/
