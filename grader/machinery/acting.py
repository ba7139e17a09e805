"""The grader's own file work in trees the scripts can write, done with the scripts' powers.

A working copy, a box's scratch: the scripts may have put anything there (a link to
/etc/shadow where ledger.db was, a directory where a file was). Whatever the grader does there
(empty a queue folder, copy a blank ledger in, list, read a ledger) it does inside
``as_scripts``: the calling thread's filesystem identity is the scripts' (setfsuid/setfsgid,
no supplementary groups), so the kernel lets it do only what a script could have done
itself, and what it creates belongs to the scripts. Other threads keep their own identity
(Linux keeps credentials per thread; these calls are made to the kernel directly, never
through libc's process-wide broadcasts).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Protocol

# System call numbers: setgroups, setfsuid, setfsgid.
_CALLS = {
    "x86_64": (116, 122, 123),
    "aarch64": (159, 151, 152),
}
_libc = ctypes.CDLL(None, use_errno=True)
_state = threading.local()
Acting = AbstractContextManager[None]


class Owner(Protocol):
    uid: int
    gid: int


def _calls() -> tuple[int, int, int]:
    machine = platform.machine()
    if machine not in _CALLS:
        raise OSError(0, f"acting as the scripts: no system call numbers for {machine}")
    return _CALLS[machine]


def _setgroups(groups: list[int]) -> None:
    array = (ctypes.c_uint * max(1, len(groups)))(*groups)
    if _libc.syscall(_calls()[0], ctypes.c_size_t(len(groups)), array) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"setgroups: {os.strerror(errno)}")


def _setfs(uid: int, gid: int) -> None:
    _, setfsuid, setfsgid = _calls()
    _libc.syscall(setfsgid, ctypes.c_uint(gid))
    _libc.syscall(setfsuid, ctypes.c_uint(uid))


@contextlib.contextmanager
def as_scripts(owner: Owner) -> Iterator[None]:
    """The calling thread touches files as ``owner`` (the run's script identity) until the
    block ends (nested in another such block: as that one)."""
    acting = getattr(_state, "owner", None)
    if acting is not None or os.geteuid() != 0:
        yield
        return
    groups = os.getgroups()
    _setgroups([])
    _setfs(owner.uid, owner.gid)
    _state.owner, _state.groups = owner, groups
    try:
        yield
    finally:
        _state.owner = None
        _setfs(0, 0)
        _setgroups(groups)


@contextlib.contextmanager
def as_grader() -> Iterator[None]:
    """Inside ``as_scripts``: the grader's own powers back for the block (its own files, a
    program it starts); elsewhere nothing changes."""
    owner = getattr(_state, "owner", None)
    if owner is None:
        yield
        return
    _setfs(0, 0)
    _setgroups(_state.groups)
    _state.owner = None
    try:
        yield
    finally:
        _setgroups([])
        _setfs(owner.uid, owner.gid)
        _state.owner = owner
