"""Live figures of claim.in and claim.dead in every vhost of this grading run, watched from
inside the broker.

One evaluation per grading run (machinery/erlang.py: a bare Erlang VM joined to the node, or
``rabbitmqctl eval``) loads a small module into the node (compiled there once per node and
version of it, see _MODULE_BODY) and runs its loop, which looks at the run's queues every 20 ms
and prints a line whenever anything changes (ready, unacked, consumers and their settings),
then a line that ends that look, and a heartbeat every 100 ms; a reader thread takes the lines
as they come, and a look counts once its last line is read (Lines). So one Erlang VM
boot serves every question every scenario asks; every change is seen, not a sample; and a
question about "now" is answered by the first look the loop took after now, so a watch slowed
down by load is waited for, never taken at its word about a moment it had not seen.

The management HTTP API is never used for these figures: its statistics lag by seconds. Lines
are stamped with the wall clock (the node runs on this machine). If the grader dies, its VM
leaves the node, which ends the loop.

The same evaluation guards the node, shared by a class, against a scene's scripts (when it runs
from a bare VM: see Watch): a process of its own weighs, every GUARD_MS, what each of the run's
vhosts holds (its queues', connections' and channels' processes, a quorum queue's log, a
stream's files, the exchanges and bindings it declared) and takes a vhost that holds more than
HELD_BOUND at once (its connections killed, the vhost deleted), after saying so ("f" line).
The node's own bounds cannot do this: max-length and max-length-bytes count ready messages
only, and a consumer that never acks with prefetch 0 takes every message out of their reach,
up to the node's memory alarm, which blocks every publisher of every grade.
"""

from __future__ import annotations

import base64
import bisect
import contextlib
import dataclasses
import hashlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.machinery import children
from grader.machinery.broker import Broker, BrokerUnavailable
from grader.machinery.erlang import Command, eval_commands
from grader.mq import amqp

LIMIT = 600.0  # the loop inside the broker ends by itself after this long, whatever happens
UP_WAIT = 60.0  # for the watch's first line: a VM boot on a machine under load
EVERY_MS, BEAT_MS = 20, 100
# The guard weighs every vhost of the run (its queues, connections, channels, exchanges and
# bindings) each GUARD_MS: at the loop's 20 ms it cost the node as much as the loop itself
# (bench/watch_cpu.py: one watch over 4 scenes' vhosts 58 ms of node CPU a second, 23 ms at
# 200 ms). A script needs far longer than 200 ms to pile up HELD_BOUND past the bound.
GUARD_MS = 200
# The guard's bounds. What a scene's vhost may hold at once: a scene publishes a few dozen
# claims of under 4 KiB, a correct consumer holds its prefetch of them, and a classic queue
# process weighs some 10-100 KiB. Above HELD_ALARMING of the node's memory limit (the
# watermark, 512 MiB, at which the node blocks every publisher), a vhost of this run that holds
# more than HELD_SMALL is taken too: what other grades' scripts set going is theirs to take.
HELD_BOUND = 16 << 20
HELD_SMALL = 4 << 20
HELD_ALARMING = 0.5
# What a word of a binding key weighs (a topic trie's records and their teardown): a scene's
# two bindings have 3 words; 512 words reach HELD_BOUND.
TRIE_WORD = 32 << 10

