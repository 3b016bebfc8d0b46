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
