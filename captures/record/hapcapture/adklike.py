"""Issue 22, "what HomeKitADK accessories do on the wire": HAP-python made to answer as ADK's Lightbulb does.

No HomeKitADK build exists on PyPI or Debian, so HAP-python serves the database of ADK's sample
(Applications/Lightbulb/DB.c, apple/HomeKitADK @ fb201f98) and is patched at run time to shape its
messages as ADK writes them. Every shape below is taken from ADK's sources:

* pair-setup M2: State, PublicKey (B, leading zero bytes skipped), Salt, in that order
  (HAPPairingPairSetup.c, HAPPairingPairSetupGetM2); the salt and verifier come from the stored setup
  info (HAPAccessorySetupInfoGetSetupInfo), so a provisioned setup code gives the same salt in every M2;
* pair-verify M2: State, PublicKey, EncryptedData (HAPPairingPairVerify.c, HAPPairingPairVerifyGetM2);
* GET /accessories: ``Transfer-Encoding: chunked`` before ``Content-Type`` and no Content-Length
  (HAPIPAccessoryServer.c); boolean values as 0/1 (HAPIPAccessory.c, HAPIPAccessoryProtocol.c);
  services with "primary", "hidden" and "linked" always present (HAPIPAccessory.c);
* GET /characteristics: HAPIPAccessoryProtocolGetCharacteristicReadResponseBytes writes
  ``{"aid":A,"iid":I[,"type":T][,"format":F]`` then ``,"value":V}`` (or ``,"status":S}``), closing the
  object, and only then ``,"perms":[…]``, ``,"ev":true|false`` and the meta members (unit, minValue,
  maxValue, minStep, maxLen): with perms=1, ev=1 or meta=1 on a characteristic with constraints the body
  is not JSON. Write responses (HAPIPAccessoryProtocolGetCharacteristicWriteResponseBytes) and EVENT
  bodies (HAPIPAccessoryProtocolGetEventNotificationBytes) close every object after its last member:
  ADK never sends those malformed;
* TXT record keys in the order c#, ff, id, md, pv, s#, sf, ci, sh, md being the model
  (HAPIPServiceDiscovery.c, HAPIPServiceDiscoverySetHAPService); the configuration number starts at 1;
* EVENTs coalesced for up to 1 s (PROTOCOL.md §5.3, ADK HAPIPAccessoryServer.c), never to the session
  whose write caused the change (stock HAP-python already does both but with a 0.5 s window).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pyhap.hap_protocol
from pyhap import tlv as pyhap_tlv
from pyhap.accessory import Accessory
from pyhap.accessory_driver import AccessoryDriver, AccessoryMDNSServiceInfo
from pyhap.characteristic import Characteristic
from pyhap.const import CATEGORY_LIGHTBULB
from pyhap.hap_event import create_hap_event
from pyhap.hap_handler import HAPResponse
from pyhap.service import Service

from . import tlv8
from .faults import Request, Saboteur, wrap
from .journal import Journal
from .misbehaving import pairing_state
from .srpsearch import with_salt
from .story import Story

ADK_NAME = "Acme Light Bulb"
ADK_MODEL = "LightBulb1,1"
APPLE = "-0000-1000-8000-0026BB765291"
ADK_VERSION_TYPE = "34AB8811-AC7F-4340-BAC3-FD6A85F9943B"  # HAPCharacteristicTypes.c kHAPCharacteristicType_ADKVersion
# Applications/Lightbulb/DB.c instance ids.
IIDS = {
    ("3E", None): 1, ("3E", "14"): 2, ("3E", "20"): 3, ("3E", "21"): 4, ("3E", "23"): 5, ("3E", "30"): 6,
    ("3E", "52"): 7, ("3E", "53"): 8, ("3E", ADK_VERSION_TYPE): 9,
    ("A2", None): 16, ("A2", "A5"): 17, ("A2", "37"): 18,
    ("43", None): 48, ("43", "A5"): 49, ("43", "23"): 50, ("43", "25"): 51,
}  # fmt: skip
LIGHTBULB_ON = (1, 51)
LIGHTBULB_NAME = (1, 50)
CHUNK_BYTES = 0x403  # the first chunk of ADK's /accessories in the brief's recording of the Lightbulb sample
EVENT_COALESCE_SECONDS = 1.0
PERMS_ORDER = ("pr", "pw", "ev", "aa", "tw", "wr", "hd")  # HAPIPAccessoryProtocol.c writes perms in this order


def apple(short: str) -> str:
    return f"{int(short, 16):08X}{APPLE}"


def characteristic(name: str, kind: str, fmt: str, perms: list[str], value: Any) -> Characteristic:
    made = Characteristic.from_dict(name, {"Format": fmt, "Permissions": perms, "UUID": kind if "-" in kind else apple(kind)})
    made.value = value
    return made


class AdkLightbulb(Accessory):
    """ADK's Lightbulb sample database (Applications/Lightbulb/DB.c) served by HAP-python, with ADK's iids."""

    category = CATEGORY_LIGHTBULB

    def __init__(self, driver: AccessoryDriver, name: str) -> None:
        super().__init__(driver, name)
        self.set_info_service(firmware_revision="1", manufacturer="Acme", model=ADK_MODEL, serial_number="099DB48E9E28")
        information = self.get_service("AccessoryInformation")
        for extra in (
            characteristic("HardwareRevision", "53", "string", ["pr"], "1"),
            characteristic("ADKVersion", ADK_VERSION_TYPE, "string", ["pr", "hd"], "1.0;fb201"),
        ):
            extra.broker = self
            information.add_characteristic(extra)
            self.iid_manager.assign(extra)
        protocol = Service(uuid.UUID(apple("A2")), "HAPProtocolInformation")
        protocol.add_characteristic(
            characteristic("ServiceSignature", "A5", "data", ["pr"], ""), characteristic("Version", "37", "string", ["pr"], "1.1.0")
        )
        light = Service(uuid.UUID(apple("43")), "Lightbulb")
        self.on = characteristic("On", "25", "bool", ["pr", "pw", "ev"], False)
        light.add_characteristic(
            characteristic("ServiceSignature", "A5", "data", ["pr"], ""), characteristic("Name", "23", "string", ["pr"], "Light Bulb"), self.on
        )
        light.is_primary_service = True
        self.add_service(protocol, light)
        manager = self.iid_manager
        manager.iids = {member: IIDS[self.path_of(member)] for member in manager.iids}
        manager.objs = {iid: member for member, iid in manager.iids.items()}
        manager.counter = max(manager.objs)

    def path_of(self, member: Service | Characteristic) -> tuple[str, str | None]:
        for service in self.services:
            service_type = short(str(service.type_id))
            if member is service:
                return service_type, None
            if member in service.characteristics:
                kind = member.type_id
                return service_type, (ADK_VERSION_TYPE if str(kind).upper() == ADK_VERSION_TYPE else short(str(kind)))
        raise KeyError(member)


def short(full: str) -> str:
    text = str(full).upper()
    return text[: -len(APPLE)].lstrip("0") if text.endswith(APPLE) else text


def adk_lightbulb(driver: AccessoryDriver, name: str) -> AdkLightbulb:
    return AdkLightbulb(driver, name)


# --- ADK's serializers ---------------------------------------------------------------------------------


def adk_value(value: Any) -> Any:
    """ADK writes booleans as 0 and 1 (HAPIPAccessory.c, HAPIPAccessoryProtocol.c)."""
    return int(value) if isinstance(value, bool) else value


def adk_database(listing: dict[str, Any]) -> bytes:
    """HAP-python's /accessories dict in ADK's shape, compact JSON."""
    accessories = []
    for accessory in listing["accessories"]:
        services = []
        for service in accessory["services"]:
            characteristics = []
            for entry in service["characteristics"]:
                entry = {key: value for key, value in entry.items() if key != "description"}
                entry["perms"] = [perm for perm in PERMS_ORDER if perm in entry["perms"]]
                if "value" in entry:
                    entry["value"] = adk_value(entry["value"])
                characteristics.append(entry)
            services.append({
                "iid": service["iid"], "type": service["type"], "primary": bool(service.get("primary", False)),
                "hidden": False, "linked": service.get("linked", []), "characteristics": characteristics,
            })  # fmt: skip
        accessories.append({"aid": accessory["aid"], "services": services})
    return json.dumps({"accessories": accessories}, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def chunked_accessories_response(body: bytes) -> bytes:
    """The /accessories response as ADK writes it: chunked, Transfer-Encoding before Content-Type."""
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/hap+json\r\n\r\n"
    chunks = [body[offset : offset + CHUNK_BYTES] for offset in range(0, len(body), CHUNK_BYTES)]
    return head + b"".join(f"{len(chunk):x}\r\n".encode("ascii") + chunk + b"\r\n" for chunk in chunks) + b"0\r\n\r\n"


def read_flags(target: str) -> dict[str, bool]:
    query = target.partition("?")[2]
    pairs = dict(part.partition("=")[::2] for part in query.split("&") if part)
    return {flag: pairs.get(flag) == "1" for flag in ("meta", "perms", "type", "ev")}


def adk_read_body(driver: AccessoryDriver, target: str, results: list[dict[str, Any]], subscribed: set) -> bytes:
    """HAPIPAccessoryProtocolGetCharacteristicReadResponseBytes, member by member, for the served database."""
    flags = read_flags(target)
    success = all(result.get("status", 0) == 0 for result in results)
    parts = []
    for result in results:
        aid, iid = result["aid"], result["iid"]
        found = driver.accessory.get_characteristic(aid, iid)
        text = f'{{"aid":{aid},"iid":{iid}'
        if flags["type"] and found is not None:
            text += f',"type":"{short(str(found.type_id))}"'
        if flags["meta"] and found is not None:
            text += f',"format":"{found.properties["Format"]}"'
        status = result.get("status", 0)
        if status == 0:
            if not success:
                text += ',"status":0'
            text += f',"value":{json.dumps(adk_value(result["value"]), ensure_ascii=False)}}}'
        else:
            text += f',"status":{status}}}'
        if flags["perms"] and found is not None:
            perms = [perm for perm in PERMS_ORDER if perm in found.properties["Permissions"]]
            text += ',"perms":[' + ",".join(f'"{perm}"' for perm in perms) + "]"
        if flags["ev"] and found is not None:
            text += f',"ev":{"true" if (aid, iid) in subscribed else "false"}'
        parts.append(text)  # meta members beyond format: none for the Lightbulb's bool and 64-byte strings
    return ('{"characteristics":[' + ",".join(parts) + "]}").encode("utf-8")


def adk_personality(driver: AccessoryDriver, journal: Journal) -> Saboteur:
    """Make HAP-python answer with ADK's message shapes (module docstring); returns the saboteur for more."""
    saboteur = Saboteur(driver, journal)
    state = driver.state

    def first_number(accessories_hash: str) -> bool:
        state.accessories_hash = accessories_hash  # ADK starts its configuration number at 1
        return False

    state.set_accessories_hash = first_number

    def advertisement(original):
        def properties(info: AccessoryMDNSServiceInfo) -> dict[str, str]:
            stock = original(info)
            keys = ("c#", "ff", "id", "md", "pv", "s#", "sf", "ci", "sh")
            return {key: (ADK_MODEL if key == "md" else stock[key]) for key in keys}

        return properties

    wrap(AccessoryMDNSServiceInfo, "_get_advert_data", advertisement)
    pyhap.hap_protocol.EVENT_COALESCE_TIME_WINDOW = EVENT_COALESCE_SECONDS

    def adk_event(data: list[dict[str, Any]]) -> bytes:
        return create_hap_event([{**entry, "value": adk_value(entry["value"])} for entry in data])

    pyhap.hap_protocol.create_hap_event = adk_event

    def reshape(request: Request, response: HAPResponse) -> None:
        state_in = pairing_state(request.body) if request.path in ("/pair-setup", "/pair-verify") else None
        if request.path == "/pair-setup" and state_in == 1 and response.body:
            items = tlv8.decode(response.body)
            if 0x07 not in items:
                response.body = pyhap_tlv.encode(b"\x06", items[0x06], b"\x03", items[0x03], b"\x02", items[0x02])
        elif request.path == "/pair-verify" and state_in == 1 and response.body:
            items = tlv8.decode(response.body)
            response.body = pyhap_tlv.encode(b"\x06", items[0x06], b"\x03", items[0x03], b"\x05", items[0x05])
        elif request.command == "GET" and request.path == "/accessories" and response.status_code == 200:
            data = chunked_accessories_response(adk_database(driver.get_accessories()))
            saboteur.fault_next_write(request.protocol, lambda protocol, _stock, write: write(protocol, data))
        elif request.command == "GET" and request.path == "/characteristics" and response.body:
            results = json.loads(response.body)["characteristics"]
            subscribed = {
                tuple(int(part) for part in topic.split(".")) for topic, clients in driver.topics.items()
                if request.handler.client_address in clients
            }
            response.body = adk_read_body(driver, request.target, results, subscribed)

    saboteur.on_response(reshape)
    return saboteur


