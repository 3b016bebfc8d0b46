"""Checking a recorded scenario end to end, against the capture itself.

For every scenario in ``captures/``:

* the truth file has the schema's keys and types, and its link type is the capture's;
* every key-log line parses, and the key log is self-consistent (each ephemeral secret yields its
  public key, each shared secret yields the logged control keys, each SRP session key opens the M5
  and M6 of its pair-setup);
* the capture holds exactly as many mDNS responses from the accessory carrying its TXT record as the
  truth lists advertisements, and tshark finds exactly as many TCP conversations as it lists connections;
* each connection's reassembled TCP byte streams (tshark ``follow,tcp,raw``) are exactly the truth's
  messages: plaintext messages verbatim, encrypted ones as frames that decrypt with the logged control
  keys (``frames.walk``, which recognises deliberate frame faults and reports them); in a capture that
  starts mid-session exactly the messages the truth says it holds, from the first whole frame and counter
  it names, the tail of a frame it cuts sealed again and compared, the keys found by SESSION_ENDPOINTS;
* the reference rule check (``rules.check``, fed with those messages timed by the capture, the key log,
  the mDNS packets and the frame faults) finds exactly the (rule, connection) pairs the truth declares
  under ``misbehaviours``: all of them in a misbehaving capture, none at all in a clean one.

Usage: ``python -m hapcapture.verify [CAPTURES_DIR] [scenario ...]``; exits non-zero on any failure.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import zeroconf
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import x25519
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import capturestart, frames, http, rules, tlv8
from .journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY
from .truth import link_type

MDNS_PORT = 5353
KEYLOG_LINE = re.compile(
    r"^(?P<label>PAIR_VERIFY_SHARED_SECRET|CONTROLLER_EPHEMERAL_SECRET|ACCESSORY_EPHEMERAL_SECRET|CONTROL_WRITE_KEY|"
    r"CONTROL_READ_KEY|PAIR_SETUP_SESSION_KEY|ACCESSORY_LTPK|CONTROLLER_LTPK) (?P<id>\S+) (?P<secret>[0-9a-f]+)$"
)
# SESSION_ENDPOINTS <session id> <controller endpoint> <accessory endpoint> (the key-log label agreed for mid-session
# captures): a.b.c.d:port, [ipv6]:port or a Bluetooth device address.
ENDPOINT = r"(?:\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}|\[[0-9a-f:]+\]:\d{1,5}|[0-9A-F]{2}(?::[0-9A-F]{2}){5}(?:/random)?)"
SESSION_ENDPOINTS_LINE = re.compile(rf"^SESSION_ENDPOINTS (?P<id>[0-9a-f]{{64}}) (?P<controller>{ENDPOINT}) (?P<accessory>{ENDPOINT})$")
SECRET_BYTES = {"PAIR_SETUP_SESSION_KEY": 64}
HEX_ID_BYTES = {
    "PAIR_VERIFY_SHARED_SECRET": 32,
    "CONTROLLER_EPHEMERAL_SECRET": 32,
    "ACCESSORY_EPHEMERAL_SECRET": 32,
    "CONTROL_WRITE_KEY": 32,
    "CONTROL_READ_KEY": 32,
    "PAIR_SETUP_SESSION_KEY": 32,
}
TRUTH_KEYS = {
    "schema": int, "scenario": str, "description": str, "accessoryImplementation": str,
    "controllerImplementation": str, "capture": str, "linkType": str, "setupCode": str, "setupId": str,
    "accessories": list, "controllers": list, "advertisements": list, "pairings": list, "connections": list,
    "accessoriesBody": dict, "notes": list, "misbehaviours": list,
}  # fmt: skip
# Only in a capture that starts mid-session (capturestart.py): what the capture holds.
CAPTURE_START_KEYS = {"requested", "opened", "insideFrame"}
DIRECTION_START_KEYS = {"streamOffset", "skippedBytes", "firstFrameCounter"}
CAPTURED = {capturestart.WHOLE, capturestart.PARTIAL, capturestart.NONE}


class VerificationError(Exception):
    pass


def require(condition: bool, message: str) -> None:
    if not condition:
        raise VerificationError(message)


def hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=32, salt=salt, info=info).derive(key)


def padded_nonce(text: bytes) -> bytes:
    return text.rjust(12, b"\0")


# --- truth ----------------------------------------------------------------------------------------


def check_truth_schema(truth: dict[str, Any]) -> None:
    # A capture that starts mid-session (capturestart.py) says of every advertisement, connection and message
    # whether it holds it; in the others it holds everything.
    mid_session = "captureStart" in truth
    marked = {"captured"} if mid_session else set()
    expected = set(TRUTH_KEYS) | ({"captureStart"} if mid_session else set())
    require(set(truth) == expected, f"truth keys differ from the schema: {sorted(set(truth) ^ expected)}")
    for key, kind in TRUTH_KEYS.items():
        require(isinstance(truth[key], kind), f"truth field {key} is not a {kind.__name__}")
    require(truth["schema"] == 1, "schema is not 1")
    if mid_session:
        start = truth["captureStart"]
        require(set(start) == CAPTURE_START_KEYS, f"captureStart keys {sorted(start)}")
        require(start["requested"] <= start["opened"], "captureStart: opened before requested")
    for accessory in truth["accessories"]:
        require(set(accessory) == {"name", "deviceId", "address", "port", "category", "ltpk"}, f"accessory keys {sorted(accessory)}")
    for controller in truth["controllers"]:
        require(set(controller) == {"pairingId", "ltpk", "admin"}, f"controller keys {sorted(controller)}")
    for advertisement in truth["advertisements"]:
        keys = {"time", "instance", "service", "port", "txt"} | marked
        require(set(advertisement) == keys, f"advertisement keys {sorted(advertisement)}")
        require(isinstance(advertisement["time"], float), "advertisement time is not a float")
        require(not mid_session or isinstance(advertisement["captured"], bool), "advertisement captured is not a bool")
    for pairing in truth["pairings"]:
        require(set(pairing) == {"kind", "client", "outcome", "error", "note"}, f"pairing keys {sorted(pairing)}")
        require(
            pairing["kind"] in {"pair-setup", "pair-verify", "add-pairing", "remove-pairing", "list-pairings"},
            f"pairing kind {pairing['kind']}",
        )
        require(pairing["outcome"] in {"success", "error"}, f"pairing outcome {pairing['outcome']}")
        # An exchange can fail without an Error item (abandoned after a wrong proof or signature); never the reverse.
        require(pairing["error"] is None or pairing["outcome"] == "error", "a pairing with an error code succeeded")
        require(pairing["outcome"] == "error" or pairing["error"] is None, "pairing error does not match outcome")
    for misbehaviour in truth["misbehaviours"]:
        require(set(misbehaviour) == {"rule", "connection", "detail"}, f"misbehaviour keys {sorted(misbehaviour)}")
    for connection in truth["connections"]:
        cut_connection = captured(connection) == capturestart.PARTIAL
        keys = {"client", "server", "messages"} | marked | ({"captureStart"} if cut_connection else set())
        require(set(connection) == keys, f"connection keys {sorted(connection)}")
        require(captured(connection) in CAPTURED, f"connection captured {connection.get('captured')}")
        if cut_connection:
            require(set(connection["captureStart"]) == {CONTROLLER_TO_ACCESSORY, ACCESSORY_TO_CONTROLLER}, "captureStart directions")
            for placed in connection["captureStart"].values():
                require(set(placed) == DIRECTION_START_KEYS, f"direction captureStart keys {sorted(placed)}")
        for message in connection["messages"]:
            cut = captured(message) == capturestart.PARTIAL
            keys = {"direction", "encrypted", "data"} | marked | ({"capturedFrom"} if cut else set())
            require(set(message) == keys, f"message keys {sorted(message)}")
            require(message["direction"] in {CONTROLLER_TO_ACCESSORY, ACCESSORY_TO_CONTROLLER}, "message direction")
            require(captured(message) in CAPTURED, f"message captured {message.get('captured')}")
            require(cut_connection or captured(message) == captured(connection), "a message of an uncut connection is cut")
            http.parse(base64.b64decode(message["data"]))


def captured(entry: dict[str, Any]) -> str:
    """What the capture holds of a connection or message: everything unless the truth says otherwise."""
    return entry.get("captured", capturestart.WHOLE)


# --- key log --------------------------------------------------------------------------------------


def read_key_log(path: Path) -> dict[str, dict[str, bytes]]:
    keys: dict[str, dict[str, bytes]] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("SESSION_ENDPOINTS "):
            require(SESSION_ENDPOINTS_LINE.match(line) is not None, f"{path.name}:{number}: not a SESSION_ENDPOINTS line: {line!r}")
            continue
        match = KEYLOG_LINE.match(line)
        require(match is not None, f"{path.name}:{number}: not a key-log line: {line!r}")
        label, ident, secret = match["label"], match["id"], bytes.fromhex(match["secret"])
        require(len(secret) == SECRET_BYTES.get(label, 32), f"{path.name}:{number}: {label} secret is {len(secret)} bytes")
        if label in HEX_ID_BYTES:
            require(re.fullmatch(r"[0-9a-f]{64}", ident) is not None, f"{path.name}:{number}: {label} id is not 32 hex bytes")
        keys.setdefault(label, {})[ident] = secret
    return keys


def read_session_endpoints(path: Path) -> dict[str, tuple[str, str]]:
    """SESSION_ENDPOINTS lines: session id → (controller endpoint, accessory endpoint); checked by ``read_key_log``."""
    named: dict[str, tuple[str, str]] = {}
    for line in path.read_text().splitlines():
        match = SESSION_ENDPOINTS_LINE.match(line)
        if match is not None:
            require(match["id"] not in named, f"{path.name}: two SESSION_ENDPOINTS lines for {match['id']}")
            named[match["id"]] = (match["controller"], match["accessory"])
    return named


def check_key_log_consistency(keys: dict[str, dict[str, bytes]]) -> None:
    for label in ("CONTROLLER_EPHEMERAL_SECRET", "ACCESSORY_EPHEMERAL_SECRET"):
        for public, secret in keys.get(label, {}).items():
            derived = x25519.X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()
            require(derived.hex() == public, f"{label} {public} does not yield its public key")
    for controller_public, shared in keys.get("PAIR_VERIFY_SHARED_SECRET", {}).items():
        # A pair-verify that failed at M4 has a shared secret but never derived session keys.
        for label, info in (("CONTROL_WRITE_KEY", b"Control-Write-Encryption-Key"), ("CONTROL_READ_KEY", b"Control-Read-Encryption-Key")):
            logged = keys.get(label, {}).get(controller_public)
            require(
                logged is None or logged == hkdf(shared, b"Control-Salt", info),
                f"{label} {controller_public} is not derived from its shared secret",
            )
        controller_secret = keys["CONTROLLER_EPHEMERAL_SECRET"].get(controller_public)
        if controller_secret is not None:
            require(
                any(
                    x25519.X25519PrivateKey.from_private_bytes(controller_secret).exchange(
                        x25519.X25519PublicKey.from_public_bytes(bytes.fromhex(accessory_public))
                    )
                    == shared
                    for accessory_public in keys.get("ACCESSORY_EPHEMERAL_SECRET", {})
                ),
                f"no accessory ephemeral key gives the shared secret of {controller_public}",
            )


# --- capture --------------------------------------------------------------------------------------


def tshark(capture: Path, *arguments: str) -> str:
    result = subprocess.run(
        ["tshark", "-r", str(capture), "-o", "tcp.reassemble_out_of_order:TRUE", *arguments],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.stdout


def link_type_by_tcpdump(capture: Path) -> str:
    """The link type as libpcap reports it, a second opinion on ``truth.link_type``."""
    result = subprocess.run(
        ["tcpdump", "-r", str(capture), "-c", "1", "-n"], capture_output=True, text=True, timeout=60, check=True
    )
    match = re.search(r"link-type (\S+)", result.stderr)
    require(match is not None, f"tcpdump did not report a link type for {capture.name}")
    return match[1]


def check_long_term_keys(truth: dict[str, Any], keys: dict[str, dict[str, bytes]]) -> None:
    for accessory in truth["accessories"]:
        logged = keys.get("ACCESSORY_LTPK", {}).get(accessory["deviceId"])
        require(logged is not None and logged.hex() == accessory["ltpk"], f"ACCESSORY_LTPK {accessory['deviceId']}")
    for controller in truth["controllers"]:
        logged = keys.get("CONTROLLER_LTPK", {}).get(controller["pairingId"])
        require(logged is not None and logged.hex() == controller["ltpk"], f"CONTROLLER_LTPK {controller['pairingId']}")


def mdns_responses(capture: Path, accessory_address: str) -> list[rules.MdnsResponse]:
    """Every mDNS response the accessory sent, parsed from the wire, with its capture time."""
    fields = ["-T", "fields", "-e", "frame.time_epoch", "-e", "ip.src", "-e", "ipv6.src", "-e", "udp.payload"]
    responses = []
    for line in tshark(capture, "-Y", f"udp.srcport == {MDNS_PORT}", *fields).splitlines():
        time, ipv4, ipv6, payload = line.split("\t")
        if accessory_address not in (ipv4, ipv6) or not payload:
            continue
        message = zeroconf.DNSIncoming(bytes.fromhex(payload))
        if message.is_response():
            responses.append(rules.MdnsResponse(float(time), message))
    return responses


def advertisement_count(responses: list[rules.MdnsResponse]) -> int:
    """Responses carrying a ``_hap._tcp`` TXT record with a non-zero TTL (what truth ``advertisements`` lists)."""
    return sum(
        1
        for response in responses
        if any(
            isinstance(record, zeroconf.DNSText) and record.name.endswith("._hap._tcp.local.") and record.ttl > 0
            for record in response.message.answers()
        )
    )


def tcp_conversations(capture: Path) -> int:
    output = tshark(capture, "-q", "-z", "conv,tcp")
    return sum(1 for line in output.splitlines() if "<->" in line)


def tcp_streams(capture: Path, count: int) -> dict[tuple[str, str], dict[str, bytes]]:
    """Per (node 0, node 1) endpoint pair, the reassembled bytes each node sent."""
    arguments = ["-q"]
    for stream in range(count):
        arguments += ["-z", f"follow,tcp,raw,{stream}"]
    streams: dict[tuple[str, str], dict[str, bytes]] = {}
    for block in tshark(capture, *arguments).split("=" * 67):
        nodes = re.findall(r"^Node (\d): (\S+)$", block, flags=re.MULTILINE)
        if len(nodes) != 2:
            continue
        sent = {nodes[0][1]: bytearray(), nodes[1][1]: bytearray()}
        for line in block.splitlines():
            if re.fullmatch(r"\t?[0-9a-f]+", line):
                sender = nodes[1][1] if line.startswith("\t") else nodes[0][1]
                sent[sender] += bytes.fromhex(line.strip())
        streams[(nodes[0][1], nodes[1][1])] = {endpoint: bytes(data) for endpoint, data in sent.items()}
    return streams


def last_pair_verify(connection: dict[str, Any]) -> str | None:
    """The controller public key (hex) of the last pair-verify M1 the truth records on the connection."""
    controller_public = None
    for message in connection["messages"]:
        parsed = http.parse(base64.b64decode(message["data"]))
        if message["direction"] == CONTROLLER_TO_ACCESSORY and parsed.is_request and parsed.path == "/pair-verify":
            items = tlv8.decode(parsed.body)
            if tlv8.integer(items, tlv8.STATE) == 1:
                controller_public = items[0x03].hex()
    return controller_public


def session_keys(
    connection: dict[str, Any], keys: dict[str, dict[str, bytes]], named: dict[str, tuple[str, str]]
) -> tuple[bytes, bytes] | None:
    """The control keys of the connection's session.

    Where the capture holds the pair-verify they are found by its M1 public key. Where it starts later, they are
    found as an analyzer must find them, by the SESSION_ENDPOINTS line naming the connection, and that line must
    name the session whose M1 the truth records.
    """
    session = last_pair_verify(connection)
    if captured(connection) == capturestart.PARTIAL:
        by_endpoints = [ident for ident, ends in named.items() if ends == (connection["client"], connection["server"])]
        require(len(by_endpoints) == 1, f"{connection['client']}: {len(by_endpoints)} SESSION_ENDPOINTS lines name the connection")
        require(by_endpoints[0] == session, f"{connection['client']}: SESSION_ENDPOINTS names another session than its pair-verify")
    if session is None or session not in keys.get("CONTROL_WRITE_KEY", {}):
        return None
    return keys["CONTROL_WRITE_KEY"][session], keys["CONTROL_READ_KEY"][session]


def check_session_endpoints(truth: dict[str, Any], keys: dict[str, dict[str, bytes]], named: dict[str, tuple[str, str]]) -> int:
    """Each SESSION_ENDPOINTS line names the connection its session ran on, and each session has one.

    Key logs recorded before the label existed have none; then nothing is required.
    """
    if not named:
        return 0
    sessions = {}
    for connection in truth["connections"]:
        session = last_pair_verify(connection)
        if session is not None:
            sessions[session] = (connection["client"], connection["server"])
    for session, ends in named.items():
        require(sessions.get(session) == ends, f"SESSION_ENDPOINTS {session} names {ends}, its pair-verify ran on {sessions.get(session)}")
    for session in keys.get("CONTROL_WRITE_KEY", {}):
        require(session in named, f"the session {session} has control keys but no SESSION_ENDPOINTS line")
    return len(named)


def endpoint(address: str, port: str) -> str:
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


SEQUENCE_SPACE = 2**32


def segment_times(capture: Path) -> dict[tuple[str, str], list[tuple[int, int, float]]]:
    """Per (sender, receiver), every TCP segment with payload: (stream offset, length, capture time).

    Offsets count from the first payload byte the capture holds, as ``tcp_streams`` does: from the SYN where the
    capture saw it, from wherever it joined otherwise. They are taken from the raw sequence numbers (modulo 2^32),
    not tshark's relative ones, which count from the first segment seen, a zero-window probe one byte early say.
    """
    names = ("frame.time_epoch", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport", "tcp.seq_raw", "tcp.len")
    fields = ["-T", "fields"] + [argument for name in names for argument in ("-e", name)]
    raw: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    for line in tshark(capture, "-Y", "tcp.len > 0", *fields).splitlines():
        time, src4, src6, sport, dst4, dst6, dport, seq, length = line.split("\t")
        key = (endpoint(src4 or src6, sport), endpoint(dst4 or dst6, dport))
        raw.setdefault(key, []).append((int(seq), int(length), float(time)))
    segments: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    for key, seen in raw.items():
        anchor = seen[0][0]
        relative = [((seq - anchor + SEQUENCE_SPACE // 2) % SEQUENCE_SPACE - SEQUENCE_SPACE // 2, length, time) for seq, length, time in seen]
        first = min(offset for offset, _, _ in relative)
        segments[key] = [(offset - first, length, time) for offset, length, time in relative]
    return segments


def time_of(segments: list[tuple[int, int, float]], end: int) -> float:
    """When the last byte before stream offset ``end`` was first on the wire."""
    times = [time for start, length, time in segments if start <= end - 1 < start + length]
    require(bool(times), f"no captured segment carries stream offset {end - 1}")
    return min(times)


def connection_ends(capture: Path) -> dict[frozenset[str], tuple[float, str]]:
    """Per connection (its two endpoints), the first FIN or RST in the capture: when, and who sent which."""
    names = ("frame.time_epoch", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport", "tcp.flags.reset")
    fields = ["-T", "fields"] + [argument for name in names for argument in ("-e", name)]
    ends: dict[frozenset[str], tuple[float, str]] = {}
    for line in tshark(capture, "-Y", "tcp.flags.fin == 1 || tcp.flags.reset == 1", *fields).splitlines():
        time, src4, src6, sport, dst4, dst6, dport, reset = line.split("\t")
        sender = endpoint(src4 or src6, sport)
        pair = frozenset((sender, endpoint(dst4 or dst6, dport)))
        flag = "RST" if reset in ("1", "True") else "FIN"
        ends.setdefault(pair, (float(time), f"{flag} from {sender}"))
    return ends


def cut_message(
    encrypted: bool, data: bytes, cut: int, stream: bytes, key: bytes | None, placed: dict[str, Any], client: str
) -> tuple[int, bytes]:
    """The captured tail of a message the capture starts inside: how many stream bytes precede its first whole
    frame, checked byte for byte, and the plaintext from that frame on.

    Frames are deterministic (ChaCha20-Poly1305 under a known key and counter), so the tail of the frame the capture
    cut is sealed again from the truth's plaintext and compared; and the first captured byte must not be where a
    frame with the expected counter begins.
    """
    skipped, counter = placed["skippedBytes"], placed["firstFrameCounter"]
    if not encrypted:
        require(stream[: len(data) - cut] == data[cut:], f"{client}: the captured start of a plaintext message differs from the truth")
        require(skipped == len(data) - cut, f"{client}: skippedBytes {skipped}, the cut plaintext message has {len(data) - cut} left")
        return skipped, b""
    require(key is not None, f"{client}: a cut encrypted message but no control key")
    position = 0
    for number, length in enumerate(frames.frame_lengths(data)):
        size = frames.LENGTH_BYTES + length + frames.TAG_BYTES
        if cut < position + size:
            break
        position += size
    plaintext_start = number * frames.MAX_FRAME_PLAINTEXT
    if cut == position:
        require(skipped == 0, f"{client}: skippedBytes {skipped} where the capture starts at a frame boundary")
        return 0, data[plaintext_start:]
    require(skipped == position + size - cut, f"{client}: skippedBytes {skipped}, the cut frame has {position + size - cut} left")
    sealed = frames.seal_frame(key, counter - 1, data[plaintext_start : plaintext_start + length])
    require(stream[:skipped] == sealed[cut - position :], f"{client}: the captured tail of frame {counter - 1} is not what it sealed")
    require(not opens_as_frame(stream, key, counter), f"{client}: the first captured byte begins a frame after all")
    return skipped, data[plaintext_start + length :]


def opens_as_frame(stream: bytes, key: bytes, counter: int) -> bool:
    """Whether a frame sealed with a counter near ``counter`` begins at the start of ``stream``."""
    if len(stream) < frames.LENGTH_BYTES:
        return False
    header = stream[: frames.LENGTH_BYTES]
    sealed = stream[frames.LENGTH_BYTES : frames.LENGTH_BYTES + int.from_bytes(header, "little") + frames.TAG_BYTES]
    for candidate in frames.candidate_counters(counter):
        try:
            ChaCha20Poly1305(key).decrypt(frames.nonce(candidate), sealed, header)
        except (InvalidTag, ValueError):
            continue
        return True
    return False


def trace_connection(
    connection: dict[str, Any],
    sent: dict[str, bytes],
    control: tuple[bytes, bytes] | None,
    segments: dict[tuple[str, str], list[tuple[int, int, float]]],
    end: tuple[float, str] | None,
) -> tuple[rules.TracedConnection, list[rules.Finding], int]:
    """One connection's messages found in its captured streams and timed; its frame faults as findings.

    Of a connection the capture joined mid-session only what it holds is looked for: each direction from the
    truth's ``captureStart`` (its first whole frame and that frame's counter) on, a message it cuts checked up to
    the cut. The rule check gets the messages the capture holds wholly.
    """
    timed: dict[int, rules.TimedMessage] = {}
    findings: list[rules.Finding] = []
    decrypted_directions = 0
    client, server = connection["client"], connection["server"]
    for direction, sender, receiver in ((CONTROLLER_TO_ACCESSORY, client, server), (ACCESSORY_TO_CONTROLLER, server, client)):
        indices = [
            index
            for index, m in enumerate(connection["messages"])
            if m["direction"] == direction and captured(m) != capturestart.NONE
        ]
        messages = [
            (connection["messages"][index]["encrypted"], base64.b64decode(connection["messages"][index]["data"]))
            for index in indices
        ]
        key = None if control is None else control[0 if direction == CONTROLLER_TO_ACCESSORY else 1]
        stream = sent.get(sender, b"")
        placed = connection.get("captureStart", {}).get(direction)
        head = 0
        if placed is not None and indices and captured(connection["messages"][indices[0]]) == capturestart.PARTIAL:
            cut = connection["messages"][indices[0]]["capturedFrom"]
            head, rest = cut_message(*messages[0], cut, stream, key, placed, client)
            messages = ([(messages[0][0], rest)] if rest else []) + messages[1:]
            indices = ([indices[0]] if rest else []) + indices[1:]
        elif placed is not None:
            require(placed["skippedBytes"] == 0, f"{client} {direction}: skippedBytes without a cut message")
        first_counter = placed["firstFrameCounter"] if placed is not None and placed["firstFrameCounter"] is not None else 0
        try:
            walked = frames.walk(messages, stream[head:], key, first_counter)
        except frames.FrameError as error:
            raise VerificationError(f"{client} {direction}: {error}") from error
        decrypted_directions += any(encrypted for encrypted, _ in messages)
        findings += [rules.Finding(a.rule, client, f"{direction}: {a.detail}") for a in walked.anomalies]
        for index, (encrypted, data), ends in zip(indices, messages, walked.ends):
            if captured(connection["messages"][index]) == capturestart.WHOLE:
                when = time_of(segments.get((sender, receiver), []), head + ends)
                timed[index] = rules.TimedMessage(direction, encrypted, data, when)
    traced = rules.TracedConnection(
        client,
        [timed[index] for index in sorted(timed)],
        started_before_capture=captured(connection) == capturestart.PARTIAL,
        closed=end,
    )
    return traced, findings, decrypted_directions


def check_pair_setup_keys(truth: dict[str, Any], keys: dict[str, dict[str, bytes]]) -> int:
    """Each logged SRP session key must open the M5 (and M6) of the pair-setup it is logged for."""
    opened = 0
    for connection in truth["connections"]:
        session_key = None
        for message in connection["messages"]:
            parsed = http.parse(base64.b64decode(message["data"]))
            if not parsed.body or parsed.headers.get("content-type") != "application/pairing+tlv8":
                continue
            items = tlv8.decode(parsed.body)
            state = tlv8.integer(items, tlv8.STATE)
            if parsed.is_request and parsed.path == "/pair-setup" and state == 3:
                srp_key = keys.get("PAIR_SETUP_SESSION_KEY", {}).get(items[0x03][:32].hex())
                require(srp_key is not None, f"{connection['client']}: no PAIR_SETUP_SESSION_KEY for an M3")
                session_key = hkdf(srp_key, b"Pair-Setup-Encrypt-Salt", b"Pair-Setup-Encrypt-Info")
            elif state in (5, 6) and 0x05 in items and session_key is not None:
                try:
                    ChaCha20Poly1305(session_key).decrypt(padded_nonce(f"PS-Msg0{state}".encode()), items[0x05], b"")
                except InvalidTag as error:
                    raise VerificationError(f"{connection['client']}: M{state} does not open with its SRP key") from error
                opened += 1
    return opened


def compare_findings(truth: dict[str, Any], findings: list[rules.Finding]) -> None:
    declared = {(m["rule"], m["connection"]) for m in truth["misbehaviours"]}
    found = {(f.rule, f.connection) for f in findings}
    unexpected = found - declared
    missing = sorted(declared - found, key=str)
    details = [f"{f.rule} on {f.connection}: {f.detail}" for f in findings if (f.rule, f.connection) in unexpected]
    require(not unexpected, f"the rule check finds undeclared misbehaviour: {'; '.join(details)}")
    require(not missing, f"declared misbehaviours the rule check does not find: {missing}")


def capture_start(truth: dict[str, Any]) -> float | None:
    times = [ad["time"] for ad in truth["advertisements"]]
    return min(times) if times else None


def previous_capture(truth: dict[str, Any], directories: list[Path]) -> rules.PreviousCapture | None:
    """The capture of the same accessory recorded last before this one, if the corpus holds one.

    The same accessory is the same device id with the same long-term key (its pairing identity): the
    corpus's scenarios share the device id but each has its own key, except the pairs recorded as one
    accessory's history (config-a/config-b, config-c/config-d, renumbered-a/renumbered-b).
    """
    identity = {(a["deviceId"], a["ltpk"]) for a in truth["accessories"]}
    start = capture_start(truth)
    if start is None:
        return None
    best: tuple[float, dict[str, Any]] | None = None
    for directory in directories:
        for path in directory.glob("*.truth.json"):
            if path.name == f"{truth['scenario']}.truth.json":
                continue
            other = json.loads(path.read_text())
            other_start = capture_start(other)
            same = identity & {(a["deviceId"], a["ltpk"]) for a in other["accessories"]}
            if same and other_start is not None and other_start < start and (best is None or other_start > best[0]):
                best = (other_start, other)
    return rules.PreviousCapture.from_truth(best[1]) if best is not None else None


def verify_scenario(directory: Path, name: str, corpus: Path | None = None) -> str:
    """Verify one scenario in ``directory``; ``corpus`` is where earlier captures of its accessory may be."""
    truth_path = directory / f"{name}.truth.json"
    truth = json.loads(truth_path.read_text())
    check_truth_schema(truth)
    capture = directory / truth["capture"]
    require(capture.exists(), f"{capture.name} is missing")
    for reported in (link_type(capture), link_type_by_tcpdump(capture)):
        require(reported == truth["linkType"], f"link type {reported} but truth says {truth['linkType']}")
    keys = read_key_log(directory / f"{name}.keylog")
    named = read_session_endpoints(directory / f"{name}.keylog")
    check_key_log_consistency(keys)
    check_long_term_keys(truth, keys)
    endpoint_lines = check_session_endpoints(truth, keys, named)
    mdns = mdns_responses(capture, truth["accessories"][0]["address"])
    advertisements = advertisement_count(mdns)
    in_capture = [ad for ad in truth["advertisements"] if ad.get("captured", True)]
    require(
        advertisements == len(in_capture),
        f"the capture has {advertisements} mDNS responses with the TXT record, truth lists {len(in_capture)} in it",
    )
    connections = [c for c in truth["connections"] if captured(c) != capturestart.NONE]
    for inside in truth.get("captureStart", {}).get("insideFrame", []):
        cut = next((c for c in connections if c["client"] == inside["connection"]), None)
        require(cut is not None and "captureStart" in cut, f"insideFrame names {inside['connection']}, which the capture does not join midway")
        require(cut["captureStart"][inside["direction"]]["skippedBytes"] > 0, f"{inside['connection']} {inside['direction']}: the capture starts at a frame")
    conversations = tcp_conversations(capture)
    require(
        conversations == len(connections),
        f"tshark finds {conversations} TCP conversations, truth lists {len(connections)} in the capture",
    )
    streams = tcp_streams(capture, conversations)
    segments = segment_times(capture)
    ends = connection_ends(capture)
    encrypted_directions = 0
    traced: list[rules.TracedConnection] = []
    findings: list[rules.Finding] = []
    for connection in connections:
        endpoints = (connection["client"], connection["server"])
        sent = streams.get(endpoints) or streams.get(endpoints[::-1])
        require(sent is not None, f"no TCP stream {endpoints[0]} <-> {endpoints[1]} in the capture")
        control = session_keys(connection, keys, named)
        connection_trace, frame_findings, decrypted = trace_connection(
            connection, sent, control, segments, ends.get(frozenset(endpoints))
        )
        traced.append(connection_trace)
        findings += frame_findings
        encrypted_directions += decrypted
    opened = check_pair_setup_keys(truth, keys)
    previous = previous_capture(truth, [directory] + ([corpus] if corpus is not None and corpus != directory else []))
    # The rule check judges what the capture holds: its advertisements and its whole messages.
    findings += rules.check(dict(truth, advertisements=in_capture), keys, traced, mdns, previous)
    compare_findings(truth, findings)
    messages = sum(captured(m) != capturestart.NONE for c in truth["connections"] for m in c["messages"])
    before = sum(len(c["messages"]) for c in truth["connections"]) - messages
    found = sorted({f.rule for f in findings})
    return (
        f"{name}: {truth['linkType']}, {advertisements} advertisements, {conversations} connections, "
        f"{messages} messages match the capture{f' ({before} more before it started)' if before else ''}, "
        f"{encrypted_directions} encrypted directions decrypted, {opened} M5/M6 opened with the SRP key, "
        + (f"{endpoint_lines} SESSION_ENDPOINTS lines name their connections, " if endpoint_lines else "")
        + f"rule check: {', '.join(found) if found else 'nothing found'}"
    )


def main() -> None:
    directory = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    names = sys.argv[2:] or sorted(p.name.removesuffix(".truth.json") for p in directory.glob("*.truth.json"))
    failures = 0
    for name in names:
        try:
            print(verify_scenario(directory, name))
        except (VerificationError, ValueError, KeyError, subprocess.SubprocessError) as error:
            failures += 1
            print(f"{name}: FAILED: {error}")
    print(f"{len(names) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
