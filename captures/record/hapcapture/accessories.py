"""The HAP-python accessories the scenarios serve.

Values are fixed or follow fixed sequences, so two runs of a scenario expose the same database and
the same temperature readings; only the timing of events relative to requests varies.
"""

from __future__ import annotations

from pyhap import util
from pyhap.accessory import Accessory, Bridge
from pyhap.accessory_driver import AccessoryDriver
from pyhap.const import (
    CATEGORY_DOOR_LOCK,
    CATEGORY_LIGHTBULB,
    CATEGORY_OUTLET,
    CATEGORY_SENSOR,
    CATEGORY_SWITCH,
    CATEGORY_THERMOSTAT,
)

from .demo_values import FIRMWARE_REVISION, LOCK_SECURED, LOCK_UNSECURED, MANUFACTURER, TEMPERATURE_READINGS  # noqa: F401

EXTRA_LIGHTS = 40


def describe(accessory: Accessory, model: str, serial_number: str) -> None:
    accessory.set_info_service(
        firmware_revision=FIRMWARE_REVISION,
        manufacturer=MANUFACTURER,
        model=model,
        serial_number=serial_number,
    )


class Lightbulb(Accessory):
    category = CATEGORY_LIGHTBULB

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        describe(self, "Dimmable Lightbulb", serial_number)
        service = self.add_preload_service("Lightbulb", chars=["Brightness"])
        self.on = service.configure_char("On", value=False)
        self.brightness = service.configure_char("Brightness", value=40)


class Switch(Accessory):
    category = CATEGORY_SWITCH

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        describe(self, "Switch", serial_number)
        self.on = self.add_preload_service("Switch").configure_char("On", value=False)


class Outlet(Accessory):
    category = CATEGORY_OUTLET

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        describe(self, "Outlet", serial_number)
        service = self.add_preload_service("Outlet")
        self.on = service.configure_char("On", value=True)
        self.in_use = service.configure_char("OutletInUse", value=True)


class TemperatureSensor(Accessory):
    """A sensor whose reading steps through ``READINGS``, one step per ``interval`` seconds."""

    category = CATEGORY_SENSOR
    READINGS = TEMPERATURE_READINGS

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str, interval: float | None) -> None:
        super().__init__(driver, name)
        describe(self, "Temperature Sensor", serial_number)
        service = self.add_preload_service("TemperatureSensor")
        self.temperature = service.configure_char("CurrentTemperature", value=self.READINGS[0])
        self.interval = interval

    async def run(self) -> None:
        if self.interval is None:
            return
        step = 0
        while not await util.event_wait(self.driver.aio_stop_event, self.interval):
            step += 1
            self.temperature.set_value(self.READINGS[step % len(self.READINGS)])


class DoorLock(Accessory):
    """A lock whose current state follows every write of its target state."""

    category = CATEGORY_DOOR_LOCK

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        describe(self, "Door Lock", serial_number)
        service = self.add_preload_service("LockMechanism")
        self.current = service.configure_char("LockCurrentState", value=LOCK_SECURED)
        self.target = service.configure_char(
            "LockTargetState", value=LOCK_SECURED, setter_callback=self.current.set_value
        )


class Thermostat(Accessory):
    category = CATEGORY_THERMOSTAT

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        describe(self, "Thermostat", serial_number)
        service = self.add_preload_service("Thermostat")
        service.configure_char("CurrentHeatingCoolingState", value=1)
        service.configure_char("TargetHeatingCoolingState", value=1)
        service.configure_char("CurrentTemperature", value=19.5)
        service.configure_char("TargetTemperature", value=21.0)
        service.configure_char("TemperatureDisplayUnits", value=0)


def demo_bridge(driver: AccessoryDriver, name: str, temperature_interval: float = 1.0) -> Bridge:
    """A bridge with one accessory of each kind the demo story exercises."""
    bridge = Bridge(driver, name)
    describe(bridge, "Bridge", "HS-BRIDGE-0001")
    bridge.add_accessory(Lightbulb(driver, "Desk Lamp", "HS-LAMP-0001"))
    bridge.add_accessory(TemperatureSensor(driver, "Living Room Sensor", "HS-TEMP-0001", temperature_interval))
    bridge.add_accessory(Outlet(driver, "Coffee Maker", "HS-OUTLET-0001"))
    bridge.add_accessory(DoorLock(driver, "Front Door", "HS-LOCK-0001"))
    bridge.add_accessory(Thermostat(driver, "Hallway Thermostat", "HS-THERMO-0001"))
    return bridge


def steady_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    """The demo bridge with a steady temperature: nothing changes unless a controller writes."""
    return demo_bridge(driver, name, temperature_interval=None)


def demo_bridge_with_lights(driver: AccessoryDriver, name: str) -> Bridge:
    """The demo bridge plus ``EXTRA_LIGHTS`` lightbulbs, for requests longer than one TCP segment."""
    bridge = demo_bridge(driver, name)
    for number in range(1, EXTRA_LIGHTS + 1):
        bridge.add_accessory(Lightbulb(driver, f"Light {number:02d}", f"HS-LAMP-{number + 100:04d}"))
    return bridge


def large_bridge(driver: AccessoryDriver, name: str, per_kind: int = 16) -> Bridge:
    """A bridge with ``4 * per_kind`` accessories, so that ``/accessories`` spans many frames."""
    bridge = Bridge(driver, name)
    describe(bridge, "Bridge", "HS-BRIDGE-0064")
    for number in range(1, per_kind + 1):
        bridge.add_accessory(Lightbulb(driver, f"Light {number:02d}", f"HS-LAMP-{number:04d}"))
        bridge.add_accessory(Switch(driver, f"Switch {number:02d}", f"HS-SWITCH-{number:04d}"))
        bridge.add_accessory(TemperatureSensor(driver, f"Sensor {number:02d}", f"HS-TEMP-{number:04d}", None))
        bridge.add_accessory(Outlet(driver, f"Outlet {number:02d}", f"HS-OUTLET-{number:04d}"))
    return bridge


def porch_light(driver: AccessoryDriver, name: str) -> Lightbulb:
    """A stand-alone (unbridged) lightbulb: the database has a single accessory with aid 1."""
    return Lightbulb(driver, name, "HS-LAMP-0100")


def odd_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    """The demo bridge (with a steady temperature) plus four more accessories for the bad-database hook to break."""
    bridge = demo_bridge(driver, name, temperature_interval=None)
    bridge.add_accessory(Switch(driver, "Bare Switch", "HS-SWITCH-0100"))
    bridge.add_accessory(Outlet(driver, "Unlabelled Outlet", "HS-OUTLET-0100"))
    bridge.add_accessory(Lightbulb(driver, "Twin Lamp", "HS-LAMP-0200"))
    bridge.add_accessory(Switch(driver, "Shadow Switch", "HS-SWITCH-0200"))
    return bridge