def adk_shapes_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    adk_personality(driver, journal)


# --- adk-bad-metadata ---------------------------------------------------------------------------------


def adk_bad_metadata_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    saboteur = adk_personality(driver, journal)

    def record(request: Request, response: HAPResponse) -> None:
        flags = read_flags(request.target)
        if request.command != "GET" or request.path != "/characteristics" or not (flags["perms"] or flags["ev"]):
            return
        asked = ", ".join(f"{flag}=1" for flag, on in flags.items() if on)
        saboteur.misbehaviour(
            "malformed-characteristics-body",
            request.client,
            f"the response to GET {request.target} on {request.client} (asking {asked}) is ADK's: each characteristic "
            "object is closed after its \"value\" and the perms/ev members follow outside it, so the body is not JSON: "
            f"{response.body.decode('utf-8')}",
        )

    saboteur.on_response(record)


async def adk_bad_metadata_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    connection = session.connection
    await connection.get("/accessories")
    on, name = (f"{aid}.{iid}" for aid, iid in (LIGHTBULB_ON, LIGHTBULB_NAME))
    await connection.get(f"/characteristics?id={on}")  # no flags: well-formed
    with story.journal.note("ADK writes perms and ev after the object it closed"):
        await connection.get(f"/characteristics?id={on}&meta=1&perms=1&type=1&ev=1")
        await connection.get(f"/characteristics?id={name},{on}&perms=1")
        await connection.get(f"/characteristics?id={on}&ev=1")
    await connection.get(f"/characteristics?id={on}&meta=1&type=1")  # meta alone: format is inside, nothing outside
    await session.close()


