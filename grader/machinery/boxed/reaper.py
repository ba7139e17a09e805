"""The launcher of student scripts, and the keeper of each one.

Run as a program, never imported (it imports nothing of the grader), in one of two places:

    python -I -S reaper.py CONTROL_FD          as PID 1 of a box (a bwrap PID namespace)
    python -I -S reaper.py CONTROL_FD --host   as a child of the grader (host mode)

It runs as root: it is the grader's, not the student's. The grader asks it, over the control
socket, to start each script: a message holds the request as JSON and five descriptors (stdin,
stdout, stderr, a report pipe the keeper writes, and a command pipe the grader writes). The
request says how to start the script and with which identity:

    argv, cwd, env     the script
    uid, gid           the run's identity (it owns nothing on the machine but the working
                       copies and the scratch directories handed to the scripts)
    userns             true in a box: the script runs as root in a user namespace of its own
                       mapped onto uid/gid (it sees itself as root owning its files, and holds
                       no capability over anything of the machine's); false on the host: it
                       runs as uid/gid itself
    seccomp            a BPF program (hex) loaded before exec: the second wall
    limits             resource limits (name -> soft and hard value)

For each request it forks a keeper, which

- becomes a child subreaper, so every process the script starts, however it daemonises (fork,
  setsid, fork again), stays below it;
- starts the script in a session of its own, with no supplementary groups, the identity above,
  no_new_privs, the seccomp filter and the limits;
- waits for the script, or for a command: a byte 1-64 sends that signal to the script and
  every process it started (a consumer that does its work in a child process is one consumer:
  frozen or killed whole), 0xFF (or the command pipe's end: the grader is gone) kills the
  script and everything below;
- gives what the script left GRACE seconds to end by itself (a pipeline's last process may still
  be exiting), then names and kills it;
- reports on the report pipe, one record a line: ``keeper PID`` and ``child PID`` (pids as the
  launcher's PID namespace numbers them), and at the end, a line break (ending any partial
  line), ``begin``, ``leftover PID xNAME xCMDLINE`` for each process left (NAME and CMDLINE
  hex-encoded UTF-8 after an "x") and ``status WAIT_STATUS`` last.

The launcher and the keepers are not dumpable and run as root: scripts (another uid, no
capability in the machine's user namespace, ptrace refused by seccomp) cannot signal, trace or
read them. When the grader closes the control socket (or dies), a box's launcher exits and the
kernel kills every process of the box; a host launcher's keepers see their command pipes end
and kill what is theirs.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import select
import signal
import socket
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
SECCOMP_MODE_FILTER = 2
CLONE_NEWUSER = 0x10000000
CMDLINE_LIMIT = 300
MOST_LEFTOVERS = 20  # named in the report; every one is killed
GRACE = 0.3
QUIET = 0.01  # a pause while what is below the keeper ends
REQUEST_LIMIT = 1 << 20
KILL_ALL = 0xFF
FDS = 5  # stdin, stdout, stderr, report, commands

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), f"prctl {option}")


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _load_seccomp(program: bytes) -> None:
    """Install ``program`` (struct sock_filter[], as libseccomp exports it) on this thread;
    no_new_privs must be set already."""
    count = len(program) // ctypes.sizeof(_SockFilter)
    if count == 0 or count * ctypes.sizeof(_SockFilter) != len(program):
        raise OSError(0, "seccomp: not a BPF program")
    instructions = (_SockFilter * count).from_buffer_copy(program)
    fprog = _SockFprog(count, instructions)
    _check(
        _libc.prctl(PR_SET_SECCOMP, ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(fprog), 0, 0),
        "seccomp",
    )


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (ppid, name) of every live process this launcher's PID namespace shows."""
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


def _reap() -> list[tuple[int, int]]:
    """Collect every child that has ended (none blocks): (pid, wait status) each."""
    return _reaped()[0]


