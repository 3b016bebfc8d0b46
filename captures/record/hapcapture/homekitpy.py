"""homekit_python (PyPI ``homekit``) as a peer: its controller against HAP-python, its AccessoryServer against aiohomekit.

Issue 17 asks what a new user sees who records stock libraries. homekit_python is the third independent
implementation on PyPI that has both roles; its scenarios here are clean (no misbehaviour). This module
holds what they need besides the peer processes (``homekit_controller.py``, ``homekit_accessory.py``) and
the instrumentation (``instrument_homekit.py``): the demo bridge rebuilt with homekit_python's model,
the controller story written against homekit_python's synchronous API, and the two scenarios.

homekit_python reads responses naively: whatever arrives next on a session is the answer to the request
it just sent, an EVENT included (``SecureHttp._read_response``). Its own way to receive events is
``IpPairing.get_events``, a loop that does nothing else; so the story subscribes and waits there while a
second session of the same pairing makes the changes, and nothing changes on its own (the temperature is
steady) once the watch is over.

Everything here runs in the homekit_python peers' own venv (``peers.HOMEKIT_VENV``), so it imports neither
HAP-python nor aiohomekit: what the scenarios need from those (the aiohomekit demo story, HAP-python's
steady bridge) ``scenarios.py`` passes in.
"""

from __future__ import annotations

import copy
import threading
import time
from typing import Any, Callable

import homekit.model.mixin
from homekit.controller import Controller
from homekit.controller.ip_implementation import IpPairing, _dump_json
from homekit.exceptions import AuthenticationError
from homekit.model import Accessory
from homekit.model.characteristics import (
    AbstractCharacteristic,
    BrightnessCharacteristic,
    CharacteristicFormats,
    CharacteristicPermissions,
    CharacteristicsTypes,
    CurrentTemperatureCharacteristic,
)
from homekit.model.services import AbstractService, LightBulbService, OutletService, ServicesTypes, ThermostatService

from .demo_values import FIRMWARE_REVISION, LOCK_SECURED, LOCK_UNSECURED, MANUFACTURER, TEMPERATURE_READINGS
from .instrument_homekit import ControllerRecorder
from .journal import Journal
from .peers import HOMEKIT_PYTHON_ACCESSORY, HOMEKIT_PYTHON_CONTROLLER
from .seeded import SeededRandomness

BRIDGE_NAME = "hapscope Bridge"
PAIRING_ALIAS = "hapscope-story"
SRP_MISMATCH_ATTEMPTS = 4
DISCOVERY_SECONDS = 2
EVENT_WATCH_SECONDS = 3
SUBSCRIPTION_TIMEOUT = 10.0
# HAP R2 / HomeKitADK HAPPairingMethod: 0 PairSetup, 1 PairSetupWithAuth (PROTOCOL.md §1.3).
PAIR_SETUP_WITH_AUTH = 1


# --- the demo bridge in homekit_python's model -----------------------------------------------------------


def next_id() -> int:
    # homekit_python numbers aids and iids from one process-wide counter (homekit/model/mixin.py get_id).
    return homekit.model.mixin.get_id()


class StateCharacteristic(AbstractCharacteristic):
    """A uint8 characteristic of a type homekit_python names but has no class for (the lock's two states)."""

    def __init__(self, kind: str, perms: list[str], valid_values: list[int], value: int) -> None:
        super().__init__(next_id(), kind, CharacteristicFormats.uint8)
        self.perms = perms
        self.valid_values = valid_values
        self.value = value


class TemperatureSensorService(AbstractService):
    def __init__(self, reading: float) -> None:
        super().__init__(ServicesTypes.get_uuid("public.hap.service.sensor.temperature"), next_id())
        self.temperature = CurrentTemperatureCharacteristic(next_id())
        self.temperature.value = reading
        self.append_characteristic(self.temperature)


class LockMechanismService(AbstractService):
    def __init__(self) -> None:
        super().__init__(ServicesTypes.get_uuid("public.hap.service.lock-mechanism"), next_id())
        read_notify = [CharacteristicPermissions.paired_read, CharacteristicPermissions.events]
        self.current = StateCharacteristic(CharacteristicsTypes.LOCK_MECHANISM_CURRENT_STATE, read_notify, [0, 1, 2, 3], LOCK_SECURED)
        self.target = StateCharacteristic(
            CharacteristicsTypes.LOCK_MECHANISM_TARGET_STATE,
            [CharacteristicPermissions.paired_read, CharacteristicPermissions.paired_write, CharacteristicPermissions.events],
            [LOCK_UNSECURED, LOCK_SECURED],
            LOCK_SECURED,
        )
        self.append_characteristic(self.current)
        self.append_characteristic(self.target)


