#!/usr/bin/env bash
# Runs, in one run and on the same inputs, hapscope and what users use today:
#   - tshark over hapbench's generated capture: a plain pass, and an HTTP-field pass with
#     `-d tcp.port==51826,http` (every generated accessory listens there);
#   - the Python TLV8 decoders (`tlv8`, aiohomekit's `TLV.decode_bytes` and `tlv8.tlv_iterator`)
#     over hapbench's TLV8 corpus,
# and prints hapscope's ratio to each. docs/benchmarks.md explains the figures.
#
# usage: scripts/bench-peers.sh [--size 300MB] [--rounds 3] [--tlv8-only]
# Needs tshark and python3.11 (with venv and pip); the Python peers are installed from PyPI
# into .build/bench-peers-venv (git-ignored) on the first run.
set -euo pipefail

size=300MB
rounds=3
capture_pass=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --tlv8-only) capture_pass=no; shift ;;
        *) echo "usage: $0 [--size 300MB] [--rounds 3] [--tlv8-only]" >&2; exit 2 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/bench-peers"
venv="$root/.build/bench-peers-venv"
mkdir -p "$work"

swift build -c release --product hapbench --package-path "$root" >&2
hapbench="$root/.build/release/hapbench"

capture="$work/hap-$size.pcap"
if [ ! -f "$capture" ] || [ ! -f "${capture%.pcap}.keylog" ]; then
    "$hapbench" generate --size "$size" -o "$capture" >&2
fi
capture_bytes=$(stat -c %s "$capture")

if [ ! -x "$venv/bin/python" ]; then
    python3.11 -m venv "$venv"
    "$venv/bin/pip" install --quiet tlv8==0.10.0 aiohomekit==4.0.1
fi
"$hapbench" export-corpus "$work/corpus"

# One timed process: prints "wall-seconds peak-KiB". The capture is read once first so the
# timed run reads the page cache, not the disk (BENCHMARKING.md).
timed() {
    cat "$capture" > /dev/null
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" > /dev/null 2> "$work/stderr.txt" || {
        echo "failed: $*" >&2; cat "$work/stderr.txt" >&2; exit 1; }
    cat "$work/time.txt"
}

if [ "$capture_pass" = yes ]; then
    echo "== capture pipeline: $capture ($capture_bytes bytes), $rounds interleaved rounds" >&2
    : > "$work/pipeline.txt"
    for round in $(seq "$rounds"); do
        echo "round $round" >&2
        echo "hapscope $(timed "$hapbench" analyze "$capture")" >> "$work/pipeline.txt"
        echo "tshark-plain $(timed tshark -n -r "$capture")" >> "$work/pipeline.txt"
        echo "tshark-http $(timed tshark -n -r "$capture" -d tcp.port==51826,http -Y http -T fields -e http.request.uri)" >> "$work/pipeline.txt"
    done
else
    echo "== capture pipeline skipped: the figures below are from the last full run" >&2
fi

echo "== TLV8 decoding: hapbench and the Python decoders, interleaved" >&2
: > "$work/tlv8-python.txt"
rm -f "$work"/hapbench-tlv8-*.json
for round in $(seq "$rounds"); do
    "$hapbench" --filter tlv8.decode --json "$work/hapbench-tlv8-$round.json" > /dev/null 2>&1
    "$venv/bin/python" - "$work/corpus" >> "$work/tlv8-python.txt" <<'PYTHON'
import sys, time, statistics, pathlib
import tlv8
from aiohomekit.protocol.tlv import TLV
from aiohomekit.tlv8 import tlv_iterator

decoders = {
    "tlv8.decode": lambda data: tlv8.decode(data),
    "aiohomekit TLV.decode_bytes": lambda data: TLV.decode_bytes(data),
    "aiohomekit tlv8.tlv_iterator": lambda data: list(tlv_iterator(data)),
}
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.tlv8")):
    data = path.read_bytes()
    for name, decode in decoders.items():
        rates = []
        for _ in range(5):
            count = 20000
            start = time.perf_counter()
            for _ in range(count):
                decode(data)
            rates.append(count / (time.perf_counter() - start))
        print(f"{path.stem}\t{name}\t{statistics.median(rates):.0f}")
PYTHON
done

"$venv/bin/python" - "$work" "$capture_bytes" "$rounds" <<'PYTHON'
import sys, json, statistics, pathlib, collections
work, capture_bytes, rounds = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

runs = collections.defaultdict(list)
for line in (work / "pipeline.txt").read_text().split("\n"):
    if line:
        tool, seconds, kib = line.split()
        runs[tool].append((float(seconds), int(kib)))
def summary(tool):
    seconds = statistics.median(s for s, _ in runs[tool])
    kib = max(k for _, k in runs[tool])
    return capture_bytes / seconds / 1e6, kib / 1024
print(f"capture pipeline over {capture_bytes / 1e6:.0f} MB (median of {rounds} rounds, peak RSS the largest)")
hap_rate, hap_mib = summary("hapscope")
print(f"  {'hapscope analyze (full analysis)':40} {hap_rate:9.1f} MB/s {hap_mib:9.1f} MiB")
for tool, label, target in [("tshark-plain", "tshark -r (plain pass)", 20.0), ("tshark-http", "tshark -d tcp.port==51826,http -T fields", None)]:
    rate, mib = summary(tool)
    line = f"  {label:40} {rate:9.1f} MB/s {mib:9.1f} MiB   hapscope is {hap_rate / rate:6.2f}x faster, uses {hap_mib / mib:5.3f}x the memory"
    if target:
        line += f"  (target >= {target:.0f}x: {'met' if hap_rate / rate >= target else 'MISSED'})"
    print(line)

python = collections.defaultdict(list)
for line in (work / "tlv8-python.txt").read_text().split("\n"):
    if line:
        message, decoder, rate = line.split("\t")
        python[(message, decoder)].append(float(rate))
swift = collections.defaultdict(list)
for path in sorted(work.glob("hapbench-tlv8-*.json")):
    for ratio in json.loads(path.read_text())["ratios"]:
        swift[ratio["measured"]["name"]].append(ratio["measured"]["units_per_second"])
print("TLV8 decoding, messages/s (medians over rounds); ratio to the fastest Python decoder (target >= 10x)")
for message in sorted({m for m, _ in python}):
    rates = {decoder: statistics.median(v) for (m, decoder), v in python.items() if m == message}
    fastest = max(rates, key=rates.get)
    for kind in ["body", "reader"]:
        rate = statistics.median(swift[f"tlv8.decode.{kind}.{message}"])
        verdict = "met" if rate / rates[fastest] >= 10 else "MISSED"
        print(f"  {message:18} hapscope TLV8 {kind:6} {rate / 1e3:9.0f} k   fastest Python ({fastest}) {rates[fastest] / 1e3:6.0f} k   "
              f"ratio {rate / rates[fastest]:6.1f}x ({verdict})")
    others = ", ".join(f"{d} {r / 1e3:.0f} k" for d, r in sorted(rates.items()))
    print(f"  {'':18} Python: {others}")
PYTHON
