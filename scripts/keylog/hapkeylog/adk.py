"""HomeKitADK's sensitive debug log → hapscope's key log.

    ./AccessoryApp 2>&1 | python -m hapkeylog.adk --keylog keys.txt --tee
    python -m hapkeylog.adk accessory.log > keys.txt

ADK writes no key log, but a debug build with sensitive logging on (``HAP_LOG_LEVEL=3`` and
``HAP_LOG_SENSITIVE=1``) logs every pairing secret as a hex dump. This reads such a log (files or
standard input, line by line, so a pipe works while the accessory runs) and writes the key log.

The format, from HomeKitADK's sources (apple/HomeKitADK, commit aa2b08c):
- ``PAL/POSIX/HAPPlatformLog.c``, ``HAPPlatformLogCapture``: a record is a colour escape, the UTC
  time as ``YYYY-MM-DD'T'HH:MM:SS'Z'``, a tab, the type (Debug, Info, Default, Error, Fault), a
  tab, ``[subsystem:category] `` and the message, then for a buffer one line per 32 bytes:
  four spaces, the offset as ``%04zx``, a space, eight groups of (a space and four bytes as
  ``%02x``, two spaces per byte past the end), four spaces and the bytes as ASCII (``.`` when not
  printable); an empty buffer is an empty line. ``\\x1B[0m`` resets the colour after the record,
  so it starts the next line. A lock keeps each record whole.
- ``PAL/HAPLog.h``, ``HAPLogSensitiveBuffer*``: without ``HAP_LOG_SENSITIVE`` the record is the
  message prefixed with ``<private> `` and no buffer.
- ``HAP/HAP+Internal.h``: the subsystem is ``com.apple.mfi.HomeKit.Core``.
- ``HAP/HAPPairingPairVerify.c`` (category ``PairingPairVerify``): ``HAPPairingPairVerifyProcessM1``
  logs "Pair Verify M1: Controller_cv_PK."; ``HAPPairingPairVerifyGetM2`` "Pair Verify M2: cv_SK.",
  "Pair Verify M2: cv_PK." and "Pair Verify M2: cv_KEY."; ``HAPPairingPairVerifyProcessM3``
  "Pair Verify M3: iOSDeviceInfo." (controller cv_PK, pairing id, accessory cv_PK);
  ``HAPPairingPairVerifyStartSession`` "Pair Verify Start Session: AccessoryToControllerKey" and
  "...: ControllerToAccessoryKey". ADK runs one request at a time (M1 then M2, M3 then M4), so
  the keys logged belong to the controller key logged just before them.
- ``HAP/HAPPairingPairSetup.c`` (category ``PairingPairSetup``): ``HAPPairingPairSetupProcessM3``
  logs "Pair Setup M3: A." (zero-extended to 384 bytes); ``HAPPairingPairSetupGetM4`` "Pair Setup
  M4: K."; ``HAPPairingPairSetupProcessM5`` "Pair Setup M5: iOSDeviceInfo." (iOSDeviceX, pairing id,
  LTPK); ``HAPPairingPairSetupGetM6`` "Pair Setup M6: AccessoryDeviceInfo." (AccessoryX, device id,
  LTPK) — and "Pair Setup M6: ed_LTSK.", the accessory's long-term secret key, which is read past
  and never written.
ADK's POSIX TCP layer accepts connections without their addresses (``accept(fd, NULL, NULL)`` in
``PAL/POSIX/HAPPlatformTCPStreamManager.c``), so its log cannot give SESSION_ENDPOINTS.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from typing import Iterable, TextIO

from .writer import KeyLog

ADK_SUBSYSTEM = "com.apple.mfi.HomeKit.Core"
VERIFY = "PairingPairVerify"
SETUP = "PairingPairSetup"
PRIVATE_PREFIX = "<private> "
BYTES_PER_DUMP_LINE = 32
SRP_PUBLIC_KEY_BYTES = 384
X25519_BYTES = 32
ED25519_PUBLIC_KEY_BYTES = 32
SESSION_ID_BYTES = 32
# The largest buffer a pairing record holds is SRP A or B (384 bytes); anything much longer is
# not one of ours and is not kept (the accessory database can be dumped too).
MAX_RECORD_BYTES = 4096

COLOUR = re.compile(r"\x1b\[[0-9;]*m")
HEADER = re.compile(r"(?:^|\t)(?P<type>Debug|Info|Default|Error|Fault)\t(?:\[(?P<subsystem>[^\]:]*)(?::(?P<category>[^\]]*))?\] )?(?P<message>.*)$")
DUMP = re.compile(r"^ {4}(?P<offset>[0-9a-f]{4,}) (?P<groups>(?: [0-9a-f ]{8}){8}) {4}")

# Buffers whose length ADK fixes: a record is complete as soon as this many bytes arrived, which
# lets a live pipe write the line at once instead of waiting for the next record.
FIXED_LENGTHS = {
    (VERIFY, "Pair Verify M1: Controller_cv_PK."): X25519_BYTES,
    (VERIFY, "Pair Verify M2: cv_SK."): X25519_BYTES,
    (VERIFY, "Pair Verify M2: cv_PK."): X25519_BYTES,
    (VERIFY, "Pair Verify M2: cv_KEY."): X25519_BYTES,
    (VERIFY, "Pair Verify Start Session: AccessoryToControllerKey"): 32,
    (VERIFY, "Pair Verify Start Session: ControllerToAccessoryKey"): 32,
    (SETUP, "Pair Setup M3: A."): SRP_PUBLIC_KEY_BYTES,
    (SETUP, "Pair Setup M4: K."): 64,
}


@dataclass
class Record:
    line: int
    category: str
    message: str
    data: bytearray = field(default_factory=bytearray)
    broken: bool = False


class Converter:
    """Turns ADK log records into key-log lines, keeping the little state ADK's order implies."""

    def __init__(self, keylog: KeyLog, warn) -> None:
        self.keylog = keylog
        self.warn = warn
        self.lines_written = 0
        self.private_records = 0
        self._verify_session: bytes | None = None
        self._accessory_secret: bytes | None = None
        self._setup_sessions: list[bytes] = []
        self._resumed = 0

    def write(self, label: str, identifier: bytes | str, value: bytes) -> None:
        self.keylog.write(label, identifier, value)
        self.lines_written += 1

    def handle(self, record: Record) -> None:
        if record.broken:
            return
        data, key = bytes(record.data), (record.category, record.message)
        expected = FIXED_LENGTHS.get(key)
        if expected is not None and len(data) != expected:
            self.warn(f"line {record.line}: {record.message!r} carries {len(data)} bytes, expected {expected}; skipped")
            return
        if key == (VERIFY, "Pair Verify M1: Controller_cv_PK.") or key == (VERIFY, "Pair Verify M3: iOSDeviceInfo."):
            self._verify_session = data[:X25519_BYTES]
        elif key == (VERIFY, "Pair Verify M2: cv_SK."):
            self._accessory_secret = data
        elif key == (VERIFY, "Pair Verify M2: cv_PK."):
            if self._accessory_secret is not None:
                self.write("ACCESSORY_EPHEMERAL_SECRET", data, self._accessory_secret)
                self._accessory_secret = None
        elif key == (VERIFY, "Pair Verify M2: cv_KEY."):
            if self._needs_verify_session(record):
                self.write("PAIR_VERIFY_SHARED_SECRET", self._verify_session, data)
        elif key == (VERIFY, "Pair Resume M2: cv_KEY."):
            # A BLE Pair Resume derives its secret from a cached one; its session keys follow and are
            # written, this is not an X25519 shared secret.
            self._resumed += 1
        elif key[0] == VERIFY and key[1].startswith("Pair Verify Start Session: "):
            label = "CONTROL_READ_KEY" if key[1].endswith("AccessoryToControllerKey") else "CONTROL_WRITE_KEY"
            if self._needs_verify_session(record):
                self.write(label, self._verify_session, data)
        elif key == (SETUP, "Pair Setup M3: A."):
            # ADK logs A zero-extended; the controller may have sent it without its leading zeros,
            # and the key log names the session by the first 32 bytes as sent: give both forms.
            self._setup_sessions = [data[:SESSION_ID_BYTES]]
            stripped = data.lstrip(b"\0")
            if len(stripped) < len(data):
                self._setup_sessions.append(stripped[:SESSION_ID_BYTES])
        elif key == (SETUP, "Pair Setup M4: K."):
            if not self._setup_sessions:
                self.warn(f"line {record.line}: SRP K without the A before it (the log starts mid-pair-setup); skipped")
            for session in self._setup_sessions:
                self.write("PAIR_SETUP_SESSION_KEY", session, data)
        elif key in ((SETUP, "Pair Setup M5: iOSDeviceInfo."), (SETUP, "Pair Setup M6: AccessoryDeviceInfo.")):
            # X (32 bytes), the pairing identifier, the Ed25519 public key (32 bytes).
            if len(data) <= 32 + ED25519_PUBLIC_KEY_BYTES:
                self.warn(f"line {record.line}: {record.message!r} is too short; skipped")
                return
            label = "CONTROLLER_LTPK" if "M5" in key[1] else "ACCESSORY_LTPK"
            identifier = data[32:-ED25519_PUBLIC_KEY_BYTES].decode("utf-8", errors="replace")
            self.write(label, identifier, data[-ED25519_PUBLIC_KEY_BYTES:])
        # Everything else, "Pair Setup M6: ed_LTSK." included, is not for the key log.

    def _needs_verify_session(self, record: Record) -> bool:
        if self._verify_session is None:
            self.warn(f"line {record.line}: {record.message!r} before any Controller_cv_PK "
                      "(the log starts mid-pair-verify); skipped")
            return False
        return True

    def finish(self) -> None:
        if self._resumed:
            self.warn(f"{self._resumed} BLE Pair Resume exchange(s): their session keys are written, "
                      "their resumed secrets are not")


