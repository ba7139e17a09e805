#!/usr/bin/env bash
# 적체 감시: ./lag.sh <큐디렉터리> <임계치>
# inbox 건수가 임계치를 "초과"하면 종료코드 1 (같으면 정상)
exec python3 - "$@" <<'PY'
import os
import sys

if len(sys.argv) != 3:
    print("사용법: lag.sh <큐디렉터리> <임계치>", file=sys.stderr)
    sys.exit(2)
큐, 임계 = sys.argv[1], sys.argv[2]
try:
    임계치 = int(임계)
except ValueError:
    print(f"임계치는 정수여야 합니다: {임계!r}", file=sys.stderr)
    sys.exit(2)


def 세기(폴더):
    경로 = os.path.join(큐, 폴더)
    try:
        with os.scandir(경로) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        print(f"폴더 없음: {경로}", file=sys.stderr)
        return 0


inbox, processing, error = 세기("inbox"), 세기("processing"), 세기("error")
print(f"inbox={inbox} processing={processing} error={error}")
if inbox > 임계치:
    print(f"적체 경고: inbox {inbox}건 > 임계치 {임계치}", file=sys.stderr)
    sys.exit(1)
sys.exit(0)
PY
