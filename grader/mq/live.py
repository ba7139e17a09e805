"""Live figures of a scene's claim.in and claim.dead, watched from inside the broker.

One ``rabbitmqctl eval`` per scene runs a loop inside the node that looks at both queues every
10 ms and prints a line whenever anything changes (ready, unacked, consumers and their
settings), and a heartbeat every 50 ms; the grader reads the lines as they come. So one
Erlang VM boot (about a second of CPU, several seconds of wall time under load) serves every
question a scenario asks, the answer never depends on when that boot finishes (the watch is
up before the consumer starts, and every change is seen, not a sample), and a question about
"now" is answered by the first line stamped after now.

The management HTTP API is never used for these figures: its statistics lag by seconds.
Lines are stamped with the wall clock (the node runs on this machine: rabbitmqctl reaches it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from grader.machinery.broker import Broker, BrokerUnavailable
from grader.machinery.runner import Process
from grader.mq import amqp

Start = Callable[[Sequence[str], Path, dict[str, str]], Process]  # argv, cwd, env -> started

LIMIT = 120.0  # the loop inside the broker ends by itself after this long, whatever happens
UP_WAIT = 60.0  # for the watch's first line: a VM boot on a machine under load
POLL = 0.02  # how often the grader reads the watch's output

# The loop runs in the broker. It ends at LIMIT, or as soon as the rabbitmqctl that started it
# is gone (its node leaves nodes(hidden), or printing to it fails).
_SCRIPT = """
V = <<"{vhost}">>, Names = [<<"{claim}">>, <<"{dead}">>], Limit = {limit_ms}, Beat = 50,
Caller = node(group_leader()),
Look = fun(Name) ->
    try rabbit_amqqueue:lookup(rabbit_misc:r(V, queue, Name)) of
        {{ok, Q}} ->
            I = rabbit_amqqueue:info(Q, [messages_ready, messages_unacknowledged, consumers]),
            Cs = [{{element(3, C), element(4, C)}} || C <- rabbit_amqqueue:consumers(Q)],
            {{proplists:get_value(messages_ready, I), proplists:get_value(messages_unacknowledged, I),
             proplists:get_value(consumers, I), Cs}};
        _ -> missing
    catch _:_ -> missing end
end,
Show = fun(missing) -> "-";
          ({{R, U, N, Cs}}) -> io_lib:format("~b ~b ~b ~s", [R, U, N,
              string:join([io_lib:format("~s:~b", [A, P]) || {{A, P}} <- Cs], ",")]) end,
Start = erlang:monotonic_time(millisecond),
Loop = fun L(Prev, NextBeat) ->
    Now = erlang:monotonic_time(millisecond),
    State = [Look(N) || N <- Names],
    Gone = not (lists:member(Caller, nodes(hidden)) orelse lists:member(Caller, nodes())),
    if
        Now - Start > Limit; Gone -> done;
        true ->
            Changed = State =/= Prev,
            if Changed -> io:format("s ~b | ~s~n",
                              [os:system_time(millisecond), string:join([Show(S) || S <- State], " | ")]);
               Now >= NextBeat -> io:format("h ~b~n", [os:system_time(millisecond)]);
               true -> ok end,
            timer:sleep(10),
            L(State, if Changed; Now >= NextBeat -> Now + Beat; true -> NextBeat end)
    end
end,
Loop(none, Start).
"""


@dataclass(frozen=True)
class QueueFigures:
    """One queue at one moment: None when it does not exist."""

    ready: int
    unacked: int
    consumers: int
    settings: tuple[tuple[bool, int], ...]  # (ack_required, prefetch_count) per consumer


@dataclass(frozen=True)
class Figures:
    """claim.in and claim.dead at one moment (``at``: wall clock, seconds)."""

    at: float
    claim: QueueFigures | None
    dead: QueueFigures | None

    @property
    def ready(self) -> int:
        return self.claim.ready if self.claim else 0

    @property
    def unacked(self) -> int:
        return self.claim.unacked if self.claim else 0

    @property
    def in_claim(self) -> int:
        """Messages claim.in still holds, ready or delivered and not acked yet."""
        return self.ready + self.unacked

    @property
    def dead_ready(self) -> int:
        return self.dead.ready if self.dead else 0

    @property
    def kept(self) -> int:
        """Messages the broker still holds in either queue: none of them was acked."""
        return self.in_claim + self.dead_ready

    @property
    def consumers(self) -> int:
        return self.claim.consumers if self.claim else 0

    def settings(self) -> str:
        """claim.in's consumers as the checks show them, e.g. `ack_required=True, prefetch_count=5`."""
        shown = [
            f"ack_required={a}, prefetch_count={p}" for a, p in (self.claim.settings if self.claim else ())
        ]
        return "; ".join(shown) or "없음"


