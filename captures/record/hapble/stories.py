"""Controller stories over aiohomekit's public BLE API (what Home Assistant calls), plus the
accessory's own value changes (its "sensor" or "button")."""

from __future__ import annotations

import asyncio
import time

from .rig import ALIAS, DEVICE_ID, SETUP_CODE, Rig, StoryError

AID = 1  # aiohomekit controller/ble/pairing.py: BLE_AID, the aid of a BLE accessory is always 1
ON = 50
BRIGHTNESS = 51


async def discover(rig: Rig):
    controller = rig.ble_controller
    # aiohomekit 4.0.1 async_find() only finds an advert already seen: wait for the discovery first.
    discovery = await rig.wait_for(lambda: controller.discoveries.get(DEVICE_ID.lower()), 10, "the accessory's advertisement")
    rig.note(f"discovered {discovery.description.name} at {discovery.device.address}: "
             f"category {int(discovery.description.category)}, sf {int(discovery.description.status_flags)}, "
             f"c# {discovery.description.config_num}, gsn {discovery.description.state_num}")
    return discovery


async def pair(rig: Rig, discovery, code: str = SETUP_CODE):
    finish = await rig.step(discovery.async_start_pairing(ALIAS), 20, "pair-setup M1/M2")
    pairing = await rig.step(finish(code), 30, "pair-setup M3-M6")
    pairing.dispatcher_connect(rig.on_values)
    return pairing


async def load_database(rig: Rig, pairing) -> list:
    """Signature reads of the whole database, pair-verify, then the reads aiohomekit makes of every
    readable characteristic (aiohomekit BlePairing._populate_accessories_and_characteristics)."""
    accessories = await rig.step(pairing.list_accessories_and_characteristics(), 60, "database, pair-verify and reads")
    count = sum(len(service["characteristics"]) for service in accessories[0]["services"])
    rig.note(f"aiohomekit listed {len(accessories[0]['services'])} services with {count} characteristics")
    return accessories


async def change_on_accessory(rig: Rig, iid: int, value) -> None:
    characteristic = rig.accessory.database.characteristic(iid)
    characteristic.value = value
    rig.accessory.journal.write("local-change", iid=iid, value=characteristic.encode_value().hex())
    rig.accessory.value_changed(characteristic)


async def wait_disconnected(rig: Rig, pairing) -> None:
    await rig.step(pairing.close(), 10, "disconnect")
    await rig.wait_for(lambda: not rig.accessory.connected and rig.accessory.advertising, 5, "the accessory advertising again")


async def lamp_story(rig: Rig) -> None:
    discovery = await discover(rig)
    await rig.step(discovery.async_identify(), 10, "unpaired identify")
    pairing = await pair(rig, discovery)
    await load_database(rig, pairing)
    read = await rig.step(pairing.get_characteristics([(AID, ON), (AID, BRIGHTNESS)]), 10, "read On and Brightness")
    rig.note(f"read {read}")
    await rig.step(pairing.put_characteristics([(AID, ON, True), (AID, BRIGHTNESS, 80)]), 10, "write On and Brightness")
    await rig.step(pairing.identify(), 10, "paired identify")

    # Connected events: subscribe, then the accessory's own change → zero-length indication → read.
    await pairing.subscribe([(AID, ON), (AID, BRIGHTNESS)])
    await rig.wait_for(lambda: ON in pairing._notifications and BRIGHTNESS in pairing._notifications, 10, "GATT indications enabled")
    since = time.time()
    await change_on_accessory(rig, BRIGHTNESS, 30)
    await rig.wait_for(lambda: rig.value_seen((AID, BRIGHTNESS), 30, since), 10, "the connected event for Brightness")
    rig.observe("aiohomekit read Brightness = 30 after the zero-length indication")

    # Disconnected event: GSN bumped in the advertisement → aiohomekit reconnects (pair-resume) and reads.
    await wait_disconnected(rig, pairing)
    since = time.time()
    await change_on_accessory(rig, ON, False)
    await rig.wait_for(lambda: rig.value_seen((AID, ON), False, since), 20, "the disconnected event for On")
    rig.observe("aiohomekit reconnected on the new GSN, resumed the session and read On = false")
    await rig.wait_for(lambda: pairing._broadcast_decryption_key is not None and BRIGHTNESS in pairing._broadcast_notifications,
                       15, "broadcast key and broadcast notifications for Brightness")

    # Broadcast notification: disconnected again, the change goes out encrypted in the advertisement.
    await asyncio.sleep(2.0)  # let aiohomekit finish re-enabling GATT indications first
    await wait_disconnected(rig, pairing)
    since = time.time()
    await change_on_accessory(rig, BRIGHTNESS, 65)
    await rig.wait_for(lambda: rig.value_seen((AID, BRIGHTNESS), 65, since), 10, "the broadcast notification for Brightness")
    rig.observe("aiohomekit decrypted the encrypted notification advertisement: Brightness = 65")


