#!/bin/bash
# replay.sh FILE -- 실제 일은 python 한테 (bash 로 경로 검사하다 따옴표 지옥이라서)
python3 -c '
import os, sys
Q = "/root/q"
name = sys.argv[1] if len(sys.argv) > 1 else ""
if not name or name in (".", "..") or os.path.basename(name) != name:
    print("replay: 파일 이름만 주세요:", repr(name), file=sys.stderr)
    sys.exit(2)
src = os.path.join(Q, "error", name)
if not os.path.isfile(src):
    print("replay: error/ 에 없음:", name, file=sys.stderr)
    sys.exit(1)
os.rename(src, os.path.join(Q, "inbox", name))
print("replayed", name)
' "$@"
