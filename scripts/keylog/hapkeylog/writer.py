"""The key-log file every exporter writes to (docs/keylog.md).

One ``LABEL <id> <value...>`` per line. The file is opened only when the user names it (the
``--keylog`` option or ``HAPKEYLOGFILE``), created with mode 0600, and only ever appended to; each
line goes out in one ``write`` call, so it is on disk (in the page cache) as soon as the stack
computed it and a crash loses at most the line being written.

An exporter runs inside someone else's HAP stack, so nothing here may raise into it: the first
failure (the file cannot be opened, the disk is full, a hook met a library version it does not
know) is reported once (through ``logging`` when the program set it up, else on standard error),
and the exporter switches itself
off while the stack goes on.
"""

from __future__ import annotations

import functools
import logging
import os
import stat
import sys
import threading
from collections import OrderedDict
from typing import Any, Callable, TypeVar

ENVIRONMENT_VARIABLE = "HAPKEYLOGFILE"

# The labels an exporter may write (docs/keylog.md). Long-term *secret* keys have no label, so no
# code path can write one: `KeyLog.write` refuses any label not listed here.
SECRET_LABELS = {
    "PAIR_VERIFY_SHARED_SECRET": 32,
    "CONTROLLER_EPHEMERAL_SECRET": 32,
    "ACCESSORY_EPHEMERAL_SECRET": 32,
    "CONTROL_WRITE_KEY": 32,
    "CONTROL_READ_KEY": 32,
    "EVENT_READ_KEY": 32,
    "PAIR_SETUP_SESSION_KEY": 64,
    "ACCESSORY_LTPK": 32,
    "CONTROLLER_LTPK": 32,
}
ENDPOINTS_LABEL = "SESSION_ENDPOINTS"
# The first 32 bytes of SRP A, or a controller's pair-verify ephemeral public key.
SESSION_ID_BYTES = 32
# Lines remembered to write each long-term public key once per process rather than per session.
REMEMBERED_LINES = 4096

logger = logging.getLogger("hapkeylog")

Function = TypeVar("Function", bound=Callable[..., Any])


def keylog_path_from_environment(environment: dict[str, str] | None = None) -> str | None:
    """The file ``HAPKEYLOGFILE`` names, or None.

    hapscope reads ``HAPKEYLOGFILE`` as a colon-separated list; an exporter writes to the first
    entry, so that the file it writes is always one that hapscope reads.
    """
    value = (os.environ if environment is None else environment).get(ENVIRONMENT_VARIABLE, "")
    for entry in value.split(":"):
        if entry:
            return entry
    return None


