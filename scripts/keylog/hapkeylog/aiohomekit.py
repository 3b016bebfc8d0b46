"""Key-log exporter for aiohomekit controllers (written against aiohomekit 4.0.1).

    python -m hapkeylog.aiohomekit --keylog keys.txt my_controller.py [ARG ...]
    python -m hapkeylog.aiohomekit --keylog keys.txt aiohomekitctl pair ...
    python -m hapkeylog.aiohomekit --keylog keys.txt -m aiohomekit list-accessories ...

or ``import hapkeylog.aiohomekit`` at the top of a script with HAPKEYLOGFILE set.

Hook points (aiohomekit 4.0.1):
- ``aiohomekit.protocol.x25519``: the module ``get_session_keys`` draws the pair-verify key from;
  each key it generates reports CONTROLLER_EPHEMERAL_SECRET and, at the exchange with the
  accessory's M2 key, PAIR_VERIFY_SHARED_SECRET.
- ``get_session_keys`` as imported by ``aiohomekit.controller.ip.connection`` (and by the CoAP and
  BLE connections when they are loaded): the controller's public key from the M1 request it
  yields, the LTPKs of the pairing it verifies, and the ``derive`` function it returns, through
  which the session keys are written as the connection derives them (CONTROL_WRITE_KEY,
  CONTROL_READ_KEY; EVENT_READ_KEY over CoAP).
- ``aiohomekit.controller.ip.connection.SecureHomeKitProtocol.__init__``: the secure session
  starting on a TCP transport, whose endpoints become SESSION_ENDPOINTS.
- ``aiohomekit.crypto.srp.SrpClient.get_session_key_bytes``: the SRP session key K, the first time
  it is computed, with A as the controller sends it in M3 (PAIR_SETUP_SESSION_KEY).
- ``perform_pair_setup_part2`` as imported by the IP (and CoAP, BLE) discovery code: the pairing it
  returns (ACCESSORY_LTPK, CONTROLLER_LTPK). Its ``iOSDeviceLTSK`` is never read.
"""

from __future__ import annotations

import importlib
import sys
import weakref
from typing import Any

from . import hooks
from .runner import activate_from_environment, main
from .writer import KeyLog

STACK = "aiohomekit"
# HAP: Pair Verify M1 carries the controller's ephemeral key in kTLVType_PublicKey.
TLV_PUBLIC_KEY = 0x03
SESSION_KEY_LABELS = {
    (b"Control-Salt", b"Control-Write-Encryption-Key"): "CONTROL_WRITE_KEY",
    (b"Control-Salt", b"Control-Read-Encryption-Key"): "CONTROL_READ_KEY",
    # HAP over CoAP: events are keyed separately (docs/keylog.md, EVENT_READ_KEY).
    (b"Event-Salt", b"Event-Read-Encryption-Key"): "EVENT_READ_KEY",
}
# Modules that import the pairing state machines by name, IP first; the others only when loaded.
PAIR_VERIFY_USERS = ("aiohomekit.controller.ip.connection", "aiohomekit.controller.coap.connection", "aiohomekit.controller.ble.pairing")
PAIR_SETUP_USERS = ("aiohomekit.controller.ip.discovery", "aiohomekit.controller.coap.connection", "aiohomekit.controller.ble.discovery")


