"""Reading one direction of a recorded HAP connection back from the wire, deliberate faults included.

The verifier knows, from the ground truth, every HTTP message one side wrote and whether it went out
encrypted; this module finds those messages in the bytes the capture holds for that side: plaintext
verbatim, encrypted ones as frames (PROTOCOL.md §4: u16 LE length, ChaCha20-Poly1305 with the length as
AAD, nonce = 4 zero bytes + u64 LE counter). It does not trust the sender to have framed correctly: a
frame whose counter is not the next one, a frame longer than 1024 bytes, a frame whose tag does not
authenticate, and plaintext after the first frame are each reported as an ``Anomaly`` named after the
audit rule it triggers, with the values involved. Anything else that differs from the truth is an error.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

MAX_FRAME_PLAINTEXT = 1024
TAG_BYTES = 16
LENGTH_BYTES = 2
# How far from the expected counter a frame may have been sealed and still be recognised.
COUNTER_WINDOW = 3


class FrameError(ValueError):
    """The captured bytes do not carry the truth's messages, even allowing for deliberate faults."""


@dataclass(frozen=True)
class Anomaly:
    rule: str
    detail: str


@dataclass
class Walk:
    """Where each message ended in the stream, and what was wrong with its framing."""

    ends: list[int] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)


def nonce(counter: int) -> bytes:
    return struct.pack("<LQ", 0, counter)


def keystream_decrypt(key: bytes, counter: int, ciphertext: bytes) -> bytes:
    """ChaCha20 decryption without the tag check (RFC 8439 §2.8: the payload starts at block counter 1)."""
    decryptor = Cipher(algorithms.ChaCha20(key, struct.pack("<L", 1) + nonce(counter)), mode=None).decryptor()
    return decryptor.update(ciphertext) + decryptor.finalize()


def candidate_counters(expected: int) -> list[int]:
    later = [expected + step for step in range(1, COUNTER_WINDOW + 1)]
    earlier = [expected - step for step in range(1, COUNTER_WINDOW + 1) if expected - step >= 0]
    return [expected, *later, *earlier]


def open_frame(key: bytes, expected: int, header: bytes, sealed: bytes, wanted: bytes) -> tuple[int, bytes, Anomaly | None]:
    """The counter a frame was sealed with, its plaintext, and what is wrong with it if anything.

    ``wanted`` is the plaintext the truth says the frame carries; it identifies a frame whose tag fails
    (decrypted without the tag check) and is otherwise only compared by the caller.
    """
    cipher = ChaCha20Poly1305(key)
    for counter in candidate_counters(expected):
        try:
            plaintext = cipher.decrypt(nonce(counter), sealed, header)
        except InvalidTag:
            continue
        if counter > expected:
            skipped = ", ".join(str(value) for value in range(expected, counter))
            return counter, plaintext, Anomaly("nonce-skip", f"frame sealed with counter {counter} where {expected} was due (skipped {skipped})")
        if counter < expected:
            return counter, plaintext, Anomaly("nonce-reuse", f"frame sealed with counter {counter} again where {expected} was due")
        return counter, plaintext, None
    for counter in candidate_counters(expected):
        plaintext = keystream_decrypt(key, counter, sealed[:-TAG_BYTES])
        if plaintext == wanted:
            genuine = cipher.encrypt(nonce(counter), plaintext, header)[-TAG_BYTES:]
            return counter, plaintext, Anomaly(
                "frame-auth-failure",
                f"frame with counter {counter} carries the tag {sealed[-TAG_BYTES:].hex()}, the right tag is {genuine.hex()}",
            )
    raise FrameError(f"a {len(sealed) - TAG_BYTES}-byte frame opens with no counter near {expected}, not even without its tag")


def seal_frame(key: bytes, counter: int, plaintext: bytes) -> bytes:
    """One frame exactly as a conforming sender puts it on the wire: length, ciphertext, tag."""
    header = struct.pack("<H", len(plaintext))
    return header + ChaCha20Poly1305(key).encrypt(nonce(counter), plaintext, header)


def frame_lengths(data: bytes) -> list[int]:
    """The plaintext lengths of the frames one message is cut into (both libraries start a frame per message)."""
    return [min(MAX_FRAME_PLAINTEXT, len(data) - start) for start in range(0, len(data), MAX_FRAME_PLAINTEXT)]


def walk(messages: Sequence[tuple[bool, bytes]], stream: bytes, key: bytes | None, first_counter: int = 0) -> Walk:
    """Match ``messages`` (``(encrypted, bytes)`` in the order written) against one direction's ``stream``.

    ``first_counter`` is the nonce counter of the stream's first frame: 0 when the capture saw the session
    start, the truth's ``firstFrameCounter`` when it started mid-session.
    """
    result = Walk()
    offset = 0
    counter = first_counter
    encrypted_before = False
    for encrypted, data in messages:
        if not encrypted:
            if stream[offset : offset + len(data)] != data:
                raise FrameError(f"the plaintext message at stream offset {offset} differs from the truth")
            if encrypted_before:
                result.anomalies.append(
                    Anomaly(
                        "plaintext-after-encryption",
                        f"a {len(data)}-byte plaintext message at stream offset {offset}, after encrypted frames "
                        f"(the next counter would have been {counter})",
                    )
                )
            offset += len(data)
            result.ends.append(offset)
            continue
        if key is None:
            raise FrameError("encrypted messages but no control key in the key log")
        encrypted_before = True
        plaintext = bytearray()
        while len(plaintext) < len(data):
            if offset + LENGTH_BYTES > len(stream):
                raise FrameError(f"frame header cut off at stream offset {offset}")
            header = stream[offset : offset + LENGTH_BYTES]
            (length,) = struct.unpack("<H", header)
            end = offset + LENGTH_BYTES + length + TAG_BYTES
            if length == 0 or end > len(stream):
                raise FrameError(f"the frame at stream offset {offset} claims {length} bytes")
            if length > MAX_FRAME_PLAINTEXT:
                result.anomalies.append(
                    Anomaly("oversize-frame", f"frame at stream offset {offset} (counter {counter}) is {length} bytes long")
                )
            wanted = data[len(plaintext) : len(plaintext) + length]
            used, frame_plaintext, anomaly = open_frame(key, counter, header, stream[offset + LENGTH_BYTES : end], wanted)
            if anomaly is not None:
                result.anomalies.append(anomaly)
            plaintext += frame_plaintext
            counter = used + 1
            offset = end
        if plaintext != data:
            raise FrameError(f"the frames ending at stream offset {offset} decrypt to something else than the truth message")
        result.ends.append(offset)
    if offset != len(stream):
        raise FrameError(f"{len(stream) - offset} captured bytes beyond the truth messages")
    return result
