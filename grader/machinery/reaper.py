"""The first process of every student script run: starts the script, waits for it, and names
and kills whatever it left running.

Run as a program, never imported (it imports nothing of the grader, so it starts in a few ms):

    python -I -S reaper.py REPORT_FD namespace|host GRACE -- ARGV...

- ``namespace``: it is PID 1 of a fresh PID namespace (bwrap --as-pid-1). Every process the
  script starts, however it daemonises, stays in that namespace; when the script has ended,
  every other process there is a leftover. It makes itself non-dumpable, so a script (which
  runs without CAP_SYS_PTRACE) cannot reach its report pipe through /proc/1/fd. When it
  exits, the kernel kills whatever is left in the namespace.
- ``host`` (no namespaces): it makes itself a child subreaper, so a process that leaves the
  script's session and is orphaned (fork, setsid, fork again) is re-parented to it, and its
  descendants are the leftovers. If the grader dies, SIGTERM (its parent-death signal) makes
  it kill them all.

After the script ends it gives its leftovers GRACE seconds to end by themselves (a pipeline's
last process may still be exiting), then kills them. It reports on REPORT_FD, one record a
line: ``child PID`` once the script is started; then ``leftover PID xNAME xCMDLINE`` for each
process it left (NAME and CMDLINE hex-encoded UTF-8 after an "x") and ``status WAIT_STATUS`` last. (Plain
lines rather than JSON: the reaper starts before every script, so it imports next to nothing.)
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
CMDLINE_LIMIT = 300
MOST_LEFTOVERS = 20  # named in the report; every one is killed


def _prctl(option: int, value: int) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def _stat(pid: str) -> tuple[str, int, str] | None:
    """(state, ppid, name) of a process, None when gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), stat[stat.index("(") + 1 : stat.rindex(")")]


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read(CMDLINE_LIMIT * 4)
    except OSError:
        return ""
    text = raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
    return text[:CMDLINE_LIMIT]


def _alive_below(namespace: bool) -> dict[int, str]:
    """Live processes that are not this one: in the namespace, all; on the host, descendants."""
    me = os.getpid()
    namespace = namespace and me == 1  # never all processes of a machine
    live: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me and (stat := _stat(entry)) is not None:
            state, ppid, name = stat
            if state not in ("Z", "X"):
                live[int(entry)] = (ppid, name)
    if namespace:
        return {pid: name for pid, (_, name) in live.items()}
    below: dict[int, str] = {}
    grew = True
    while grew:
        grew = False
        for pid, (ppid, name) in live.items():
            if pid not in below and (ppid == me or ppid in below):
                below[pid] = name
                grew = True
    return below


def _reap() -> None:
    """Collect every child that has ended (none blocks)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _kill_all(namespace: bool) -> None:
    for _ in range(100):  # a process may fork while it is being killed: look again
        left = _alive_below(namespace)
        if not left:
            return
        for pid in left:
            try:  # noqa: SIM105 (contextlib: one more import before every script)
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.005)
        _reap()


def _report(fd: int, kind: str, *fields: int | str) -> None:
    """One record: its kind, then numbers as they are and texts hex-encoded after an "x"."""
    values = ["x" + f.encode("utf-8", "replace").hex() if isinstance(f, str) else str(f) for f in fields]
    line = " ".join([kind, *values]) + "\n"
    try:  # noqa: SIM105
        os.write(fd, line.encode())
    except OSError:
        pass  # the grader is gone: nothing to tell


def _start(argv: list[str]) -> int:
    child = os.fork()
    if child == 0:
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)  # as a shell would start it, not as Python left them
        try:
            os.execvp(argv[0], argv)
        except OSError as exc:
            os.write(2, f"{argv[0]}: {exc.strerror}\n".encode())
        os._exit(127)
    return child


def main() -> None:
    report_fd, mode, grace = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    argv = sys.argv[5:]
    # "Every other process is a leftover" holds only for the first process of a PID namespace:
    # anywhere else it would be every process of the machine. Then it acts as on the host.
    namespace = mode == "namespace" and os.getpid() == 1
    os.set_inheritable(report_fd, False)  # the script never holds the report pipe
    if namespace:
        _prctl(PR_SET_DUMPABLE, 0)
        # PID 1 gets from inside its namespace only the signals it handles: handle none.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    else:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)

        def grader_died(signum: int, frame: object) -> None:
            _kill_all(namespace)
            os._exit(128 + signum)

        signal.signal(signal.SIGTERM, grader_died)
        _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    child = _start(argv)
    _report(report_fd, "child", child)
    while True:
        pid, status = os.waitpid(-1, 0)  # every orphan comes here too: reap it
        if pid == child:
            break
    deadline = time.monotonic() + grace
    left = _alive_below(namespace)
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        _reap()
        left = _alive_below(namespace)
    named = sorted(left.items())[:MOST_LEFTOVERS]
    leftovers = [(pid, name, _cmdline(pid)) for pid, name in named]
    _kill_all(namespace)
    for pid, name, cmdline in leftovers:
        _report(report_fd, "leftover", pid, name, cmdline)
    _report(report_fd, "status", status)
    os._exit(0)


if __name__ == "__main__":
    main()
