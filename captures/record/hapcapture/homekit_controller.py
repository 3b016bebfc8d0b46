"""The controller peer: homekit_python's Controller running a scenario's story, instrumented, in its namespace.

Usage: ``python -m hapcapture.homekit_controller --scenario NAME --seed N --workdir DIR``. Writes
``DIR/controller.jsonl`` as it goes and exits non-zero if the story fails or overruns its time limit.
homekit_python is synchronous (blocking sockets, threads), so the story runs on a thread of its own and
the time limit is a join timeout. It runs in the homekit_python venv and learns its scenario from the
recorder's facts (``peerfacts.py``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import traceback
from pathlib import Path

from homekit.controller import Controller

from .homekitpy import HomekitStory
from .instrument_homekit import instrument_homekit_controller
from .journal import Journal
from .peerfacts import PeerFacts, resolve
from .seeded import SeededRandomness


def control(scenario: PeerFacts, seed: int, workdir: Path) -> int:
    journal = Journal(workdir / "controller.jsonl")
    randomness = SeededRandomness(seed, "controller")
    recorder = instrument_homekit_controller(journal, randomness, scenario.addressing.controller)
    tell_story = resolve(scenario.story)
    story = HomekitStory(Controller(), journal, randomness, recorder, scenario.device_id, scenario.setup_code)

    failure: list[BaseException] = []

    def tell() -> None:
        try:
            tell_story(story)
        except BaseException as error:
            traceback.print_exc()
            failure.append(error)

    teller = threading.Thread(target=tell, name="story", daemon=True)
    teller.start()
    teller.join(scenario.time_limit)
    if teller.is_alive():
        print(f"the story overran its time limit of {scenario.time_limit:.0f} s", file=sys.stderr)
        return 1
    if failure:
        return 1
    journal.write("story-finished")
    journal.close()
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s controller %(name)s: %(message)s")
    status = control(PeerFacts.read(args.workdir, args.scenario), args.seed, args.workdir)
    sys.stdout.flush()
    sys.stderr.flush()
    # A story thread stuck in a blocking socket call must not keep the process alive.
    os._exit(status)


if __name__ == "__main__":
    main()