async def not_implemented(rig: Rig) -> None:
    raise StoryError("story not written")


async def paired_and_loaded(rig: Rig, code: str = SETUP_CODE):
    discovery = await discover(rig)
    pairing = await pair(rig, discovery, code)
    await load_database(rig, pairing)
    return pairing


async def wrong_code_story(rig: Rig) -> None:
    discovery = await discover(rig)
    finish = await rig.step(discovery.async_start_pairing(ALIAS), 20, "pair-setup M1/M2")
    try:
        await rig.step(finish("111-22-333"), 30, "pair-setup with the wrong code")
    except Exception as error:  # aiohomekit raises AuthenticationError on M4 Error=Authentication
        rig.observe(f"aiohomekit raised {type(error).__name__} for the wrong setup code 111-22-333")
    else:
        raise StoryError("pair-setup with a wrong code succeeded")
    pairing = await rig.step(finish(SETUP_CODE), 40, "pair-setup with the right code")
    rig.observe("aiohomekit's second finish() disconnected and ran pair-setup again from M1 on a new connection")
    pairing.dispatcher_connect(rig.on_values)
    await load_database(rig, pairing)
    await rig.step(pairing.get_characteristics([(AID, ON)]), 10, "read On")


LOCK_TARGET = 99
NOTE = 114


async def multi_service_story(rig: Rig) -> None:
    pairing = await paired_and_loaded(rig)
    accessories = await rig.step(pairing.list_accessories_and_characteristics(), 10, "list the database")
    linked = {s["iid"]: s.get("linked", []) for s in accessories[0]["services"]}
    rig.note(f"aiohomekit linked services: { {k: v for k, v in linked.items() if v} }")
    read = await rig.step(pairing.get_characteristics([(AID, 66), (AID, 82), (AID, 98), (AID, NOTE)]), 10, "reads")
    rig.note(f"read battery, temperature, lock state and the {len(read[(AID, NOTE)]['value'])}-character note")
    await rig.step(pairing.put_characteristics([(AID, LOCK_TARGET, 0)]), 10, "timed write of Lock Target State")
    note = "hapscope rewrote this note: " + "0123456789" * 25
    await rig.step(pairing.put_characteristics([(AID, NOTE, note)]), 10, "write the long note")
    back = await rig.step(pairing.get_characteristics([(AID, NOTE)]), 10, "read the note back")
    if back[(AID, NOTE)]["value"] != note:
        raise StoryError("the long note did not read back")
    rig.observe(f"aiohomekit wrote and read back a {len(note)}-byte string; Lock Target State went by Timed Write + Execute Write")
    pairings = await rig.step(pairing.list_pairings(), 10, "List Pairings over the Pairings characteristic")
    rig.observe(f"aiohomekit listed {len(pairings)} pairing(s): {[p['pairingId'] for p in pairings]}")


async def long_values_story(rig: Rig) -> None:
    await multi_service_story(rig)


async def misbehaving_read_story(rig: Rig) -> None:
    """Pair, load, then one armed read of On; aiohomekit's reaction is recorded, then a second read."""
    pairing = await paired_and_loaded(rig)
    rig.accessory.misbehaviour.armed = True
    try:
        result = await rig.step(pairing.get_characteristics([(AID, ON)]), 20, "the read the accessory answers wrongly")
        rig.observe(f"aiohomekit's get_characteristics returned {result} (after its own retry, if any)")
    except Exception as error:
        rig.observe(f"aiohomekit raised {type(error).__name__}: {error}")
    await asyncio.sleep(0.5)
    rig.observe("aiohomekit " + ("kept the connection" if rig.accessory.connected else "dropped the connection"))


