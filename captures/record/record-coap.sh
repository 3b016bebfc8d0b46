#!/usr/bin/env bash
# Records the HAP-over-CoAP (Thread) captures into captures/coap/ and verifies them.
#
#   sudo captures/record/record-coap.sh [--keep] [scenario ...]
#
# Needs root (network namespaces, veth pairs, tcpdump), python3 (3.11), tcpdump, tshark and iproute2.
# The first run creates captures/record/.venv-coap and installs the pinned requirements-coap.txt from
# PyPI; nothing else is downloaded, and all traffic stays inside network namespaces this script creates
# and deletes again.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv-coap"
python="${PYTHON:-python3}"
overall_timeout="${HAPCOAP_TIMEOUT:-900}"

if [[ $EUID -ne 0 ]]; then
    echo "record-coap.sh needs root (network namespaces and packet capture); run it with sudo" >&2
    exit 2
fi
for tool in ip tcpdump tshark "$python"; do
    command -v "$tool" >/dev/null || { echo "record-coap.sh: $tool is not installed" >&2; exit 2; }
done
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "record-coap.sh: warning: the pinned requirements were chosen for Python 3.11" >&2
fi

stamp="$venv/.requirements-installed"
if [[ ! -f "$stamp" || "$here/requirements-coap.txt" -nt "$stamp" ]]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements-coap.txt"
    cp "$here/requirements-coap.txt" "$stamp"
fi

# The recorder names its namespaces hapcap-<run id>-… (hapcapture.netns); if it dies without cleaning up
# (SIGKILL, the overall timeout), remove what it left: the processes still inside them, then the namespaces.
export HAPCAPTURE_RUN_ID="coap$$"
cleanup() {
    local ns pid
    for ns in $(ip netns list | awk '{print $1}' | grep "^hapcap-${HAPCAPTURE_RUN_ID}-" || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -KILL "$pid" 2>/dev/null || true
        done
        ip netns del "$ns" 2>/dev/null || true
    done
}
trap cleanup EXIT

cd "$here"
timeout --signal=TERM --kill-after=30 "$overall_timeout" "$venv/bin/python" -m hapcoap "$@" &
recorder=$!
# Run in the background so that a signal reaches us at once; pass it on and let the recorder clean up.
trap 'kill -TERM "$recorder" 2>/dev/null || true' INT TERM
status=0
wait "$recorder" || status=$?
while kill -0 "$recorder" 2>/dev/null; do
    wait "$recorder" || status=$?
done
exit "$status"
