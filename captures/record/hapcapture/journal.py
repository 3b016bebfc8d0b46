"""The record each peer process keeps of what it did, merged afterwards into the ground truth.

A journal is a JSON-lines file, one object per event, each stamped with ``time.time()`` when the
instrumented library did the thing (both peers run on one host, so their clocks agree). Lines are
flushed as they are written so that a peer killed at its time limit still leaves a usable record.
"""

from __future__ import annotations

import base64
import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any, Iterator

CONTROLLER_TO_ACCESSORY = "controller-to-accessory"
ACCESSORY_TO_CONTROLLER = "accessory-to-controller"


def endpoint_text(sockaddr: tuple) -> str:
    """``ip:port`` for IPv4 and ``[ip]:port`` for IPv6, from a socket address tuple."""
    host, port = sockaddr[0], sockaddr[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class Journal:
    """Append-only event record of one peer."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()
        self._note: str | None = None

    def write(self, kind: str, **fields: Any) -> None:
        line = json.dumps({"t": time.time(), "kind": kind, **fields})
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    @contextlib.contextmanager
    def note(self, text: str) -> Iterator[None]:
        """Attach ``text`` to every message written while the block runs (it ends up in truth notes)."""
        previous, self._note = self._note, text
        try:
            yield
        finally:
            self._note = previous

    def connection(self, *, client: str, server: str, event: str) -> None:
        self.write("connection", client=client, server=server, event=event)

    def message(
        self,
        *,
        client: str,
        server: str,
        direction: str,
        encrypted: bool,
        data: bytes,
        at: float | None = None,
        counter: int | None = None,
    ) -> None:
        """One whole HTTP message as its sender wrote it; ``at`` when it was written, if that was before this call;
        ``counter`` the sender's nonce counter for its first frame."""
        self.write(
            "message",
            **({"t": at} if at is not None else {}),
            client=client,
            server=server,
            direction=direction,
            encrypted=encrypted,
            data=base64.b64encode(data).decode("ascii"),
            note=self._note,
            counter=counter,
        )

    def misbehaviour(self, rule: str, connection: str | None, detail: str) -> None:
        """One deliberate misbehaviour of a scenario hook: the audit rule it must trigger and where.

        ``connection`` is the client ``ip:port`` of the TCP connection it happened on, or ``None`` for
        mDNS and for properties of the accessory as a whole (its setup code, its advertisements).
        """
        self.write("misbehaviour", rule=rule, connection=connection, detail=detail)

    def observation(self, text: str) -> None:
        """How a peer reacted to the other's misbehaviour (e.g. that aiohomekit dropped the connection)."""
        self.write("observation", text=text)

    def key(self, label: str, ident: str, secret: bytes, session: str | None = None) -> None:
        """One key-log entry; ``ident`` is hex, or the identifier text for the two LTPK labels.

        ``session`` names the pair-verify an entry belongs to (the controller's ephemeral public key),
        so that the key log can list each session's entries together whichever peer logged them first.
        """
        self.write("key", label=label, id=ident, secret=secret.hex(), session=session)

    def session_endpoints(self, session: str, controller: str, accessory: str) -> None:
        """The ``SESSION_ENDPOINTS`` key-log entry of a pair-verified session: its TCP endpoints as this peer saw them."""
        self.write("key", label="SESSION_ENDPOINTS", id=session, secret=f"{controller} {accessory}", session=session)

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_journal(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
