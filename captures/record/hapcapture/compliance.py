"""Issue 17, "the audit answers what homes report": databases out of compliance, limits, lost pairings, c#.

The scenarios here make HAP-python serve databases that break the catalogue (``catalogue/``) or the limits
controllers accept, let aiohomekit lose its pairing the ways homes do, and record one accessory several
times (same device id and long-term key) so that its configuration number can be compared across
captures. As in ``misbehaving.py``, the libraries are patched at run time only and every deliberate
misbehaviour is journalled with the audit rule it must trigger.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from typing import Any, Callable

from aiohomekit.exceptions import AuthenticationError, InvalidError
from aiohomekit.model.characteristics import CharacteristicsTypes as Types
from pyhap import util
from pyhap.accessory import Accessory, Bridge
from pyhap.accessory_driver import AccessoryDriver, AccessoryMDNSServiceInfo
from pyhap.characteristic import Characteristic
from pyhap.loader import get_loader
from pyhap.service import Service

from . import accessories
from .faults import Request, Saboteur, wrap
from .journal import Journal
from . import tlv8
from .misbehaving import find_characteristic, pairing_state
from .seeded import SeededRandomness, seeded_ed25519_key
from .story import Database, Story

BRIDGE_NAME = "hapscope Home Bridge"


def iid_of(hap: dict[str, Any], kind: str) -> dict[str, Any]:
    """The characteristic (or service) of short type ``kind`` in a to_HAP dict's list."""
    return next(member for member in hap if member["type"] == kind)


