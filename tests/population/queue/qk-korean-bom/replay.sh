#!/usr/bin/env python3
# replay.sh FILENAME  --  /root/q/error/FILENAME 을 /root/q/inbox 로 되돌림
# error 에 없으면(또는 이름이 경로면) 아무것도 바꾸지 않고 종료코드 1
import sys
from pathlib import Path

Q = Path("/root/q")
args = sys.argv[1:]
if len(args) != 1:
    sys.exit("usage: replay.sh FILENAME")
name = args[0]
if name == "" or name in (".", "..") or Path(name).name != name or "\x00" in name:
    sys.exit(f"replay.sh: invalid file name {name!r}")
src = Q / "error" / name
dst = Q / "inbox" / name
if src.is_symlink() or not src.is_file():
    sys.exit(f"replay.sh: error/{name} not found")
if dst.exists() or dst.is_symlink():
    sys.exit(f"replay.sh: inbox/{name} already exists")
src.rename(dst)
print(f"replayed: {name}")
