"""A CoAP-aware lossy relay: hapcapture's Ethernet relay, impairing only HAP's CoAP datagrams.

It bridges the two veth ports like ``hapcapture.relay`` (whose forwarding it reuses unchanged) but decides
only for IPv6/UDP frames to or from the CoAP port: each such datagram is dropped or duplicated with the
seeded probabilities, and never impaired twice (a datagram's retransmission, identical by type and message
ID, always passes), so that every exchange completes within aiohomekit's timeouts. Everything else — mDNS,
neighbour discovery, MLD — passes untouched. Every decision is journalled with the datagram so that the
truth can say which message the relay dropped.

Usage (inside the relay namespace)::

    python -m hapcoap.relay --ports toctl toacc --seed 7 --drop 0.25 --duplicate 0.05 --log relay.jsonl \\
        --stats stats.json --ready relay.ready
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import struct
import time
from pathlib import Path

from hapcapture.journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY
from hapcapture.relay import Impairment, Relay

ETHERTYPE_IPV6 = 0x86DD
IPPROTO_UDP = 17
ETHERNET_HEADER, IPV6_HEADER, UDP_HEADER = 14, 40, 8


def coap_datagram(frame: bytes, port: int) -> bytes | None:
    """The UDP payload of an IPv6/UDP frame to or from ``port`` (no extension headers), else ``None``."""
    if len(frame) < ETHERNET_HEADER + IPV6_HEADER + UDP_HEADER:
        return None
    (ethertype,) = struct.unpack_from("!H", frame, 12)
    if ethertype != ETHERTYPE_IPV6 or frame[ETHERNET_HEADER + 6] != IPPROTO_UDP:
        return None
    udp = ETHERNET_HEADER + IPV6_HEADER
    source, destination, length = struct.unpack_from("!HHH", frame, udp)
    if port not in (source, destination) or length < UDP_HEADER:
        return None
    return frame[udp + UDP_HEADER : udp + length]


class CoapRelay(Relay):
    def __init__(self, ports: tuple[str, str], impairment: Impairment, seed: int, coap_port: int, log: Path) -> None:
        super().__init__(ports, impairment, seed)
        self.coap_port = coap_port
        self.direction = {self.sockets[1]: CONTROLLER_TO_ACCESSORY, self.sockets[0]: ACCESSORY_TO_CONTROLLER}
        self.impaired: set[tuple[str, int, int]] = set()
        self.log = log.open("a", encoding="utf-8")

    def _handle(self, frame: bytes, out: socket.socket) -> None:
        datagram = coap_datagram(frame, self.coap_port)
        if datagram is None or len(datagram) < 4:
            self._send(out, frame)
            return
        direction = self.direction[out]
        key = (direction, datagram[0] & 0x30, int.from_bytes(datagram[2:4], "big"))
        decision = "forward"
        if key not in self.impaired:
            draw = self.random.random()
            if draw < self.impairment.drop:
                decision = "drop"
            elif draw < self.impairment.drop + self.impairment.duplicate:
                decision = "duplicate"
        self.counters.received += 1
        if decision == "drop":
            self.impaired.add(key)
            self.counters.dropped += 1
        elif decision == "duplicate":
            self.impaired.add(key)
            self.counters.duplicated += 1
            self._send(out, frame)
            self._send(out, frame)
        else:
            self._send(out, frame)
        self.log.write(json.dumps({"t": time.time(), "direction": direction, "decision": decision, "data": datagram.hex()}) + "\n")
        self.log.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ports", nargs=2, required=True, help="the controller-side port, then the accessory-side one")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--drop", type=float, default=0.0)
    parser.add_argument("--duplicate", type=float, default=0.0)
    parser.add_argument("--coap-port", type=int, default=5683)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--stats", type=Path, required=True)
    parser.add_argument("--ready", type=Path, required=True)
    args = parser.parse_args()
    impairment = Impairment(args.drop, args.duplicate, 0.0, 0.0)
    relay = CoapRelay((args.ports[0], args.ports[1]), impairment, args.seed, args.coap_port, args.log)

    def stop(_signum: int, _frame: object) -> None:
        relay.running = False

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    args.ready.write_text("ready\n")
    relay.run()
    counters = relay.counters
    args.stats.write_text(json.dumps({
        "drop": args.drop, "duplicate": args.duplicate, "coap_datagrams": counters.received,
        "dropped": counters.dropped, "duplicated": counters.duplicated,
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
