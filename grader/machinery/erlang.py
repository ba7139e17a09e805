"""Erlang code evaluated on a RabbitMQ node of this machine, its output read as it comes.

``rabbitmqctl eval`` boots the Elixir CLI: about 0.6 CPU-s, and several seconds of wall time
when a grade starts all its scenarios at once, which all wait for the first answer. A bare
Erlang VM that joins the node as a hidden node and has it evaluate the code (``erl_eval`` over
rpc; the code's output comes back to our stdout, its group leader) answers in about 0.2 s.
That needs ``erl`` and the node's cookie: the file of user rabbitmq, whom the Debian server
runs as. Where either is missing, or the node refuses the cookie, ``rabbitmqctl eval`` does it.
"""

from __future__ import annotations

import itertools
import os
import pwd
import secrets
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from grader.machinery.environ import environment

SERVER_USER = "rabbitmq"
# Run by the bare VM: evaluate LAB_GRADER_EVAL on LAB_GRADER_NODE; exit 2 when the node cannot
# be reached (a wrong cookie reads as nodedown), saying why on stderr.
_EVAL_ON_NODE = (
    'N = list_to_atom(os:getenv("LAB_GRADER_NODE")), '
    '{ok, Ts, _} = erl_scan:string(os:getenv("LAB_GRADER_EVAL")), {ok, Es} = erl_parse:parse_exprs(Ts), '
    "case rpc:call(N, erl_eval, exprs, [Es, []]) of "
    '{badrpc, R} -> io:format(standard_error, "~p~n", [R]), erlang:halt(2); '
    "_ -> erlang:halt(0) end."
)
_names = itertools.count(1)


def node_name() -> str:
    """A name no earlier VM of this machine had. A pid and a counter alone repeat across runs
    (pids are reused), and a node still holding the distribution connection of a killed VM
    when a new one of the same name joins has two connections for one name: RabbitMQ 3.10's
    rabbit_mgmt_external_stats then crashes on every emit (``case_clause`` in
    rabbit_net:dist_info/4) until its supervisor gives up, and the node's statistics answer
    500 for good (seen in CI: ``lab-grader-318-1@vm``)."""
    return f"lab-grader-{os.getpid()}-{next(_names)}-{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Command:
    argv: list[str]
    env: dict[str, str]
    what: str  # for messages: "erl" or "rabbitmqctl"


def node_cookie() -> bytes | None:
    """The cookie of the nodes user rabbitmq runs on this machine, when it can be read."""
    try:
        cookie = (Path(pwd.getpwnam(SERVER_USER).pw_dir) / ".erlang.cookie").read_bytes().strip()
    except (KeyError, OSError):
        return None
    return cookie or None


def eval_commands(node: str, ctl_env: Mapping[str, str], script: str, home: Path) -> list[Command]:
    """The ways to evaluate ``script`` on ``node``, quickest first. ``home``: a directory of
    the grader's own, where the bare VM finds the cookie (it never reads or makes one in the
    real home)."""
    ways = []
    erl, cookie = shutil.which("erl"), node_cookie()
    if erl is not None and cookie is not None:
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
        cookie_file = home / ".erlang.cookie"
        cookie_file.unlink(missing_ok=True)
        fd = os.open(cookie_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
        with os.fdopen(fd, "wb") as f:
            f.write(cookie)
        name = node_name()
        argv = [erl, "-noshell", "-noinput", "-hidden", "-start_epmd", "false", "+S", "1:1", "-sname", name]
        env = environment(**ctl_env, HOME=str(home), LAB_GRADER_NODE=node, LAB_GRADER_EVAL=script)
        ways.append(Command([*argv, "-eval", _EVAL_ON_NODE], env, "erl"))
    ways.append(Command(["rabbitmqctl", "-n", node, "eval", script], environment(**ctl_env), "rabbitmqctl"))
    return ways
