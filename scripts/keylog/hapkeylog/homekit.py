"""Key-log exporter for homekit_python (PyPI ``homekit``, written against 0.19.0), both roles.

    python -m hapkeylog.homekit --keylog keys.txt my_accessory_server.py [ARG ...]
    python -m hapkeylog.homekit --keylog keys.txt -m homekit.get_accessories -f pairing.json -a light

or ``import hapkeylog.homekit`` at the top of a script with HAPKEYLOGFILE set.

Accessory server (``homekit.accessoryserver``, 0.19.0):
- ``x25519`` as that module sees it: each pair-verify key ``_post_pair_verify`` generates reports
  ACCESSORY_EPHEMERAL_SECRET and, at the exchange with the controller's M1 key,
  PAIR_VERIFY_SHARED_SECRET.
- ``AccessoryRequestHandler._post_pair_verify``: after M1, the connection's endpoints
  (SESSION_ENDPOINTS) and the accessory's LTPK; after a successful M3, the session keys the
  handler stored for the connection (CONTROL_WRITE_KEY, CONTROL_READ_KEY) and the controller's
  LTPK it verified with.
- ``AccessoryRequestHandler._post_pair_setup``: after M3, A as the request carried it and the SRP
  session key K, an integer in homekit_python (PAIR_SETUP_SESSION_KEY, left-padded to 64 bytes);
  after M5, the accessory's LTPK.
- ``AccessoryServerData.add_peer`` (pair-setup M5, add pairing): CONTROLLER_LTPK.
Controller (``homekit.controller``, ``homekit.protocol``, 0.19.0):
- ``homekit.protocol.x25519``: CONTROLLER_EPHEMERAL_SECRET and PAIR_VERIFY_SHARED_SECRET.
- ``get_session_keys`` as imported by ``homekit.controller.ip_implementation``: the controller's
  public key from the M1 request, the pairing's LTPKs and the session keys it returns.
- ``homekit.controller.ip_implementation.IpSession._connect``: the socket of the verified session
  (SESSION_ENDPOINTS).
- ``homekit.crypto.srp.SrpClient.get_proof`` (pair-setup M3): A as sent and K.
- ``perform_pair_setup_part2`` as imported by ``homekit.controller.controller``: the new pairing's
  LTPKs. Neither the accessory's nor the controller's long-term secret key is ever read.
"""

from __future__ import annotations

import sys
import weakref
from collections import OrderedDict
from typing import Any

from . import hooks
from .runner import activate_from_environment, main
from .writer import KeyLog, left_padded

STACK = "homekit"
SRP_KEY_BYTES = 64
# HAP TLV8 types (HAP: Pairing TLV types).
TLV_PUBLIC_KEY = 0x03
TLV_STATE = 0x06
# Connections whose session keys were written, by homekit_python's session id ("ip:port"): the
# server keeps a connection's keys after it closes, and a new connection from the same port must
# not have the old keys written again. Bounded like every other table here.
REMEMBERED_CONNECTIONS = 1024


def install(keylog: KeyLog) -> list[str]:
    problems: list[str] = []
    for role, installer in (("accessory server", _install_accessory), ("controller", _install_controller)):
        try:
            problems += installer(keylog)
        except ImportError as error:
            problems.append(f"{role}: {error}")
    return problems