def records(lines: Iterable[str], warn) -> Iterable[Record]:
    """The ADK log records in ``lines``, each with the bytes of its hex dump."""
    current: Record | None = None
    for number, raw in enumerate(lines, start=1):
        line = COLOUR.sub("", raw.rstrip("\r\n"))
        dump = DUMP.match(line)
        if current is not None and dump:
            if not _append_dump(current, dump, number, warn):
                current.broken = True
            expected = FIXED_LENGTHS.get((current.category, current.message))
            if expected is not None and len(current.data) >= expected:
                yield current
                current = None
            continue
        if current is not None:
            yield current
            current = None
        header = HEADER.search(line)
        if header and header["subsystem"] == ADK_SUBSYSTEM and header["category"] in (VERIFY, SETUP):
            current = Record(number, header["category"], header["message"])
    if current is not None:
        yield current


def _append_dump(record: Record, dump: re.Match, number: int, warn) -> bool:
    if int(dump["offset"], 16) != len(record.data):
        warn(f"line {number}: hex dump offset {dump['offset']} where {len(record.data):04x} was expected; record skipped")
        return False
    digits = dump["groups"].replace(" ", "")
    if len(digits) % 2 or len(record.data) + len(digits) // 2 > MAX_RECORD_BYTES:
        warn(f"line {number}: hex dump line not in ADK's layout; record skipped")
        return False
    record.data += bytes.fromhex(digits)
    return True


