"""What every test peer shares: the record of what it sent, and no mDNS.

The record is the test's own instrumentation, apart from the exporters: each peer writes one JSON
line per chunk of plaintext it hands to its transport, with the connection's endpoints and the
direction, so that the test can compare what hapscope decrypts with what was really sent.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

CONTROLLER_TO_ACCESSORY = "controller-to-accessory"
ACCESSORY_TO_CONTROLLER = "accessory-to-controller"


def endpoint(address) -> str:
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class SentRecord:
    """An append-only JSON-lines file of the plaintext one peer sent."""

    def __init__(self, path: str | Path) -> None:
        self._file = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()

    def sent(self, *, client: str, accessory: str, direction: str, data: bytes) -> None:
        line = json.dumps({"client": client, "accessory": accessory, "direction": direction, "hex": bytes(data).hex()})
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()


def forbid_mdns() -> None:
    """Make any attempt to open an mDNS socket fail loudly: the tests send nothing off loopback."""
    import zeroconf

    def refuse(*args, **kwargs):
        raise RuntimeError("the key-log tests run without mDNS; a peer tried to start zeroconf")

    zeroconf.Zeroconf.__init__ = refuse


class NullAdvertiser:
    """Stands in for HAP-python's AsyncZeroconf advertiser: registers nothing anywhere."""

    async def async_register_service(self, *args, **kwargs) -> None:
        return None

    async def async_update_service(self, *args, **kwargs) -> None:
        return None

    async def async_unregister_service(self, *args, **kwargs) -> None:
        return None

    async def async_close(self) -> None:
        return None


def mark_ready(path: str | Path) -> None:
    Path(path).write_text("ready\n")
