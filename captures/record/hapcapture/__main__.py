"""Record scenarios into ``captures/`` and verify them: ``python -m hapcapture [--keep] [scenario ...]``.

Needs root (network namespaces, packet capture). With no scenario named, records the whole corpus.
Each scenario's work directory (peer journals and logs) is removed after a successful run and kept,
with its path printed, when the run fails or ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import time
from pathlib import Path

from .record import ScenarioFailed, discard, record_scenario
from .scenarios import SCENARIOS
from .truth import write_outputs
from .verify import VerificationError, verify_scenario

CAPTURES_DIR = Path(__file__).resolve().parents[2]


def exit_on_sigterm(_signum: int, _frame: object) -> None:
    # SystemExit unwinds through the context managers that stop processes and delete namespaces.
    raise SystemExit("stopped by SIGTERM")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", metavar="scenario", help=f"any of: {', '.join(SCENARIOS)}")
    parser.add_argument("--out", type=Path, default=CAPTURES_DIR, help="where the captures go (default: captures/)")
    parser.add_argument("--keep", action="store_true", help="keep each scenario's work directory")
    args = parser.parse_args()
    unknown = [name for name in args.scenarios if name not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(unknown)}")
    if os.geteuid() != 0:
        parser.error("recording needs root: network namespaces, veth pairs and packet capture")
    signal.signal(signal.SIGTERM, exit_on_sigterm)

    failures = 0
    for name in args.scenarios or list(SCENARIOS):
        started = time.monotonic()
        recording = None
        try:
            recording = record_scenario(SCENARIOS[name])
            # Written and verified beside the journals first; captures/ only ever gets verified files.
            staging = recording.workdir / "out"
            staging.mkdir()
            staged = write_outputs(recording, staging)
            summary = verify_scenario(staging, name, corpus=args.out)
        except (ScenarioFailed, VerificationError, ValueError) as error:
            failures += 1
            kept = f" (work directory kept at {recording.workdir})" if recording is not None else ""
            print(f"{name}: FAILED: {error}{kept}", flush=True)
            continue
        paths = [Path(shutil.move(path, args.out / path.name)) for path in staged]
        if args.keep:
            print(f"{name}: work directory kept at {recording.workdir}")
        else:
            discard(recording)
        sizes = ", ".join(f"{path.name} {path.stat().st_size} B" for path in paths)
        print(f"{summary} ({time.monotonic() - started:.1f} s; {sizes})", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