def service_json(accessory_json: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(service for service in accessory_json["services"] if service["type"] == kind)


def next_iid(accessory_json: dict[str, Any]) -> int:
    return 1 + max(
        member["iid"] for service in accessory_json["services"] for member in (service, *service["characteristics"])
    )


def rewrite_listing(accessory: Accessory, edit: Callable[[dict[str, Any]], None]) -> None:
    """Let ``edit`` change the accessory's /accessories entry every time HAP-python builds it."""
    genuine = accessory.to_HAP

    def to_hap(include_value: bool = True) -> dict[str, Any]:
        listing = genuine(include_value)
        listing = {**listing, "services": [{**s, "characteristics": [dict(c) for c in s["characteristics"]]} for s in listing["services"]]}
        edit(listing)
        return listing

    accessory.to_HAP = to_hap


def on_accessories_listing(saboteur: Saboteur, ordinal: int, action: Callable[[Request], None]) -> None:
    """Run ``action`` once, with the ``ordinal``-th GET /accessories (1 for the first) just answered."""
    seen = [0]

    def hook(request: Request, _response) -> None:
        if request.command == "GET" and request.path == "/accessories":
            seen[0] += 1
            if seen[0] == ordinal:
                action(request)

    saboteur.on_response(hook)


async def read_database(story: Story) -> None:
    """Pair, verify, read the database raw (aiohomekit's model would reject some), read one value, close."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    listing = await session.connection.get_json("/accessories")
    first_on = next(
        (accessory["aid"], characteristic["iid"])
        for accessory in listing["accessories"]
        for service in accessory["services"]
        for characteristic in service["characteristics"]
        if characteristic["type"] == "25"
    )
    await session.connection.get_json(f"/characteristics?id={first_on[0]}.{first_on[1]}")
    await session.close()


# --- out-of-compliance --------------------------------------------------------------------------------


def compliance_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    bridge = Bridge(driver, name)
    accessories.describe(bridge, "Bridge", "HS-BRIDGE-0017")
    bridge.add_accessory(accessories.Lightbulb(driver, "Desk Lamp", "HS-LAMP-0017"))
    bridge.add_accessory(accessories.TemperatureSensor(driver, "Living Room Sensor", "HS-TEMP-0017", None))
    bridge.add_accessory(accessories.Thermostat(driver, "Hallway Thermostat", "HS-THERMO-0017"))
    bridge.add_accessory(accessories.Switch(driver, "Garden Switch", "HS-SWITCH-0017"))
    bridge.add_accessory(accessories.Outlet(driver, "Coffee Maker", "HS-OUTLET-0017"))
    return bridge


def out_of_compliance_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """The /accessories entries break the catalogue: every rule of issue 17 item 1 once, each journalled."""
    saboteur = Saboteur(driver, journal)
    faults: list[tuple[str, str]] = []

    lamp, brightness_iid, _ = find_characteristic(driver, "Desk Lamp", "Brightness")
    lamp_names: list[int] = []

    def lamp_edit(listing: dict[str, Any]) -> None:
        lightbulb = service_json(listing, "43")
        iid_of(lightbulb["characteristics"], "8")["format"] = "float"
        first = next_iid(listing)
        lamp_names[:] = [first, first + 1]
        for iid, value in zip(lamp_names, ("Desk Lamp", "Reading Light")):
            lightbulb["characteristics"].append({"iid": iid, "type": "23", "perms": ["pr"], "format": "string", "value": value})

    rewrite_listing(lamp, lamp_edit)
    lamp_listing = lamp.to_HAP()
    lightbulb_iid = service_json(lamp_listing, "43")["iid"]
    faults.append(("format-mismatch", f"{lamp.aid}.{brightness_iid} (Desk Lamp Brightness, type 8) has format \"float\"; the catalogue says int"))
    faults.append((
        "duplicate-name",
        f"aid {lamp.aid} (Desk Lamp): its Lightbulb service (43, iid {lightbulb_iid}) has two Name characteristics (23), "
        f"{lamp.aid}.{lamp_names[0]} \"Desk Lamp\" and {lamp.aid}.{lamp_names[1]} \"Reading Light\"",
    ))  # fmt: skip

    sensor, temperature_iid, _ = find_characteristic(driver, "Living Room Sensor", "CurrentTemperature")
    sensor_name = []

    def sensor_edit(listing: dict[str, Any]) -> None:
        iid_of(service_json(listing, "8A")["characteristics"], "11")["unit"] = "percentage"
        information = service_json(listing, "3E")
        sensor_name[:] = [next_iid(listing)]
        information["characteristics"].append(
            {"iid": sensor_name[0], "type": "E3", "perms": ["pr", "pw", "ev"], "format": "string", "value": "#Living Room*"}
        )

    rewrite_listing(sensor, sensor_edit)
    sensor.to_HAP()
    faults.append(("unit-mismatch", f"{sensor.aid}.{temperature_iid} (Living Room Sensor CurrentTemperature, type 11) has unit \"percentage\"; the catalogue says celsius"))
    faults.append((
        "invalid-name",
        f"{sensor.aid}.{sensor_name[0]} (Living Room Sensor ConfiguredName, type E3, in its Accessory Information service) has "
        "the value \"#Living Room*\": it starts and ends with a character HomeKit names may not have",
    ))  # fmt: skip

    thermostat, target_iid, _ = find_characteristic(driver, "Hallway Thermostat", "TargetTemperature")

    def thermostat_edit(listing: dict[str, Any]) -> None:
        service = service_json(listing, "4A")
        service["characteristics"] = [c for c in service["characteristics"] if c["type"] != "35"]

    rewrite_listing(thermostat, thermostat_edit)
    thermostat_service = service_json(thermostat.to_HAP(), "4A")["iid"]
    faults.append((
        "missing-required-characteristic",
        f"aid {thermostat.aid} (Hallway Thermostat): its Thermostat service (4A, iid {thermostat_service}) lacks the required "
        f"Target Temperature (35; HAP-python's iid {target_iid} is not listed)",
    ))  # fmt: skip

    switch, switch_on_iid, _ = find_characteristic(driver, "Garden Switch", "On")
    switch_extra = []

    def switch_edit(listing: dict[str, Any]) -> None:
        service = service_json(listing, "49")
        del iid_of(service["characteristics"], "25")["perms"]
        switch_extra[:] = [next_iid(listing)]
        service["characteristics"].append({
            "iid": switch_extra[0], "type": "8", "perms": ["pr", "pw", "ev"], "format": "int", "value": 50,
            "unit": "percentage", "minValue": 0, "maxValue": 100, "minStep": 1,
        })  # fmt: skip

    rewrite_listing(switch, switch_edit)
    switch_service = service_json(switch.to_HAP(), "49")["iid"]
    faults.append(("invalid-perms", f"{switch.aid}.{switch_on_iid} (Garden Switch On, type 25) has no perms member at all"))
    faults.append((
        "unexpected-characteristic",
        f"{switch.aid}.{switch_extra[0]} (Brightness, type 8) is listed in Garden Switch's Switch service (49, iid {switch_service}), "
        "whose required and optional characteristics are On (25) and Name (23)",
    ))  # fmt: skip

    outlet, outlet_on_iid, _ = find_characteristic(driver, "Coffee Maker", "On")
    _, outlet_name_iid, _ = find_characteristic(driver, "Coffee Maker", "Name")

    def outlet_edit(listing: dict[str, Any]) -> None:
        iid_of(service_json(listing, "47")["characteristics"], "25")["perms"] = ["pr", "pw", "ev", "rw"]
        iid_of(service_json(listing, "3E")["characteristics"], "23")["value"] = "Coffee Maker \u2615"

    rewrite_listing(outlet, outlet_edit)
    faults.append(("invalid-perms", f"{outlet.aid}.{outlet_on_iid} (Coffee Maker On, type 25) has perms [\"pr\", \"pw\", \"ev\", \"rw\"]; \"rw\" is no HAP permission"))
    faults.append((
        "invalid-name",
        f"{outlet.aid}.{outlet_name_iid} (Coffee Maker Name, type 23) has the value \"Coffee Maker \\u2615\" (it ends with the "
        "emoji U+2615 HOT BEVERAGE)",
    ))  # fmt: skip

    def journal_faults(request: Request) -> None:
        for rule, detail in faults:
            saboteur.misbehaviour(rule, request.client, f"in the GET /accessories response on {request.client}: {detail}")

    on_accessories_listing(saboteur, 1, journal_faults)


# --- over-limits --------------------------------------------------------------------------------------

# How many accessories of each kind the grown bridge adds (with the bridge, Desk Lamp and Hall Switch: 151).
GROWN_LIGHTS = 146
EXTRA_SERVICES = 101
EXTRA_CHARACTERISTICS = 101
CUSTOM_SERVICE = "E2D2A000-6B6E-4C1B-9B9E-68617073636F"


def custom_uuid(number: int) -> str:
    return f"E2D2{number:04X}-6B6E-4C1B-9B9E-68617073636F"


def limits_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    bridge = Bridge(driver, name)
    accessories.describe(bridge, "Bridge", "HS-BRIDGE-0151")
    bridge.add_accessory(accessories.Lightbulb(driver, "Desk Lamp", "HS-LAMP-0151"))
    bridge.add_accessory(accessories.Switch(driver, "Hall Switch", "HS-SWITCH-0151"))
    return bridge


def scene_panel(driver: AccessoryDriver) -> Accessory:
    """An accessory with Accessory Information and 101 Switch services: 102 services."""
    panel = accessories.Switch(driver, "Scene Panel", "HS-PANEL-0151")
    for _ in range(1, EXTRA_SERVICES):
        panel.add_service(get_loader().get_service("Switch"))
    return panel


def sensor_hub(driver: AccessoryDriver) -> Accessory:
    """An accessory whose one custom service carries 101 custom characteristics."""
    hub = Accessory(driver, "Sensor Hub")
    accessories.describe(hub, "Sensor Hub", "HS-HUB-0151")
    service = Service(uuid.UUID(CUSTOM_SERVICE), "Readings")
    for number in range(1, EXTRA_CHARACTERISTICS + 1):
        reading = Characteristic.from_dict(
            f"Reading {number}", {"Format": "uint8", "Permissions": ["pr"], "UUID": custom_uuid(number)}
        )
        reading.value = number % 100
        service.add_characteristic(reading)
    hub.add_service(service)
    return hub


def over_limits_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """After the first GET /accessories the bridge grows past every limit and bumps c#, as a stock bridge would."""
    saboteur = Saboteur(driver, journal)
    bridge = driver.accessory

    def grow(request: Request) -> None:
        for number in range(1, GROWN_LIGHTS + 1):
            bridge.add_accessory(accessories.Lightbulb(driver, f"Light {number:03d}", f"HS-LAMP-{number + 1000:04d}"))
        panel, hub = scene_panel(driver), sensor_hub(driver)
        bridge.add_accessory(panel)
        bridge.add_accessory(hub)
        driver.config_changed()  # stock HAP-python: c# + 1 and a new advertisement
        listing = util.to_hap_json(driver.get_accessories())
        total = 1 + len(bridge.accessories)
        where = f"the second GET /accessories response on {request.client} (after the bridge grew and advertised c#={driver.state.config_version})"
        saboteur.misbehaviour(
            "too-many-accessories",
            request.client,
            f"{where} lists {total} accessories (the bridge and {total - 1} bridged ones); HAP allows at most 150",
        )
        saboteur.misbehaviour(
            "too-many-services",
            request.client,
            f"{where}: aid {panel.aid} (Scene Panel) has {len(panel.services)} services (Accessory Information and "
            f"{len(panel.services) - 1} Switch services); controllers accept at most 100 per accessory",
        )
        saboteur.misbehaviour(
            "too-many-characteristics",
            request.client,
            f"{where}: aid {hub.aid} (Sensor Hub), its custom service {CUSTOM_SERVICE} (iid "
            f"{hub.iid_manager.get_iid(hub.services[-1])}) has {EXTRA_CHARACTERISTICS} characteristics; at most 100 per service",
        )
        saboteur.misbehaviour(
            "database-too-large",
            request.client,
            f"{where} has a {len(listing)}-byte JSON body, more than the 131072 bytes (128 KiB) the toolkit takes as the "
            "largest /accessories a controller reads (no documented figure was found; see rules.MAX_DATABASE_BYTES)",
        )

    on_accessories_listing(saboteur, 1, grow)


async def over_limits_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    await session.connection.get_json("/accessories")
    await asyncio.sleep(1.0)  # the c# change reaches the network before the controller reads again
    with story.journal.note("the database after the accessory announced a new c#"):
        await session.connection.get_json("/accessories")
    await session.close()


# --- removed-after-setup ------------------------------------------------------------------------------


async def removed_after_setup_story(story: Story) -> None:
    """Pair, verify, read /accessories, then remove the own pairing: what iOS does with a database it rejects."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    await session.connection.get_json("/accessories")
    own_id = pairing.pairing_data["iOSPairingId"]
    client = story.client_of(session.connection)
    with story.journal.note("the controller gives up on the accessory and removes its own pairing"):
        await session.remove_pairing(own_id)
    story.journal.misbehaviour(
        "pairing-removed-after-setup",
        client,
        f"on {client}, its first verified session after pair-setup, the controller {own_id} read GET /accessories and "
        "then at once removed its own pairing (POST /pairings Remove Pairing, Method 4, of itself), accepted with M2 "
        "without Error: the pattern iOS shows when it rejects an accessory's database",
    )
    await asyncio.sleep(0.5)  # the accessory announces sf=1 again
    await session.close()


# --- lost-pairings ------------------------------------------------------------------------------------


def lost_pairings_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Keeps advertising sf=0 (paired) after the last admin pairing was removed."""
    saboteur = Saboteur(driver, journal)
    was_paired = [False]
    recorded = []

    def advertisement(original):
        def properties(info: AccessoryMDNSServiceInfo) -> dict[str, str]:
            advertised = original(info)
            was_paired[0] |= info.state.paired
            if was_paired[0] and not info.state.paired and advertised["sf"] != "0":
                advertised["sf"] = "0"
                if not recorded:
                    recorded.append(True)
                    saboteur.misbehaviour(
                        "sf-not-restored",
                        None,
                        "after the last admin pairing was removed (and with it every pairing), the accessory re-announced "
                        f"itself with sf=0 (paired) and c#={advertised['c#']} instead of sf=1; every advertisement from then on "
                        "still says sf=0 while the accessory holds no pairing",
                    )
            return advertised

        return properties

    wrap(AccessoryMDNSServiceInfo, "_get_advert_data", advertisement)

    def refused_verify(request: Request, response) -> None:
        if request.path != "/pair-verify" or not response.body or 0x07 not in tlv8.decode(response.body):
            return
        answer = tlv8.decode(response.body)
        saboteur.misbehaviour(
            "verify-after-removal",
            request.client,
            f"the home hub (a regular controller the owner added, never removed by name) ran pair-verify on {request.client} "
            "after the owner removed its own pairing, the last admin one, which removed every pairing: the accessory, "
            f"holding no pairing, answered M{tlv8.integer(answer, tlv8.STATE)} Error={tlv8.integer(answer, tlv8.ERROR)}. "
            "The hub lost its pairing without being told",
        )

    saboteur.on_response(refused_verify)


async def lost_pairings_story(story: Story) -> None:
    """The owner adds a hub (regular controller), then removes itself: the hub's pairing goes with it."""
    discovery = await story.discover()
    owner = await story.pair(discovery)
    owner_session = await story.open_session(owner)
    db = Database(await owner_session.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    hub = story.new_identity("home-hub", upper_case=True)
    with story.journal.note("the owner adds a home hub as a regular (non-admin) controller"):
        await owner_session.add_pairing(hub.pairing_id, hub.ltpk_hex, "User")
    hub_session = await story.open_session(owner, hub)
    await hub_session.get_characteristics([lamp_on])
    await hub_session.close()
    with story.journal.note("the owner removes its own pairing, the last admin: every pairing goes"):
        await owner_session.remove_pairing(owner.pairing_data["iOSPairingId"])
    await owner_session.close()
    await asyncio.sleep(1.0)  # the accessory's re-announcements
    hub_again = story.session(owner, hub)
    hub_again.connection.closing = True
    with story.journal.note("the hub comes back: its pair-verify fails"):
        try:
            await hub_again.connection._connect_once()
        except (AuthenticationError, InvalidError) as error:
            story.journal.observation(f"aiohomekit: the hub's pair-verify failed ({type(error).__name__}: {error})")
        else:
            raise RuntimeError("the hub passed pair-verify after every pairing was removed")
    if hub_again.connection.transport is not None:
        hub_again.connection.transport.close()


# --- one accessory across captures: c# and iids -------------------------------------------------------

# Seeds of the accessories whose history spans two captures: both captures of a pair use the same key.
HISTORY_SEEDS = {"config-ab": 22001, "config-cd": 22101, "renumbered": 22201}


def same_accessory(driver: AccessoryDriver, history: str) -> None:
    """Give the accessory the long-term key of its history, so both captures show one pairing identity."""
    driver.state.private_key = seeded_ed25519_key(SeededRandomness(HISTORY_SEEDS[history], "accessory"), "accessory-ltsk")
    driver.state.public_key = driver.state.private_key.public_key()


def history_bridge(driver: AccessoryDriver, name: str, late_switch: bool = False, iid_offset: int = 0) -> Bridge:
    """The accessory whose history the config and renumbered captures follow.

    ``iid_offset`` moves every bridged accessory's service and characteristic iids up by that much
    (HAP-python counts them from 1 per accessory); the bridge's own stay.
    """
    bridge = Bridge(driver, name)
    accessories.describe(bridge, "Bridge", "HS-BRIDGE-0022")
    bridged = [
        accessories.Lightbulb(driver, "Desk Lamp", "HS-LAMP-0022"),
        accessories.TemperatureSensor(driver, "Living Room Sensor", "HS-TEMP-0022", None),
    ]
    if late_switch:
        bridged.append(accessories.Switch(driver, "Late Switch", "HS-SWITCH-0022"))
    for accessory in bridged:
        if iid_offset:
            manager = accessory.iid_manager
            manager.iids = {member: iid + iid_offset for member, iid in manager.iids.items()}
            manager.objs = {iid: member for member, iid in manager.iids.items()}
            manager.counter += iid_offset
        bridge.add_accessory(accessory)
    return bridge


def database_hash(driver: AccessoryDriver, bridge: Bridge) -> str:
    """HAP-python's accessories hash (AccessoryDriver.accessories_hash) of another build of the database."""
    return hashlib.sha512(util.to_sorted_hap_json({"accessories": bridge.to_HAP(include_value=False)})).hexdigest()


def carry_state(driver: AccessoryDriver, earlier: Bridge, config_version: int) -> str:
    """The state the accessory kept from its earlier capture: that capture's c# and database hash."""
    driver.state.config_version = config_version
    driver.state.accessories_hash = database_hash(driver, earlier)
    return driver.state.accessories_hash


EARLIER_CONFIG_NUMBER = 2  # what a fresh HAP-python advertises: it starts at 1 and bumps once for its database


def config_a_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    same_accessory(driver, "config-ab")


def config_b_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """config-a's accessory after a Late Switch was added; it keeps c# = 2 instead of bumping it."""
    same_accessory(driver, "config-ab")
    saboteur = Saboteur(driver, journal)
    earlier = history_bridge(driver, BRIDGE_NAME)
    carry_state(driver, earlier, EARLIER_CONFIG_NUMBER)
    state = driver.state

    def keep_number(accessories_hash: str) -> bool:
        changed = state.accessories_hash != accessories_hash
        state.accessories_hash = accessories_hash  # stored, but the configuration number is left as it was
        return changed

    state.set_accessories_hash = keep_number

    def journal_it(request: Request) -> None:
        late = next(accessory for accessory in driver.accessory.accessories.values() if accessory.display_name == "Late Switch")
        saboteur.misbehaviour(
            "config-number-not-bumped",
            request.client,
            f"this capture's accessory is config-a's (device id {state.mac}, the same long-term key) after its database "
            f"changed: the bridged accessory Late Switch (aid {late.aid}) was added; it kept config-a's state (c#="
            f"{EARLIER_CONFIG_NUMBER} and the hash of config-a's database) and, patched, stored the new database's hash "
            f"without bumping the configuration number: every advertisement says c#={state.config_version} as in config-a "
            f"(stock HAP-python would bump it to {EARLIER_CONFIG_NUMBER + 1}); the GET /accessories on {request.client} "
            "lists the changed database",
        )

    on_accessories_listing(saboteur, 1, journal_it)


def config_c_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    same_accessory(driver, "config-cd")


def config_d_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """config-c's accessory with the very same database; it bumps c# all the same."""
    same_accessory(driver, "config-cd")
    saboteur = Saboteur(driver, journal)
    carry_state(driver, history_bridge(driver, BRIDGE_NAME), EARLIER_CONFIG_NUMBER)
    state = driver.state

    def bump_anyway(accessories_hash: str) -> bool:
        state.accessories_hash = accessories_hash
        state.increment_config_version()
        return True

    state.set_accessories_hash = bump_anyway

    def journal_it(request: Request) -> None:
        saboteur.misbehaviour(
            "config-number-changed-without-change",
            request.client,
            f"this capture's accessory is config-c's (device id {state.mac}, the same long-term key) with an unchanged "
            f"database (the same accessories hash as config-c's); it kept config-c's state (c#={EARLIER_CONFIG_NUMBER}) and, "
            f"patched, bumped the configuration number anyway: every advertisement says c#={state.config_version} (stock "
            f"HAP-python keeps {EARLIER_CONFIG_NUMBER} when the hash is unchanged); the GET /accessories on {request.client} "
            "lists the same database as config-c",
        )

    on_accessories_listing(saboteur, 1, journal_it)


RENUMBERED_IID_OFFSET = 100


def renumbered_a_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    same_accessory(driver, "renumbered")


def renumbered_b_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    return history_bridge(driver, name, iid_offset=RENUMBERED_IID_OFFSET)


def config_b_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    return history_bridge(driver, name, late_switch=True)


def renumbered_b_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """renumbered-a's accessory with every bridged accessory's iids moved up by 100; c# is bumped (stock)."""
    same_accessory(driver, "renumbered")
    saboteur = Saboteur(driver, journal)
    earlier = history_bridge(driver, BRIDGE_NAME)
    carry_state(driver, earlier, EARLIER_CONFIG_NUMBER)
    earlier_lamp = next(a for a in earlier.accessories.values() if a.display_name == "Desk Lamp")
    earlier_on = next(c for s in earlier_lamp.services for c in s.characteristics if c.display_name == "On")

    def journal_it(request: Request) -> None:
        lamp = next(a for a in driver.accessory.accessories.values() if a.display_name == "Desk Lamp")
        sensor = next(a for a in driver.accessory.accessories.values() if a.display_name == "Living Room Sensor")
        saboteur.misbehaviour(
            "iid-renumbered",
            request.client,
            f"this capture's accessory is renumbered-a's (device id {driver.state.mac}, the same long-term key, the same "
            f"accessories, services and characteristic types in the same order) with the iids of aid {lamp.aid} (Desk Lamp) "
            f"and aid {sensor.aid} (Living Room Sensor) moved up by {RENUMBERED_IID_OFFSET} (e.g. the Desk Lamp's On is "
            f"{lamp.aid}.{find_characteristic(driver, 'Desk Lamp', 'On')[1]}, {lamp.aid}.{earlier_lamp.iid_manager.get_iid(earlier_on)} "
            "in renumbered-a); the bridge's own iids are unchanged. HAP-python bumped c# to {driver.state.config_version} "
            "(stock: the database hash changed), so a controller re-reads the database but finds its characteristics "
            f"under new iids; GET /accessories on {request.client}",
        )

    on_accessories_listing(saboteur, 1, journal_it)


# --- the scenarios ------------------------------------------------------------------------------------

NOTE = (
    "a capture for issue 17 (what homes report): one peer was patched at run time; misbehaviours lists each "
    "deliberate misbehaviour with the audit rule it must trigger"
)
HISTORY_NOTE = (
    "one accessory recorded twice: {earlier} and {later} have the same device id and the same accessory long-term key "
    "(ACCESSORY_LTPK), recorded in that order; the accessory's pairings were removed in between, its configuration state "
    "(c#, the hash of its database) carried over; the audit compares {later} with {earlier}"
)


def scenarios(scenario: Callable[..., Any]) -> tuple[Any, ...]:
    """This module's scenarios, built with scenarios.Scenario (passed in: that module imports this one)."""
    return (
        scenario(
            name="out-of-compliance",
            description=(
                "A bridge whose /accessories breaks the catalogue: a service without a required characteristic, a "
                "characteristic its service does not have, invalid characters in a Name and a ConfiguredName, missing and "
                "invalid perms, two Name characteristics on one service, a format and a unit that contradict the catalogue."
            ),
            seed=23001,
            accessory_name="hapscope Odd Home",
            build_accessory=compliance_bridge,
            story=read_database,
            accessory_hook=out_of_compliance_accessory,
            notes=(NOTE,),
        ),
        scenario(
            name="over-limits",
            description=(
                "A small bridge grows after the first GET /accessories and announces a new c#: the second listing has 151 "
                "accessories, one with 102 services, one service with 101 characteristics, in a body of over 128 KiB."
            ),
            seed=24001,
            accessory_name="hapscope Big Home",
            build_accessory=limits_bridge,
            story=over_limits_story,
            accessory_hook=over_limits_accessory,
            notes=(NOTE,),
        ),
        scenario(
            name="removed-after-setup",
            description=(
                "The controller pairs, verifies, reads /accessories and at once removes its own pairing, as iOS does "
                "when it rejects a database; the accessory advertises sf=1 again."
            ),
            seed=25001,
            accessory_name="hapscope Home Bridge",
            build_accessory=lambda driver, name: history_bridge(driver, name),
            story=removed_after_setup_story,
            notes=(NOTE,),
        ),
        scenario(
            name="lost-pairings",
            description=(
                "The owner adds a home hub as a regular controller and then removes its own pairing, the last admin one: "
                "every pairing goes, the accessory keeps advertising sf=0, and the hub's next pair-verify fails."
            ),
            seed=26001,
            accessory_name="hapscope Home Bridge",
            build_accessory=lambda driver, name: history_bridge(driver, name),
            story=lost_pairings_story,
            accessory_hook=lost_pairings_accessory,
            notes=(NOTE,),
        ),
        *(
            scenario(
                name=name,
                description=description,
                seed=seed,
                accessory_name=BRIDGE_NAME,
                build_accessory=build,
                story=read_database,
                accessory_hook=hook,
                notes=(NOTE, HISTORY_NOTE.format(earlier=earlier, later=later)),
            )
            for name, earlier, later, seed, build, hook, description in (
                ("config-a", "config-a", "config-b", 27001, lambda d, n: history_bridge(d, n), config_a_accessory,
                 "One accessory's history, first capture: a bridge with a lamp and a sensor, c#=2."),
                ("config-b", "config-a", "config-b", 27101, config_b_bridge, config_b_accessory,
                 "config-a's accessory after a switch was added to its database, still advertising c#=2."),
                ("config-c", "config-c", "config-d", 27201, lambda d, n: history_bridge(d, n), config_c_accessory,
                 "Another accessory's history, first capture: the same bridge, c#=2."),
                ("config-d", "config-c", "config-d", 27301, lambda d, n: history_bridge(d, n), config_d_accessory,
                 "config-c's accessory with an unchanged database, advertising c#=3."),
                ("renumbered-a", "renumbered-a", "renumbered-b", 27401, lambda d, n: history_bridge(d, n), renumbered_a_accessory,
                 "A third accessory's history, first capture: the same bridge, c#=2."),
                ("renumbered-b", "renumbered-a", "renumbered-b", 27501, renumbered_b_bridge, renumbered_b_accessory,
                 "renumbered-a's accessory with its bridged accessories' iids moved up by 100 and c#=3."),
            )
        ),
    )