def _reaped() -> tuple[list[tuple[int, int]], bool]:
    """Collect every child that has ended (none blocks), and whether any child is left.

    A keeper is a child subreaper: every process below it that loses its parent becomes its
    child, and a child of its leaves the process table only through its own wait. So "no child
    left" is exact, with no look over /proc and no pause: nothing is below it any more, and
    nothing can come below it again (only what is below it makes more)."""
    ended: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended, False
        if pid == 0:
            return ended, True
        ended.append((pid, status))


def _report(fd: int, kind: str, *fields: int | str) -> None:
    """One record: its kind, then numbers as they are and texts hex-encoded after an "x"."""
    values = ["x" + f.encode("utf-8", "replace").hex() if isinstance(f, str) else str(f) for f in fields]
    try:  # noqa: SIM105
        os.write(fd, (" ".join([kind, *values]) + "\n").encode())
    except OSError:
        pass  # the grader is gone: nothing to tell


def _kill_below(me: int) -> list[tuple[int, int]]:
    """SIGKILL everything below ``me`` until no child is left (a process may fork meanwhile);
    the children reaped meanwhile, with their wait statuses."""
    reaped, left = _reaped()
    for _ in range(200):
        if not left:
            break
        for pid in _below(me):
            try:  # noqa: SIM105
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(QUIET)
        ended, left = _reaped()
        reaped += ended
    return reaped


def _signal_below(me: int, signum: int) -> None:
    """Send ``signum`` to every process below ``me``, listed again until no new one shows (a
    process may fork while the others are signalled; a stopped one forks no more)."""
    sent: set[int] = set()
    for _ in range(200):
        new = [pid for pid in _below(me) if pid not in sent]
        if not new:
            return
        for pid in new:
            try:  # noqa: SIM105
                os.kill(pid, signum)
            except OSError:
                pass
        sent.update(new)


# the script's own process ------------------------------------------------------------------
def _drop(request: dict[str, object]) -> None:
    """Give up everything the launcher holds: groups, identity, privileges, system calls."""
    uid, gid = int(request["uid"]), int(request["gid"])  # type: ignore[call-overload]
    os.setgroups([])
    # The OOM killer's first choice: in the run's memory group (cgroup.py) a script is killed,
    # not the launcher. Set while the launcher holds CAP_SYS_RESOURCE (where the grader has it),
    # it is the script's floor too: it may not lower it again.
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000\n")
    except OSError:
        pass
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if request.get("userns"):
        # Made as the identity, not as root: a namespace is charged, for every per-user limit
        # of what runs in it (inotify instances ...), to its owner, and one of root's would let
        # a script use up root's share (the grader's own). Its maps are written by the process
        # itself, as any user may: its root inside is uid/gid outside, and nothing else.
        _prctl(PR_SET_DUMPABLE, 1)  # as after exec: its /proc/self files its own, not root's
        _check(_libc.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
        for name, text in (("uid_map", f"0 {uid} 1\n"), ("setgroups", "deny\n"), ("gid_map", f"0 {gid} 1\n")):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
        os.setresgid(0, 0, 0)
        os.setresuid(0, 0, 0)
    limits = request.get("limits") or {}
    for name, (soft, hard) in limits.items():  # type: ignore[attr-defined]
        resource.setrlimit(getattr(resource, name), (int(soft), int(hard)))
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    program = str(request.get("seccomp") or "")
    if program:
        _load_seccomp(bytes.fromhex(program))


def _script(request: dict[str, object]) -> None:
    """In the script's process: its session, identity, directory and signals, then the script."""
    argv = [str(a) for a in request["argv"]]  # type: ignore[attr-defined]
    env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
    try:
        os.setsid()
        _drop(request)
        os.chdir(str(request["cwd"]))
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)  # as a shell would start it, not as Python left them
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        os.write(2, f"{argv[0] if argv else '?'}: {exc.strerror or exc}\n".encode())
    os._exit(127)