class KeyLog:
    """An append-only key-log file shared by every thread of the process."""

    def __init__(self, path: str | os.PathLike[str], *, tool: str = "hapkeylog", error_stream=None,
                 descriptor: int | None = None) -> None:
        self.path = os.fspath(path)
        self.tool = tool
        self._error_stream = error_stream
        self._lock = threading.Lock()
        self._descriptor: int | None = descriptor
        self._failed = False
        self._written_once: OrderedDict[str, None] = OrderedDict()
        if descriptor is None:
            self._open()

    @classmethod
    def for_descriptor(cls, descriptor: int, name: str, *, tool: str = "hapkeylog") -> "KeyLog":
        """Lines to an already open descriptor (a converter writing to standard output)."""
        return cls(name, tool=tool, descriptor=descriptor)

    @property
    def active(self) -> bool:
        return self._descriptor is not None and not self._failed

    # Writing ---------------------------------------------------------------------------------

    def write(self, label: str, identifier: bytes | str, value: bytes, *, once: bool = False) -> None:
        """Append ``LABEL <id> <value hex>``; with ``once``, only the first time in this process."""
        expected = SECRET_LABELS.get(label)
        if expected is None:
            self.fail(f"refusing to write unknown label {label!r}")
            return
        if len(value) != expected:
            self.fail(f"{label}: value is {len(value)} bytes, expected {expected}")
            return
        try:
            identifier_text = _identifier_text(identifier)
        except ValueError as error:
            self.fail(f"{label}: {error}")
            return
        self._append(f"{label} {identifier_text} {bytes(value).hex()}", once=once)

    def write_endpoints(self, session: bytes, controller: str | None, accessory: str | None) -> None:
        """Append ``SESSION_ENDPOINTS <session> <controller> <accessory>`` when both are known."""
        if not controller or not accessory:
            return
        if any(character.isspace() for character in controller + accessory):
            self.fail(f"endpoint with white space: {controller!r} {accessory!r}")
            return
        self._append(f"{ENDPOINTS_LABEL} {bytes(session).hex()} {controller} {accessory}", once=True)

    def comment(self, text: str) -> None:
        self._append("# " + " ".join(text.split()), once=False)

    def _append(self, line: str, *, once: bool) -> None:
        with self._lock:
            if not self.active:
                return
            if once:
                if line in self._written_once:
                    return
                self._written_once[line] = None
                if len(self._written_once) > REMEMBERED_LINES:
                    self._written_once.popitem(last=False)
            data = (line + "\n").encode("utf-8")
            try:
                written = os.write(self._descriptor, data)
                while written < len(data):
                    written += os.write(self._descriptor, data[written:])
            except OSError as error:
                self._fail_locked(f"cannot write {self.path}: {error.strerror or error}")

    # Opening and failing ---------------------------------------------------------------------

    def _open(self) -> None:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        try:
            descriptor = os.open(self.path, flags, 0o600)
        except OSError as error:
            self.fail(f"cannot open {self.path}: {error.strerror or error}")
            return
        try:
            status = os.fstat(descriptor)
            if stat.S_ISREG(status.st_mode) and status.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
                self._report(f"warning: {self.path} can be read by other users (mode {stat.S_IMODE(status.st_mode):04o})")
            # A writer killed in the middle of a line leaves it unterminated; start on a fresh line
            # so that the damage stays on that one line (hapscope names it in one warning).
            if stat.S_ISREG(status.st_mode) and status.st_size > 0 and _last_byte(self.path, status.st_size) != b"\n":
                os.write(descriptor, b"\n")
        except OSError as error:
            os.close(descriptor)
            self.fail(f"cannot use {self.path}: {error.strerror or error}")
            return
        self._descriptor = descriptor

    def fail(self, reason: str) -> None:
        """Report a problem once and stop writing; never raises."""
        with self._lock:
            self._fail_locked(reason)

    def _fail_locked(self, reason: str) -> None:
        if self._failed:
            return
        self._failed = True
        self._report(f"{reason}; key logging is off, the HAP stack goes on")
        if self._descriptor is not None:
            try:
                os.close(self._descriptor)
            except OSError:
                pass
            self._descriptor = None

    def warn(self, message: str) -> None:
        """Say something the user should know without turning the exporter off."""
        self._report(message)

    def _report(self, message: str) -> None:
        # Through the program's logging when it set logging up (HAP-python and Home Assistant do),
        # else straight to standard error: once either way.
        text = f"{self.tool}: {message}"
        try:
            if self._error_stream is None and logger.hasHandlers():
                logger.warning(text)
            else:
                print(text, file=self._error_stream or sys.stderr, flush=True)
        except Exception:  # noqa: BLE001 - a closed stderr must not take the stack down either
            pass

    def close(self) -> None:
        with self._lock:
            if self._descriptor is not None:
                os.close(self._descriptor)
                self._descriptor = None

    # Hooks -----------------------------------------------------------------------------------

    def guarded(self, function: Function) -> Function:
        """``function`` such that whatever it raises turns the exporter off instead of reaching the stack."""

        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            if not self.active:
                return None
            try:
                return function(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - see the module docstring
                self.fail(f"exporter error in {function.__qualname__}: {type(error).__name__}: {error}")
                return None

        return call  # type: ignore[return-value]


def _last_byte(path: str, size: int) -> bytes:
    reader = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        return os.pread(reader, 1, size - 1)
    finally:
        os.close(reader)


def _identifier_text(identifier: bytes | str) -> str:
    if isinstance(identifier, (bytes, bytearray, memoryview)):
        return bytes(identifier).hex()
    text = str(identifier)
    if not text or any(character.isspace() for character in text):
        raise ValueError(f"identifier {text!r} is empty or has white space")
    return text


def left_padded(value: bytes | int, length: int) -> bytes:
    """``value`` as ``length`` big-endian bytes: stacks that keep SRP K as an integer lose its zeros."""
    if isinstance(value, int):
        return value.to_bytes(length, "big")
    value = bytes(value)
    return value.rjust(length, b"\0")
