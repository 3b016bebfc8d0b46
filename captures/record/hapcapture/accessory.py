"""The accessory peer: HAP-python serving a scenario's accessory, instrumented, inside its namespace.

Usage: ``python -m hapcapture.accessory --scenario NAME --seed N --workdir DIR``. Writes
``DIR/accessory.jsonl`` as it goes, creates ``DIR/accessory.ready`` once the HAP server listens and the
mDNS service is registered, and stops cleanly (mDNS goodbye, connections closed) on SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from pyhap.accessory_driver import AccessoryDriver
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncZeroconf

from .instrument_accessory import instrument_hap_python
from .journal import Journal
from .scenarios import SCENARIOS, Scenario
from .seeded import SeededRandomness, seeded_ed25519_key


async def serve(scenario: Scenario, seed: int, workdir: Path) -> None:
    journal = Journal(workdir / "accessory.jsonl")
    randomness = SeededRandomness(seed, "accessory")
    instrument_hap_python(journal, randomness)

    address = scenario.addressing.accessory
    ip_version = IPVersion.V6Only if scenario.addressing.family == 6 else IPVersion.V4Only
    zeroconf = AsyncZeroconf(interfaces=[address], ip_version=ip_version)
    driver = AccessoryDriver(
        loop=asyncio.get_running_loop(),
        address=address,
        port=scenario.port,
        persist_file=str(workdir / "accessory.state"),
        pincode=scenario.setup_code.encode("ascii"),
        mac=scenario.device_id,
        async_zeroconf_instance=zeroconf,
    )
    # Fixed identity: the long-term key and the setup id would otherwise be random on every run.
    driver.state.private_key = seeded_ed25519_key(randomness, "accessory-ltsk")
    driver.state.public_key = driver.state.private_key.public_key()
    driver.state.setup_id = scenario.setup_id
    driver.add_accessory(scenario.build_accessory(driver, scenario.accessory_name))
    if scenario.accessory_hook is not None:
        scenario.accessory_hook(driver, journal)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    await driver.async_start()
    ltpk = driver.state.public_key.public_bytes(
        encoding=serialization.Encoding.Raw, format=serialization.PublicFormat.Raw
    )
    journal.write(
        "accessory",
        name=scenario.accessory_name,
        device_id=scenario.device_id,
        address=address,
        port=scenario.port,
        category=driver.accessory.category,
        ltpk=ltpk.hex(),
        setup_code=scenario.setup_code,
        setup_id=scenario.setup_id,
    )
    journal.key("ACCESSORY_LTPK", scenario.device_id, ltpk)
    (workdir / "accessory.ready").write_text("ready\n")

    await stop.wait()
    await driver.async_stop()
    journal.write("stopped")
    journal.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", required=True, choices=sorted(SCENARIOS))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s accessory %(name)s: %(message)s")
    asyncio.run(serve(SCENARIOS[args.scenario], args.seed, args.workdir))


if __name__ == "__main__":
    main()