def _install_accessory(keylog: KeyLog) -> list[str]:
    import homekit.accessoryserver as server_module

    handler_class = server_module.AccessoryRequestHandler
    written_keys: OrderedDict[str, bytes] = OrderedDict()
    problems: list[str] = []

    def key_created(key: hooks.EphemeralKey) -> None:
        keylog.write("ACCESSORY_EPHEMERAL_SECRET", key.public_bytes_raw, key.secret_bytes_raw)

    def key_exchanged(key: hooks.EphemeralKey, controller_public: bytes, shared: bytes) -> None:
        keylog.write("PAIR_VERIFY_SHARED_SECRET", controller_public, shared)

    def write_accessory_ltpk(data: Any) -> None:
        if data.accessory_ltpk:
            keylog.write("ACCESSORY_LTPK", data.accessory_pairing_id_bytes.decode("utf-8"), bytes(data.accessory_ltpk), once=True)

    def pair_verify(result: None, handler: Any) -> None:
        state = _integer(hooks.read_tlv8(handler.body or b"").get(TLV_STATE))
        session = handler.server.sessions.get(handler.session_id, {})
        controller_public = session.get("ios_device_pub_key")
        if controller_public is None:
            return
        if state == 1:
            keylog.write_endpoints(bytes(controller_public), *hooks.socket_endpoints(handler.connection, local_is_controller=False))
            write_accessory_ltpk(handler.server.data)
        elif state == 3:
            write_key = session.get("controller_to_accessory_key")
            read_key = session.get("accessory_to_controller_key")
            if not write_key or not read_key or written_keys.get(handler.session_id) == bytes(write_key):
                return
            written_keys[handler.session_id] = bytes(write_key)
            if len(written_keys) > REMEMBERED_CONNECTIONS:
                written_keys.popitem(last=False)
            keylog.write("CONTROL_WRITE_KEY", bytes(controller_public), bytes(write_key))
            keylog.write("CONTROL_READ_KEY", bytes(controller_public), bytes(read_key))
            pairing_id = session.get("ios_device_pairing_id")
            ltpk = handler.server.data.get_peer_key(pairing_id) if pairing_id else None
            if ltpk:
                keylog.write("CONTROLLER_LTPK", bytes(pairing_id).decode("utf-8"), bytes(ltpk), once=True)

    def pair_setup(result: None, handler: Any) -> None:
        items = hooks.read_tlv8(handler.body or b"")
        state = _integer(items.get(TLV_STATE))
        session = handler.server.sessions.get(handler.session_id, {})
        if state == 3 and session.get("srp") is not None and TLV_PUBLIC_KEY in items:
            session_key = session["srp"].get_session_key()
            keylog.write("PAIR_SETUP_SESSION_KEY", items[TLV_PUBLIC_KEY][:32], left_padded(session_key, SRP_KEY_BYTES))
        elif state == 5:
            write_accessory_ltpk(handler.server.data)

    def add_peer(result: None, data: Any, pairing_id: bytes, ltpk: bytes, admin: bool) -> None:
        keylog.write("CONTROLLER_LTPK", bytes(pairing_id).decode("utf-8"), bytes(ltpk), once=True)

    for what, action in (
        ("pair-verify key", lambda: hooks.replace_x25519(keylog, server_module, key_created, key_exchanged)),
        ("pair-verify", lambda: hooks.after(keylog, handler_class, "_post_pair_verify", pair_verify)),
        ("pair-setup", lambda: hooks.after(keylog, handler_class, "_post_pair_setup", pair_setup)),
        ("pairings", lambda: hooks.after(keylog, server_module.AccessoryServerData, "add_peer", add_peer)),
    ):
        try:
            action()
        except (hooks.HookError, AttributeError) as error:
            problems.append(f"accessory {what}: {error}")
    return problems


def _install_controller(keylog: KeyLog) -> list[str]:
    import homekit.controller.controller as controller_module
    import homekit.controller.ip_implementation as ip_module
    import homekit.crypto.srp as srp
    import homekit.protocol as protocol

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
        entries, _expected = request
        for entry in entries:
            if entry.type_id == TLV_PUBLIC_KEY and "session" not in state:
                state["session"] = bytes(entry.data)
        write_pairing_ltpks(pairing_data)

    def verify_result(state: dict, keys: Any, *args: Any, **kwargs: Any) -> None:
        session = state.get("session")
        if session is None or not isinstance(keys, tuple) or len(keys) != 2:
            return
        write_key, read_key = keys
        keylog.write("CONTROL_WRITE_KEY", session, bytes(write_key))
        keylog.write("CONTROL_READ_KEY", session, bytes(read_key))
        sessions_by_write_key.put(bytes(write_key), session)

    def connected(result: bool, ip_session: Any, *args: Any) -> None:
        if not result:
            return
        session = sessions_by_write_key.pop(bytes(ip_session.c2a_key))
        if session is not None:
            keylog.write_endpoints(session, *hooks.socket_endpoints(ip_session.sock, local_is_controller=True))

    def srp_proof(result: int, client: Any) -> None:
        if client in logged_srp_clients:
            return
        logged_srp_clients.add(client)
        public_a = bytes(srp.Srp.to_byte_array(client.A))
        keylog.write("PAIR_SETUP_SESSION_KEY", public_a[:32], left_padded(client.get_session_key(), SRP_KEY_BYTES))

    def setup_result(state: dict, pairing: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(pairing, dict):
            write_pairing_ltpks(pairing)

    actions = [
        ("pair-verify key", lambda: hooks.replace_x25519(keylog, protocol, key_created, key_exchanged)),
        ("pair-verify", lambda: hooks.around_generator(
            keylog, ip_module, "get_session_keys", on_yield=verify_request, on_return=verify_result)),
        ("session", lambda: hooks.after(keylog, ip_module.IpSession, "_connect", connected)),
        ("SRP session key", lambda: hooks.after(keylog, srp.SrpClient, "get_proof", srp_proof)),
        ("pair-setup", lambda: hooks.around_generator(
            keylog, controller_module, "perform_pair_setup_part2", on_return=setup_result)),
    ]
    # The BLE transport imports the same state machines; it is hooked when the program loaded it.
    ble = sys.modules.get("homekit.controller.ble_impl")
    if ble is not None and hasattr(ble, "get_session_keys"):
        actions.append(("BLE pair-verify", lambda: hooks.around_generator(
            keylog, ble, "get_session_keys", on_yield=verify_request, on_return=verify_result)))
    for what, action in actions:
        try:
            action()
        except (hooks.HookError, AttributeError) as error:
            problems.append(f"controller {what}: {error}")
    return problems


def _integer(value: bytes | None) -> int | None:
    return int.from_bytes(value, "little") if value else None


if __name__ == "__main__":
    main(STACK, install)
else:
    activate_from_environment(STACK, install)
