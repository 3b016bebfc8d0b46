"""Which messages a capture that starts mid-session holds, worked out from what the peers did.

A scenario with ``capture_on_request`` starts the capture in the middle of its traffic (``Story.start_capture``).
For every connection open at that moment the controller's kernel counted how many bytes each direction had carried
before it; with the messages each side wrote, in order, and the nonce counter each library sealed an encrypted
message's first frame with, that places the capture start in every stream: which messages the capture holds
wholly, which one it cuts and where, which frame is the first whole one and what its counter is. Nothing here is
read from the capture; the verifier checks every claim against it.

On the wire a plaintext message is its bytes; an encrypted one is its frames, each 2 length bytes, at most 1024
bytes of ciphertext and a 16-byte tag (PROTOCOL.md §4.2), cut from the start of the message (both libraries start a
frame for each message they write).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .frames import LENGTH_BYTES, TAG_BYTES, frame_lengths
from .journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY

if TYPE_CHECKING:
    from .truth import Connection, Message

WHOLE, PARTIAL, NONE = "whole", "partial", "none"
DIRECTIONS = (CONTROLLER_TO_ACCESSORY, ACCESSORY_TO_CONTROLLER)


@dataclass(frozen=True)
class Unit:
    """One frame of an encrypted message, or a whole plaintext message, where it lies in its direction's stream."""

    message: int  # index among the direction's messages
    start: int  # stream offset of its first byte
    length: int  # bytes on the wire
    counter: int | None  # the frame's nonce counter; None for plaintext


def wire_units(messages: list[tuple[bool, bytes, int | None]]) -> list[Unit]:
    """The wire layout of one direction: ``messages`` are ``(encrypted, data, first frame counter)`` in order."""
    units: list[Unit] = []
    offset = 0
    for index, (encrypted, data, counter) in enumerate(messages):
        if not encrypted:
            units.append(Unit(index, offset, len(data), None))
            offset += len(data)
            continue
        if counter is None:
            raise ValueError(f"encrypted message {index} was journalled without its sender's nonce counter")
        for number, length in enumerate(frame_lengths(data)):
            units.append(Unit(index, offset, LENGTH_BYTES + length + TAG_BYTES, counter + number))
            offset += LENGTH_BYTES + length + TAG_BYTES
    return units


@dataclass(frozen=True)
class DirectionStart:
    """Where the capture starts in one direction's stream, and what that makes of each message."""

    stream_offset: int  # bytes the direction carried before the capture
    skipped_bytes: int  # captured bytes before the first whole frame (or plaintext message)
    first_frame_counter: int | None  # counter of the first whole frame in the capture; None if no frame follows
    captured: list[str]  # per message: WHOLE, PARTIAL or NONE
    captured_from: dict[int, int]  # per partial message: how many of its wire bytes precede the capture

    def as_truth(self) -> dict[str, Any]:
        return {
            "streamOffset": self.stream_offset,
            "skippedBytes": self.skipped_bytes,
            "firstFrameCounter": self.first_frame_counter,
        }


def locate(messages: list[tuple[bool, bytes, int | None]], stream_offset: int) -> DirectionStart:
    """Place a capture that begins ``stream_offset`` bytes into a direction carrying ``messages``."""
    units = wire_units(messages)
    total = units[-1].start + units[-1].length if units else 0
    if stream_offset > total:
        raise ValueError(f"the kernel counted {stream_offset} bytes, the messages hold only {total}")
    for earlier, later in zip(units, units[1:]):
        if earlier.counter is not None and later.counter is not None and later.counter != earlier.counter + 1:
            raise ValueError(
                f"message {later.message} starts with counter {later.counter} where {earlier.counter + 1} follows"
            )
    following = [unit for unit in units if unit.start >= stream_offset]
    skipped = (following[0].start if following else total) - stream_offset
    framed = [unit for unit in following if unit.counter is not None]
    sealed = [unit for unit in units if unit.counter is not None]
    if framed:
        first_counter: int | None = framed[0].counter
    else:
        first_counter = sealed[-1].counter + 1 if sealed else None
    captured, captured_from = [], {}
    for index in range(len(messages)):
        mine = [unit for unit in units if unit.message == index]
        begin, end = mine[0].start, mine[-1].start + mine[-1].length
        if end <= stream_offset:
            captured.append(NONE)
        elif begin >= stream_offset:
            captured.append(WHOLE)
        else:
            captured.append(PARTIAL)
            captured_from[index] = stream_offset - begin
    return DirectionStart(stream_offset, skipped, first_counter, captured, captured_from)


