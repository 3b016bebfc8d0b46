"""The controller peer: aiohomekit running a scenario's story, instrumented, inside its namespace.

Usage: ``python -m hapcapture.controller --scenario NAME --seed N --workdir DIR``. Writes
``DIR/controller.jsonl`` as it goes and exits non-zero if the story fails or overruns its time limit.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path

from aiohomekit.characteristic_cache import CharacteristicCacheMemory
from aiohomekit.controller.ip.controller import IpController
from aiohomekit.zeroconf import HAP_TYPE_TCP
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

from .instrument_controller import instrument_aiohomekit
from .journal import Journal
from .scenarios import SCENARIOS, Scenario
from .seeded import SeededRandomness
from .story import Story


def ignore_service_change(**_: object) -> None:
    """aiohomekit registers its own handler on the browser; this one only satisfies the constructor."""


async def control(scenario: Scenario, seed: int, workdir: Path) -> None:
    journal = Journal(workdir / "controller.jsonl")
    randomness = SeededRandomness(seed, "controller")
    instrument_aiohomekit(journal, randomness, scenario.addressing.controller)
    if scenario.controller_hook is not None:
        scenario.controller_hook(journal)

    ip_version = IPVersion.V6Only if scenario.addressing.family == 6 else IPVersion.V4Only
    zeroconf = AsyncZeroconf(interfaces=[scenario.addressing.controller], ip_version=ip_version)
    browser = AsyncServiceBrowser(zeroconf.zeroconf, [HAP_TYPE_TCP], handlers=[ignore_service_change])
    try:
        async with IpController(char_cache=CharacteristicCacheMemory(), zeroconf_instance=zeroconf) as controller:
            story = Story(controller, journal, randomness, scenario.device_id, scenario.setup_code, workdir)
            await asyncio.wait_for(scenario.story(story), timeout=scenario.time_limit)
            journal.write("story-finished")
    finally:
        await browser.async_cancel()
        await zeroconf.async_close()
        journal.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", required=True, choices=sorted(SCENARIOS))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s controller %(name)s: %(message)s")
    asyncio.run(control(SCENARIOS[args.scenario], args.seed, args.workdir))


if __name__ == "__main__":
    main()