def homekit_accessory(name: str, model: str, serial_number: str) -> Accessory:
    return Accessory(name, MANUFACTURER, model, serial_number, FIRMWARE_REVISION)


class HomekitBridge:
    """HAP-python's demo bridge (``accessories.demo_bridge``: same names, values, behaviour) for homekit_python's server.

    homekit_python leaves notifying to the application: a change the server did not make itself (the sensor's
    next reading, the lock following its target) reaches subscribers through ``AccessoryServer.write_event``.
    """

    category = "Bridge"

    def __init__(self, name: str, temperature_interval: float | None = 1.0) -> None:
        self.server: Any = None
        self.temperature_interval = temperature_interval
        bridge = homekit_accessory(name, "Bridge", "HS-BRIDGE-0001")

        lamp = homekit_accessory("Desk Lamp", "Dimmable Lightbulb", "HS-LAMP-0001")
        light = LightBulbService()
        brightness = BrightnessCharacteristic(next_id())
        brightness.value = 40
        light.append_characteristic(brightness)
        lamp.add_service(light)

        sensor = homekit_accessory("Living Room Sensor", "Temperature Sensor", "HS-TEMP-0001")
        self.sensor_service = TemperatureSensorService(TEMPERATURE_READINGS[0])
        sensor.add_service(self.sensor_service)

        outlet = homekit_accessory("Coffee Maker", "Outlet", "HS-OUTLET-0001")
        socket = OutletService()
        for characteristic in socket.characteristics:
            characteristic.value = True
        outlet.add_service(socket)

        lock = homekit_accessory("Front Door", "Door Lock", "HS-LOCK-0001")
        self.lock_service = LockMechanismService()
        self.lock_service.target.set_set_value_callback(self.follow_lock_target)
        lock.add_service(self.lock_service)

        thermostat = homekit_accessory("Hallway Thermostat", "Thermostat", "HS-THERMO-0001")
        climate = ThermostatService()
        values = {
            CharacteristicsTypes.HEATING_COOLING_CURRENT: 1,
            CharacteristicsTypes.HEATING_COOLING_TARGET: 1,
            CharacteristicsTypes.TEMPERATURE_CURRENT: 19.5,
            CharacteristicsTypes.TEMPERATURE_TARGET: 21.0,
            CharacteristicsTypes.TEMPERATURE_UNITS: 0,
        }
        for characteristic in climate.characteristics:
            characteristic.value = values[CharacteristicsTypes.get_short_uuid(characteristic.type)]
        thermostat.add_service(climate)

        self.accessories = [bridge, lamp, sensor, outlet, lock, thermostat]
        self.sensor, self.lock = sensor, lock

    def attach(self, server: Any) -> None:
        self.server = server
        for accessory in self.accessories:
            server.add_accessory(accessory)

    def follow_lock_target(self, value: int) -> None:
        self.lock_service.current.value = value
        self.server.write_event([(self.lock.aid, self.lock_service.current.iid)])

    def run(self, stop: threading.Event) -> None:
        """Step the sensor through TEMPERATURE_READINGS, one step per interval, until ``stop`` is set."""
        if self.temperature_interval is None:
            return
        step = 0
        characteristic = self.sensor_service.temperature
        while not stop.wait(self.temperature_interval):
            step += 1
            # CurrentTemperature is pr/ev only: set_value would refuse, so the value is set as the library's own
            # demo accessories do with their sensors, and subscribers are told.
            characteristic.value = TEMPERATURE_READINGS[step % len(TEMPERATURE_READINGS)]
            try:
                self.server.write_event([(self.sensor.aid, characteristic.iid)])
            except RuntimeError:
                # AccessoryServer.write_event iterates its sessions while a new connection may be adding one.
                pass


def homekit_bridge(_server: Any, name: str) -> HomekitBridge:
    return HomekitBridge(name)


# --- the controller story over homekit_python ------------------------------------------------------------


def find_characteristic(listing: list[dict[str, Any]], accessory_name: str, kind: str) -> tuple[int, int]:
    """(aid, iid) of the ``kind`` characteristic of the accessory named ``accessory_name`` in an /accessories
    listing as homekit_python's list_accessories_and_characteristics returns it (types as full UUIDs)."""
    name_type, wanted = CharacteristicsTypes.get_uuid(CharacteristicsTypes.NAME), CharacteristicsTypes.get_uuid(kind)
    for accessory in listing:
        members = [c for service in accessory["services"] for c in service["characteristics"]]
        if any(c["type"] == name_type and c.get("value") == accessory_name for c in members):
            for characteristic in members:
                if characteristic["type"] == wanted:
                    return accessory["aid"], characteristic["iid"]
    raise KeyError(f"{accessory_name} has no characteristic {kind}")