# Lines: "s SEQ STAMP VHOST QUEUE R U C SETTINGS" (a queue changed; "-" for R when it is gone,
#                                                 "?" when the queue did not answer the look)
#        "h SEQ STAMP"                            (a look that changed nothing)
#        "g STAMP"                                (the guard began a look)
#        "f STAMP VHOST HELD"                     (that look took VHOST, which held HELD bytes)
# SEQ numbers the looks; every line of one look carries its SEQ and STAMP, the wall clock when
# the look began: what a look reports was in the queues at or after its STAMP.
# The loop and the guard, compiled into a module of the node's (interpreted by erl_eval, as
# they were, every look cost the node several times the CPU). Its name carries a digest of its
# text: the first grader on a node compiles and loads it, later ones (a class shares the node)
# find it loaded; a grader of another version loads its own beside it.
_MODULE_BODY = r"""
-export([run/1]).

run(Config) ->
    Start = erlang:monotonic_time(millisecond),
    C = Config#{start => Start, caller => node(group_leader()),
                alarming => vm_memory_monitor:get_memory_limit() * maps:get(alarming, Config)},
    Watching = self(),
    Output = group_leader(),
    maps:get(guarded, C) andalso is_pid(spawn(fun() ->
        process_flag(priority, high),
        [erlang:monitor(process, P) || P <- [Watching, Output]],
        guard(C, [])
    end)),
    loop(C, #{}, 1, Start).

over(#{start := Start, limit := Limit, caller := Caller}) ->
    Now = erlang:monotonic_time(millisecond),
    Now - Start > Limit orelse not (lists:member(Caller, nodes(hidden)) orelse lists:member(Caller, nodes())).

ours_vhost(V, Prefix) ->
    byte_size(V) >= byte_size(Prefix) andalso binary:part(V, 0, byte_size(Prefix)) =:= Prefix.

mine(#{prefix := Prefix}) ->
    [{V, N, Q} || Q <- rabbit_amqqueue:list(), {resource, V, queue, N} <- [amqqueue:get_name(Q)],
                  ours_vhost(V, Prefix)].

watched(C = #{names := Names}) ->
    [Each || Each = {_, N, _} <- mine(C), lists:member(N, Names)].

look(Q) ->
    try
        I = rabbit_amqqueue:info(Q, [messages_ready, messages_unacknowledged, consumers]),
        Cs = [io_lib:format("~s:~b", [element(3, E), element(4, E)]) || E <- rabbit_amqqueue:consumers(Q)],
        io_lib:format("~b ~b ~b ~s", [proplists:get_value(messages_ready, I),
            proplists:get_value(messages_unacknowledged, I), proplists:get_value(consumers, I),
            case Cs of [] -> "-"; _ -> string:join(Cs, ",") end])
    catch _:_ -> "?" end.

loop(C = #{every := Every, beat := Beat}, Prev, Seq, NextBeat) ->
    Now = erlang:monotonic_time(millisecond),
    case over(C) of
        true -> done;
        false ->
            Stamp = os:system_time(millisecond),
            State = maps:from_list([{{V, N}, lists:flatten(look(Q))} || {V, N, Q} <- watched(C)]),
            Changed = [{K, S} || {K, S} <- maps:to_list(State), maps:get(K, Prev, none) =/= S]
                ++ [{K, "-"} || K <- maps:keys(Prev), not maps:is_key(K, State), maps:get(K, Prev) =/= "-"],
            [io:format("s ~b ~b ~s ~s ~s~n", [Seq, Stamp, V, N, S]) || {{V, N}, S} <- Changed],
            Beat1 = case Changed of
                [] when Now >= NextBeat -> io:format("h ~b ~b~n", [Seq, Stamp]), Now + Beat;
                [] -> NextBeat;
                _ -> io:format("e ~b ~b~n", [Seq, Stamp]), Now + Beat
            end,
            timer:sleep(Every),
            loop(C, maps:merge(Prev, maps:from_list(Changed)), Seq + 1, Beat1)
    end.

queue_pid(Q) ->
    case amqqueue:get_pid(Q) of {Name, _} when is_atom(Name) -> whereis(Name); Pid -> Pid end.

readers(V) -> [P || T <- rabbit_connection_tracking:list(V), P <- tuple_to_list(T), is_pid(P)].

channels(R) ->
    try erlang:process_info(R, dictionary) of
        {dictionary, D} -> [Ch || {{ch_pid, Ch}, _} <- D];
        _ -> []
    catch _:_ -> [] end.

weigh(P) ->
    try erlang:process_info(P, [memory, binary]) of
        [{memory, M}, {binary, Bs}] -> {M, [{Id, S} || {Id, S, _} <- Bs]};
        _ -> {0, []}
    catch _:_ -> {0, []} end.

on_disk(Dir) ->
    case file:list_dir(Dir) of
        {ok, Files} -> lists:sum([filelib:file_size(filename:join(Dir, F)) || F <- Files]);
        _ -> 0
    end.

weigh_queue(Q) ->
    {M, Bs} = weigh(queue_pid(Q)),
    Told = try amqqueue:get_type(Q) of
        rabbit_classic_queue -> 0;
        rabbit_stream_queue ->
            {ok, Streams} = application:get_env(osiris, data_dir),
            on_disk(filename:join(Streams, maps:get(name, amqqueue:get_type_state(Q))));
        rabbit_quorum_queue ->
            {ok, {_, O}, _} = ra:local_query(amqqueue:get_pid(Q), fun rabbit_fifo:overview/1),
            lists:sum([maps:get(K, O, 0) || K <- [enqueue_message_bytes, checkout_message_bytes,
                                                  discard_message_bytes, discard_checkout_message_bytes]]);
        _ -> 0
    catch _:_ -> 0 end,
    {M + Told, Bs}.

words(K) when is_binary(K) -> length(binary:split(K, <<".">>, [global]));
words(_) -> 1.

weigh_meta(V, TrieWord) ->
    Xs = try rabbit_exchange:list(V) catch _:_ -> [] end,
    Bs = try rabbit_binding:list(V) catch _:_ -> [] end,
    Keys = lists:sum([words(element(3, B)) || B <- Bs]),
    {erlang:external_size(Xs) + erlang:external_size(Bs) + Keys * TrieWord, []}.

weighings(C = #{prefix := Prefix, trie_word := TrieWord}) ->
    Qs = [{V, fun() -> weigh_queue(Q) end} || {V, _, Q} <- mine(C)],
    Vs = lists:usort([V || {V, _} <- Qs] ++ [V || V <- rabbit_vhost:list_names(), ours_vhost(V, Prefix)]),
    Rs = [{V, R} || V <- Vs, R <- readers(V)],
    Ms = [{V, fun() -> weigh_meta(V, TrieWord) end} || V <- Vs],
    Ps = Rs ++ [{V, Ch} || {V, R} <- Rs, Ch <- channels(R)],
    Qs ++ Ms ++ [{V, fun() -> weigh(P) end} || {V, P} <- Ps].

late() -> receive {R, _, _} when is_reference(R) -> late() after 0 -> ok end.

weigh_all(Ws) ->
    late(),
    Self = self(),
    Ref = make_ref(),
    [spawn_opt(fun() -> Self ! {Ref, V, W()} end, [{priority, high}]) || {V, W} <- Ws],
    Until = erlang:monotonic_time(millisecond) + 2000,
    Got = [receive {Ref, V, W} -> {V, W}
           after max(0, Until - erlang:monotonic_time(millisecond)) -> {none, {0, []}} end || _ <- Ws],
    Binaries = fun(V) -> lists:usort(lists:append([Bs || {V1, {_, Bs}} <- Got, V1 =:= V])) end,
    [{V, lists:sum([M || {V1, {M, _}} <- Got, V1 =:= V]) + lists:sum([S || {_, S} <- Binaries(V)])}
     || V <- lists:usort([V || {V, _} <- Got])].

take(V) ->
    [exit(P, kill) || T <- rabbit_connection_tracking:list(V), P <- tuple_to_list(T), is_pid(P)],
    spawn(fun() -> rabbit_vhost:delete(V, <<"lab-grader-guard">>) end).

guard(C = #{bound := Bound, small := Small, alarming := Alarming, guard_every := Every}, Taken) ->
    case over(C) of
        true -> done;
        false ->
            Stamp = os:system_time(millisecond),
            io:format("g ~b~n", [Stamp]),
            Most = case erlang:memory(total) > Alarming of true -> Small; false -> Bound end,
            New = [{V, B} || {V, B} <- weigh_all(weighings(C)), B > Most, not lists:member(V, Taken)],
            {messages, Mail} = process_info(self(), messages),
            Still = not (over(C) orelse lists:keymember('DOWN', 1, Mail)),
            [begin io:format("f ~b ~s ~b~n", [Stamp, V, B]), take(V) end || Still, {V, B} <- New],
            receive {'DOWN', _, process, _, _} -> done
            after Every -> guard(C, [V || {V, _} <- New] ++ Taken)
            end
    end.
"""
MODULE = f"lab_grader_watch_{hashlib.sha256(_MODULE_BODY.encode()).hexdigest()[:16]}"


