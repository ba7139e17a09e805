"""Listeners inside a box's network namespace that carry each connection to the same port on
the machine's loopback: how scripts of a box that has a network of its own reach the broker and
the claim partner of their scene, and nothing else.

A box made with ``--unshare-net`` has only a loopback of its own. A thread of the grader joins
its namespace (setns), listens there on each port to carry, and leaves; every connection a
script opens to one of them is carried by the grader to 127.0.0.1 of the machine, at most
``most`` at once (one more is reset at once: a script cannot take the node's connections, nor a
classmate's, in a batch on a shared node). A port nobody listens on outside is refused inside
too: the inner connection is reset, and a port not carried at all refuses as any closed port.
A port may also be read as it is carried (``taps``: the broker's, by amqptap.py), each piece
before it is passed on. And a box's connections to one port beyond its first FREE may count
against a budget all the boxes of a run share (``budget``: the broker's, RUN_BROKER_MOST in
sandbox.py): a box's own bound times the boxes of one grade (a dozen and more at once) once held
more connections than the node a class shares takes, and the classmates' grades waited (red
team 31); the FREE ones let every scene reach the broker whatever another scene holds.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import socket
import struct
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from grader.machinery.amqptap import AmqpLog, Cut

CLONE_NEWNET = 0x40000000
CHUNK = 1 << 16
CONNECT_WAIT = 10.0  # for the machine's side of a carried connection (a loaded node accepts late)
FREE = 2  # connections to a budget's port each box has beyond the budget (a scene needs one or two)
_libc = ctypes.CDLL(None, use_errno=True)


class RelayFailed(OSError):
    """The listeners could not be made in the box's namespace: a harness fault."""


def _listeners_in(netns: Path, ports: Sequence[int]) -> list[socket.socket]:
    """Listening sockets on ``ports`` (any address: the namespace has its loopback only) inside
    the namespace ``netns``, made by a thread that joins it (a socket stays in the namespace it
    was made in) and ends there."""
    made: list[socket.socket] = []
    failure: list[BaseException] = []

    def inside() -> None:
        try:
            fd = os.open(netns, os.O_RDONLY | os.O_CLOEXEC)
            try:
                if _libc.setns(fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns({netns})")
            finally:
                os.close(fd)
            # Any address, not 127.0.0.1: bwrap's child may not have its loopback up yet
            # (binding 127.0.0.1 then fails: seen in CI); the namespace has no other interface.
            for port in ports:
                made.append(socket.create_server(("0.0.0.0", port), backlog=128))
        except BaseException as exc:  # reported by the caller's thread
            failure.append(exc)

    # The thread ends inside the namespace: it is never used again.
    joined = threading.Thread(target=inside, name="relay-listen", daemon=True)
    joined.start()
    joined.join()
    if failure:
        for each in made:
            each.close()
        raise RelayFailed(f"no listener in the box's network: {failure[0]}") from failure[0]
    return made


def _reset(sock: socket.socket) -> None:
    """Close ``sock`` at once with a reset (no lingering half-closed connection)."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


class Budget:
    """Connections all the relays given it may carry at once (to the ports each counts), ``most``."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._lock = threading.Lock()
        self.taken = 0

    def take(self) -> bool:
        with self._lock:
            if self.taken >= self.most:
                return False
            self.taken += 1
            return True

    def give(self) -> None:
        with self._lock:
            self.taken -= 1


class Relay:
    """Carries connections made to 127.0.0.1:``ports`` inside ``netns`` to the same ports of
    the machine's loopback, ``most`` at once, and those to ``budget``'s port as far as the
    budget goes (more are reset); the connections to a port of ``taps`` are read into its log as they
    are carried."""

    def __init__(
        self,
        netns: Path,
        ports: Sequence[int],
        most: int,
        taps: Mapping[int, AmqpLog] | None = None,
        budget: tuple[Budget, int] | None = None,
    ) -> None:
        self.most = most
        self._budget = budget  # and the port whose connections count against it
        self._taps = dict(taps or {})
        self._lock = threading.Lock()
        self._carried = 0  # connections being carried now
        self._budgeted = 0  # ... of them to the budget's port
        self._sockets: set[socket.socket] = set()  # both ends of each, to cut on close
        self._closed = False
        self._listeners = _listeners_in(netns, sorted(set(ports)))
        for listener in self._listeners:
            port = listener.getsockname()[1]
            threading.Thread(target=self._accept, args=(listener, port), name="relay", daemon=True).start()

    def _accept(self, listener: socket.socket, port: int) -> None:
        while True:
            try:
                inner, _ = listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                charged = self._charged(port)
                taken = not self._closed and self._carried < self.most and (not charged or self._spend())
                if taken:
                    self._carried += 1
                    self._budgeted += port == self._budget_port
                    self._sockets.add(inner)
            if taken:
                threading.Thread(
                    target=self._carry, args=(inner, port, charged), name="relay-carry", daemon=True
                ).start()
            else:
                _reset(inner)

    @property
    def _budget_port(self) -> int | None:
        return None if self._budget is None else self._budget[1]

    def _charged(self, port: int) -> bool:
        """A new connection to ``port`` counts against the run's budget: one to its port beyond
        the FREE this box always has (a scene's own scripts reach the broker whatever another
        scene of the grade holds). Called with the lock held."""
        return port == self._budget_port and self._budgeted >= FREE

    def _spend(self) -> bool:
        assert self._budget is not None
        return self._budget[0].take()

    def _carry(self, inner: socket.socket, port: int, charged: bool) -> None:
        outer: socket.socket | None = None
        carried = False
        try:
            outer = socket.create_connection(("127.0.0.1", port), timeout=CONNECT_WAIT)
            outer.settimeout(None)
            with self._lock:
                self._sockets.add(outer)
                cut = self._closed
            if not cut:
                tap = self._taps.get(port)
                read = tap.connection() if tap is not None else None
                back = threading.Thread(
                    target=self._pump,
                    args=(outer, inner, read.server if read else None),
                    name="relay-back",
                    daemon=True,
                )
                back.start()
                try:
                    self._pump(inner, outer, read.client if read else None)
                    back.join()
                finally:
                    if read is not None:
                        read.end()
                carried = True
        except OSError:
            pass  # nobody listens outside: the inner connection is reset, refused inside too
        finally:
            with self._lock:
                self._carried -= 1
                self._budgeted -= port == self._budget_port
                if charged and self._budget is not None:
                    self._budget[0].give()
                self._sockets.discard(inner)
                if outer is not None:
                    self._sockets.discard(outer)
            if carried:
                inner.close()
            else:
                _reset(inner)
            if outer is not None:
                outer.close()

    @staticmethod
    def _pump(
        source: socket.socket, sink: socket.socket, read: Callable[[bytes], None] | None = None
    ) -> None:
        """Copy ``source`` to ``sink`` until ``source`` ends, then end ``sink``'s writing; a
        reset on either side cuts both. ``read`` sees each piece before ``sink`` gets it, and
        may cut both instead (amqptap.Cut): that piece is not passed on."""
        try:
            while data := source.recv(CHUNK):
                if read is not None:
                    read(data)
                sink.sendall(data)
            sink.shutdown(socket.SHUT_WR)
        except (OSError, Cut):
            for each in (source, sink):
                with contextlib.suppress(OSError):
                    each.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        """Stop listening and cut every carried connection."""
        with self._lock:
            self._closed = True
            carried = list(self._sockets)
        for listener in self._listeners:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes its accept()
            listener.close()
        for each in carried:
            with contextlib.suppress(OSError):
                each.shutdown(socket.SHUT_RDWR)
