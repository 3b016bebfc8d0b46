"""Log records laid out as HomeKitADK's POSIX platform writes them, for the converter's fixtures.

Written from ``HAPPlatformLogCapture`` in HomeKitADK's ``PAL/POSIX/HAPPlatformLog.c`` (commit
aa2b08c): colour escape, ``YYYY-MM-DD'T'HH:MM:SS'Z'``, tab, type, tab, ``[subsystem:category] ``,
message, newline; then per 32 bytes of buffer ``"    %04zx "``, eight groups of a space and four
``%02x`` bytes (two spaces for each byte past the end), four spaces, the ASCII column and a
newline (an empty buffer: one empty line); then ``\\x1B[0m``. The subsystem is ADK's
``kHAP_LogSubsystem`` (``HAP/HAP+Internal.h``).
"""

from __future__ import annotations

SUBSYSTEM = "com.apple.mfi.HomeKit.Core"
COLOURS = {"Debug": "\x1b[0m", "Info": "\x1b[32m", "Default": "\x1b[35m", "Error": "\x1b[31m", "Fault": "\x1b[1m\x1b[31m"}
RESET = "\x1b[0m"
TIME = "2021-10-23'T'12:34:56'Z'"


def record(kind: str, category: str, message: str, buffer: bytes | None = None, *, subsystem: str = SUBSYSTEM) -> str:
    text = f"{COLOURS[kind]}{TIME}\t{kind}\t[{subsystem}:{category}] {message}\n"
    if buffer is not None:
        text += hex_dump(buffer)
    return text + RESET


def hex_dump(buffer: bytes) -> str:
    if not buffer:
        return "\n"
    lines, offset = [], 0
    while offset < len(buffer):
        line = f"    {offset:04x} "
        for n in range(32):
            if n % 4 == 0:
                line += " "
            line += f"{buffer[offset + n]:02x}" if offset + n < len(buffer) else "  "
        line += "    " + "".join(chr(b) if 32 <= b < 127 else "." for b in buffer[offset : offset + 32])
        lines.append(line + "\n")
        offset += 32
    return "".join(lines)


def sensitive(category: str, message: str, buffer: bytes, *, enabled: bool = True) -> str:
    """HAPLogSensitiveBufferDebug (PAL/HAPLog.h): the buffer, or ``<private>`` and none."""
    if enabled:
        return record("Debug", category, message, buffer)
    return record("Debug", category, f"<private> {message}")