def _erlang_text(text: str) -> str:
    """An Erlang expression whose value is ``text`` (a string), free of quotes and backslashes
    but its own two: Debian's rabbitmqctl is a shell script that passes its arguments through
    `su -c`, where an escaped quote broke the expression apart."""
    return f'binary_to_list(base64:decode("{base64.b64encode(text.encode()).decode()}"))'


# Evaluated on the node (erl_eval): load the module when the node has not yet, then run it.
_LOADER = """
Mod = {module},
case code:is_loaded(Mod) of
    false ->
        {{ok, Tokens, _}} = erl_scan:string({source}),
        Split = fun S([], [], Forms) -> lists:reverse(Forms);
                    S([{{dot, _}} = Dot | Rest], Form, Forms) ->
                        S(Rest, [], [lists:reverse([Dot | Form]) | Forms]);
                    S([Token | Rest], Form, Forms) -> S(Rest, [Token | Form], Forms) end,
        Parsed = [begin {{ok, Form}} = erl_parse:parse_form(Form0), Form end
                  || Form0 <- Split(Tokens, [], [])],
        {{ok, Mod, Binary}} = compile:forms(Parsed, [binary]),
        code:load_binary(Mod, "lab_grader_watch.erl", Binary);
    _ -> already
end,
Mod:run(#{{prefix => <<"{prefix}">>, names => [<<"{claim}">>, <<"{dead}">>], limit => {limit_ms},
           every => {every_ms}, guard_every => {guard_ms}, beat => {beat_ms},
           bound => {bound}, small => {small}, alarming => {alarming}, trie_word => {trie_word},
           guarded => {guarded}}}).
"""