# --- adk-provisioned-salt -----------------------------------------------------------------------------


def adk_provisioned_salt_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """ADK with a provisioned setup code: one stored salt and verifier answer every pair-setup M1."""
    saboteur = adk_personality(driver, journal)
    stored: list[bytes] = []

    def setup_srp_verifier(original):
        def setup(accessory_driver: AccessoryDriver) -> None:
            original(accessory_driver)  # a fresh secret b, as ADK draws for every M2
            if stored:
                accessory_driver.srp_verifier = with_salt(accessory_driver.srp_verifier, stored[0])
            else:
                stored.append(accessory_driver.srp_verifier.s)  # the provisioned salt

        return setup

    wrap(AccessoryDriver, "setup_srp_verifier", setup_srp_verifier)
    m2_count = [0]

    def record(request: Request, response: HAPResponse) -> None:
        if request.path != "/pair-setup" or pairing_state(request.body) != 1:
            return
        m2_count[0] += 1
        if m2_count[0] > 1:
            saboteur.misbehaviour(
                "salt-reuse",
                request.client,
                f"BY DESIGN, NOT A MISBEHAVIOUR (an audit must not report it above info): pair-setup M2 #{m2_count[0]} "
                f"on {request.client} carries the salt {stored[0].hex()} of M2 #1, because the setup code is provisioned: "
                "ADK's HAPAccessorySetupInfoGetSetupInfo returns the salt and verifier stored at provisioning for every "
                "pair-setup (HAPPairingPairSetup.c), only the secret b is drawn anew",
            )

    saboteur.on_response(record)


