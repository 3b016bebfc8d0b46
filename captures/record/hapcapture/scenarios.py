"""The recorded scenarios: who serves what, what the controller does, and how the wire is captured.

A scenario runs in two processes (accessory and controller, each in its own namespace) that both import
this module and look the scenario up by name. ``accessory_hook`` and ``controller_hook`` are the places
where a later scenario can make a peer misbehave (subclass or patch HAP-python / aiohomekit at run time)
without touching the recording machinery. The peers are HAP-python and aiohomekit unless a scenario names
others (``peers.py``); ``build_accessory`` and ``story`` are then written for those libraries.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from aiohomekit.controller.ip.pairing import IpPairing
from aiohomekit.exceptions import AuthenticationError, UnpairedError
from aiohomekit.model.characteristics import CharacteristicsTypes as Types
from pyhap.accessory import Accessory
from pyhap.accessory_driver import AccessoryDriver

from . import accessories, adklike, compliance, homekitpy, misbehaving
from .netns import IPV4, IPV6, Addressing
from .journal import Journal
from .peers import AIOHOMEKIT, HAP_PYTHON, Peer
from .relay import Impairment
from .srpsearch import FIRST_TRY, PairSetupAttempt
from .story import Database, Story

SETUP_CODE = "031-45-154"
WRONG_SETUP_CODE = "111-22-333"
SETUP_ID = "HSCP"
DEVICE_ID = "1A:2B:3C:4D:5E:6F"
HAP_PORT = 51826

TCPDUMP = "tcpdump"  # tcpdump -i hap0: classic pcap, Ethernet (EN10MB)
TCPDUMP_ANY = "tcpdump-any"  # tcpdump -i any: classic pcap, Linux cooked v2 (LINUX_SLL2)
DUMPCAP = "dumpcap"  # dumpcap -i hap0: pcapng, Ethernet


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    seed: int
    accessory_name: str
    # For HAP-python: (AccessoryDriver, name) -> Accessory, and an aiohomekit Story; other peers' scenarios
    # pass what their peer process expects (homekitpy.py).
    build_accessory: Callable[[AccessoryDriver, str], Accessory] | Callable[..., Any]
    story: Callable[[Story], Awaitable[None]] | Callable[..., Any]
    addressing: Addressing = IPV4
    capture: str = TCPDUMP
    impairment: Impairment | None = None
    pair_setups: tuple[PairSetupAttempt, ...] = FIRST_TRY
    # Display filters that must each match a packet, or the scenario is recorded again (see record.py).
    capture_must_show: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    # Where a scenario makes a peer misbehave: patch or subclass the library at run time, and journal each
    # deliberate misbehaviour (``Journal.misbehaviour``) so that the truth file lists it.
    accessory_hook: Callable[[AccessoryDriver, Journal], None] | None = None
    controller_hook: Callable[[Journal], None] | None = None
    time_limit: float = 90.0
    # The capture starts only when the story asks for it (``Story.start_capture``), in the middle of the traffic.
    capture_on_request: bool = False
    device_id: str = DEVICE_ID
    setup_code: str = SETUP_CODE
    setup_id: str = SETUP_ID
    port: int = HAP_PORT
    accessory_peer: Peer = HAP_PYTHON
    controller_peer: Peer = AIOHOMEKIT

    @property
    def capture_suffix(self) -> str:
        return ".pcapng" if self.capture == DUMPCAP else ".pcap"


# --- stories ------------------------------------------------------------------------------------


async def demo_story(story: Story) -> None:
    """Discover, pair, verify, read the database, read, write, subscribe, receive events, unsubscribe."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    db = Database(await pairing.list_accessories_and_characteristics())
    await demo_requests(story, pairing, db)
    await pairing.close()


