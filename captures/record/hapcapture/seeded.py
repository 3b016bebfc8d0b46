"""Deterministic stand-ins for the randomness the two HAP libraries draw.

Both libraries take their secrets from ``os.urandom`` (SRP salt and private values) or from
``cryptography``'s ``generate()`` class methods (X25519 ephemeral keys, Ed25519 long-term keys, UUID
pairing identifiers). The instrumentation swaps the module attributes those calls go through for the
shims below, each fed by its own named stream, so a scenario replays the same secrets on every run and
one purpose never shifts another's draws (the SRP mismatch search relies on that).
"""

from __future__ import annotations

import os
import random
import types
import uuid
from typing import Callable

from cryptography.hazmat.primitives.asymmetric import ed25519, x25519


class SeededRandomness:
    """Named, independent byte streams derived from one scenario seed and one peer role."""

    def __init__(self, seed: int, role: str) -> None:
        self.seed = seed
        self.role = role
        self._streams: dict[str, random.Random] = {}

    def stream(self, purpose: str) -> random.Random:
        if purpose not in self._streams:
            # A string seed goes through SHA-512 in random.Random, so streams are stable across runs.
            self._streams[purpose] = random.Random(f"hapcapture/{self.seed}/{self.role}/{purpose}")
        return self._streams[purpose]

    def bytes(self, purpose: str, count: int) -> bytes:
        return self.stream(purpose).randbytes(count)

    def urandom(self, purpose: str) -> Callable[[int], bytes]:
        return lambda count: self.bytes(purpose, count)


def os_module_with_urandom(urandom: Callable[[int], bytes]) -> types.ModuleType:
    """A stand-in for the ``os`` module whose ``urandom`` is seeded and everything else is real."""
    shim = types.ModuleType("os")
    shim.__dict__.update(os.__dict__)
    shim.urandom = urandom
    return shim


def x25519_module(generate: Callable[[], object]) -> types.SimpleNamespace:
    """A stand-in for ``cryptography...x25519`` whose private keys come from ``generate``."""
    return types.SimpleNamespace(
        X25519PrivateKey=types.SimpleNamespace(
            generate=generate,
            from_private_bytes=x25519.X25519PrivateKey.from_private_bytes,
        ),
        X25519PublicKey=x25519.X25519PublicKey,
    )


def ed25519_module(generate: Callable[[], ed25519.Ed25519PrivateKey]) -> types.SimpleNamespace:
    """A stand-in for ``cryptography...ed25519`` whose new private keys come from ``generate``."""
    return types.SimpleNamespace(
        Ed25519PrivateKey=types.SimpleNamespace(
            generate=generate,
            from_private_bytes=ed25519.Ed25519PrivateKey.from_private_bytes,
        ),
        Ed25519PublicKey=ed25519.Ed25519PublicKey,
    )


def uuid_module(uuid4: Callable[[], uuid.UUID]) -> types.SimpleNamespace:
    """A stand-in for the ``uuid`` module whose ``uuid4`` is seeded."""
    return types.SimpleNamespace(uuid4=uuid4, UUID=uuid.UUID)


def seeded_uuid4(randomness: SeededRandomness, purpose: str) -> Callable[[], uuid.UUID]:
    return lambda: uuid.UUID(bytes=randomness.bytes(purpose, 16), version=4)


def seeded_x25519_key(randomness: SeededRandomness, purpose: str) -> x25519.X25519PrivateKey:
    return x25519.X25519PrivateKey.from_private_bytes(randomness.bytes(purpose, 32))


def seeded_ed25519_key(randomness: SeededRandomness, purpose: str) -> ed25519.Ed25519PrivateKey:
    return ed25519.Ed25519PrivateKey.from_private_bytes(randomness.bytes(purpose, 32))
