"""The first process of the grader's script namespace, and the keeper of every script in it.

Run as a program, never imported (it imports nothing of the grader), by bwrap --as-pid-1:

    python -I -S reaper.py CONTROL_FD

The grader starts one namespace per run and asks this process, over the control socket, to
start each script: a message holds the request as JSON (argv, cwd, env) and four descriptors
(stdin, stdout, stderr, and a report pipe). For each request it forks a keeper, which

- becomes a child subreaper, so every process the script starts, however it daemonises (fork,
  setsid, fork again), stays below it;
- starts the script in a session of its own, waits for it, gives what it left GRACE seconds
  to end by itself (a pipeline's last process may still be exiting), then names and kills it;
- reports on the report pipe, one record a line: ``keeper PID`` and ``child PID`` (pids as the
  namespace numbers them), and at the end, a line break (ending any partial line), ``begin``,
  ``leftover PID xNAME xCMDLINE`` for each process left (NAME and CMDLINE hex-encoded UTF-8
  after an "x") and ``status WAIT_STATUS`` last.

Every script of a run shares the namespace, so no two running scripts ever have the same pid
(a consumer that names its own folder after its pid works as it does outside). The init and
the keepers are not dumpable: scripts (which run without CAP_SYS_PTRACE) cannot reach their
descriptors through /proc. When the grader dies or closes the socket, the init exits and the
kernel kills every process of the namespace.

Anywhere but as PID 1 of a namespace it refuses to start: "every process of the namespace"
would be the machine's.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import socket
import sys
import time

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
CMDLINE_LIMIT = 300
MOST_LEFTOVERS = 20  # named in the report; every one is killed
GRACE = 0.3
REQUEST_LIMIT = 1 << 20


def _prctl(option: int, value: int) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (ppid, name) of every live process of the namespace."""
    live: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] not in ("Z", "X"):
            live[int(entry)] = (int(fields[1]), stat[stat.index("(") + 1 : stat.rindex(")")])
    return live


def _below(me: int) -> dict[int, str]:
    """pid -> name of every live process below ``me``."""
    live = _processes()
    found: dict[int, str] = {}
    grew = True
    while grew:
        grew = False
        for pid, (ppid, name) in live.items():
            if pid not in found and pid != me and (ppid == me or ppid in found):
                found[pid] = name
                grew = True
    return found


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


def _report(fd: int, kind: str, *fields: int | str) -> None:
    """One record: its kind, then numbers as they are and texts hex-encoded after an "x"."""
    values = ["x" + f.encode("utf-8", "replace").hex() if isinstance(f, str) else str(f) for f in fields]
    try:  # noqa: SIM105
        os.write(fd, (" ".join([kind, *values]) + "\n").encode())
    except OSError:
        pass  # the grader is gone: nothing to tell


def _script(request: dict[str, object]) -> None:
    """In the script's process: its session, directory and signals, then the script itself."""
    argv = [str(a) for a in request["argv"]]  # type: ignore[attr-defined]
    env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
    try:
        os.setsid()
        os.chdir(str(request["cwd"]))
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)  # as a shell would start it, not as Python left them
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        os.write(2, f"{argv[0] if argv else '?'}: {exc.strerror}\n".encode())
    os._exit(127)


def _keep(request: dict[str, object], report: int) -> None:
    """In the keeper: start the script, wait for it, name and kill what it left, report."""
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    me = os.getpid()
    _report(report, "keeper", me)
    child = os.fork()
    if child == 0:
        os.close(report)
        _script(request)
    _report(report, "child", child)
    while True:
        pid, status = os.waitpid(-1, 0)  # every orphan of the script comes here too: reap it
        if pid == child:
            break
    deadline = time.monotonic() + GRACE
    left = _below(me)
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        _reap()
        left = _below(me)
    leftovers = [(pid, name, _cmdline(pid)) for pid, name in sorted(left.items())[:MOST_LEFTOVERS]]
    for _ in range(100):  # a process may fork while it is being killed: look again
        if not left:
            break
        for pid in left:
            try:  # noqa: SIM105
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.002)
        _reap()
        left = _below(me)
    _report(report, "\nbegin")
    for pid, name, cmdline in leftovers:
        _report(report, "leftover", pid, name, cmdline)
    _report(report, "status", status)


def _start(control: socket.socket, message: bytes, fds: list[int]) -> None:
    """Fork a keeper for one request; the init keeps none of its descriptors."""
    try:
        request = json.loads(message)
        stdin, stdout, stderr, report = fds
    except ValueError:
        for fd in fds:
            os.close(fd)
        return
    if os.fork() == 0:
        control.close()
        for target, fd in ((0, stdin), (1, stdout), (2, stderr)):
            os.dup2(fd, target)
        for fd in {stdin, stdout, stderr} - {0, 1, 2}:
            os.close(fd)
        os.set_inheritable(report, False)
        try:
            _keep(request, report)
        finally:
            os._exit(0)
    for fd in fds:
        os.close(fd)


def main() -> None:
    if os.getpid() != 1:
        sys.exit("reaper.py runs only as the first process of a PID namespace")
    control = socket.socket(fileno=int(sys.argv[1]))
    os.set_inheritable(control.fileno(), False)
    _prctl(PR_SET_DUMPABLE, 0)  # inherited by every keeper (not by the scripts, which exec)
    # PID 1 gets from inside its namespace only the signals it handles: handle none.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        ready, _, _ = select.select([control], [], [], 0.2)
        _reap()
        if not ready:
            continue
        try:
            message, fds, _, _ = socket.recv_fds(control, REQUEST_LIMIT, 4)
        except OSError:
            break
        if not message:
            break  # the grader closed the socket: the run is over
        if len(fds) == 4:
            _start(control, message, fds)
        else:
            for fd in fds:
                os.close(fd)
    os._exit(0)


if __name__ == "__main__":
    main()
