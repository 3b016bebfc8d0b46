"""The accessory peer: homekit_python's AccessoryServer serving a scenario's accessory, instrumented, in its namespace.

Usage: ``python -m hapcapture.homekit_accessory --scenario NAME --seed N --workdir DIR``. Writes
``DIR/accessory.jsonl`` as it goes, creates ``DIR/accessory.ready`` once the server listens and its mDNS
service is registered, and stops cleanly (mDNS goodbye, connections closed) on SIGTERM. Like
``accessory.py`` for HAP-python, with homekit_python's own configuration file (``AccessoryServerData``).
It runs in the homekit_python venv and learns its scenario from the recorder's facts (``peerfacts.py``).
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import threading
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from homekit.accessoryserver import AccessoryServer
from homekit.model import Categories

from .instrument_homekit import instrument_homekit_accessory
from .journal import Journal
from .peerfacts import PeerFacts, resolve
from .seeded import SeededRandomness, seeded_ed25519_key

# homekit_python bumps c# every time the server starts (AccessoryServer.__init__), so it first says 2.
INITIAL_CONFIGURATION_NUMBER = 1


def write_configuration(path: Path, scenario: PeerFacts, category: str, randomness: SeededRandomness) -> bytes:
    """homekit_python's configuration file (AccessoryServerData.check), with a fixed long-term key; its LTPK."""
    key = seeded_ed25519_key(randomness, "accessory-ltsk")
    public = key.public_key().public_bytes(encoding=serialization.Encoding.Raw, format=serialization.PublicFormat.Raw)
    configuration = {
        "name": scenario.accessory_name,
        "host_ip": scenario.addressing.accessory,
        "host_port": scenario.port,
        "accessory_pairing_id": scenario.device_id,
        "accessory_pin": scenario.setup_code,
        "c#": INITIAL_CONFIGURATION_NUMBER,
        "category": category,
        "peers": {},
        "unsuccessful_tries": 0,
        # Without them homekit_python would draw a key pair at the first pair-setup M5 (ed25519.create_keypair).
        "accessory_ltpk": public.hex(),
        "accessory_ltsk": key.private_bytes_raw().hex(),
    }
    path.write_text(json.dumps(configuration, indent=2) + "\n")
    return public


def serve(scenario: PeerFacts, seed: int, workdir: Path) -> None:
    journal = Journal(workdir / "accessory.jsonl")
    randomness = SeededRandomness(seed, "accessory")
    instrument_homekit_accessory(journal, randomness, scenario.addressing.accessory)

    home = resolve(scenario.build_accessory)(None, scenario.accessory_name)
    configuration = workdir / "accessory.json"
    ltpk = write_configuration(configuration, scenario, home.category, randomness)
    server = AccessoryServer(str(configuration), logger=logging.getLogger("homekit.accessoryserver"))
    home.attach(server)

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())

    server.publish_device()
    serving = threading.Thread(target=server.serve_forever, name="serve_forever")
    serving.start()
    sensor = threading.Thread(target=home.run, args=(stop,), name="sensor", daemon=True)
    sensor.start()
    journal.write(
        "accessory",
        name=scenario.accessory_name,
        device_id=scenario.device_id,
        address=scenario.addressing.accessory,
        port=scenario.port,
        category=Categories[home.category],
        ltpk=ltpk.hex(),
        setup_code=scenario.setup_code,
        setup_id=scenario.setup_id,
    )
    journal.key("ACCESSORY_LTPK", scenario.device_id, ltpk)
    (workdir / "accessory.ready").write_text("ready\n")

    stop.wait()
    server.unpublish_device()
    server.shutdown()  # tells every handler to close its connection, then stops serve_forever
    serving.join()
    server.server_close()  # waits for the handler threads
    server.zeroconf.close()
    journal.write("stopped")
    journal.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s accessory %(name)s: %(message)s")
    serve(PeerFacts.read(args.workdir, args.scenario), args.seed, args.workdir)


if __name__ == "__main__":
    main()
