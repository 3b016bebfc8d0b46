"""Key-log exporter for HAP-python accessories (``pyhap``, written against HAP-python 4.9.2).

    python -m hapkeylog.pyhap --keylog keys.txt my_accessory.py [ARG ...]

or, as the first line of the accessory script, ``import hapkeylog.pyhap`` with HAPKEYLOGFILE set.

Hook points (HAP-python 4.9.2):
- ``pyhap.hap_protocol.HAPServerProtocol.connection_made``: the TCP endpoints of the connection
  (peer = controller, socket = accessory), remembered for its handler.
- ``pyhap.hap_handler.HAPServerHandler._set_encryption_ctx`` (pair-verify M1 → M2): the
  controller's ephemeral public key, the accessory's ephemeral key pair and the X25519 shared
  secret; written as PAIR_VERIFY_SHARED_SECRET, ACCESSORY_EPHEMERAL_SECRET, SESSION_ENDPOINTS and
  the accessory's ACCESSORY_LTPK.
- ``pyhap.hap_crypto.HAPCrypto.reset``: the session keys, derived by HAP-python's own
  ``hap_hkdf`` from the shared secret it was given (CONTROL_WRITE_KEY, CONTROL_READ_KEY).
- ``pyhap.hap_handler.HAPServerHandler._pairing_two`` (pair-setup M3 → M4): A as the controller
  sent it and the SRP session key K, which HAP-python keeps as an integer (PAIR_SETUP_SESSION_KEY,
  left-padded to 64 bytes).
- ``pyhap.accessory_driver.AccessoryDriver.pair`` (pair-setup M5, add pairing): CONTROLLER_LTPK.
- ``pyhap.hap_handler.HAPServerHandler._pair_verify_two`` (pair-verify M3 accepted): the
  controller's CONTROLLER_LTPK as stored, so that later captures without the pair-setup verify too.
The accessory's long-term secret key (``State.private_key``) is never read.
"""

from __future__ import annotations

import weakref
from typing import Any

from . import hooks
from .runner import activate_from_environment, main
from .writer import KeyLog, left_padded

STACK = "pyhap"
SRP_KEY_BYTES = 64


def install(keylog: KeyLog) -> list[str]:
    import pyhap.accessory_driver
    import pyhap.hap_crypto
    import pyhap.hap_handler
    import pyhap.hap_protocol

    handler_class = pyhap.hap_handler.HAPServerHandler
    tags = pyhap.hap_handler.HAP_TLV_TAGS
    endpoints_by_handler: weakref.WeakKeyDictionary[Any, tuple[str | None, str | None]] = weakref.WeakKeyDictionary()
    sessions_by_shared_secret = hooks.PendingSessions()
    problems: list[str] = []

    def write_accessory_ltpk(state: Any) -> None:
        keylog.write("ACCESSORY_LTPK", state.mac, hooks.raw_public(state.public_key), once=True)

    def connection_made(result: None, protocol: Any, transport: Any) -> None:
        if protocol.handler is not None:
            endpoints_by_handler[protocol.handler] = hooks.transport_endpoints(transport, local_is_controller=False)

    def set_encryption_ctx(result: None, handler: Any, client_public: bytes, private_key: Any, public_key: Any,
                           shared_key: bytes, pre_session_key: bytes) -> None:
        session = bytes(client_public)
        keylog.write("PAIR_VERIFY_SHARED_SECRET", session, bytes(shared_key))
        keylog.write("ACCESSORY_EPHEMERAL_SECRET", hooks.raw_public(public_key), hooks.raw_private(private_key))
        controller, accessory = endpoints_by_handler.get(handler, (None, None))
        keylog.write_endpoints(session, controller, accessory)
        write_accessory_ltpk(handler.state)
        sessions_by_shared_secret.put(bytes(shared_key), session)

    def crypto_reset(result: None, crypto: Any, shared_key: bytes) -> None:
        session = sessions_by_shared_secret.pop(bytes(shared_key))
        if session is None:
            return
        derive = pyhap.hap_crypto.hap_hkdf
        # HAP-python's "in" cipher decrypts what the controller writes.
        keylog.write("CONTROL_WRITE_KEY", session, derive(shared_key, crypto.CIPHER_SALT, crypto.IN_CIPHER_INFO))
        keylog.write("CONTROL_READ_KEY", session, derive(shared_key, crypto.CIPHER_SALT, crypto.OUT_CIPHER_INFO))

    def pairing_two(result: None, handler: Any, tlv_objects: dict) -> None:
        verifier = handler.accessory_handler.srp_verifier
        if verifier is None or verifier.K is None:
            return
        public_a = bytes(tlv_objects[tags.PUBLIC_KEY])
        keylog.write("PAIR_SETUP_SESSION_KEY", public_a[:32], left_padded(verifier.K, SRP_KEY_BYTES))

    def pairing_five(result: None, handler: Any, *args: Any) -> None:
        write_accessory_ltpk(handler.state)

    def pair(result: bool, driver: Any, client_username_bytes: bytes, client_public: bytes, permissions: bytes) -> None:
        keylog.write("CONTROLLER_LTPK", bytes(client_username_bytes).decode("utf-8"), bytes(client_public), once=True)

    def pair_verify_two(result: None, handler: Any, tlv_objects: dict) -> None:
        if not handler.is_encrypted or handler.client_uuid is None:
            return
        state = handler.state
        ltpk = state.paired_clients.get(handler.client_uuid)
        pairing_id = state.uuid_to_bytes.get(handler.client_uuid)
        if ltpk is not None and pairing_id is not None:
            keylog.write("CONTROLLER_LTPK", bytes(pairing_id).decode("utf-8"), bytes(ltpk), once=True)

    for owner, name, observe in (
        (pyhap.hap_protocol.HAPServerProtocol, "connection_made", connection_made),
        (handler_class, "_set_encryption_ctx", set_encryption_ctx),
        (pyhap.hap_crypto.HAPCrypto, "reset", crypto_reset),
        (handler_class, "_pairing_two", pairing_two),
        (handler_class, "_pairing_five", pairing_five),
        (pyhap.accessory_driver.AccessoryDriver, "pair", pair),
        (handler_class, "_pair_verify_two", pair_verify_two),
    ):
        try:
            hooks.after(keylog, owner, name, observe)
        except hooks.HookError as error:
            problems.append(str(error))
    return problems


if __name__ == "__main__":
    main(STACK, install)
else:
    activate_from_environment(STACK, install)
