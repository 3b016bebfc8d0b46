#!/usr/bin/env bash
# Records the HAP capture corpus into captures/ and verifies it.
#
#   sudo captures/record/record.sh [--keep] [scenario ...]
#
# Needs root (network namespaces, veth pairs, tcpdump/dumpcap), python3 (3.11), tcpdump, dumpcap,
# tshark and iproute2. The first run creates captures/record/.venv and .venv-homekit and installs
# the pinned requirements (requirements.txt, requirements-homekit.txt) from PyPI; nothing else is
# downloaded, and all traffic stays inside network namespaces this script creates and deletes again.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"
overall_timeout="${HAPCAPTURE_TIMEOUT:-900}"

if [[ $EUID -ne 0 ]]; then
    echo "record.sh needs root (network namespaces and packet capture); run it with sudo" >&2
    exit 2
fi
for tool in ip tcpdump dumpcap tshark capinfos "$python"; do
    command -v "$tool" >/dev/null || { echo "record.sh: $tool is not installed" >&2; exit 2; }
done
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "record.sh: warning: the pinned requirements were chosen for Python 3.11" >&2
fi

# (Re)creates venv $1 from requirements file $2 when the file changed since the last install.
ensure_venv() {
    local venv="$1" requirements="$2" stamp="$1/.requirements-installed"
    if [[ ! -f "$stamp" || "$requirements" -nt "$stamp" ]]; then
        rm -rf "$venv"
        "$python" -m venv "$venv"
        timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$stamp"
    fi
}
ensure_venv "$venv" "$here/requirements.txt"
# The homekit_python peers run in a venv of their own (see requirements-homekit.txt for why).
ensure_venv "$here/.venv-homekit" "$here/requirements-homekit.txt"

# The recorder names its namespaces hapcap-<run id>-…; if it dies without cleaning up (SIGKILL, the
# overall timeout), remove what it left: the processes still running inside them, then the namespaces.
export HAPCAPTURE_RUN_ID="$$"
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
timeout --signal=TERM --kill-after=30 "$overall_timeout" "$venv/bin/python" -m hapcapture "$@" &
recorder=$!
# Run in the background so that a signal reaches us at once; pass it on and let the recorder clean up.
trap 'kill -TERM "$recorder" 2>/dev/null || true' INT TERM
status=0
wait "$recorder" || status=$?
while kill -0 "$recorder" 2>/dev/null; do
    wait "$recorder" || status=$?
done
exit "$status"