def connection_lost(accessory: list[dict], controller: list[dict], client: str, server: str) -> float | None:
    """When the connection was gone for both peers, or None while either still had it."""
    lost = [
        [r["t"] for r in journal if r["kind"] == "connection" and r["event"] == "lost" and (r["client"], r["server"]) == (client, server)]
        for journal in (accessory, controller)
    ]
    return max(max(times) for times in lost) if all(lost) else None


def annotate(truth: dict[str, Any], connections: list[Connection], accessory: list[dict], controller: list[dict]) -> None:
    """Add to ``truth`` what the capture holds, when the scenario started its capture mid-session.

    ``truth["connections"]`` must list ``connections`` in the same order. Raises ValueError when the peers' record
    cannot say it exactly (something sent while the capture was starting, a connection nobody counted).
    """
    start = next((r for r in controller if r["kind"] == "capture-start"), None)
    if start is None:
        return
    requested, opened = start["requested"], start["opened"]
    counted = {(entry["client"], entry["server"]): entry for entry in start["connections"]}
    inside = [(r["client"], r["direction"]) for r in controller if r["kind"] == "capture-inside-frame"]
    truth["captureStart"] = {
        "requested": requested,
        "opened": opened,
        "insideFrame": [{"connection": client, "direction": direction} for client, direction in inside],
    }
    for advertisement in truth["advertisements"]:
        advertisement["captured"] = captured_at(advertisement["time"], requested, opened, "an mDNS advertisement")

    for connection, entry in zip(connections, truth["connections"]):
        key = (connection.client, connection.server)
        messages = connection.messages
        if key in counted:
            entry["captured"] = PARTIAL
            entry["captureStart"] = {}
            flags: dict[int, tuple[str, int | None]] = {}
            for direction in DIRECTIONS:
                indices = [i for i, message in enumerate(messages) if message.direction == direction]
                placed = locate([layout(messages[i]) for i in indices], counted[key][direction])
                entry["captureStart"][direction] = placed.as_truth()
                for position, index in enumerate(indices):
                    flags[index] = (placed.captured[position], placed.captured_from.get(position))
                    if placed.captured[position] != WHOLE and messages[index].time > opened:
                        raise ValueError(f"{connection.client}: a message written after the capture began is not wholly in it")
                if (connection.client, direction) in inside and placed.skipped_bytes == 0:
                    raise ValueError(
                        f"{connection.client} {direction}: the capture starts at a frame boundary "
                        f"(stream offset {placed.stream_offset}), not inside a frame"
                    )
            for index, message_entry in enumerate(entry["messages"]):
                message_entry["captured"], cut = flags[index]
                if cut is not None:
                    message_entry["capturedFrom"] = cut
            continue
        lost = connection_lost(accessory, controller, *key)
        if lost is not None and lost < requested:
            whole = NONE
        elif connection.opened > opened:
            whole = WHOLE
        else:
            raise ValueError(f"{connection.client}: open when the capture started, but the story did not count its bytes")
        entry["captured"] = whole
        for message, message_entry in zip(messages, entry["messages"]):
            if (whole == NONE) != (message.time < requested):
                raise ValueError(f"{connection.client}: a message was written on the wrong side of the capture start")
            message_entry["captured"] = whole


def layout(message: Message) -> tuple[bool, bytes, int | None]:
    return message.encrypted, message.data, message.counter


def captured_at(when: float, requested: float, opened: float, what: str) -> bool:
    if when < requested:
        return False
    if when > opened:
        return True
    raise ValueError(f"{what} was sent at {when:.6f}, while the capture was starting ({requested:.6f}…{opened:.6f})")