async def adk_provisioned_salt_story(story: Story) -> None:
    discovery = await story.discover()
    await story.expect_pairing_failure(discovery, PROVISIONED_WRONG_CODE)
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    await session.connection.get("/accessories")
    await session.close()


PROVISIONED_WRONG_CODE = "101-48-316"


# --- adk-shapes ---------------------------------------------------------------------------------------


async def adk_shapes_story(story: Story) -> None:
    """Pair, read the chunked database, subscribe on one session and write on another: EVENTs a second apart."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    watcher = await story.open_session(pairing)
    await watcher.connection.get("/accessories")
    await watcher.subscribe([LIGHTBULB_ON])
    writer = await story.open_session(pairing)
    await writer.put_characteristics([(*LIGHTBULB_ON, True)])
    await asyncio.sleep(0.3)
    await writer.put_characteristics([(*LIGHTBULB_ON, False)])  # coalesced with the first into one EVENT
    await asyncio.sleep(1.6)
    await writer.put_characteristics([(*LIGHTBULB_ON, True)])
    await asyncio.sleep(1.6)
    await watcher.connection.get(f"/characteristics?id={LIGHTBULB_ON[0]}.{LIGHTBULB_ON[1]}")
    await writer.close()
    await watcher.unsubscribe([LIGHTBULB_ON])
    await watcher.close()



# --- the scenarios ------------------------------------------------------------------------------------

NOTE = (
    "a capture for issue 22 (what HomeKitADK accessories do on the wire): HAP-python serves ADK's Lightbulb sample "
    "database (Applications/Lightbulb/DB.c, apple/HomeKitADK @ fb201f98) and is patched at run time to write ADK's "
    "message shapes (hapcapture/adklike.py cites the ADK source of each); HAP-python still appends the device id's last "
    "three bytes to the mDNS instance name, which ADK does not"
)


def scenarios(scenario, attempt) -> tuple:
    """This module's scenarios, built with scenarios.Scenario and srpsearch.PairSetupAttempt (passed in)."""
    return (
        scenario(
            name="adk-bad-metadata",
            description=(
                "An ADK-like Lightbulb answers reads that ask perms=1 or ev=1 as ADK does: each characteristic object is "
                "closed after its value and the perms and ev members follow outside it, so the body is not JSON."
            ),
            seed=28001,
            accessory_name=ADK_NAME,
            build_accessory=adk_lightbulb,
            story=adk_bad_metadata_story,
            accessory_hook=adk_bad_metadata_accessory,
            notes=(NOTE, "ADK's write responses and EVENT bodies close every object: ADK never sends those malformed"),
        ),
        scenario(
            name="adk-provisioned-salt",
            description=(
                "An ADK-like Lightbulb with a provisioned setup code answers every pair-setup M1 with its one stored salt; "
                f"the first pair-setup, with the wrong code {PROVISIONED_WRONG_CODE}, fails at M4 Authentication, the "
                "second succeeds."
            ),
            seed=29001,
            accessory_name=ADK_NAME,
            build_accessory=adk_lightbulb,
            story=adk_provisioned_salt_story,
            accessory_hook=adk_provisioned_salt_accessory,
            pair_setups=(
                attempt(code=PROVISIONED_WRONG_CODE, succeeds=False, reuses_first_salt=True),
                attempt(reuses_first_salt=True),
            ),
            notes=(
                NOTE,
                "the setup code is PROVISIONED (ADK: the salt and verifier are stored at provisioning and "
                "HAPAccessorySetupInfoGetSetupInfo returns them for every pair-setup), so every M2 carries the same salt BY "
                "DESIGN; the salt-reuse entry in misbehaviours is that design, to be reported at info level at most",
                f"adk-failed-setup: the first pair-setup uses the wrong code {PROVISIONED_WRONG_CODE} and fails at M4 "
                "Error=Authentication; the key log has the controller's K and, as a comment, the accessory's",
            ),
        ),
        scenario(
            name="adk-shapes",
            description=(
                "An ADK-like Lightbulb pairs and is used from two sessions: ADK's TLV item orders, a chunked /accessories "
                "with Transfer-Encoding before Content-Type, short UUIDs, a hidden custom characteristic, 0/1 booleans, "
                "EVENTs a second apart and never to the writer, ADK's TXT key order from c#=1, sf 1 then 0."
            ),
            seed=30001,
            accessory_name=ADK_NAME,
            build_accessory=adk_lightbulb,
            story=adk_shapes_story,
            accessory_hook=adk_shapes_accessory,
            notes=(NOTE, "a CLEAN capture: every ADK behaviour in it is legitimate HAP"),
        ),
    )