@dataclass(frozen=True)
class QueueFigures:
    """One queue at one moment."""

    ready: int
    unacked: int
    consumers: int
    settings: tuple[tuple[bool, int], ...]  # (ack_required, prefetch_count) per consumer


@dataclass(frozen=True)
class Figures:
    """claim.in and claim.dead of one vhost as one look of the watch saw them (``at``: wall
    clock, seconds); a queue that does not exist is None."""

    at: float
    claim: QueueFigures | None
    dead: QueueFigures | None
    # False while claim.in did not answer the watch's looks ("?"): ``claim`` is then the last
    # state it told, which may be older than ``at``. The same of claim.dead: ``dead_known``.
    claim_known: bool = True
    dead_known: bool = True

    @property
    def answered(self) -> bool:
        """Both queues answered the look: neither figure is older than ``at``."""
        return self.claim_known and self.dead_known

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
        """claim.in's consumers as the checks show them."""
        shown = [
            f"ack_required={a}, prefetch_count={p}" for a, p in (self.claim.settings if self.claim else ())
        ]
        return "; ".join(shown) or "없음"


def queue_figures(text: str) -> QueueFigures | None:
    words = text.split()
    if len(words) < 3 or not all(w.isdigit() for w in words[:3]):
        return None
    settings = []
    for pair in words[3].split(",") if len(words) > 3 and words[3] != "-" else ():
        ack, _, prefetch = pair.partition(":")
        settings.append((ack == "true", int(prefetch)))
    return QueueFigures(int(words[0]), int(words[1]), int(words[2]), tuple(settings))


