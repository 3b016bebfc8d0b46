"""A seeded, lossy Ethernet bridge between two interfaces (the kernel here has no ``netem``).

Every frame received on one port is, by a draw from a seeded PRNG, dropped, sent twice, held back, or
forwarded at once out of the other port. A held-back frame goes out right after the next frame
forwarded the same way (which thereby overtakes it), or after ``--hold-ms`` if none comes. Unicast,
broadcast and multicast are all treated alike, so mDNS suffers too. The decision sequence depends only
on the seed and on the order frames arrive in.

Usage (inside the relay namespace)::

    python -m hapcapture.relay --ports toctl toacc --seed 7 --drop 0.03 --duplicate 0.02 \\
        --reorder 0.04 --hold-ms 40 --stats stats.json

Stops on SIGTERM or SIGINT and then writes its counters to ``--stats``.
"""

from __future__ import annotations

import argparse
import json
import random
import select
import signal
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
MAX_FRAME = 65535


@dataclass
class RelayCounters:
    received: int = 0
    forwarded: int = 0
    dropped: int = 0
    duplicated: int = 0
    overtaken: int = 0
    delayed: int = 0


@dataclass(frozen=True)
class Impairment:
    drop: float
    duplicate: float
    reorder: float
    hold_seconds: float

    def __post_init__(self) -> None:
        if min(self.drop, self.duplicate, self.reorder) < 0 or self.drop + self.duplicate + self.reorder > 1:
            raise ValueError("impairment probabilities must be non-negative and sum to at most 1")


class Relay:
    def __init__(self, ports: tuple[str, str], impairment: Impairment, seed: int) -> None:
        self.impairment = impairment
        self.random = random.Random(f"hapcapture-relay/{seed}")
        self.counters = RelayCounters()
        self.sockets = [self._open(port) for port in ports]
        self.peer = {self.sockets[0]: self.sockets[1], self.sockets[1]: self.sockets[0]}
        # Per outgoing port, the frames held back: (release deadline, frame), oldest first.
        self._held: dict[socket.socket, list[tuple[float, bytes]]] = {sock: [] for sock in self.sockets}
        self.running = True

    @staticmethod
    def _open(port: str) -> socket.socket:
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        sock.bind((port, 0))
        return sock

    def run(self) -> None:
        while self.running:
            deadlines = [held[0][0] for held in self._held.values() if held]
            timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else 0.5
            try:
                readable, _, _ = select.select(self.sockets, [], [], timeout)
            except InterruptedError:
                continue
            for sock in readable:
                frame, address = sock.recvfrom(MAX_FRAME)
                # A packet socket also sees the frames we send ourselves; forwarding those would loop.
                if address[2] == PACKET_OUTGOING:
                    continue
                self._handle(frame, self.peer[sock])
            self._release_expired()
        for out in self.sockets:
            self._release(out)

    def _handle(self, frame: bytes, out: socket.socket) -> None:
        self.counters.received += 1
        draw = self.random.random()
        drop, duplicate, reorder = self.impairment.drop, self.impairment.duplicate, self.impairment.reorder
        if draw < drop:
            self.counters.dropped += 1
        elif draw < drop + duplicate:
            self.counters.duplicated += 1
            self._forward(out, frame)
            self._send(out, frame)
        elif draw < drop + duplicate + reorder:
            self._held[out].append((time.monotonic() + self.impairment.hold_seconds, frame))
        else:
            self._forward(out, frame)

    def _forward(self, out: socket.socket, frame: bytes) -> None:
        self._send(out, frame)
        # The frames held back for this port arrive behind the one that has just overtaken them.
        self.counters.overtaken += len(self._held[out])
        self._release(out)

    def _send(self, out: socket.socket, frame: bytes) -> None:
        try:
            out.send(frame)
            self.counters.forwarded += 1
        except OSError:
            # The far end went down while the scenario was ending; nothing is waiting for this frame.
            self.counters.dropped += 1

    def _release(self, out: socket.socket) -> None:
        held, self._held[out] = self._held[out], []
        for _, frame in held:
            self._send(out, frame)

    def _release_expired(self) -> None:
        now = time.monotonic()
        for out, held in self._held.items():
            while held and held[0][0] <= now:
                _, frame = held.pop(0)
                self.counters.delayed += 1
                self._send(out, frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ports", nargs=2, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--drop", type=float, default=0.0)
    parser.add_argument("--duplicate", type=float, default=0.0)
    parser.add_argument("--reorder", type=float, default=0.0)
    parser.add_argument("--hold-ms", type=float, default=40.0)
    parser.add_argument("--stats", type=Path, required=True)
    parser.add_argument("--ready", type=Path, required=True)
    args = parser.parse_args()

    impairment = Impairment(args.drop, args.duplicate, args.reorder, args.hold_ms / 1000)
    relay = Relay((args.ports[0], args.ports[1]), impairment, args.seed)

    def stop(_signum: int, _frame: object) -> None:
        relay.running = False

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    args.ready.write_text("ready\n")
    relay.run()
    args.stats.write_text(json.dumps({"impairment": asdict(impairment), "counters": asdict(relay.counters)}, indent=2))


if __name__ == "__main__":
    main()