def _queue(text: str) -> QueueFigures | None:
    words = text.split()
    if words == ["-"] or len(words) < 3:
        return None
    settings = []
    for pair in words[3].split(",") if len(words) > 3 else ():
        ack, _, prefetch = pair.partition(":")
        settings.append((ack == "true", int(prefetch)))
    return QueueFigures(int(words[0]), int(words[1]), int(words[2]), tuple(settings))


def parse(output: str) -> list[tuple[bool, Figures]]:
    """Every line of the watch so far as (changed, the state it saw): a change line carries
    the new state, a heartbeat the state still in force. Only whole lines count."""
    seen: list[tuple[bool, Figures]] = []
    state: Figures | None = None
    for line in output[: output.rfind("\n") + 1].splitlines():
        kind, _, rest = line.partition(" ")
        stamp, _, queues = rest.partition(" | ")
        if kind not in ("s", "h") or not stamp.strip().isdigit():
            continue
        at = int(stamp) / 1000
        if kind == "s":
            claim, _, dead = queues.partition(" | ")
            state = Figures(at, _queue(claim), _queue(dead))
            seen.append((True, state))
        elif state is not None:
            seen.append((False, replace(state, at=at)))
    return seen


class Watch:
    """The live figures of one vhost's claim.in and claim.dead for as long as a scene lasts."""

    def __init__(self, start: Start, broker: Broker, vhost: str, cwd: Path) -> None:
        if broker.ctl is None:
            raise BrokerUnavailable(f"{broker.label}: rabbitmqctl is needed to read live unacked figures")
        script = _SCRIPT.format(
            vhost=vhost, claim=amqp.CLAIM_QUEUE, dead=amqp.DEAD_QUEUE, limit_ms=int(LIMIT * 1000)
        )
        self._process = start(["rabbitmqctl", "-n", broker.node, "eval", script], cwd, dict(broker.ctl_env))
        deadline = time.monotonic() + UP_WAIT
        while not self.history():
            if not self._process.running() or time.monotonic() > deadline:
                result = self._process.kill()
                raise BrokerUnavailable(f"the live watch of {vhost} did not start: {result.tail()}")
            time.sleep(POLL)

    def history(self) -> list[Figures]:
        """Every state seen so far, oldest first (the first one is the state at the start)."""
        return [state for changed, state in parse(self._process.stdout_so_far()) if changed]

    def since(self, moment: float) -> list[Figures]:
        """Every state the watch saw at or after ``moment`` (wall clock), changes and
        heartbeats alike, oldest first."""
        return [state for _, state in parse(self._process.stdout_so_far()) if state.at >= moment]

    def now(self) -> Figures:
        """The state at this moment, as the first line stamped after now shows it."""
        state = self.when(lambda figures: True, timeout=UP_WAIT)
        if state is None:
            raise BrokerUnavailable(f"the live watch stopped: {self._process.kill().tail()}")
        return state

    def when(
        self,
        condition: Callable[[Figures], bool],
        timeout: float,
        until: Callable[[], bool] = lambda: False,
    ) -> Figures | None:
        """The first state from now on for which ``condition`` holds; None when ``timeout``
        passes first, or ``until`` holds first. Both "from now on" and the timeout are read off
        the watch's own stamps (a line says what the broker held when the watch looked): a
        watch slowed down by load is waited for, never taken at its word about a moment it has
        not seen yet (up to UP_WAIT more, then it counts as stopped)."""
        since = time.time()
        hard = time.monotonic() + timeout + UP_WAIT
        while True:
            seen = [state for _, state in parse(self._process.stdout_so_far()) if state.at >= since]
            for state in seen:
                if state.at > since + timeout:
                    return None
                if condition(state):
                    return state
            if until() or not self._process.running() or time.monotonic() > hard:
                return None
            time.sleep(POLL)

    def close(self) -> None:
        self._process.kill()