class Lines:
    """What the watch printed, read as figures per vhost (pure: fed line by line).

    A look is taken in only once all of it is read: its changes ("s" lines, one per queue that
    changed), then the line that ends it ("e"; "h" for a look that changed nothing). The lines
    come one by one and a waiter wakes between them: a look counted at its first line showed,
    for a queue whose line was still on its way, the state before the look, stamped as the
    look's (a fresh claim delivered and held unacked read as not in claim.in: M8.2 took a
    correct consumer for one that acked before it recorded)."""

    def __init__(self) -> None:
        self.looks: list[float] = []  # the stamp of every look that printed a line, in order
        self._last_seq = 0
        self._states: dict[str, list[Figures]] = {}  # vhost -> every state, oldest first
        self._pending: list[list[str]] = []  # the "s" lines of the look being read
        self._pending_seq = 0
        self.flooded: dict[str, int] = {}  # vhost -> what it held when the guard deleted it
        self.guarded = 0.0  # when the guard's latest look began (wall clock)

    def feed(self, line: str) -> None:
        words = line.split(" ", 5)
        if words[0] in ("g", "f") and len(words) >= 2 and words[1].isdigit():  # the guard's, no look
            self.guarded = max(self.guarded, int(words[1]) / 1000)
            if words[0] == "f" and len(words) == 4 and words[3].isdigit():
                self.flooded[words[2]] = int(words[3])
            return
        if len(words) < 3 or words[0] not in ("s", "e", "h"):
            return
        if not (words[1].isdigit() and words[2].isdigit()):
            return
        seq = int(words[1])
        if self._pending and seq != self._pending_seq:  # a look whose end never came: as it is
            self._take_in(self._pending_seq, int(self._pending[0][2]))
        if words[0] == "s":
            self._pending.append(words)
            self._pending_seq = seq
            return
        self._take_in(seq, int(words[2]))

    def _take_in(self, seq: int, stamp: int) -> None:
        """The look ``seq`` is read whole: its changes become states, its stamp a look."""
        at = stamp / 1000
        pending, self._pending = self._pending, []
        for words in pending:
            if len(words) >= 5:
                self._change(at, words[3], words[4], words[5] if len(words) > 5 else "-")
        if seq != self._last_seq:
            self.looks.append(at)
            self._last_seq = seq

    def _change(self, at: float, vhost: str, queue: str, rest: str) -> None:
        states = self._states.setdefault(vhost, [])
        before = states[-1] if states else Figures(at, None, None)
        if rest.strip() == "?":  # a busy queue process did not answer: nothing learnt
            if queue == amqp.CLAIM_QUEUE and before.claim_known:
                new = dataclasses.replace(before, at=at, claim_known=False)  # said from now on
            elif queue == amqp.DEAD_QUEUE and before.dead_known:
                new = dataclasses.replace(before, at=at, dead_known=False)
            else:
                return
        elif queue == amqp.CLAIM_QUEUE:
            new = Figures(at, queue_figures(rest), before.dead, dead_known=before.dead_known)
        elif queue == amqp.DEAD_QUEUE:
            new = Figures(at, before.claim, queue_figures(rest), before.claim_known)
        else:
            return
        if states and states[-1].at == at:
            states[-1] = new  # the same look: one state
        else:
            states.append(new)

    def history(self, vhost: str) -> list[Figures]:
        return list(self._states.get(vhost, []))

    def seen_from(self, vhost: str, moment: float) -> list[Figures]:
        """The states of ``vhost`` from the first look at or after ``moment`` on: that look's
        state (a change then, or the state still in force), then every later change. Empty
        while no look at or after ``moment`` has been printed."""
        first = bisect.bisect_left(self.looks, moment)
        if first == len(self.looks):
            return []
        look = self.looks[first]
        states = self._states.get(vhost, [])
        in_force = [s for s in states if s.at <= look][-1:] or [Figures(look, None, None)]
        return [dataclasses.replace(in_force[0], at=look), *[s for s in states if s.at > look]]