class EventWatch:
    """``IpPairing.get_events`` on a thread of its own: subscribe, collect EVENTs for a while, return."""

    def __init__(self, pairing: IpPairing, ids: list[tuple[int, int]], seconds: float) -> None:
        self.pairing = pairing
        self.ids = ids
        self.seconds = seconds
        self.received: list[list[tuple[int, int, Any]]] = []
        self.refused: dict = {}
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self.run, name="get_events", daemon=True)

    def run(self) -> None:
        try:
            self.refused = self.pairing.get_events(self.ids, self.received.append, max_seconds=self.seconds)
        except BaseException as error:  # reported by join() on the story's thread
            self.error = error

    def start(self) -> None:
        """Start watching; return once the accessory has answered the subscription."""
        secure = self.pairing.session.sec_http
        answered = secure.a2c_counter
        self.thread.start()
        deadline = time.monotonic() + SUBSCRIPTION_TIMEOUT
        while secure.a2c_counter == answered and self.thread.is_alive():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the subscription was not answered within {SUBSCRIPTION_TIMEOUT:.0f} s")
            time.sleep(0.02)

    def join(self) -> list[list[tuple[int, int, Any]]]:
        self.thread.join(self.seconds + SUBSCRIPTION_TIMEOUT)
        if self.thread.is_alive():
            raise TimeoutError("get_events did not return")
        if self.error is not None:
            raise self.error
        if self.refused:
            raise RuntimeError(f"the accessory refused subscriptions: {self.refused}")
        return self.received


class HomekitStory:
    """The controller side of a scenario whose controller is homekit_python (its Controller and IpPairing)."""

    def __init__(
        self,
        controller: Controller,
        journal: Journal,
        randomness: SeededRandomness,
        recorder: ControllerRecorder,
        device_id: str,
        setup_code: str,
    ) -> None:
        self.controller = controller
        self.journal = journal
        self.randomness = randomness
        self.recorder = recorder
        self.device_id = device_id
        self.setup_code = setup_code

    def discover(self) -> dict[str, Any]:
        """Browse ``_hap._tcp`` as ``python -m homekit.discover`` does and return the accessory's entry."""
        for device in Controller.discover(DISCOVERY_SECONDS):
            if device.get("id") == self.device_id:
                return device
        raise RuntimeError(f"{self.device_id} was not discovered within {DISCOVERY_SECONDS} s")

    def pair(self, device: dict[str, Any]) -> IpPairing:
        """Pair-setup M1…M6 (start_pairing looks the accessory up again), retrying an SRP leading-zero mismatch."""
        for attempt in range(1, SRP_MISMATCH_ATTEMPTS + 1):
            with self.journal.note(f"pair-setup with setup code {self.setup_code}"):
                try:
                    finish = self.controller.start_pairing(PAIRING_ALIAS, self.device_id)
                    finish(self.setup_code)
                except AuthenticationError:
                    self.journal.write("srp-mismatch-retry", attempt=attempt)
                    continue
            self.observe_pair_setup_method(device)
            return self.controller.get_pairings()[PAIRING_ALIAS]
        raise RuntimeError(f"pair-setup failed {SRP_MISMATCH_ATTEMPTS} times with the right setup code")

    def observe_pair_setup_method(self, device: dict[str, Any]) -> None:
        """Say what Method homekit_python's M1 carried, next to the feature flags the accessory advertised."""
        flags = int(device.get("ff", 0))
        for method in self.recorder.pair_setup_methods:
            if method == PAIR_SETUP_WITH_AUTH and not flags & 1:
                self.journal.observation(
                    f"homekit_python sent pair-setup M1 with Method {method} (PairSetupWithAuth in HAP R2 and HomeKitADK's "
                    "HAPPairingMethod) to an accessory that advertised ff=0, no Apple Authentication Coprocessor: "
                    "homekit_python's Methods.PairSetup is 1, the numbering of the first public HAP specification "
                    "(homekit_python issues #199 and #204), and it sends it to every accessory; HAP-python does not "
                    "read Method and paired normally, with an M4 without MFi EncryptedData, which homekit_python does "
                    "not ask for. Not a downgrade: no authentication the accessory offers was skipped"
                )

    def session(self, pairing: IpPairing) -> IpPairing:
        """Another IpPairing of the same pairing: its own TCP connection and pair-verify on first use."""
        return IpPairing(copy.deepcopy(pairing.pairing_data))

    @staticmethod
    def watch_events(pairing: IpPairing, ids: list[tuple[int, int]]) -> EventWatch:
        watch = EventWatch(pairing, ids, EVENT_WATCH_SECONDS)
        watch.start()
        return watch

    @staticmethod
    def unsubscribe(pairing: IpPairing, ids: list[tuple[int, int]]) -> None:
        """PUT ev=false for ``ids``: homekit_python has no call for it, so the body is built as get_events builds
        its subscription (``_dump_json``, compact separators) and sent over the pairing's own session."""
        body = _dump_json({"characteristics": [{"aid": aid, "iid": iid, "ev": False} for aid, iid in ids]})
        response = pairing.session.put("/characteristics", body)
        if response.code != 204:
            raise RuntimeError(f"unsubscribing was answered {response.code}")