async def demo_requests(story: Story, pairing: IpPairing, db: Database) -> None:
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    lamp_brightness = db.characteristic("Desk Lamp", Types.BRIGHTNESS)
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    lock_current = db.characteristic("Front Door", Types.LOCK_MECHANISM_CURRENT_STATE)
    lock_target = db.characteristic("Front Door", Types.LOCK_MECHANISM_TARGET_STATE)
    outlet_on = db.characteristic("Coffee Maker", Types.ON)
    thermostat_target = db.characteristic("Hallway Thermostat", Types.TEMPERATURE_TARGET)

    await pairing.get_characteristics([lamp_on, lamp_brightness, temperature, lock_current, outlet_on])
    ids = ",".join(f"{aid}.{iid}" for aid, iid in (thermostat_target, lock_target))
    await pairing.connection.get_json(f"/characteristics?id={ids}&meta=1&perms=1&type=1&ev=1")
    await pairing.subscribe(story.sorted_ids([temperature, lock_current, lamp_on]))
    await pairing.put_characteristics([(*lamp_on, True), (*lamp_brightness, 80)])
    await pairing.put_characteristics([(*lock_target, accessories.LOCK_UNSECURED)])
    await asyncio.sleep(3.2)  # the sensor steps once a second: a few EVENTs arrive
    await pairing.put_characteristics([(*thermostat_target, 22.5), (*outlet_on, False)])
    await pairing.identify()
    await pairing.unsubscribe([temperature])
    await pairing.get_characteristics([temperature, lock_current, lamp_on])


async def lossy_story(story: Story) -> None:
    """The demo requests, then a read and a write each longer than one TCP segment.

    Over the relay, a request of several segments is what lets a held-back frame be overtaken before the
    capture point (the accessory's side) sees it.
    """
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    db = Database(await pairing.list_accessories_and_characteristics())
    await demo_requests(story, pairing, db)
    lights = [f"Light {number:02d}" for number in range(1, accessories.EXTRA_LIGHTS + 1)]
    for on in (True, False):
        await pairing.get_characteristics(db.readable())
        await pairing.put_characteristics(
            [(*db.characteristic(name, Types.ON), on) for name in lights]
            + [(*db.characteristic(name, Types.BRIGHTNESS), 10 + index) for index, name in enumerate(lights)]
        )
    await pairing.close()


