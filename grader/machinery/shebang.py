"""How a student's script file is started: by bash, unless its first line names an interpreter
that is not a shell (``#!/usr/bin/env python3``, ``#!/usr/bin/perl -w``).

A script written in Python with such a line, run as ``./lag.sh`` where it was written, works
there: it is started the same way here, through the interpreter it names (the kernel's way,
without needing the file's exec bit). A script naming a shell, or naming nothing, is run by
bash as before (bash also runs what was written for sh), with the options the line gives it
(``#!/bin/bash -e``: red team 19). One naming Python (``python``, ``python3``, ``python3.11``,
directly or through env) runs on the Python the scripts have (``python``: the one consume.py
runs on), which is there in a box as on the host, whatever a pod calls ``python``. The first
line is read without following a link: the caller reads it with the scripts' own powers, and a
link is left to bash, which follows it as the scripts' identity.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

SHELL = "bash"
SHELLS = frozenset({"sh", "bash", "dash", "ash", "ksh", "mksh", "zsh", "posh", "busybox"})
PYTHON = re.compile(r"python(\d+(\.\d+)?)?")
READ_MOST = 256  # the kernel reads no more of a first line either (BINPRM_BUF_SIZE)


def _first_line(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = os.read(fd, READ_MOST)
    except OSError:
        return None
    finally:
        os.close(fd)
    return head.split(b"\n", 1)[0] if head.startswith(b"#!") else None


def _program(interpreter: str, argument: str | None) -> tuple[str, list[str]]:
    """The program a first line runs and the options the line gives it: ``env``'s first
    operand and what follows it when it is env (as ``env -S`` splits them)."""
    if os.path.basename(interpreter) != "env" or argument is None:
        return os.path.basename(interpreter), [argument] if argument else []
    words = argument.split()
    if words and words[0] == "-S":
        words = words[1:]
    at = next((i for i, w in enumerate(words) if not w.startswith("-") and "=" not in w), None)
    if at is None:
        return "env", [argument]
    return os.path.basename(words[at]), words[at + 1 :]


def command(path: Path, python: str) -> list[str]:
    """The command line that starts the script at ``path`` (its arguments follow); ``python``:
    the interpreter scripts written in Python run on."""
    line = _first_line(path)
    if line is None:
        return [SHELL, str(path)]
    try:
        text = line[2:].decode("utf-8").strip()  # a CRLF line end too: its \r goes
    except UnicodeDecodeError:
        return [SHELL, str(path)]
    parts = text.split(None, 1)
    if not parts:
        return [SHELL, str(path)]
    interpreter = parts[0]
    argument = parts[1].strip() if len(parts) > 1 else None  # the kernel passes the rest as one
    program, options = _program(interpreter, argument)
    if program in SHELLS:
        return [SHELL, *options, str(path)]
    if PYTHON.fullmatch(program):
        return [python, *options, str(path)]
    return [interpreter, *([argument] if argument else []), str(path)]
