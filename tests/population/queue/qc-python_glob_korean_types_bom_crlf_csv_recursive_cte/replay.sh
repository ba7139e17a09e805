#!/bin/bash
# replay.sh <파일명> : error/<파일명> 을 inbox 로 되돌린다
Q=${LAB_ROOT:-/root}/q
name=$1
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
	echo "파일명만 주세요: '$name'" >&2
	exit 1
fi
if [[ ! -f $Q/error/$name ]]; then
	echo "error 에 없음: $name" >&2
	exit 1
fi
mv "$Q/error/$name" "$Q/inbox/" && echo "되돌림: $name"
