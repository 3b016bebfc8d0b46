"""Recorders shared by the instrumentations of every library: mDNS responses a zeroconf sends, an X25519 key
that logs itself. Nothing here imports a HAP library, so the homekit_python peers (which run in a venv of
their own, with the zeroconf homekit_python needs) use it as the HAP-python and aiohomekit peers do.
"""

from __future__ import annotations

import time
from typing import Any

import zeroconf
import zeroconf._core
from cryptography.hazmat.primitives import serialization

from .journal import Journal

RAW = serialization.Encoding.Raw
RAW_PUBLIC = serialization.PublicFormat.Raw
HAP_SERVICE_SUFFIX = "._hap._tcp.local."


def txt_properties(wire_text: bytes) -> dict[str, str]:
    """The key=value strings of a TXT record's RDATA (RFC 6763 §6)."""
    properties: dict[str, str] = {}
    offset = 0
    while offset < len(wire_text):
        length = wire_text[offset]
        entry = wire_text[offset + 1 : offset + 1 + length].decode("utf-8")
        offset += 1 + length
        key, _, value = entry.partition("=")
        properties.setdefault(key, value)
    return properties


def answers(message: Any) -> list:
    # zeroconf 0.33 and later give the answers by a method; 0.32 (homekit_python's) as a list attribute.
    return message.answers() if callable(message.answers) else message.answers


def record_response(journal: Journal, packet: bytes, unicast: bool, sent_at: float) -> None:
    """Journal ``packet`` as an advertisement if it is a response carrying a ``_hap._tcp`` TXT record (TTL > 0)."""
    message = zeroconf.DNSIncoming(packet)
    if not message.is_response():
        return
    records = answers(message)
    ports = {record.name: record.port for record in records if isinstance(record, zeroconf.DNSService)}
    for record in records:
        if isinstance(record, zeroconf.DNSText) and record.name.endswith(HAP_SERVICE_SUFFIX) and record.ttl > 0:
            journal.write(
                "advertisement",
                sent_at=sent_at,
                instance=record.name[: -len(HAP_SERVICE_SUFFIX)],
                port=ports.get(record.name),
                txt=txt_properties(record.text),
                unicast=unicast,
            )


def record_advertisements(journal: Journal) -> None:
    """Record every mDNS response that carries the accessory's ``_hap._tcp`` TXT record, as it goes to the socket."""
    if hasattr(zeroconf._core, "async_send_with_transport"):
        original_send = zeroconf._core.async_send_with_transport

        def send(log_debug, transport, packet, packet_num, out, addr, port, v6_flow_scope=()):
            sent_at = time.time()
            original_send(log_debug, transport, packet, packet_num, out, addr, port, v6_flow_scope)
            record_response(journal, packet, addr is not None, sent_at)

        # Zeroconf.async_send looks this function up in its module for every packet it sends.
        zeroconf._core.async_send_with_transport = send
        return

    # zeroconf 0.32: Zeroconf.async_send writes each of out.packets() to its one sender (one interface).
    original_async_send = zeroconf.Zeroconf.async_send

    def async_send(self, out, addr=None, port=zeroconf._core._MDNS_PORT, v6_flow_scope=()):
        sent_at = time.time()
        original_async_send(self, out, addr, port, v6_flow_scope)
        for packet in out.packets():  # finished by now: the same packets again
            record_response(journal, packet, addr is not None, sent_at)

    zeroconf.Zeroconf.async_send = async_send


class RecordingEphemeralKey:
    """A controller's X25519 private key that logs itself and every shared secret computed with it."""

    def __init__(self, key, journal: Journal, shared_secrets: dict[bytes, bytes]) -> None:
        self._key = key
        self._journal = journal
        self._shared_secrets = shared_secrets
        self.public_bytes = key.public_key().public_bytes(encoding=RAW, format=RAW_PUBLIC)
        self.session = self.public_bytes.hex()
        journal.key("CONTROLLER_EPHEMERAL_SECRET", self.session, key.private_bytes_raw(), self.session)

    def public_key(self):
        return self._key.public_key()

    def exchange(self, peer_public_key) -> bytes:
        shared = self._key.exchange(peer_public_key)
        self._shared_secrets[shared] = self.public_bytes
        self._journal.key("PAIR_VERIFY_SHARED_SECRET", self.session, shared, self.session)
        return shared
