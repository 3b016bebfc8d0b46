"""One scenario in its own process (aiohomekit is patched at run time, once per process):
``python -m hapble.one --scenario NAME --workdir DIR`` writes DIR/NAME.{pcap,btsnoop,keylog,truth.json}."""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path

from . import rig, scenarios, truth


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", required=True, choices=sorted(scenarios.BY_NAME))
    parser.add_argument("--workdir", required=True, type=Path)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, filename=args.workdir / "libraries.log", filemode="w",
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("aiohomekit").setLevel(logging.DEBUG)
    scenario = scenarios.BY_NAME[args.scenario]
    stem = args.workdir / scenario.name
    asyncio.run(rig.record(scenario, args.workdir, stem, timeout=args.timeout))
    record, lines = truth.build(args.workdir, scenario, scenario.name)
    truth.write(record, lines, stem)


if __name__ == "__main__":
    main()
