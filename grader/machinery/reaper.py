"""The first process of a student script's PID namespace: starts the script, waits for it, and
names and kills whatever it left running.

Run as a program, never imported (it imports next to nothing of Python, and nothing of the
grader, so it starts in a few ms), by bwrap --as-pid-1:

    python -I -S reaper.py REPORT_FD GRACE -- ARGV...

Every process the script starts, however it daemonises (fork, setsid, fork again), stays in
the namespace and is re-parented to this one; when the script has ended, every other process
still alive in the namespace is a leftover. They get GRACE seconds to end by themselves (a
pipeline's last process may still be exiting), then they are killed; when this process exits
the kernel kills whatever is left in the namespace anyway.

It reports on REPORT_FD, one record a line: ``child PID`` once the script is started; at the
end, a line break (ending any partial line written before), ``begin``, then ``leftover PID
xNAME xCMDLINE`` for each process left (NAME and CMDLINE hex-encoded UTF-8 after an "x") and
``status WAIT_STATUS`` last. A script could open the pipe through /proc/1/fd and write lines
of its own, but only while it runs: the final block is written once every other process of
the namespace is dead, so the grader reads only what follows the last ``begin``.

Anywhere but as PID 1 of a namespace, "every other process" would be the machine's: then it
reaps nothing and kills nothing, and only runs the script.
"""

from __future__ import annotations

import os
import signal
import sys
import time

CMDLINE_LIMIT = 300
MOST_LEFTOVERS = 20  # named in the report; every one is killed


def _alive() -> dict[int, str]:
    """pid -> name of every live process of the namespace but this one."""
    live: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == "1":
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] not in "ZX":
            live[int(entry)] = stat[stat.index("(") + 1 : stat.rindex(")")]
    return live


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read(CMDLINE_LIMIT * 4)
    except OSError:
        return ""
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")[:CMDLINE_LIMIT]


def _reap() -> None:
    """Collect every child that has ended (none blocks)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _kill_all() -> None:
    for _ in range(100):  # a process may fork while it is being killed: look again
        left = _alive()
        if not left:
            return
        for pid in left:
            try:  # noqa: SIM105 (contextlib: one more import before every script)
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.002)
        _reap()


def _report(fd: int, kind: str, *fields: int | str) -> None:
    """One record: its kind, then numbers as they are and texts hex-encoded after an "x"."""
    values = ["x" + f.encode("utf-8", "replace").hex() if isinstance(f, str) else str(f) for f in fields]
    try:  # noqa: SIM105
        os.write(fd, (" ".join([kind, *values]) + "\n").encode())
    except OSError:
        pass  # the grader is gone: nothing to tell


def main() -> None:
    report_fd, grace, argv = int(sys.argv[1]), float(sys.argv[2]), sys.argv[4:]
    os.set_inheritable(report_fd, False)  # the script never holds the report pipe
    if os.getpid() != 1:
        os.execvp(argv[0], argv)
    # PID 1 gets from inside its namespace only the signals it handles: handle none.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)  # as a shell would start it, not as Python left them
        try:
            os.execvp(argv[0], argv)
        except OSError as exc:
            os.write(2, f"{argv[0]}: {exc.strerror}\n".encode())
        os._exit(127)
    _report(report_fd, "child", child)
    while True:
        pid, status = os.waitpid(-1, 0)  # every orphan comes here too: reap it
        if pid == child:
            break
    deadline = time.monotonic() + grace
    left = _alive()
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        _reap()
        left = _alive()
    leftovers = [(pid, name, _cmdline(pid)) for pid, name in sorted(left.items())[:MOST_LEFTOVERS]]
    _kill_all()
    _report(report_fd, "\nbegin")
    for pid, name, cmdline in leftovers:
        _report(report_fd, "leftover", pid, name, cmdline)
    _report(report_fd, "status", status)
    os._exit(0)


if __name__ == "__main__":
    main()
