"""The second wall: system calls a student script never needs, refused by a seccomp filter.

The first wall is the identity scripts run under (identity.py): no capability over anything of
the machine's, so the kernel refuses what crosses it. This filter refuses, in both sandbox modes,
the calls that cross namespaces or reach the kernel's machinery, whatever the privileges:
mounting, switching or making namespaces, opening files by handle, tracing or reading other
processes' memory, loading modules or BPF, keyrings, io_uring (whose operations seccomp cannot
see), and the like. A refused call fails with EPERM (ENOSYS for clone3, whose flags a filter
cannot read: libc then falls back to clone, whose flags it can). Calls of another architecture
(i386 or x32 on x86_64) kill the process.

The program is built once with libseccomp (``pyseccomp``) and handed to the launcher as BPF,
which loads it in each script's process before exec (reaper.py), after no_new_privs.
"""

from __future__ import annotations

import errno
import functools
import tempfile

# Refused outright.
REFUSED = (
    # mounts and namespaces
    "mount", "umount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "setns", "unshare",
    # files by handle: round every mount and every path check
    "open_by_handle_at", "name_to_handle_at",
    # other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
    # the kernel's machinery
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "bpf",
    "perf_event_open", "userfaultfd", "iopl", "ioperm", "swapon", "swapoff", "reboot", "acct",
    "quotactl", "quotactl_fd", "syslog", "vhangup", "lookup_dcookie", "settimeofday",
    "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname",
    "fanotify_init", "open_tree_attr",
    # keyrings
    "keyctl", "add_key", "request_key",
    # io_uring runs operations the filter never sees
    "io_uring_setup", "io_uring_enter", "io_uring_register",
)  # fmt: skip
# clone with any of these flags: a namespace of its own
CLONE_NAMESPACES = 0x7E020000  # NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET


class SeccompUnavailable(RuntimeError):
    """libseccomp (pyseccomp) could not build the filter here: the sandbox cannot be promised."""


@functools.cache
def program() -> bytes:
    """The filter as BPF (struct sock_filter[]), built once per process."""
    try:
        import pyseccomp as sc
    except (ImportError, OSError, RuntimeError) as exc:  # no libseccomp.so on this machine
        raise SeccompUnavailable(f"libseccomp is not usable here: {exc}") from exc
    refuse = sc.ERRNO(errno.EPERM)
    flt = sc.SyscallFilter(defaction=sc.ALLOW)
    for name in REFUSED:
        try:
            flt.add_rule(refuse, name)
        except (ValueError, RuntimeError, OSError):
            continue  # a call this kernel's tables do not know: nothing to refuse
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    for bit in range(32):  # one rule per namespace flag: any of them is refused
        if CLONE_NAMESPACES & (1 << bit):
            flt.add_rule(refuse, "clone", sc.Arg(0, sc.MASKED_EQ, 1 << bit, 1 << bit))
    # ioctl TIOCSTI pushes characters into a terminal's input; TIOCLINUX likewise.
    for request in (0x5412, 0x541C):
        flt.add_rule(refuse, "ioctl", sc.Arg(1, sc.MASKED_EQ, 0xFFFFFFFF, request))
    with tempfile.TemporaryFile() as out:
        flt.export_bpf(out)
        out.seek(0)
        return out.read()
