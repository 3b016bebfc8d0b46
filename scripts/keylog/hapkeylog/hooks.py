"""Run-time hooks shared by the exporters.

Every hook calls the stack's own function first, unchanged, with the same arguments, and returns
what it returned (or re-raises what it raised); only then does it look at the values and write
them. What the hook itself does runs under `KeyLog.guarded`, so a hook that meets a library version
it does not understand switches the exporter off instead of breaking the stack.
"""

from __future__ import annotations

import functools
import ipaddress
import threading
import types
from collections import OrderedDict
from typing import Any, Callable, Generator

from cryptography.hazmat.primitives import serialization

from .writer import KeyLog

ORIGINAL = "__hapkeylog_original__"
# Sessions whose keys are derived in one hook and whose endpoints are known in another: entries
# wait here between the two calls, and the oldest are dropped so that a stack that never reaches
# the second hook cannot grow this without bound.
PENDING_SESSIONS = 256


class HookError(Exception):
    """A hook point this exporter needs is not where it expects it (another version of the stack)."""


def replace(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Put ``make(original)`` in place of ``owner.name``, once, however often it is asked."""
    original = getattr(owner, name, None)
    if original is None:
        raise HookError(f"{getattr(owner, '__name__', owner)}.{name} does not exist")
    if getattr(original, ORIGINAL, None) is not None:
        return
    replacement = make(original)
    setattr(replacement, ORIGINAL, original)
    setattr(owner, name, replacement)


def after(keylog: KeyLog, owner: Any, name: str, observe: Callable[..., None]) -> None:
    """Run ``owner.name`` unchanged, then ``observe(result, *args, **kwargs)``."""
    observe = keylog.guarded(observe)

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def hooked(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            observe(result, *args, **kwargs)
            return result

        return hooked

    replace(owner, name, make)


def around_generator(
    keylog: KeyLog,
    owner: Any,
    name: str,
    *,
    on_yield: Callable[..., None] | None = None,
    on_return: Callable[..., Any] | None = None,
) -> None:
    """Hook a generator-based state machine (the pairing procedures of aiohomekit and homekit_python).

    The stack drives the machine with ``send``; the hook passes every value through unchanged and
    shows ``on_yield(state, value, *args, **kwargs)`` each request the machine yields and
    ``on_return(state, value, *args, **kwargs)`` its result. ``on_return`` may return a stand-in
    for the result (the same value with a logging wrapper); None keeps the result as it was.
    ``state`` is a dict private to one run of the machine.
    """
    on_yield = keylog.guarded(on_yield) if on_yield else None
    on_return = keylog.guarded(on_return) if on_return else None

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def hooked(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
            state: dict[str, Any] = {}
            machine = original(*args, **kwargs)
            try:
                value = machine.send(None)
                while True:
                    if on_yield:
                        on_yield(state, value, *args, **kwargs)
                    try:
                        sent = yield value
                    except GeneratorExit:
                        machine.close()
                        raise
                    except BaseException as error:  # noqa: BLE001 - handed to the machine as it was
                        value = machine.throw(error)
                    else:
                        value = machine.send(sent)
            except StopIteration as stop:
                result = stop.value
                if on_return:
                    replacement = on_return(state, result, *args, **kwargs)
                    if replacement is not None:
                        return replacement
                return result

        return hooked

    replace(owner, name, make)


class PendingSessions:
    """Session ids waiting for a later hook, looked up by a key both hooks see (a derived key)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[bytes, bytes] = OrderedDict()

    def put(self, key: bytes, session: bytes) -> None:
        with self._lock:
            self._entries[bytes(key)] = bytes(session)
            while len(self._entries) > PENDING_SESSIONS:
                self._entries.popitem(last=False)

    def pop(self, key: bytes) -> bytes | None:
        with self._lock:
            return self._entries.pop(bytes(key), None)


def raw_public(key: Any) -> bytes:
    """The 32 raw bytes of a cryptography X25519 or Ed25519 public key."""
    return key.public_bytes(encoding=serialization.Encoding.Raw, format=serialization.PublicFormat.Raw)


def raw_private(key: Any) -> bytes:
    return key.private_bytes(
        encoding=serialization.Encoding.Raw,
        format=serialization.PrivateFormat.Raw,
        encryption_algorithm=serialization.NoEncryption(),
    )


class EphemeralKey:
    """A stack's pair-verify X25519 key that reports its secret and each shared secret it computes.

    It stands in for cryptography's ``X25519PrivateKey`` where the stack's module generates one;
    the stack's calls reach the real key unchanged.
    """

    def __init__(self, key: Any, on_created: Callable[..., None], on_exchange: Callable[..., None]) -> None:
        self._key = key
        self._on_exchange = on_exchange
        on_created(self)

    @property
    def public_bytes_raw(self) -> bytes:
        return raw_public(self._key.public_key())

    @property
    def secret_bytes_raw(self) -> bytes:
        return raw_private(self._key)

    def public_key(self) -> Any:
        return self._key.public_key()

    def exchange(self, peer_public_key: Any) -> bytes:
        shared = self._key.exchange(peer_public_key)
        self._on_exchange(self, raw_public(peer_public_key), shared)
        return shared

    def __getattr__(self, name: str) -> Any:
        return getattr(self._key, name)


class X25519Module(types.ModuleType):
    """cryptography's ``x25519`` module as one stack module sees it: ``generate()`` hands out `EphemeralKey`."""

    def __init__(self, real: types.ModuleType, on_created: Callable[..., None], on_exchange: Callable[..., None]) -> None:
        super().__init__(real.__name__)
        self.__dict__["_real"] = real

        class X25519PrivateKey:
            @staticmethod
            def generate() -> Any:
                key = real.X25519PrivateKey.generate()
                try:
                    return EphemeralKey(key, on_created, on_exchange)
                except Exception:  # noqa: BLE001 - the hooks are guarded; this is belt and braces
                    return key

            @staticmethod
            def from_private_bytes(data: bytes) -> Any:
                return real.X25519PrivateKey.from_private_bytes(data)

        self.__dict__["X25519PrivateKey"] = X25519PrivateKey

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_real"], name)


def replace_x25519(keylog: KeyLog, module: types.ModuleType, on_created: Callable[..., None], on_exchange: Callable[..., None]) -> None:
    """Give ``module`` (a stack module that did ``from ...asymmetric import x25519``) the reporting module."""
    current = getattr(module, "x25519", None)
    if current is None or not hasattr(current, "X25519PrivateKey"):
        raise HookError(f"{module.__name__} has no x25519 module")
    if isinstance(current, X25519Module):
        return
    module.x25519 = X25519Module(current, keylog.guarded(on_created), keylog.guarded(on_exchange))


def endpoint_text(address: Any) -> str | None:
    """A socket address as the key log writes it: ``a.b.c.d:port`` or ``[v6]:port``.

    An IPv4-mapped IPv6 address is written as the IPv4 address it is, since that is what a capture
    shows; a link-local zone (``%eth0``) is dropped, since packets do not carry it.
    """
    if not isinstance(address, (tuple, list)) or len(address) < 2:
        return None
    host, port = str(address[0]).split("%", 1)[0], int(address[1])
    ip = ipaddress.ip_address(host)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return f"{ip}:{port}" if ip.version == 4 else f"[{ip}]:{port}"


def socket_endpoints(sock: Any, *, local_is_controller: bool) -> tuple[str | None, str | None]:
    """(controller, accessory) endpoints of a connected socket."""
    local, peer = endpoint_text(sock.getsockname()), endpoint_text(sock.getpeername())
    return (local, peer) if local_is_controller else (peer, local)


def transport_endpoints(transport: Any, *, local_is_controller: bool) -> tuple[str | None, str | None]:
    """(controller, accessory) endpoints of an asyncio transport."""
    local = endpoint_text(transport.get_extra_info("sockname"))
    peer = endpoint_text(transport.get_extra_info("peername"))
    return (local, peer) if local_is_controller else (peer, local)


def read_tlv8(data: bytes) -> dict[int, bytes]:
    """The items of a HAP TLV8 body by type, adjacent fragments of one type joined (HAP: TLV8).

    For reading what a stack received without changing how the stack reads it; a body that breaks
    the encoding yields the items before the damage.
    """
    items: dict[int, bytes] = {}
    offset, previous = 0, None
    while offset + 2 <= len(data):
        item_type, length = data[offset], data[offset + 1]
        value = bytes(data[offset + 2 : offset + 2 + length])
        if len(value) < length:
            break
        if item_type == previous:
            items[item_type] += value
        elif item_type not in items:
            items[item_type] = value
        previous = item_type
        offset += 2 + length
    return items