# the keeper ----------------------------------------------------------------------------------
def _keep(request: dict[str, object], report: int, commands: int) -> None:
    """In the keeper: start the script, wait for it (or a command), name and kill what it
    left, report."""
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    me = os.getpid()
    _report(report, "keeper", me)
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a child's end wakes the select below
    child = os.fork()
    if child == 0:
        for fd in (report, commands, wake_r, wake_w):
            os.close(fd)
        signal.set_wakeup_fd(-1)
        _script(request)
    _report(report, "child", child)
    status, killed = _wait(child, me, commands, wake_r)
    leftovers = []
    if not killed:
        # What is still running once the script has ended, given GRACE to finish by itself.
        deadline = time.monotonic() + GRACE
        _, left = _reaped()
        while left and time.monotonic() < deadline:
            time.sleep(QUIET)
            _, left = _reaped()
        for _ in range(20 if left else 0):  # one look can miss a chain that forks and exits
            if found := sorted(_below(me).items())[:MOST_LEFTOVERS]:
                leftovers = [(pid, name, _cmdline(pid)) for pid, name in found]
                break
    _kill_below(me)
    _report(report, "\nbegin")
    for pid, name, cmdline in leftovers:
        _report(report, "leftover", pid, name, cmdline)
    _report(report, "status", status)


def _wait(child: int, me: int, commands: int, wake: int) -> tuple[int, bool]:
    """Until the script ends: (its wait status, whether the grader had it killed)."""
    status: int | None = None
    killed = False
    listening = True
    reaped: list[tuple[int, int]] = []
    while status is None:
        reaped += _reap()  # every orphan of the script comes here too: reap it
        for pid, ended in reaped:
            if pid == child:
                status = ended
        reaped.clear()
        if status is not None:
            break
        ready = _readable([wake, commands] if listening else [wake], 1.0)
        if wake in ready:
            while True:
                try:
                    if not os.read(wake, 512):
                        break
                except BlockingIOError:
                    break
        if commands in ready:
            try:
                command = os.read(commands, 64)
            except OSError:
                command = b""
            if not command:
                listening = False  # the grader is gone: nothing may outlive it
                command = bytes([KILL_ALL])
            for byte in command:
                if byte == KILL_ALL:
                    killed = True
                    reaped += _kill_below(me)
                elif 0 < byte <= 64:
                    _signal_below(me, byte)
    return status, killed


def _readable(fds: list[int], timeout: float) -> list[int]:
    """Which of ``fds`` have something to read (or have ended) within ``timeout`` seconds. poll,
    not select: a descriptor numbered 1024 or more (the grader may hold that many, carrying a
    box's connections) is out of select's range (seen: the launcher died, a grader error)."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    return [fd for fd, _ in poller.poll(timeout * 1000)]


def _start(control: socket.socket, message: bytes, fds: list[int]) -> None:
    """Fork a keeper for one request; the launcher keeps none of its descriptors."""
    try:
        request = json.loads(message)
        stdin, stdout, stderr, report, commands = fds
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
        os.set_inheritable(commands, False)
        try:
            _keep(request, report, commands)
        finally:
            os._exit(0)
    for fd in fds:
        os.close(fd)


def main() -> None:
    host = "--host" in sys.argv[2:]
    if not host and os.getpid() != 1:
        sys.exit("reaper.py runs as the first process of a PID namespace, or with --host")
    if host:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the grader's end is ours
    control = socket.socket(fileno=int(sys.argv[1]))
    os.set_inheritable(control.fileno(), False)
    _prctl(PR_SET_DUMPABLE, 0)  # inherited by every keeper (not by the scripts, which exec)
    # PID 1 gets from inside its namespace only the signals it handles: handle none.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        ready = _readable([control.fileno()], 0.2)
        _reap()
        if not ready:
            continue
        try:
            message, fds, _, _ = socket.recv_fds(control, REQUEST_LIMIT, FDS)
        except OSError:
            break
        if not message:
            break  # the grader closed the socket: the run is over
        if len(fds) == FDS:
            _start(control, message, fds)
        else:
            for fd in fds:
                os.close(fd)
    os._exit(0)


if __name__ == "__main__":
    main()
