"""Run-time instrumentation shared by both peers: every CoAP datagram recorded, aiocoap's randomness seeded.

aiocoap draws its first message ID and token from the ``random`` module and the retransmission timeouts
from ``random.uniform`` (aiocoap messagemanager.py, tokenmanager.py); each gets its own named, seeded
stream so that a scenario replays the same message IDs and tokens on every run. The wrappers below only
record and then call the original.
"""

from __future__ import annotations

import base64
import itertools
import socket
import time
import types

import aiocoap.messagemanager
import aiocoap.tokenmanager
import zeroconf
import zeroconf._core
from aiocoap.transports.udp6 import MessageInterfaceUDP6

from hapcapture.journal import Journal
from hapcapture.seeded import SeededRandomness

from .coapwire import decode


def endpoint(host: str, port: int) -> str:
    return f"[{host}]:{port}"


def seed_aiocoap(randomness: SeededRandomness) -> None:
    message_ids = randomness.stream("coap-message-id")
    timeouts = randomness.stream("coap-retransmission-timeout")
    aiocoap.messagemanager.random = types.SimpleNamespace(randint=message_ids.randint, uniform=timeouts.uniform)
    aiocoap.tokenmanager.random = types.SimpleNamespace(randint=randomness.stream("coap-token").randint)


# Called after every datagram sent, with the transport and the aiocoap message (scenario hooks use this).
SEND_LISTENERS: list = []


def record_coap_datagrams(journal: Journal, role: str, local_address: str) -> None:
    """Journal every datagram aiocoap's UDP transport sends, as encoded, with where it went.

    A message is a retransmission when the same sender socket already sent a message of that type and
    message ID to that peer: aiocoap's timeout retransmissions of a CON, the stored response it sends
    again for a duplicate CON (RFC 7252 §4.5), and any copy a scenario hook sends on purpose.
    """
    original_send = MessageInterfaceUDP6.send
    sent: set[tuple[int, str, str, int]] = set()

    def send(self: MessageInterfaceUDP6, message) -> None:
        data = message.encode()
        local_port = self.transport.get_extra_info("socket").getsockname()[1]
        remote = endpoint(message.remote.sockaddr[0], message.remote.sockaddr[1])
        wire = decode(data)
        key = (local_port, remote, wire.type, wire.message_id)
        retransmission = key in sent
        sent.add(key)
        journal.write(
            "coap",
            sender=role,
            source=endpoint(local_address, local_port),
            destination=remote,
            data=base64.b64encode(data).decode("ascii"),
            retransmission=retransmission,
        )
        original_send(self, message)
        for listener in SEND_LISTENERS:
            listener(self, message)

    MessageInterfaceUDP6.send = send


def number_controller_ports(first_port: int) -> None:
    """Bind each aiocoap socket of the controller to the next port of a counter instead of an ephemeral one.

    aiohomekit creates a server context bound to ``("::", 0)`` per pair-verify and a client context per
    pair-setup and identify (aiohomekit controller/coap/connection.py); fixed ports make the captures
    repeat from run to run, as the IP corpus's controller source ports do.
    """
    ports = itertools.count(first_port)
    create_server = MessageInterfaceUDP6.create_server_transport_endpoint.__func__

    async def create_server_transport_endpoint(cls, ctx, log, loop, bind, multicast):
        if bind is not None and bind[1] == 0:
            bind = (bind[0], next(ports))
        return await create_server(cls, ctx, log, loop, bind, multicast)

    async def create_client_transport_endpoint(cls, ctx, log, loop):
        sock = socket.socket(family=socket.AF_INET6, type=socket.SOCK_DGRAM)
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(("::", next(ports)))
        return await cls._create_transport_endpoint(sock, ctx, log, loop)

    MessageInterfaceUDP6.create_server_transport_endpoint = classmethod(create_server_transport_endpoint)
    MessageInterfaceUDP6.create_client_transport_endpoint = classmethod(create_client_transport_endpoint)


def txt_properties(wire_text: bytes) -> dict[str, str]:
    """The key=value strings of a TXT record's RDATA (RFC 6763 §6), in wire order."""
    properties: dict[str, str] = {}
    offset = 0
    while offset < len(wire_text):
        length = wire_text[offset]
        entry = wire_text[offset + 1 : offset + 1 + length].decode("utf-8")
        offset += 1 + length
        key, _, value = entry.partition("=")
        properties.setdefault(key, value)
    return properties


def record_advertisements(journal: Journal, service_suffix: str, own_address: str) -> None:
    """Journal every mDNS response this process sends on the link that carries a TXT record of ``service_suffix``.

    zeroconf answers its own unicast (QU) queries at start-up by unicast to itself; those go over loopback,
    never on the link, and are not listed.
    """
    original_send = zeroconf._core.async_send_with_transport

    def send(log_debug, transport, packet, packet_num, out, addr, port, v6_flow_scope=()):
        sent_at = time.time()
        original_send(log_debug, transport, packet, packet_num, out, addr, port, v6_flow_scope)
        if addr is not None and (addr == own_address or not zeroconf._core.can_send_to(transport.is_ipv6, addr)):
            return
        message = zeroconf.DNSIncoming(packet)
        if not message.is_response():
            return
        records = message.answers()
        ports = {record.name: record.port for record in records if isinstance(record, zeroconf.DNSService)}
        for record in records:
            if isinstance(record, zeroconf.DNSText) and record.name.endswith(service_suffix) and record.ttl > 0:
                journal.write(
                    "advertisement",
                    sent_at=sent_at,
                    instance=record.name[: -len(service_suffix)],
                    port=ports.get(record.name),
                    txt=txt_properties(record.text),
                )

    # Zeroconf.async_send looks this function up in its module for every packet it sends.
    zeroconf._core.async_send_with_transport = send