def install(keylog: KeyLog) -> list[str]:
    import aiohomekit.controller.ip.connection as ip_connection
    import aiohomekit.crypto.srp as srp
    import aiohomekit.protocol as protocol

    sessions_by_write_key = hooks.PendingSessions()
    logged_srp_clients: weakref.WeakSet[Any] = weakref.WeakSet()
    problems: list[str] = []

    def key_created(key: hooks.EphemeralKey) -> None:
        keylog.write("CONTROLLER_EPHEMERAL_SECRET", key.public_bytes_raw, key.secret_bytes_raw)

    def key_exchanged(key: hooks.EphemeralKey, accessory_public: bytes, shared: bytes) -> None:
        keylog.write("PAIR_VERIFY_SHARED_SECRET", key.public_bytes_raw, shared)

    def write_pairing_ltpks(pairing: dict) -> None:
        if pairing.get("AccessoryPairingID") and pairing.get("AccessoryLTPK"):
            keylog.write("ACCESSORY_LTPK", pairing["AccessoryPairingID"], bytes.fromhex(pairing["AccessoryLTPK"]), once=True)
        if pairing.get("iOSPairingId") and pairing.get("iOSDeviceLTPK"):
            keylog.write("CONTROLLER_LTPK", pairing["iOSPairingId"], bytes.fromhex(pairing["iOSDeviceLTPK"]), once=True)

    def verify_request(state: dict, request: Any, pairing_data: dict, *args: Any, **kwargs: Any) -> None:
        items, _expected = request
        for item_type, value in items:
            if int(item_type) == TLV_PUBLIC_KEY and "session" not in state:
                state["session"] = bytes(value)
        write_pairing_ltpks(pairing_data)

    def verify_result(state: dict, result: Any, *args: Any, **kwargs: Any) -> Any:
        session = state.get("session")
        if session is None or not isinstance(result, tuple) or len(result) != 2:
            return None
        session_id, derive = result
        return session_id, logging_derive(session, derive)

    def logging_derive(session: bytes, derive: Any) -> Any:
        write_key = keylog.guarded(lambda salt, info, key: write_session_key(session, salt, info, key))

        def derive_and_log(salt: bytes, info: bytes, length: int = 32) -> bytes:
            key = derive(salt, info, length=length)
            write_key(salt, info, key)
            return key

        return derive_and_log

    def write_session_key(session: bytes, salt: bytes, info: bytes, key: bytes) -> None:
        label = SESSION_KEY_LABELS.get((bytes(salt), bytes(info)))
        if label is None or len(key) != 32:
            return
        keylog.write(label, session, key)
        if label == "CONTROL_WRITE_KEY":
            sessions_by_write_key.put(key, session)

    def secure_protocol_started(result: None, secure_protocol: Any, connection: Any, a2c_key: bytes, c2a_key: bytes) -> None:
        session = sessions_by_write_key.pop(c2a_key)
        transport = getattr(connection, "transport", None)
        if session is not None and transport is not None:
            keylog.write_endpoints(session, *hooks.transport_endpoints(transport, local_is_controller=True))

    def srp_session_key(result: bytes, client: Any) -> None:
        if client in logged_srp_clients:
            return
        logged_srp_clients.add(client)
        keylog.write("PAIR_SETUP_SESSION_KEY", bytes(client.get_public_key_bytes())[:32], bytes(result))

    def setup_result(state: dict, pairing: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(pairing, dict):
            write_pairing_ltpks(pairing)

    def hook(what: str, action: Any) -> None:
        try:
            action()
        except (hooks.HookError, AttributeError) as error:
            problems.append(f"{what}: {error}")

    hook("pair-verify key", lambda: hooks.replace_x25519(keylog, protocol, key_created, key_exchanged))
    for name in PAIR_VERIFY_USERS:
        module = loaded(name, required=name == PAIR_VERIFY_USERS[0])
        if module is not None:
            hook(f"{name}.get_session_keys", lambda module=module: hooks.around_generator(
                keylog, module, "get_session_keys", on_yield=verify_request, on_return=verify_result))
    hook("secure session", lambda: hooks.after(keylog, ip_connection.SecureHomeKitProtocol, "__init__", secure_protocol_started))
    hook("SRP session key", lambda: hooks.after(keylog, srp.SrpClient, "get_session_key_bytes", srp_session_key))
    for name in PAIR_SETUP_USERS:
        module = loaded(name, required=name == PAIR_SETUP_USERS[0])
        if module is not None:
            hook(f"{name}.perform_pair_setup_part2", lambda module=module: hooks.around_generator(
                keylog, module, "perform_pair_setup_part2", on_return=setup_result))
    return problems


def loaded(name: str, *, required: bool) -> Any:
    """The module ``name``: imported when ``required``, else only if the program already loaded it."""
    if required:
        return importlib.import_module(name)
    return sys.modules.get(name)


if __name__ == "__main__":
    main(STACK, install)
else:
    activate_from_environment(STACK, install)