def convert(lines: Iterable[str], keylog: KeyLog, warn, tee: TextIO | None = None) -> Converter:
    converter = Converter(keylog, warn)

    def passed_on(source: Iterable[str]) -> Iterable[str]:
        for line in source:
            if tee is not None:
                tee.write(line)
                tee.flush()
            yield line

    for record in records(passed_on(lines), warn):
        if record.message.startswith(PRIVATE_PREFIX):
            converter.private_records += 1
            continue
        converter.handle(record)
    converter.finish()
    return converter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hapkeylog.adk",
        description="Convert HomeKitADK's sensitive debug log (HAP_LOG_LEVEL=3, HAP_LOG_SENSITIVE=1) to a hapscope key log.",
    )
    parser.add_argument("logs", nargs="*", metavar="LOG", help="ADK log files (default, or -: standard input)")
    parser.add_argument("--keylog", "-o", metavar="FILE", help="append to FILE (created with mode 0600) instead of writing to standard output")
    parser.add_argument("--tee", action="store_true", help="copy the ADK log to standard output as it is read (with --keylog)")
    arguments = parser.parse_args(argv)
    if arguments.tee and not arguments.keylog:
        parser.error("--tee needs --keylog: standard output would carry both")

    def warn(message: str) -> None:
        print(f"hapkeylog.adk: {message}", file=sys.stderr, flush=True)

    keylog = KeyLog(arguments.keylog, tool="hapkeylog.adk") if arguments.keylog else KeyLog.for_descriptor(1, "standard output", tool="hapkeylog.adk")
    if not keylog.active:
        return 2
    total_written = private = 0
    for name in arguments.logs or ["-"]:
        try:
            source = sys.stdin if name == "-" else open(name, encoding="utf-8", errors="replace")
        except OSError as error:
            warn(f"cannot read {name}: {error.strerror or error}")
            return 2
        with source if name != "-" else _borrowed(source):
            converter = convert(source, keylog, lambda message, name=name: warn(f"{name}: {message}"),
                                tee=sys.stdout if arguments.tee else None)
        total_written += converter.lines_written
        private += converter.private_records
    if not keylog.active:
        return 2
    if total_written == 0:
        if private:
            warn(f"{private} sensitive records were logged as <private>: rebuild ADK with -DHAP_LOG_SENSITIVE=1 (docs/keylog.md)")
        else:
            warn("no pair-setup or pair-verify secrets found: is this a debug build's log (HAP_LOG_LEVEL=3, HAP_LOG_SENSITIVE=1)?")
        return 1
    return 0


class _borrowed:
    """A context manager that leaves standard input open."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __enter__(self) -> TextIO:
        return self.stream

    def __exit__(self, *exc) -> None:
        return None


if __name__ == "__main__":
    sys.exit(main())