def homekit_controller_story(story: HomekitStory) -> None:
    """The bridge story as homekit_python can tell it: discover, pair, verify, read the database, read, write,
    identify; subscribe and receive EVENTs for changes made on a second session; unsubscribe; read."""
    device = story.discover()
    pairing = story.pair(device)
    listing = pairing.list_accessories_and_characteristics()
    lamp_on = find_characteristic(listing, "Desk Lamp", CharacteristicsTypes.ON)
    lamp_brightness = find_characteristic(listing, "Desk Lamp", CharacteristicsTypes.BRIGHTNESS)
    temperature = find_characteristic(listing, "Living Room Sensor", CharacteristicsTypes.TEMPERATURE_CURRENT)
    lock_current = find_characteristic(listing, "Front Door", CharacteristicsTypes.LOCK_MECHANISM_CURRENT_STATE)
    lock_target = find_characteristic(listing, "Front Door", CharacteristicsTypes.LOCK_MECHANISM_TARGET_STATE)
    outlet_on = find_characteristic(listing, "Coffee Maker", CharacteristicsTypes.ON)
    thermostat_target = find_characteristic(listing, "Hallway Thermostat", CharacteristicsTypes.TEMPERATURE_TARGET)

    pairing.get_characteristics([lamp_on, lamp_brightness, temperature, lock_current, outlet_on])
    pairing.get_characteristics(
        [thermostat_target, lock_target], include_meta=True, include_perms=True, include_type=True, include_events=True
    )
    pairing.put_characteristics([(*lamp_on, True), (*lamp_brightness, 80)])
    pairing.put_characteristics([(*lock_target, LOCK_UNSECURED)])
    pairing.put_characteristics([(*thermostat_target, 22.5), (*outlet_on, False)])
    pairing.identify()

    writer = story.session(pairing)
    with story.journal.note("a second session of the same pairing makes the changes the first one watches"):
        writer.get_characteristics([lamp_on])  # its connection and pair-verify, before the watch starts
    watched = sorted({temperature, lock_current, lamp_on})
    watch = story.watch_events(pairing, watched)
    writer.put_characteristics([(*lamp_on, False)])
    writer.put_characteristics([(*lock_target, LOCK_SECURED)])
    if not watch.join():
        raise RuntimeError("no EVENT arrived while watching")
    story.unsubscribe(pairing, watched)
    pairing.get_characteristics([temperature, lock_current, lamp_on])
    writer.close()
    pairing.close()


# --- the scenarios -------------------------------------------------------------------------------------


def scenarios(scenario: Callable[..., Any], demo_story: Callable[..., Any], steady_bridge: Callable[..., Any]) -> tuple:
    """This module's scenarios, built with scenarios.Scenario, its aiohomekit demo story and HAP-python's steady
    bridge (``accessories.steady_bridge``), all passed in."""
    return (
        scenario(
            name="homekit-python-controller",
            description=(
                "homekit_python's controller finds a stock HAP-python bridge over mDNS, pairs (its M1 says Method 1), "
                "verifies, reads the database, reads, writes and identifies; it subscribes and receives EVENTs for the "
                "changes a second session of the same pairing makes, unsubscribes and reads."
            ),
            seed=41001,
            accessory_name=BRIDGE_NAME,
            build_accessory=steady_bridge,
            story=homekit_controller_story,
            controller_peer=HOMEKIT_PYTHON_CONTROLLER,
            notes=(
                "clean: both libraries as published; the temperature is steady, so EVENTs come only from the second "
                "session's writes (homekit_python takes whatever arrives next for the answer to its request, so "
                "nothing may change on its own while the watching session makes requests)",
            ),
        ),
        scenario(
            name="homekit-python-accessory",
            description=(
                "aiohomekit finds a bridge served by homekit_python's AccessoryServer over mDNS, pairs, verifies, reads "
                "the database, reads, writes, subscribes and receives EVENT notifications while the temperature "
                "changes, identifies, unsubscribes and reads: the bridge story with the other accessory library."
            ),
            seed=42001,
            accessory_name=BRIDGE_NAME,
            build_accessory=homekit_bridge,
            story=demo_story,
            accessory_peer=HOMEKIT_PYTHON_ACCESSORY,
            setup_id="",
            notes=(
                "clean: both libraries as published; homekit_python has no setup id and advertises no sh, so setupId "
                "is empty",
            ),
        ),
    )
