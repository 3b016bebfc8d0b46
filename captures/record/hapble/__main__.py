"""Records the HAP-BLE corpus into captures/ble/ and verifies it.

``python -m hapble [--keep] [scenario ...]`` (what record-ble.sh runs). Each scenario is recorded in
its own process into a fresh work directory, verified there, and only then copied over its files in
captures/ble/; a failed scenario leaves the corpus untouched and its work directory in place.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import scenarios, verify

CORPUS = Path(__file__).resolve().parents[2] / "ble"
SUFFIXES = (".pcap", ".btsnoop", ".keylog", ".truth.json")
SCENARIO_TIMEOUT = 120


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", action="store_true", help="keep each scenario's work directory")
    parser.add_argument("scenario", nargs="*", choices=[[]] + sorted(scenarios.BY_NAME), default=[])
    args = parser.parse_args()
    names = args.scenario or [s.name for s in scenarios.SCENARIOS]
    CORPUS.mkdir(exist_ok=True)
    failed = []
    for name in names:
        started = time.monotonic()
        workdir = Path(tempfile.mkdtemp(prefix=f"hapble-{name}-"))
        try:
            subprocess.run([sys.executable, "-m", "hapble.one", "--scenario", name, "--workdir", str(workdir)],
                           check=True, timeout=SCENARIO_TIMEOUT, cwd=Path(__file__).resolve().parents[1])
            problems = verify.verify_scenario(workdir, name)
            if problems:
                raise RuntimeError("; ".join(problems))
        except (subprocess.SubprocessError, RuntimeError, OSError) as error:
            print(f"{name}: FAILED ({error}); work directory kept: {workdir}", file=sys.stderr)
            failed.append(name)
            continue
        for suffix in SUFFIXES:
            shutil.copyfile(workdir / f"{name}{suffix}", CORPUS / f"{name}{suffix}")
        (CORPUS / f"{name}.keylog").chmod(0o600)
        print(f"{name}: recorded and verified in {time.monotonic() - started:.1f} s")
        if args.keep:
            print(f"{name}: work directory kept: {workdir}")
        else:
            shutil.rmtree(workdir)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
