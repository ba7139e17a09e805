#!/bin/bash
# replay.sh <파일명> : error 에 있는 파일을 inbox 로 되돌림
# find 로 error 바로 아래에서만 찾음 (-maxdepth 1) -> ../ 같은 건 안 걸림
# 없으면 find 가 실패 -> 종료코드 그대로 나감
Q=/root/q
find "$Q/error" -maxdepth 1 -type f -name "$1" -exec mv {} "$Q/inbox/" \;
