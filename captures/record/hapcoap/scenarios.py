"""The recorded scenarios: what the accessory serves, how it misbehaves, what aiohomekit does, how the link behaves.

Both peer processes import this module and look the scenario up by name. The controller stories live in
``stories.py`` (they need aiohomekit); everything here is plain data, so the recorder, the truth writer
and the verifier can read it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import database

SETUP_CODE = "031-45-154"
SETUP_ID = "HSCP"
DEVICE_ID = "1A:2B:3C:4D:5E:6F"
COAP_PORT = 5683  # RFC 7252 §6.1; roysjosh/nanoleaf-ltpdu README.rst: Essentials advertise the standard CoAP port
CONTROLLER_ADDRESS = "fd77::1"
ACCESSORY_ADDRESS = "fd77::2"
FIRST_CONTROLLER_PORT = 49201
CATEGORY_LIGHTBULB = 5


@dataclass(frozen=True)
class FaultPoint:
    """The ``occurrence``-th encrypted request (1-based) whose PDUs include opcode ``opcode`` on ``iid``."""

    opcode: int
    iid: int
    occurrence: int


@dataclass(frozen=True)
class CounterDrift:
    at: FaultPoint
    skip: int  # counter values the accessory leaves out before sealing this response


@dataclass(frozen=True)
class LateResponse:
    at: FaultPoint
    delay: float  # seconds before the accessory answers; aiohomekit gives up after 16 s


@dataclass(frozen=True)
class AccessoryFaults:
    drifts: tuple[CounterDrift, ...] = ()
    late: tuple[LateResponse, ...] = ()
    plaintext_at: tuple[FaultPoint, ...] = ()
    # The n-th event message (1-based) is sent a second time, same message ID and token, with another value.
    differing_event_copy: int | None = None


@dataclass(frozen=True)
class LossyLink:
    """The CoAP-aware relay: drops or duplicates CoAP datagrams (UDP port 5683), each at most once."""

    drop: float
    duplicate: float


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    seed: int
    story: str  # a function name in stories.py
    accessory_name: str = "hapscope Thread Light"
    build_database: Callable[[str], database.Accessory] = database.sensor_light
    faults: AccessoryFaults = field(default_factory=AccessoryFaults)
    lossy: LossyLink | None = None
    notes: tuple[str, ...] = ()
    time_limit: float = 90.0
    device_id: str = DEVICE_ID
    setup_code: str = SETUP_CODE
    setup_id: str = SETUP_ID
    port: int = COAP_PORT
    event_interval: float = 1.0  # the sensor steps once a second while anyone is subscribed
    linger: float = 0.0  # seconds the controller stays up after its story, for answers still on their way


def temperature_iid() -> int:
    return database.sensor_light("x").characteristic(0x11).iid


READ = 0x03

SCENARIOS: dict[str, Scenario] = {
    scenario.name: scenario
    for scenario in (
        Scenario(
            name="clean",
            description="Discovery of _hap._udp, pair-setup M1–M6 over /1, pair-verify over /2, the database read "
            "(0x09), batched reads, writes, subscriptions, events from the accessory (PUT with the event key), "
            "identify over /0, unsubscribe and a last read.",
            seed=9101,
            story="full_story",
        ),
        Scenario(
            name="lossy",
            description="The clean story through a relay that drops 25 % and duplicates 5 % of the CoAP datagrams "
            "(each datagram at most once), so that both peers retransmit confirmable messages and answer duplicates "
            "from their caches.",
            seed=9102,
            story="full_story",
            lossy=LossyLink(drop=0.25, duplicate=0.05),
        ),
        Scenario(
            name="counter-drift",
            description="The accessory seals one read response 3 counter values ahead (aiohomekit's recovery search "
            "finds it) and a later one 7 ahead (the search gives up, aiohomekit drops the session and pair-verifies "
            "again).",
            seed=9103,
            story="fault_reads_story",
            faults=AccessoryFaults(
                drifts=(
                    CounterDrift(FaultPoint(READ, temperature_iid(), 2), skip=3),
                    CounterDrift(FaultPoint(READ, temperature_iid(), 4), skip=7),
                )
            ),
        ),
        Scenario(
            name="late-response",
            description="The accessory acknowledges one read at once (empty ACK) but sends the response only 17 s "
            "later, after aiohomekit's 16 s timeout closed the session; aiohomekit then pair-verifies again.",
            seed=9104,
            story="fault_reads_story",
            faults=AccessoryFaults(late=(LateResponse(FaultPoint(READ, temperature_iid(), 2), delay=17.0),)),
            linger=3.0,
        ),
        Scenario(
            name="retransmission-differs",
            description="The accessory sends its second event message again with the same message ID and token but "
            "another value sealed under the same counter.",
            seed=9105,
            story="events_story",
            faults=AccessoryFaults(differing_event_copy=2),
        ),
        Scenario(
            name="plaintext-after-encryption",
            description="The accessory answers one read of the secured session with the response PDU in plaintext.",
            seed=9106,
            story="fault_reads_story",
            faults=AccessoryFaults(plaintext_at=(FaultPoint(READ, temperature_iid(), 2),)),
        ),
        Scenario(
            name="large-database",
            description="A light with 60 zones: the 0x09 database response (about 10.6 KB) travels in Block2 blocks of "
            "1024 bytes; one read of every readable characteristic needs Block1 for the request and Block2 for the "
            "response.",
            seed=9107,
            story="large_story",
            accessory_name="hapscope Zoned Light",
            build_database=lambda name: database.zoned_light(name, 60),
        ),
    )
}
