#!/usr/bin/env python3
# lag.sh QUEUE_DIR THRESHOLD        (also: lag.sh -t N QUEUE_DIR, lag.sh --threshold=N QUEUE_DIR)
# 출력: inbox=<n> processing=<n> error=<n>   /  inbox > 임계치 이면 종료코드 1
import getopt
import os
import sys


def usage(msg):
    sys.stderr.write("lag.sh: %s\nusage: lag.sh QUEUE_DIR THRESHOLD\n" % msg)
    sys.exit(2)


def regular_files(path):
    try:
        return sum(1 for e in os.scandir(path) if e.is_file(follow_symlinks=False))
    except (FileNotFoundError, NotADirectoryError):
        return 0


NEG = "\x00neg:"  # a negative number ("-3") is a value, not an option: hide it from getopt


def main():
    argv = [NEG + a if a[:1] == "-" and a[1:].isdigit() else a for a in sys.argv[1:]]
    try:
        opts, rest = getopt.gnu_getopt(argv, "t:h", ["threshold=", "help"])
    except getopt.GetoptError as exc:
        usage(str(exc))
    rest = [a[len(NEG):] if a.startswith(NEG) else a for a in rest]
    opts = [(o, v[len(NEG):] if v.startswith(NEG) else v) for o, v in opts]
    threshold = None
    for o, v in opts:
        if o in ("-h", "--help"):
            usage("help")
        threshold = v
    if threshold is None and len(rest) == 2:
        qdir, threshold = rest
    elif threshold is not None and len(rest) == 1:
        qdir = rest[0]
    else:
        usage("need QUEUE_DIR and THRESHOLD")
    try:
        limit = int(threshold)
    except ValueError:
        usage("threshold is not an integer: %r" % threshold)
    if not os.path.isdir(qdir):
        usage("not a directory: %s" % qdir)
    n = [regular_files(os.path.join(qdir, d)) for d in ("inbox", "processing", "error")]
    print("inbox=%d processing=%d error=%d" % tuple(n))
    sys.exit(1 if n[0] > limit else 0)


main()
