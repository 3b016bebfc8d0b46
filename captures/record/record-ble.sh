#!/usr/bin/env bash
# Records the HAP-over-Bluetooth-LE corpus into captures/ble/ and verifies it.
#
#   captures/record/record-ble.sh [--keep] [scenario ...]
#
# Needs python3 (3.11) with venv; no Bluetooth hardware, no kernel Bluetooth, no root: both radios are
# Bumble controllers on one in-process LocalLink. The first run creates captures/record/.venv-ble and
# installs the pinned requirements-ble.txt from PyPI; nothing else is downloaded and nothing touches
# the network.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv-ble"
python="${PYTHON:-python3}"
overall_timeout="${HAPBLE_TIMEOUT:-900}"

command -v "$python" >/dev/null || { echo "record-ble.sh: $python is not installed" >&2; exit 2; }
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "record-ble.sh: warning: the pinned requirements were chosen for Python 3.11" >&2
fi

stamp="$venv/.requirements-installed"
if [[ ! -f "$stamp" || "$here/requirements-ble.txt" -nt "$stamp" ]]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements-ble.txt"
    cp "$here/requirements-ble.txt" "$stamp"
fi

cd "$here"
exec timeout --signal=TERM --kill-after=30 "$overall_timeout" "$venv/bin/python" -m hapble "$@"