async def unauthenticated_read_story(rig: Rig) -> None:
    from aiohomekit.controller.ble.client import char_read
    from aiohomekit.controller.ble.connection import establish_connection
    from aiohomekit.model import CharacteristicsTypes, ServicesTypes

    pairing = await paired_and_loaded(rig)
    await wait_disconnected(rig, pairing)
    pairing._shutdown = True  # keep aiohomekit's pairing from reconnecting on its own
    discovery = rig.ble_controller.discoveries[DEVICE_ID.lower()]
    client = await rig.step(establish_connection(discovery.device, "unauthenticated", lambda client: None), 10, "a plain connection")
    characteristic = await client.get_characteristic(ServicesTypes.LIGHTBULB, CharacteristicsTypes.ON)
    iid = await client.get_characteristic_iid(characteristic)
    value = await rig.step(char_read(client, None, None, characteristic, iid), 10, "an unauthenticated Char-Read of On")
    rig.observe(f"aiohomekit's char_read without a session returned {bytes(value).hex()} for On (IID {iid})")
    await client.disconnect()


async def gsn_not_bumped_story(rig: Rig) -> None:
    """Pair and load (On read), disconnect; On changes on the accessory without a disconnected event;
    aiohomekit is watched for a reconnection, then asked to read On, which it does on a new connection."""
    pairing = await paired_and_loaded(rig)
    before = await rig.step(pairing.get_characteristics([(AID, ON)]), 10, "read On")
    rig.note(f"read {before}")
    await wait_disconnected(rig, pairing)
    rig.accessory.misbehaviour.armed = True
    await change_on_accessory(rig, ON, not before[(AID, ON)]["value"])
    await asyncio.sleep(4.0)  # longer than a disconnected event's 3 s of fast advertising
    rig.observe("aiohomekit " + ("reconnected" if rig.accessory.connected else "did not reconnect") + " within 4 s: the advertised "
                f"GSN stayed at {rig.accessory.gsn}")
    after = await rig.step(pairing.get_characteristics([(AID, ON)]), 20, "read On when asked")
    rig.observe(f"asked to read On, aiohomekit connected again and read {after}")


BATTERY = 64  # the service the accessory gains, after the lamp's last IID (52)
BATTERY_LEVEL = BATTERY + 2


async def configuration_number_unchanged_story(rig: Rig) -> None:
    """Pair and load, disconnect; the accessory gains a Battery service without a new configuration number;
    aiohomekit is asked to read On (a new connection, whose GATT discovery lists the new service), then the
    new Battery Level."""
    from .database import battery

    pairing = await paired_and_loaded(rig)
    await wait_disconnected(rig, pairing)
    rig.accessory.add_service(battery(BATTERY))
    await asyncio.sleep(1.0)
    rig.observe("aiohomekit " + ("reconnected" if rig.accessory.connected else "did not reconnect") + " within 1 s: the "
                f"advertised configuration number stayed at {rig.accessory.identity.config_number}")
    read = await rig.step(pairing.get_characteristics([(AID, ON)]), 20, "read On when asked")
    cached = len(list(pairing.accessories.aid(AID).services))
    rig.observe(f"asked to read On, aiohomekit connected again and read {read} with its cached database: {cached} services, "
                f"where the accessory now has {len(rig.accessory.database.services)}")
    try:
        result = await rig.step(pairing.get_characteristics([(AID, BATTERY_LEVEL)]), 10, "read the new Battery Level")
        rig.observe(f"asked to read the new Battery Level (IID {BATTERY_LEVEL}), aiohomekit returned {result}")
    except Exception as error:  # what aiohomekit does with an IID its cached database lacks
        rig.observe(f"asked to read the new Battery Level (IID {BATTERY_LEVEL}), aiohomekit raised {type(error).__name__}: {error}")


IDENTIFY = 2  # the lamp's Accessory Information service starts at IID 1


