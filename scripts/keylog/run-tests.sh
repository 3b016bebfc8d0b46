#!/usr/bin/env bash
# Runs the key-log exporter tests (make keylog-test): unit tests, the HomeKitADK converter, and
# loopback sessions between HAP-python, aiohomekit and homekit_python captured with tcpdump and
# decrypted by hapscope ($HAPSCOPE, default .build/debug/hapscope).
#
# Needs root (tcpdump on lo), python3 (3.11) with venv, gcc and the Python headers (ed25519 builds
# from source), tcpdump and editcap. The first run creates scripts/keylog/.venv from the pinned
# requirements-test.txt (PyPI); all traffic stays on 127.0.0.1.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repository="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"
export HAPSCOPE="${HAPSCOPE:-$repository/.build/debug/hapscope}"

if [[ $EUID -ne 0 ]]; then
    echo "keylog tests: need root to capture on lo with tcpdump" >&2
    exit 2
fi
for tool in tcpdump editcap "$python"; do
    command -v "$tool" >/dev/null || { echo "keylog tests: $tool is not installed" >&2; exit 2; }
done
[[ -x "$HAPSCOPE" ]] || { echo "keylog tests: no hapscope at $HAPSCOPE (swift build first)" >&2; exit 2; }
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "keylog tests: warning: the pinned requirements were chosen for Python 3.11" >&2
fi

stamp="$venv/.requirements-installed"
if [[ ! -f "$stamp" ]] || ! cmp -s "$here/requirements-test.txt" "$stamp"; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements-test.txt"
    cp "$here/requirements-test.txt" "$stamp"
fi

cd "$here"
exec timeout --signal=TERM --kill-after=30 "${KEYLOG_TEST_TIMEOUT:-600}" "$venv/bin/python" -m pytest "$@"
