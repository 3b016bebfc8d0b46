"""Run-time misbehaviour for HAP-python: what the misbehaving scenarios' accessory hooks are made of.

A ``Saboteur`` wraps HAP-python from the outside, above the recording instrumentation (scenario hooks run
after it), so the ground truth still holds exactly what was written: a response the saboteur alters is
journalled as sent, and a fault below the message layer (a frame counter skipped or reused, a tag
corrupted, an oversize frame, a message left unencrypted) is journalled as a misbehaviour with its values.
Installed files are never edited.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Callable

import zeroconf
import zeroconf._core
from pyhap.accessory_driver import AccessoryDriver
from pyhap.hap_handler import HAPResponse, HAPServerHandler
from pyhap.hap_protocol import HAPServerProtocol

from .journal import Journal, endpoint_text

TAG_BYTES = 16


def wrap(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    setattr(owner, name, make(getattr(owner, name)))


@dataclass
class Request:
    """One request HAP-python has just answered, as a response hook sees it."""

    handler: HAPServerHandler
    protocol: HAPServerProtocol
    client: str
    command: str
    target: str
    body: bytes
    # The ordinal of the pair-verified session this request came on (1 for the first), 0 before pair-verify.
    session: int

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    def describe(self) -> str:
        return f"{self.command} {self.target}"


ResponseHook = Callable[[Request, HAPResponse], None]
# A write fault receives the protocol, the plaintext message and the (instrumented) write to call.
WriteFault = Callable[[HAPServerProtocol, bytes, Callable[[HAPServerProtocol, bytes], None]], None]


class Saboteur:
    """Response hooks, write faults and delayed extra messages for one HAP-python accessory process."""

    def __init__(self, driver: AccessoryDriver, journal: Journal) -> None:
        self.driver = driver
        self.journal = journal
        self.sessions = 0
        self._response_hooks: list[ResponseHook] = []
        wrap(HAPServerHandler, "dispatch", self._wrap_dispatch)
        wrap(HAPServerProtocol, "write", self._wrap_write)

    # --- hooks ---------------------------------------------------------------------------------------

    def on_response(self, hook: ResponseHook) -> None:
        """Call ``hook`` with every request and its response, before the response is written."""
        self._response_hooks.append(hook)

    def fault_next_write(self, protocol: HAPServerProtocol, fault: WriteFault) -> None:
        """Apply ``fault`` to the next message written on ``protocol`` (from a response hook: its response)."""
        protocol.hapcapture_write_fault = fault

    def write_later(self, protocol: HAPServerProtocol, delay: float, data: bytes) -> None:
        """Write one extra message on ``protocol`` after ``delay`` seconds, if it is still open."""

        def write() -> None:
            if protocol.transport is not None and not protocol.transport.is_closing():
                protocol.write(data)

        asyncio.get_running_loop().call_later(delay, write)

    def misbehaviour(self, rule: str, connection: str | None, detail: str) -> None:
        self.journal.misbehaviour(rule, connection, detail)

    def protocol_of(self, handler: HAPServerHandler) -> HAPServerProtocol:
        return self.driver.http_server.connections[handler.client_address]

    # --- wrappers ------------------------------------------------------------------------------------

    def _wrap_dispatch(self, original):
        saboteur = self

        def dispatch(handler: HAPServerHandler, request, body: bytes | None = None) -> HAPResponse:
            response = original(handler, request, body)
            protocol = saboteur.protocol_of(handler)
            seen = Request(
                handler=handler,
                protocol=protocol,
                client=endpoint_text(handler.client_address),
                command=handler.command,
                target=handler.path,
                body=body or b"",
                session=getattr(protocol, "hapcapture_session", 0),
            )
            for hook in saboteur._response_hooks:
                hook(seen, response)
            if response.shared_key:
                # Pair-verify M4: the requests after it belong to the next verified session.
                saboteur.sessions += 1
                protocol.hapcapture_session = saboteur.sessions
            return response

        return dispatch

    def _wrap_write(self, original):
        def write(protocol: HAPServerProtocol, data: bytes) -> None:
            fault = protocol.__dict__.pop("hapcapture_write_fault", None)
            if fault is None:
                original(protocol, data)
            else:
                fault(protocol, data, original)

        return write


def client_of(protocol: HAPServerProtocol) -> str:
    return protocol.hapcapture_endpoints[0]


# --- frame faults (all on an encrypted session; HAP-python's HAPCrypto counts frames in _out_count) ---


def oversize_frame(journal: Journal, what: str) -> WriteFault:
    """Send the whole message in one frame, however long (HAP allows at most 1024 plaintext bytes)."""

    def apply(protocol: HAPServerProtocol, data: bytes, write) -> None:
        crypto = protocol.hap_crypto
        counter = crypto._out_count
        crypto.MAX_BLOCK_LENGTH = len(data)  # an instance attribute shadows the class's 0x400 for this write
        try:
            write(protocol, data)
        finally:
            del crypto.MAX_BLOCK_LENGTH
        journal.misbehaviour(
            "oversize-frame",
            client_of(protocol),
            f"{what} ({len(data)} bytes) was sent in ONE encrypted frame: accessory-to-controller frame counter "
            f"{counter}, length field {len(data)} (0x{len(data):04x}) > 1024",
        )

    return apply


def counter_shift(journal: Journal, what: str, shift: int) -> WriteFault:
    """Encrypt the message's frames with counters moved by ``shift``: +1 skips a value, -1 reuses one."""

    def apply(protocol: HAPServerProtocol, data: bytes, write) -> None:
        crypto = protocol.hap_crypto
        expected = crypto._out_count
        crypto._out_count = expected + shift
        frames = -(-len(data) // crypto.MAX_BLOCK_LENGTH)
        used = ", ".join(str(expected + shift + index) for index in range(frames))
        write(protocol, data)
        if shift > 0:
            rule = "nonce-skip"
            change = f"counter value {expected} was never used (skipped)"
        else:
            rule = "nonce-reuse"
            change = f"counter value {expected + shift} was used a second time (the previous frame already used it)"
        journal.misbehaviour(
            rule,
            client_of(protocol),
            f"{what} ({len(data)} bytes, {frames} frame(s)) was encrypted with accessory-to-controller nonce "
            f"counter(s) {used} where {expected} was due: {change}",
        )

    return apply


def corrupt_tag(journal: Journal, what: str, frame_index: int) -> WriteFault:
    """Flip the last bit of the Poly1305 tag of the message's frame ``frame_index`` (0-based)."""

    def apply(protocol: HAPServerProtocol, data: bytes, write) -> None:
        crypto = protocol.hap_crypto
        first_counter = crypto._out_count
        genuine_encrypt = crypto.encrypt
        details: dict[str, str] = {}

        def encrypt(plaintext: bytes) -> list[bytes]:
            # HAPCrypto.encrypt returns [length, ciphertext+tag, length, ciphertext+tag, ...].
            parts = genuine_encrypt(plaintext)
            sealed = bytearray(parts[2 * frame_index + 1])
            details["genuine"] = bytes(sealed[-TAG_BYTES:]).hex()
            sealed[-1] ^= 0x01
            details["sent"] = bytes(sealed[-TAG_BYTES:]).hex()
            parts[2 * frame_index + 1] = bytes(sealed)
            return parts

        crypto.encrypt = encrypt  # an instance attribute shadows the method for this one write
        try:
            write(protocol, data)
        finally:
            del crypto.encrypt
        journal.misbehaviour(
            "frame-auth-failure",
            client_of(protocol),
            f"{what} ({len(data)} bytes) went out in frames with counters {first_counter}…; the frame with counter "
            f"{first_counter + frame_index} (frame {frame_index + 1} of the message) carries the tag "
            f"{details['sent']} instead of {details['genuine']} (last bit flipped); the frames before it are intact",
        )

    return apply


def unencrypted(journal: Journal, what: str) -> WriteFault:
    """Write the message in plaintext although the session is encrypted."""

    def apply(protocol: HAPServerProtocol, data: bytes, write) -> None:
        crypto = protocol.hap_crypto
        counter = crypto._out_count
        protocol.hap_crypto = None  # HAPServerProtocol.write sends plaintext when there is no crypto context
        try:
            write(protocol, data)
        finally:
            protocol.hap_crypto = crypto
        journal.misbehaviour(
            "plaintext-after-encryption",
            client_of(protocol),
            f"{what} ({len(data)} bytes, starting {data[:15].decode('latin-1')!r}) was written in plaintext after the "
            f"session was encrypted (the next accessory-to-controller frame counter would have been {counter})",
        )

    return apply


def repeated_later(saboteur: Saboteur, what: str, delay: float) -> WriteFault:
    """Write the message normally, then the very same message once more ``delay`` seconds later."""

    def apply(protocol: HAPServerProtocol, data: bytes, write) -> None:
        write(protocol, data)
        saboteur.write_later(protocol, delay, data)
        saboteur.misbehaviour(
            "response-without-request",
            client_of(protocol),
            f"{what} ({len(data)} bytes, starting {data[:15].decode('latin-1')!r}) was written a second time "
            f"{delay} s later, when the controller had no request outstanding: the second copy is an HTTP response "
            "no request asked for (the last accessory-to-controller message of this connection)",
        )

    return apply


# --- mDNS -----------------------------------------------------------------------------------------



def rewrite_mdns_responses(rewriter: Callable[[zeroconf.DNSIncoming, bytes], bytes]) -> None:
    """Pass every mDNS response carrying a ``_hap._tcp`` SRV record through ``rewriter(parsed, packet)``.

    The recording instrumentation sits below this wrapper, so the truth's advertisements are what the
    rewriter returned, which is what went on the wire.
    """
    send_below = zeroconf._core.async_send_with_transport

    def send(log_debug, transport, packet, packet_num, out, addr, port, v6_flow_scope=()):
        message = zeroconf.DNSIncoming(packet)
        carries_service = message.is_response() and any(
            isinstance(record, zeroconf.DNSService) and record.name.endswith("._hap._tcp.local.")
            for record in message.answers()
        )
        if carries_service:
            packet = rewriter(message, packet)
        send_below(log_debug, transport, packet, packet_num, out, addr, port, v6_flow_scope)

    # Zeroconf.async_send looks this function up in its module for every packet it sends.
    zeroconf._core.async_send_with_transport = send


def rebuild_response(message: zeroconf.DNSIncoming, records: list[zeroconf.DNSRecord]) -> bytes:
    """A response with ``message``'s flags and id carrying exactly ``records`` as answers."""
    out = zeroconf.DNSOutgoing(message.flags, multicast=True, id_=message.id)
    for record in records:
        out.add_answer_at_time(record, 0)
    (packet,) = out.packets()
    return packet