async def pdu_statuses_story(rig: Rig) -> None:
    """Requests the accessory answers with non-zero HAP-BLE PDU statuses, each as aiohomekit reports it."""
    from aiohomekit.controller.ble.client import PDUStatusError
    from aiohomekit.pdu import OpCode

    pairing = await paired_and_loaded(rig)
    # Identify is write-only: a Char-Read of it is answered Unsupported-PDU (1).
    read = await rig.step(pairing.get_characteristics([(AID, IDENTIFY)]), 10, "a Char-Read of write-only Identify")
    rig.observe(f"aiohomekit logged the Unsupported-PDU answer to the Char-Read of Identify and returned {read}")
    # Brightness allows 0-100: a write of 150 is answered Invalid Request (6).
    try:
        await rig.step(pairing.put_characteristics([(AID, BRIGHTNESS, 150)]), 10, "a Char-Write of Brightness = 150")
    except PDUStatusError as error:
        rig.observe(f"aiohomekit raised PDUStatusError for the write of Brightness = 150: {error}")
    else:
        raise StoryError("the out-of-range write of Brightness succeeded")
    # A Char-Read sent to On's characteristic naming another IID is answered Invalid Instance ID (4).
    on = pairing.accessories.aid(AID).characteristics.iid(ON)
    try:
        async with pairing._ble_request_lock:
            await rig.step(pairing._async_request_under_lock(OpCode.CHAR_READ, on, iid=ON + 100), 10,
                           "a Char-Read of On's characteristic naming IID 150")
    except PDUStatusError as error:
        rig.observe(f"aiohomekit raised PDUStatusError for the Char-Read naming IID {ON + 100}: {error}")
    else:
        raise StoryError("the Char-Read naming a wrong IID succeeded")
    read = await rig.step(pairing.get_characteristics([(AID, ON), (AID, BRIGHTNESS)]), 10, "read On and Brightness")
    rig.observe(f"the session went on: aiohomekit read {read}")


async def restart_controller(rig: Rig, pairing):
    """Home Assistant restarting: a new BleController from the same characteristic cache loads the pairing
    (aiohomekit restores the database, the GSN and the broadcast key from the cache) and scans again."""
    from aiohomekit.controller.ble.controller import BleController

    cache = rig.ble_controller._char_cache
    data = dict(pairing.pairing_data)
    pairing._shutdown = True
    await rig.step(rig.ble_controller.async_stop(), 5, "stop the first controller")
    rig.ble_controller = BleController(cache)
    restored = rig.ble_controller.load_pairing(ALIAS, data)
    restored.dispatcher_connect(rig.on_values)
    await rig.step(rig.ble_controller.async_start(), 5, "start the restarted controller")
    await rig.wait_for(lambda: restored.description is not None and restored.device is not None, 10, "the restarted controller seeing the accessory")
    return restored


async def broadcast_key_expired_story(rig: Rig) -> None:
    """Pair, load, subscribe (broadcast key generated, broadcasts enabled for Brightness), disconnect; the
    controller restarts from its cache; the accessory's GSN jumps to the key's expiration GSN; Brightness
    changes and goes out as an encrypted notification under the expired key."""
    pairing = await paired_and_loaded(rig)
    await pairing.subscribe([(AID, ON), (AID, BRIGHTNESS)])
    await rig.wait_for(lambda: pairing._broadcast_decryption_key is not None and BRIGHTNESS in pairing._broadcast_notifications,
                       15, "broadcast key and broadcast notifications for Brightness")
    await asyncio.sleep(2.0)  # let aiohomekit finish enabling GATT indications first
    await wait_disconnected(rig, pairing)
    pairing = await restart_controller(rig, pairing)
    generated = rig.accessory.broadcast
    rig.note(f"broadcast key generated on connection {generated['connection']} at GSN {generated['gsn']}, "
             f"expiring at GSN {generated['expiresAfterGsn']}")
    await rig.accessory.misbehaviour.jump_to_key_expiration(rig.accessory)
    jumped = rig.accessory.gsn
    await rig.wait_for(lambda: pairing.description.state_num == jumped, 10, f"the controller seeing GSN {jumped}")
    await asyncio.sleep(0.5)
    rig.observe(f"the restarted aiohomekit saw the advertised GSN jump to {jumped} and "
                + ("connected" if rig.accessory.connected else "did not connect (it has not connected since its restart)"))
    since = time.time()
    await change_on_accessory(rig, BRIGHTNESS, 65)
    try:
        await rig.wait_for(lambda: rig.value_seen((AID, BRIGHTNESS), 65, since), 10, "the broadcast notification for Brightness")
        rig.observe(f"aiohomekit decrypted the encrypted notification at GSN {rig.accessory.gsn} under the expired key and "
                    "accepted Brightness = 65")
    except StoryError:
        rig.observe("aiohomekit did not deliver Brightness = 65 from the encrypted notification within 10 s")
    await asyncio.sleep(0.5)
    rig.observe("aiohomekit " + ("connected" if rig.accessory.connected else "did not connect") + " after the notification")