async def wrong_code_story(story: Story) -> None:
    discovery = await story.discover()
    await story.expect_pairing_failure(discovery, WRONG_SETUP_CODE)
    pairing = await story.pair(discovery)
    db = Database(await pairing.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Porch Light", Types.ON)
    await pairing.put_characteristics([(*lamp_on, True)])
    await pairing.get_characteristics([lamp_on, db.characteristic("Porch Light", Types.BRIGHTNESS)])
    await pairing.close()


async def large_bridge_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    db = Database(await pairing.list_accessories_and_characteristics())
    await pairing.get_characteristics(db.readable())
    await pairing.put_characteristics([(*db.characteristic(f"Light {n:02d}", Types.ON), True) for n in (1, 8, 16)])
    await pairing.close()


async def multi_connection_story(story: Story) -> None:
    """One pair-setup, then three sessions: two at the same time, the third after the first closed."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    first, second = story.session(pairing), story.session(pairing)
    listings = await asyncio.gather(
        first.list_accessories_and_characteristics(), second.list_accessories_and_characteristics()
    )
    db = Database(listings[0])
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    await asyncio.gather(first.subscribe([lamp_on]), second.subscribe(story.sorted_ids([lamp_on, temperature])))
    await first.put_characteristics([(*lamp_on, True)])  # HAP-python notifies only the other session
    await asyncio.sleep(2.2)
    await asyncio.gather(first.get_characteristics([lamp_on]), second.get_characteristics([temperature]))
    await first.close()
    third = story.session(pairing)
    await third.get_characteristics([lamp_on, temperature])
    await third.put_characteristics([(*lamp_on, False)])
    await asyncio.sleep(0.8)
    await third.close()
    await second.close()


async def pairings_story(story: Story) -> None:
    """Add an admin and a regular controller, list, use and remove them, then remove the owner."""
    discovery = await story.discover()
    owner = await story.pair(discovery)
    db = Database(await owner.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    await owner.list_pairings()
    admin = story.new_identity("second-admin", upper_case=True)
    user = story.new_identity("regular-user", upper_case=False)
    with story.journal.note("add a second admin controller (upper-case pairing id, as iOS sends it)"):
        await owner.add_pairing(admin.pairing_id, admin.ltpk_hex, "Admin")
    with story.journal.note("add a regular (non-admin) controller"):
        await owner.add_pairing(user.pairing_id, user.ltpk_hex, "User")
    await owner.list_pairings()

    user_session = story.session(owner, user)
    await user_session.get_characteristics([lamp_on])
    with story.journal.note("a regular controller may not list pairings: M2 Error=Authentication"):
        try:
            await user_session.list_pairings()
        except UnpairedError:
            pass
        else:
            raise RuntimeError("a regular controller was allowed to list pairings")

    admin_session = story.session(owner, admin)
    await admin_session.list_pairings()
    with story.journal.note("the second admin removes the regular controller"):
        await admin_session.remove_pairing(user.pairing_id)
    await admin_session.close()
    await user_session.close()
    with story.journal.note("the owner removes the second admin"):
        await owner.remove_pairing(admin.pairing_id)
    await owner.list_pairings()

    removed_session = story.session(owner, admin)
    with story.journal.note("pair-verify by the removed admin: M4 Error=Authentication"):
        try:
            await removed_session.get_characteristics([lamp_on])
        except AuthenticationError:
            pass
        else:
            raise RuntimeError("a removed controller passed pair-verify")
    try:
        await removed_session.close()
    except AuthenticationError:
        # aiohomekit re-raises the failed pair-verify from close() before it drops the socket.
        removed_session.connection.transport.close()
    with story.journal.note("the owner removes its own pairing; the accessory is unpaired again"):
        await owner.remove_pairing(owner.pairing_data["iOSPairingId"])
    await owner.close()


async def srp_mismatch_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    db = Database(await pairing.list_accessories_and_characteristics())
    await pairing.get_characteristics([db.characteristic("Desk Lamp", Types.ON)])
    await pairing.close()


# --- the corpus ---------------------------------------------------------------------------------

BRIDGE_NAME = "hapscope Bridge"
MISBEHAVING_NOTE = (
    "a MISBEHAVING capture for the security audit: the peers were patched at run time to break HAP rules on "
    "purpose; misbehaviours lists each deliberate misbehaviour with the audit rule it must trigger"
)

MISBEHAVING = (
    Scenario(
        name="unverified-access",
        description=(
            "After pair-setup the controller sends plaintext GET /accessories, GET /characteristics and a /pairings "
            "list without pair-verify and the accessory answers them 200; later, on a verified session, the accessory "
            "repeats a response that no request asked for and aiohomekit drops the connection."
        ),
        seed=11001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.unverified_access_story,
        accessory_hook=misbehaving.unverified_access_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="paired-setup",
        description=(
            "An already-paired accessory answers a second pair-setup with a normal M2 (and completes it, storing a "
            "second admin) instead of Error=Unavailable, and keeps advertising sf=1 after pairing while pair-verify "
            "and requests succeed."
        ),
        seed=12001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.paired_setup_story,
        accessory_hook=misbehaving.paired_setup_accessory,
        pair_setups=(PairSetupAttempt(), PairSetupAttempt()),
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="brute-force",
        description=(
            "Six pair-setups with wrong setup codes in quick succession, all answered M4 Error=Authentication and never "
            "Backoff or MaxTries, with the accessory reusing one SRP salt throughout; its setup code is the forbidden "
            "123-45-678, and the last pair-setup with it succeeds."
        ),
        seed=13001,
        accessory_name="Porch Light",
        build_accessory=accessories.porch_light,
        story=misbehaving.brute_force_story,
        accessory_hook=misbehaving.brute_force_accessory,
        setup_code=misbehaving.FORBIDDEN_SETUP_CODE,
        pair_setups=tuple(
            PairSetupAttempt(code=code, succeeds=False, reuses_first_salt=True) for code in misbehaving.BRUTE_FORCE_CODES
        )
        + (PairSetupAttempt(reuses_first_salt=True),),
        notes=(MISBEHAVING_NOTE, f"pass --setup-code {misbehaving.FORBIDDEN_SETUP_CODE} to the audit"),
    ),
    Scenario(
        name="bad-srp",
        description=(
            "Five pair-setups on one connection: the accessory sends a 15-byte salt; the controller sends A = 0, then "
            "A = N, with a proof forged without the setup code (stock HAP-python accepts both); the accessory answers a "
            "right M3 with a wrong M4 proof; the last pair-setup succeeds."
        ),
        seed=14001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.bad_srp_story,
        accessory_hook=misbehaving.bad_srp_accessory,
        pair_setups=(
            PairSetupAttempt(succeeds=None),
            PairSetupAttempt(succeeds=None),
            PairSetupAttempt(succeeds=None),
            PairSetupAttempt(),
            PairSetupAttempt(),
        ),
        notes=(
            MISBEHAVING_NOTE,
            "checked separately, in-process with the same HAP-python 4.9.2: continuing the A = 0 exchange with an M5 "
            "sealed under K = SHA-512(\"\") makes the accessory answer M6 and store the sender as an ADMIN pairing, "
            "without the setup code; this capture stops after M4, so the accessory is not taken over here",
        ),
    ),
    Scenario(
        name="verify-reuse",
        description=(
            "The accessory answers two pair-verifies (two connections) with the same X25519 ephemeral key pair, and "
            "signs the pair-verify M2 of a third connection with a wrong Ed25519 key, which aiohomekit rejects."
        ),
        seed=15001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.verify_reuse_story,
        accessory_hook=misbehaving.verify_reuse_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="pairings-admin",
        description=(
            "The owner adds a regular (non-admin) controller; on its own verified session that controller adds an "
            "admin pairing and removes it again over /pairings, and the accessory accepts both."
        ),
        seed=16001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.pairings_admin_story,
        accessory_hook=misbehaving.pairings_admin_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="frame-faults",
        description=(
            "Five verified sessions, one encrypted-frame fault each: an oversize /accessories frame (accepted by "
            "aiohomekit), a skipped nonce counter, a reused nonce counter, a corrupted tag after several good frames, "
            "and a plaintext response after encryption began; aiohomekit drops the last four connections."
        ),
        seed=17001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.frame_faults_story,
        accessory_hook=misbehaving.frame_faults_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="bad-events",
        description=(
            "The controller subscribes only to the temperature; after it writes the lamp, the accessory sends EVENTs "
            "for the lamp's On (never subscribed) and for its Model (perms without ev)."
        ),
        seed=18001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.bad_events_story,
        accessory_hook=misbehaving.bad_events_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="bad-discovery",
        description=(
            "mDNS misbehaviour: an announcement whose SRV target has no address record, an announcement with a malformed "
            "TXT (id, pv, ci), ff=1 advertised while pair-setup uses Method 0, and an sh computed from another setup ID; "
            "pairing still works."
        ),
        seed=19001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.bad_discovery_story,
        accessory_hook=misbehaving.bad_discovery_accessory,
        controller_hook=misbehaving.bad_discovery_controller,
        notes=(
            MISBEHAVING_NOTE,
            "the controller was patched to send pair-setup M1 with Method 0 although ff=1 (aiohomekit would send Method 1)",
        ),
    ),
    Scenario(
        name="bad-database",
        description=(
            "An /accessories database with duplicate iids and aids, accessories lacking (parts of) the Accessory "
            "Information service, values out of range, off-step, outside valid-values and of the wrong format, and an "
            "undefined Apple type; a write to a read-only and an out-of-range characteristic is rejected with 207; the "
            "database then grows while c# stays the same."
        ),
        seed=20001,
        accessory_name="hapscope Odd Bridge",
        build_accessory=accessories.odd_bridge,
        story=misbehaving.bad_database_story,
        accessory_hook=misbehaving.bad_database_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
    Scenario(
        name="bad-json",
        description=(
            "The accessory answers GET /accessories first with valid JSON, then with a raw control character inside a "
            "string, then with a body cut short in the middle of a string."
        ),
        seed=21001,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=misbehaving.bad_json_story,
        accessory_hook=misbehaving.bad_json_accessory,
        notes=(MISBEHAVING_NOTE,),
    ),
)


SCENARIOS: dict[str, Scenario] = {
    scenario.name: scenario
    for scenario in (
        Scenario(
            name="bridge",
            description=(
                "A HAP-python bridge (lightbulb, temperature sensor, outlet, lock, thermostat) is found over "
                "mDNS, paired and verified by aiohomekit, which reads the database, reads and writes "
                "characteristics, subscribes and receives EVENT notifications while the temperature changes."
            ),
            seed=1001,
            accessory_name=BRIDGE_NAME,
            build_accessory=accessories.demo_bridge,
            story=demo_story,
        ),
        Scenario(
            name="wrong-code",
            description=(
                "Pair-setup with a wrong setup code fails with M4 Error=Authentication; the controller starts "
                "again with the right code on the same connection, then verifies and uses the lightbulb."
            ),
            seed=2001,
            accessory_name="Porch Light",
            build_accessory=accessories.porch_light,
            story=wrong_code_story,
            capture=DUMPCAP,
            pair_setups=(PairSetupAttempt(code=WRONG_SETUP_CODE, succeeds=False), PairSetupAttempt()),
            notes=(f"the first pair-setup uses the wrong setup code {WRONG_SETUP_CODE}",),
        ),
        Scenario(
            name="large-bridge",
            description=(
                "A bridge with 64 bridged accessories: GET /accessories returns a JSON body that spans many "
                "1024-byte encrypted frames, and one GET /characteristics reads every readable characteristic."
            ),
            seed=3001,
            accessory_name="hapscope Big Bridge",
            build_accessory=accessories.large_bridge,
            story=large_bridge_story,
        ),
        Scenario(
            name="lossy-link",
            description=(
                "The bridge story (on a bridge with 40 more lights) over a link that drops, duplicates and "
                "reorders Ethernet frames (a seeded user-space relay between the two namespaces), plus a read "
                "and a write longer than one TCP segment; captured on the accessory's side."
            ),
            seed=4001,
            accessory_name=BRIDGE_NAME,
            build_accessory=accessories.demo_bridge_with_lights,
            story=lossy_story,
            impairment=Impairment(drop=0.08, duplicate=0.05, reorder=0.2, hold_seconds=0.04),
            capture_must_show=("tcp.analysis.retransmission", "tcp.analysis.out_of_order"),
            time_limit=150.0,
        ),
        Scenario(
            name="ipv6",
            description="The bridge story over IPv6 (fd77::/64): mDNS on ff02::fb and HAP over TCP/IPv6.",
            seed=5001,
            accessory_name=BRIDGE_NAME,
            build_accessory=accessories.demo_bridge,
            story=demo_story,
            addressing=IPV6,
        ),
        Scenario(
            name="multi-connection",
            description=(
                "One pair-setup, then three verified sessions from the same controller: two overlap in time "
                "(both subscribe; a write on one is notified on the other), the third starts after the first "
                "closed. Recorded with tcpdump -i any."
            ),
            seed=6001,
            accessory_name=BRIDGE_NAME,
            build_accessory=accessories.demo_bridge,
            story=multi_connection_story,
            capture=TCPDUMP_ANY,
        ),
        Scenario(
            name="pairings",
            description=(
                "Over /pairings the owner adds a second admin and a regular controller, lists them, the regular "
                "one is refused a list, the second admin removes it, the owner removes the second admin (whose "
                "next pair-verify fails) and finally its own pairing."
            ),
            seed=7001,
            accessory_name=BRIDGE_NAME,
            build_accessory=accessories.demo_bridge,
            story=pairings_story,
        ),
        Scenario(
            name="srp-mismatch",
            description=(
                "Pair-setup with the right code fails with M4 Error=Authentication because HAP-python and "
                "aiohomekit encode an SRP value with a leading zero byte differently; the retry succeeds."
            ),
            seed=8048,  # the first seed from 8001 on whose first pair-setup hits the mismatch
            accessory_name=BRIDGE_NAME,
            build_accessory=accessories.demo_bridge,
            story=srp_mismatch_story,
            pair_setups=(PairSetupAttempt(succeeds=False), PairSetupAttempt()),
        ),
        *MISBEHAVING,
        *compliance.scenarios(Scenario),
        *adklike.scenarios(Scenario, PairSetupAttempt),
        *homekitpy.scenarios(Scenario, demo_story, accessories.steady_bridge),
    )
}

# Captures as they come from a real home (issue 15). realhome.py builds on Scenario, so it is imported last.
from . import realhome  # noqa: E402

SCENARIOS.update((scenario.name, scenario) for scenario in realhome.SCENARIOS)
