#!/usr/bin/env python3
# lag.sh -- 이름은 .sh 인데 내용은 파이썬 (shebang 으로 실행됨, chmod +x 필요)
# 사용법: ./lag.sh <큐디렉터리> <임계치>
import argparse
import os
import sys

ap = argparse.ArgumentParser(description="queue lag check")
ap.add_argument("queue_dir")
ap.add_argument("threshold", type=int)
a = ap.parse_args()


def count(sub):
    try:
        with os.scandir(os.path.join(a.queue_dir, sub)) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


n = {s: count(s) for s in ("inbox", "processing", "error")}
print("inbox={inbox} processing={processing} error={error}".format(**n))
sys.exit(1 if n["inbox"] > a.threshold else 0)