class Watch:
    """The live figures of every claim.in and claim.dead of this grading run's vhosts."""

    def __init__(self, broker: Broker, prefix: str, cwd: Path, home: Path) -> None:
        """``cwd``: where its process runs; ``home``: a directory of the grader's own for the
        node's cookie (see machinery/erlang.py)."""
        if broker.ctl is None:
            raise BrokerUnavailable(f"{broker.label}: rabbitmqctl is needed to read live unacked figures")

        def script(guarded: bool) -> str:
            return _LOADER.format(
                module=MODULE,
                source=_erlang_text(f"-module({MODULE}).\n{_MODULE_BODY}"),
                prefix=prefix,
                claim=amqp.CLAIM_QUEUE,
                dead=amqp.DEAD_QUEUE,
                limit_ms=int(LIMIT * 1000),
                every_ms=EVERY_MS,
                guard_ms=GUARD_MS,
                beat_ms=BEAT_MS,
                bound=HELD_BOUND,
                small=HELD_SMALL,
                alarming=HELD_ALARMING,
                trie_word=TRIE_WORD,
                guarded=str(guarded).lower(),
            )

        # The guard runs from a bare VM only: there the node sees the VM go when the watch
        # ends, and the guard with it. Evaluated through rabbitmqctl, the loop outlived its
        # watch (until LIMIT), and a guard would take later vhosts of the same prefix.
        ways = eval_commands(broker.node, broker.ctl_env, script(True), home)
        guarded = [c for c in ways if c.what == "erl"]
        ways = eval_commands(broker.node, broker.ctl_env, script(False), home)
        unguarded = [c for c in ways if c.what != "erl"]
        self._lines = Lines()
        self._changed = threading.Condition()
        self._errors: list[str] = []
        failed = []
        for command in guarded + unguarded:
            if self._started(command, cwd):
                self.how = command.what
                self.guarding = command in guarded
                return
            failed.append(f"{command.what}: {self.tail()}")
            self.close()
        raise BrokerUnavailable(f"the live watch of the broker did not start: {'; '.join(failed)}")

    def _started(self, command: Command, cwd: Path) -> bool:
        """Start the loop with ``command``; True once its first look is read."""
        self._errors = []
        self._process = subprocess.Popen(
            command.argv,
            cwd=cwd,
            env=command.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, args=(self._process,), daemon=True, name="mq-watch").start()
        threading.Thread(
            target=self._read_errors, args=(self._process,), daemon=True, name="mq-watch-stderr"
        ).start()
        with self._changed:
            self._changed.wait_for(lambda: self._lines.looks or not self.running(), timeout=UP_WAIT)
            return bool(self._lines.looks)

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with self._changed:
                self._lines.feed(line.rstrip("\n"))
                self._changed.notify_all()
        # Its output ended: once it has ended too (not reaped: close() signals its group, which
        # its number names until then), whoever waits sees it stopped.
        with contextlib.suppress(ChildProcessError):
            os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
        with self._changed:
            self._changed.notify_all()

    def _read_errors(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self._errors = [*self._errors[-20:], line.rstrip("\n")]

    def running(self) -> bool:
        return not children.ended(self._process)

    def tail(self) -> str:
        return "\n".join(self._errors[-8:]) or "it ended"

    def vhost(self, name: str) -> VhostWatch:
        return VhostWatch(self, name)

    def history(self, vhost: str) -> list[Figures]:
        with self._changed:
            return self._lines.history(vhost)

    def since(self, vhost: str, moment: float) -> list[Figures]:
        with self._changed:
            return self._lines.seen_from(vhost, moment)

    def flooded(self, vhost: str) -> int | None:
        """What ``vhost`` held when the guard deleted it, up to now (None: it never held too
        much). Answered once a look of the guard's that began after now is read, so a scene
        that saw its connections go learns why (a watch that stopped says what it knew)."""
        return self.taken().get(vhost)

    def taken(self) -> dict[str, int]:
        """Every vhost of this run the guard has deleted up to now, with what it held."""
        since, hard = time.time(), time.monotonic() + UP_WAIT
        with self._changed:
            while self.guarding and self._lines.guarded < since and time.monotonic() < hard:
                if not self.running():
                    break
                self._changed.wait(timeout=0.1)
            return dict(self._lines.flooded)

    def when(
        self,
        vhost: str,
        condition: Callable[[Figures], bool],
        timeout: float,
        until: Callable[[], bool] = lambda: False,
    ) -> Figures | None:
        """The first state of ``vhost`` from now on for which ``condition`` holds; None when
        ``timeout`` passes first (by the watch's clock: a look stamped later than now +
        ``timeout``; a watch far behind counts as stopped after UP_WAIT more), when ``until``
        holds first, when the guard has deleted the vhost, or when the watch has stopped."""
        since = time.time()
        hard = time.monotonic() + timeout + UP_WAIT
        with self._changed:
            while True:
                for state in self._lines.seen_from(vhost, since):
                    if state.at > since + timeout:
                        return None
                    if condition(state):
                        return state
                if self._lines.looks and self._lines.looks[-1] > since + timeout:
                    return None
                if vhost in self._lines.flooded or until() or not self.running() or time.monotonic() > hard:
                    return None
                self._changed.wait(timeout=0.1)  # `until` is looked at now and then

    def close(self) -> None:
        children.signal_group(self._process, signal.SIGKILL)
        self._process.wait()


@dataclass(frozen=True)
class VhostWatch:
    """The watch as one scenario sees it: its own vhost only."""

    watch: Watch
    vhost: str

    def history(self) -> list[Figures]:
        """Every state seen so far, oldest first."""
        return self.watch.history(self.vhost)

    def since(self, moment: float) -> list[Figures]:
        """The state at the first look at or after ``moment`` (wall clock), then every change."""
        return self.watch.since(self.vhost, moment)

    def now(self) -> Figures:
        """The state at this moment, as the first look after now saw it."""
        state = self.when(lambda figures: True, timeout=UP_WAIT)
        if state is None:
            raise BrokerUnavailable(f"the live watch stopped: {self.watch.tail()}")
        return state

    def when(
        self,
        condition: Callable[[Figures], bool],
        timeout: float,
        until: Callable[[], bool] = lambda: False,
    ) -> Figures | None:
        return self.watch.when(self.vhost, condition, timeout, until)
