"""The BLE scenarios: accessory database, MTU and fragment sizes, hooks and the controller story."""

from __future__ import annotations

from . import pdu
from .accessory import Accessory, Misbehaviour, Session
from .database import lamp, multi_service
from .rig import Scenario
from .stories import (
    ON,
    broadcast_key_expired_story,
    lamp_story,
    long_values_story,
    misbehaving_read_story,
    multi_service_story,
    pdu_statuses_story,
    gsn_not_bumped_story,
    configuration_number_unchanged_story,
    unauthenticated_read_story,
    wrong_code_story,
)


class ArmedMisbehaviour(Misbehaviour):
    """Misbehaves once, on the first secured Char-Read of On after the story arms it."""

    rule = ""
    armed = False

    def trigger(self, accessory: Accessory, session: Session, request: pdu.Request | None, detail: str) -> bool:
        if not self.armed or not session.secured or (request is not None and (request.opcode != pdu.OP_CHAR_READ or request.iid != ON)):
            return False
        self.armed = False
        accessory.journal.misbehaviour(self.rule, session.index, detail)
        return True


class WrongTid(ArmedMisbehaviour):
    rule = "transaction-id-mismatch"

    def response_tid(self, accessory, session, request):
        wrong = (request.tid + 1) % 256
        if self.trigger(accessory, session, request, f"Char-Read of IID {ON} with TID {request.tid} answered with TID {wrong}"):
            return wrong
        return request.tid


class NonceSkip(ArmedMisbehaviour):
    rule = "nonce-skip"

    def __init__(self) -> None:
        self.target = False

    def seal_response(self, accessory, session, request):
        self.target = self.armed and session.secured and request.opcode == pdu.OP_CHAR_READ and request.iid == ON
        return True

    def a2c_nonce(self, accessory, session, counter):
        if self.target:
            self.target = False
            if self.trigger(accessory, session, None, f"response to the Char-Read of IID {ON} sealed with accessory-to-controller "
                                                        f"counter {counter + 1} where {counter} was due"):
                return counter + 1
        return counter


class PlaintextAfterSecure(ArmedMisbehaviour):
    rule = "plaintext-after-encryption"

    def seal_response(self, accessory, session, request):
        if self.trigger(accessory, session, request, f"response to the Char-Read of IID {ON} (TID {request.tid}) sent in plaintext "
                                                     f"after pair-verify"):
            return False
        return True


class UnauthenticatedSecureRead(Misbehaviour):
    rule = "secure-access-without-session"

    def allow_read(self, accessory, session, characteristic):
        accessory.journal.misbehaviour(self.rule, session.index, f"Char-Read of IID {characteristic.iid} (properties "
                                       f"0x{characteristic.properties:04x}: secure read only) answered with its value "
                                       f"without a secure session, instead of status 5 (Insufficient Authentication)")
        return True


class GsnNotBumped(Misbehaviour):
    """A change of On (disconnected-notifying) while disconnected, once, with the GSN and the
    advertisement left as they were: the finding belongs on the next connection, which reads it."""

    rule = "gsn-not-bumped"

    def __init__(self) -> None:
        self.armed = False

    def disconnected_event(self, accessory, characteristic):
        if not self.armed or characteristic.iid != ON:
            return True
        self.armed = False
        accessory.journal.misbehaviour(self.rule, accessory.att.next_connection_index, f"On (IID {ON}, properties 0x{characteristic.properties:04x}: "
                                       f"notifies in the disconnected state) changed to {characteristic.encode_value().hex()} "
                                       f"while disconnected with the GSN left at {accessory.gsn} and no new advertisement")
        return False


class ConfigurationNumberUnchanged(Misbehaviour):
    """A service added to the database while disconnected, the configuration number left as it was:
    the finding belongs on the next connection, whose GATT discovery lists the new service."""

    rule = "config-number-unchanged"

    def bump_configuration_number(self, accessory, service):
        accessory.journal.misbehaviour(self.rule, accessory.att.next_connection_index, f"service {service.type} (IID {service.iid}, "
                                       f"{len(service.characteristics)} characteristics) added to the database while "
                                       f"disconnected with the configuration number left at {accessory.identity.config_number}")
        return False


