"""Loopback HAP sessions between real stacks, captured, and what hapscope makes of them.

A session runs one accessory and one controller from `peers/` on 127.0.0.1 (a free port, no mDNS),
either or both with their exporter on, while tcpdump captures that port on ``lo``. Each peer
records the plaintext it sent (its own instrumentation, apart from the exporters); the test then
compares, message by message and byte for byte, what hapscope decrypts with what was sent.
Every wait has a timeout.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

KEYLOG_DIRECTORY = Path(__file__).resolve().parents[1]
REPOSITORY = KEYLOG_DIRECTORY.parents[1]
PEERS = KEYLOG_DIRECTORY / "tests" / "peers"
HAPSCOPE = Path(os.environ.get("HAPSCOPE", REPOSITORY / ".build" / "debug" / "hapscope"))
SETUP_CODE = "031-45-154"

CAPTURE_START_SECONDS = 10
ACCESSORY_START_SECONDS = 20
CONTROLLER_SECONDS = 90
STOP_SECONDS = 10
HAPSCOPE_SECONDS = 60

MessageKey = tuple[str, str, str]  # (controller endpoint, accessory endpoint, direction)


@dataclass(frozen=True)
class Peer:
    exporter: str  # the hapkeylog module that hooks this peer's stack
    script: str
    device_id: str = ""

    def arguments(self, work: Path, role: str, port: int) -> list[str]:
        record = ["--record", str(work / f"{role}.sent")]
        if role == "accessory":
            ready = ["--ready", str(work / "accessory.ready")]
            state = ["--state", str(work / "accessory.state")] if self.exporter == "pyhap" else ["--config", str(work / "accessory.json")]
            return ["--port", str(port), *state, *record, *ready]
        return ["--port", str(port), "--device-id", self.device_id, "--setup-code", SETUP_CODE, *record]


ACCESSORIES = {
    "pyhap": Peer("pyhap", "pyhap_accessory.py", "1A:2B:3C:4D:5E:6F"),
    "homekit": Peer("homekit", "homekit_accessory.py", "2A:3B:4C:5D:6E:7F"),
}
CONTROLLERS = {
    "aiohomekit": Peer("aiohomekit", "aiohomekit_controller.py"),
    "homekit": Peer("homekit", "homekit_controller.py"),
}


@dataclass
class Session:
    work: Path
    port: int
    capture: Path
    accessory_stderr: str
    controller_stderr: str
    records: list[Path] = field(default_factory=list)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# The one-import-line form, as a user would put ``import hapkeylog.<stack>`` first in the script.
IMPORT_FIRST = ("import os, sys, runpy, hapkeylog.{exporter}; sys.argv = sys.argv[1:]; "
                "sys.path.insert(0, os.path.dirname(sys.argv[0])); runpy.run_path(sys.argv[0], run_name='__main__')")


def peer_environment(keylog_in_environment: Path | None = None) -> dict[str, str]:
    environment = dict(os.environ)
    environment.pop("HAPKEYLOGFILE", None)
    if keylog_in_environment is not None:
        environment["HAPKEYLOGFILE"] = str(keylog_in_environment)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(KEYLOG_DIRECTORY), environment.get("PYTHONPATH")]))
    return environment


def peer_command(peer: Peer, keylog: Path | None, arguments: list[str], *, import_form: bool = False) -> list[str]:
    script = str(PEERS / peer.script)
    if keylog is None:
        return [sys.executable, script, *arguments]
    if import_form:
        return [sys.executable, "-c", IMPORT_FIRST.format(exporter=peer.exporter), script, *arguments]
    return [sys.executable, "-m", f"hapkeylog.{peer.exporter}", "--keylog", str(keylog), script, *arguments]


class PacketCapture:
    """tcpdump on ``lo`` for one TCP port, from before the first packet until after the last."""

    def __init__(self, path: Path, port: int) -> None:
        self.path = path
        command = ["tcpdump", "-i", "lo", "-U", "--immediate-mode", "-w", str(path), f"tcp port {port}"]
        self._process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._listening = threading.Event()
        self._stderr: list[str] = []
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if not self._listening.wait(CAPTURE_START_SECONDS):
            self.stop()
            raise RuntimeError("tcpdump did not start listening: " + "".join(self._stderr))

    def _read_stderr(self) -> None:
        for line in self._process.stderr:
            self._stderr.append(line)
            if "listening on" in line:
                self._listening.set()

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
        try:
            self._process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(STOP_SECONDS)


def run_session(
    work: Path,
    accessory: str,
    controller: str,
    *,
    accessory_keylog: Path | None = None,
    controller_keylog: Path | None = None,
    import_form: bool = False,
) -> Session:
    """Pair-setup, pair-verify, /accessories, reads, writes and events between two real stacks."""
    work.mkdir(parents=True, exist_ok=True)
    accessory_peer, controller_peer = ACCESSORIES[accessory], CONTROLLERS[controller]
    controller_peer = Peer(controller_peer.exporter, controller_peer.script, accessory_peer.device_id)
    port = free_port()
    capture = PacketCapture(work / "session.pcap", port)
    accessory_log = open(work / "accessory.stderr", "w+")
    accessory_process = subprocess.Popen(
        peer_command(accessory_peer, accessory_keylog, accessory_peer.arguments(work, "accessory", port), import_form=import_form),
        stdout=subprocess.DEVNULL, stderr=accessory_log,
        env=peer_environment(accessory_keylog if import_form else None),
    )
    try:
        deadline = time.monotonic() + ACCESSORY_START_SECONDS
        while not (work / "accessory.ready").exists():
            if accessory_process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the {accessory} accessory did not start:\n{(work / 'accessory.stderr').read_text()}")
            time.sleep(0.05)
        controller_run = subprocess.run(
            peer_command(controller_peer, controller_keylog, controller_peer.arguments(work, "controller", port),
                         import_form=import_form),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=CONTROLLER_SECONDS,
            env=peer_environment(controller_keylog if import_form else None),
        )
        if controller_run.returncode != 0:
            raise RuntimeError(f"the {controller} controller failed ({controller_run.returncode}):\n"
                               + "\n".join(controller_run.stderr.splitlines()[-25:]))
    finally:
        if accessory_process.poll() is None:
            accessory_process.send_signal(signal.SIGTERM)
        try:
            accessory_process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            accessory_process.kill()
            accessory_process.wait(STOP_SECONDS)
        capture.stop()
    accessory_log.seek(0)
    return Session(
        work=work,
        port=port,
        capture=capture.path,
        accessory_stderr=accessory_log.read(),
        controller_stderr=controller_run.stderr,
        records=[work / "accessory.sent", work / "controller.sent"],
    )


# What was sent ------------------------------------------------------------------------------


def split_http_messages(stream: bytes) -> list[bytes]:
    """One direction of a HAP connection, cut into its HTTP messages by their Content-Length."""
    messages, offset = [], 0
    while offset < len(stream):
        end = stream.find(b"\r\n\r\n", offset)
        if end < 0:
            raise ValueError(f"an incomplete HTTP head at offset {offset}")
        length = 0
        for line in stream[offset:end].split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
            if name.strip().lower() == b"transfer-encoding":
                raise ValueError("the test peers do not send chunked bodies")
        messages.append(bytes(stream[offset : end + 4 + length]))
        offset = end + 4 + length
    return messages


def sent_messages(records: list[Path]) -> dict[MessageKey, list[bytes]]:
    streams: dict[MessageKey, bytearray] = defaultdict(bytearray)
    for record in records:
        for line in record.read_text().splitlines():
            chunk = json.loads(line)
            streams[(chunk["client"], chunk["accessory"], chunk["direction"])] += bytes.fromhex(chunk["hex"])
    return {key: split_http_messages(bytes(stream)) for key, stream in streams.items()}


# What hapscope decoded --------------------------------------------------------------------------


@dataclass
class Analysis:
    messages: dict[MessageKey, list[bytes]]
    encrypted_messages: int
    undecrypted_messages: int
    pair_verify_keys: dict[tuple[str, str], bytes]  # (controller, accessory) → controller's M1 public key
    stderr: str


def hapscope_events(capture: Path, keylogs: list[Path]) -> tuple[list[dict], subprocess.CompletedProcess]:
    command = [str(HAPSCOPE), "events", str(capture), "--format", "ndjson", "--no-progress"]
    for keylog in keylogs:
        command += ["--keylog", str(keylog)]
    environment = dict(os.environ)
    environment.pop("HAPKEYLOGFILE", None)
    run = subprocess.run(command, capture_output=True, text=True, timeout=HAPSCOPE_SECONDS, env=environment)
    events = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    return events, run


def message_bytes(event: dict) -> bytes:
    """The HTTP message an ``http-message`` event describes, as it was on the wire."""
    head = event["startLine"] + "\r\n"
    head += "".join(f"{header['name']}: {header['value']}\r\n" for header in event["headers"]) + "\r\n"
    body = event.get("body", "")
    body_bytes = base64.b64decode(body) if event.get("bodyEncoding") == "base64" else body.encode("utf-8")
    return head.encode("utf-8") + body_bytes


def analyse(capture: Path, keylogs: list[Path]) -> Analysis:
    events, run = hapscope_events(capture, keylogs)
    if run.returncode != 0:
        raise AssertionError(f"hapscope exited with {run.returncode}:\n{run.stderr}")
    messages: dict[MessageKey, list[bytes]] = defaultdict(list)
    encrypted = undecrypted = 0
    pair_verify_keys: dict[tuple[str, str], bytes] = {}
    for event in events:
        if event["type"] == "http-message":
            messages[(event["client"], event["accessory"], event["direction"])].append(message_bytes(event))
            if event["encrypted"]:
                encrypted += 1
                undecrypted += not event["decrypted"]
        elif event["type"] == "pairing-message" and event.get("procedure") == "pair-verify" and event.get("state") == "M1":
            for item in event["items"]:
                if item["field"] == "publicKey":
                    pair_verify_keys[(event["client"], event["accessory"])] = bytes.fromhex(item["hex"])
    return Analysis(dict(messages), encrypted, undecrypted, pair_verify_keys, run.stderr)


def differences(sent: dict[MessageKey, list[bytes]], decoded: dict[MessageKey, list[bytes]]) -> list[str]:
    """Every message sent but not decoded, decoded but not sent, or decoded differently."""
    problems = []
    for key in sorted(set(sent) | set(decoded)):
        expected, seen = sent.get(key, []), decoded.get(key, [])
        for index in range(max(len(expected), len(seen))):
            want = expected[index] if index < len(expected) else None
            got = seen[index] if index < len(seen) else None
            if want != got:
                problems.append(f"{key} message {index + 1}: sent {_excerpt(want)}, hapscope decoded {_excerpt(got)}")
    return problems


def _excerpt(message: bytes | None) -> str:
    if message is None:
        return "nothing"
    return repr(message[:160]) + (f"… ({len(message)} bytes)" if len(message) > 160 else "")


# The key log ------------------------------------------------------------------------------------


def keylog_lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


# Measured results, printed at the end of the run (conftest.py) -----------------------------------

RESULTS: list[str] = []


def report(line: str) -> None:
    RESULTS.append(line)