class BroadcastKeyExpired(Misbehaviour):
    """While disconnected, jumps the GSN to the broadcast key's expiration GSN (as if 32,766 changes had
    gone by unseen) and advertises it; the next increment, a broadcast notification's, would discard the
    key in HomeKitADK, but this accessory seals the notification under it anyway."""

    rule = "broadcast-key-expired"

    async def jump_to_key_expiration(self, accessory) -> None:
        accessory.gsn = accessory.broadcast["expiresAfterGsn"]
        accessory.journal.write("gsn", gsn=accessory.gsn)
        await accessory.advertise(reason="regular")

    def discard_expired_broadcast_key(self, accessory):
        key = accessory.broadcast
        accessory.journal.misbehaviour(self.rule, key["connection"], f"the broadcast key generated on connection {key['connection']} at "
                                       f"GSN {key['gsn']} reached its expiration GSN {key['expiresAfterGsn']}; kept past the increment that discards "
                                       f"it, and the notification at GSN {accessory.gsn % 65535 + 1} sealed under it")
        return False


SCENARIOS = [
    Scenario("lamp", "Stand-alone lightbulb: discovery, unpaired identify, pair-setup, signature reads, pair-verify, reads, "
             "writes, identify, connected events, a disconnected event via GSN with pair-resume, broadcast notification.",
             lamp, lamp_story),
    Scenario("wrong-code", "Pair-setup with the wrong code (M4 Error=Authentication), then with the right one on a new "
             "connection; pair-verify and a read.", lamp, wrong_code_story, seed=2),
    Scenario("multi-service", "Lamp, battery, temperature sensor, lock and a vendor service; linked services, a timed write, "
             "a 300-byte value read and a 278-byte value written (several HAP fragments) at ATT MTU 185.",
             multi_service, multi_service_story, accessory_name="hapscope BLE Combo", seed=3),
    Scenario("long-values", "The multi-service accessory at the default ATT MTU of 23: Prepare/Execute Write for every request "
             "fragment, Read Blob for every response fragment, pair-setup M2 in pairing-level FragmentData/FragmentLast.",
             multi_service, long_values_story, accessory_name="hapscope BLE Combo", request_mtu=None,
             response_fragment_limit=100, pairing_fragment_limit=150, seed=4),
    Scenario("ble-wrong-tid", "Misbehaving: one response carries the wrong TID.", lamp, misbehaving_read_story,
             misbehaviour=WrongTid, seed=5, clean=False),
    Scenario("ble-nonce-skip", "Misbehaving: one response is sealed with a skipped nonce.", lamp, misbehaving_read_story,
             misbehaviour=NonceSkip, seed=6, clean=False),
    Scenario("ble-plaintext-after-secure", "Misbehaving: one response is sent in plaintext after pair-verify.", lamp,
             misbehaving_read_story, misbehaviour=PlaintextAfterSecure, seed=7, clean=False),
    Scenario("ble-unauthenticated-secure-read", "Misbehaving: a Char-Read of a secure-read-only characteristic without a "
             "session is answered with the value.", lamp, unauthenticated_read_story, misbehaviour=UnauthenticatedSecureRead,
             seed=8, clean=False),
    Scenario("ble-gsn-not-bumped", "Misbehaving: On changes while disconnected without a GSN increment; aiohomekit does not "
             "reconnect, and reads the new value only when asked, on the next connection.", lamp, gsn_not_bumped_story,
             misbehaviour=GsnNotBumped, seed=10, clean=False),
    Scenario("ble-configuration-number-unchanged", "Misbehaving: a Battery service is added while disconnected without a new "
             "configuration number; aiohomekit keeps its cached database on the next connection.", lamp,
             configuration_number_unchanged_story, misbehaviour=ConfigurationNumberUnchanged, seed=12, clean=False),
    Scenario("ble-broadcast-key-expired", "Misbehaving: after the broadcast key is generated, the accessory's GSN jumps to the "
             "key's expiration GSN while the controller (restarted from its cache) is not connected; the next broadcast "
             "notification is sealed under the expired key.", lamp, broadcast_key_expired_story,
             misbehaviour=BroadcastKeyExpired, seed=11, clean=False),
    Scenario("ble-pdu-statuses", "Requests answered with non-zero PDU statuses: a Char-Read of write-only Identify "
             "(Unsupported-PDU), a write of Brightness = 150 outside 0-100 (Invalid Request), a Char-Read naming a wrong "
             "IID (Invalid Instance ID); aiohomekit reports each and the session goes on.", lamp, pdu_statuses_story, seed=9),
]
BY_NAME = {s.name: s for s in SCENARIOS}
