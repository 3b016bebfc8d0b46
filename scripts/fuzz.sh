#!/usr/bin/env bash
# Runs hapscope's libFuzzer targets (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET [--time SECONDS] [--replay] [-- LIBFUZZER_FLAG...]
#
# TARGET is one of tlv8 http dns json tcp frames capture bluetooth happdu coap btsnoop, or `all`
# for each in turn. A target runs for --time seconds (default 300) over its working corpus, the
# seeds cut from captures/ (or committed in scripts/fuzz-seeds/) and its regression corpus in
# Tests/HostileInputTests/Corpus/. A crash, hang, invariant
# failure or oversized allocation stops the run; the input is saved and the exit status is 1.
# --replay runs the plain (non-fuzzer) build of each target over the seeds and the regression
# corpus instead: what a toolchain without libFuzzer can still check.
#
# Paths: the fuzzer build is in .build/fuzz, corpora in .build/fuzz-corpus/TARGET, findings in
# .build/fuzz-findings/TARGET, logs in .build/fuzz-logs/TARGET.log.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
ALL_TARGETS=(tlv8 http dns json tcp frames capture bluetooth happdu coap btsnoop)

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

target=${1:-}
[[ -n $target ]] || usage
shift
seconds=300
replay=false
extra_flags=()
while (($#)); do
    case $1 in
        --time) seconds=${2:?--time needs a number of seconds}; shift 2 ;;
        --replay) replay=true; shift ;;
        --) shift; extra_flags=("$@"); break ;;
        *) usage ;;
    esac
done
[[ $seconds =~ ^[0-9]+$ ]] || usage

# product, input size limit, seed directory (a kind cut by FuzzSeeds, a path in the tree with a
# slash, or - when the harness builds its own inputs), dictionary
describe() {
    case $1 in
        tlv8) echo "FuzzTLV8 4096 tlv8 -" ;;
        http) echo "FuzzHTTP 16384 http http.dict" ;;
        dns) echo "FuzzDNS 9000 dns -" ;;
        json) echo "FuzzHAPJSON 65536 json json.dict" ;;
        tcp) echo "FuzzTCPReassembly 8192 - -" ;;
        frames) echo "FuzzFrameDecryptor 8192 - -" ;;
        capture) echo "FuzzCapture 65536 capture -" ;;
        bluetooth) echo "FuzzBluetooth 8192 scripts/fuzz-seeds/bluetooth -" ;;
        happdu) echo "FuzzHAPPDU 8192 scripts/fuzz-seeds/happdu -" ;;
        coap) echo "FuzzCoAP 8192 scripts/fuzz-seeds/coap -" ;;
        btsnoop) echo "FuzzBTSnoop 16384 scripts/fuzz-seeds/btsnoop -" ;;
        *) return 1 ;;
    esac
}

if [[ $target == all ]]; then
    targets=("${ALL_TARGETS[@]}")
else
    describe "$target" >/dev/null || usage
    targets=("$target")
fi

# The recorded captures of every transport (IP, Bluetooth LE in pcap and btsnoop, CoAP) and the
# key logs that open their sessions.
CAPTURES=(captures/*.pcap captures/*.pcapng captures/ble/*.pcap captures/ble/*.btsnoop captures/coap/*.pcap)
KEYLOGS=(captures/*.keylog captures/ble/*.keylog captures/coap/*.keylog)

# The seeds are cut from the recorded captures by FuzzSeeds, again whenever a capture changes.
seeds=.build/fuzz-corpus/seeds
make_seeds() {
    local stamp=$seeds/.stamp
    if [[ -f $stamp ]] && [[ -z $(find captures -newer "$stamp" \( -name '*.pcap*' -o -name '*.btsnoop' -o -name '*.keylog' \) -print -quit) ]]; then
        return
    fi
    echo "fuzz: cutting seeds from captures/"
    "$SWIFT" build --product FuzzSeeds 2>&1 | grep -E 'error|warning: ' >&2 || true
    rm -rf "$seeds"
    mkdir -p "$seeds"
    local keylogs=() file
    for file in "${KEYLOGS[@]}"; do keylogs+=(--keylog "$file"); done
    "$("$SWIFT" build --show-bin-path)/FuzzSeeds" "$seeds" "${keylogs[@]}" "${CAPTURES[@]}"
    touch "$stamp"
}

# One key log for the capture target: every recorded session decrypts.
keylog=.build/fuzz-corpus/captures.keylog
make_keylog() {
    mkdir -p .build/fuzz-corpus
    cat "${KEYLOGS[@]}" >"$keylog"
}

# Builds the libFuzzer binaries; false when the toolchain cannot (no libFuzzer runtime).
build_fuzzers() {
    local products=() name product i
    for name in "${targets[@]}"; do
        read -r product _ <<<"$(describe "$name")"
        products+=(--product "$product")
    done
    local log=.build/fuzz-logs/build.log
    mkdir -p .build/fuzz-logs
    for ((i = 0; i < ${#products[@]}; i += 2)); do
        echo "fuzz: building ${products[i + 1]} with -sanitize=fuzzer,address"
        # Optimised code is only instrumented for coverage when asked explicitly; without it,
        # libFuzzer runs blind. gold's "Cannot export local symbol" lines about ASan are noise.
        if ! "$SWIFT" build -c release --scratch-path .build/fuzz --sanitize=fuzzer --sanitize=address \
            -Xswiftc -DFUZZING -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table \
            "${products[@]:i:2}" >"$log" 2>&1; then
            grep -v 'Cannot export local symbol' "$log" | tail -20 >&2
            return 1
        fi
    done
}

make_seeds
make_keylog

if ! $replay && ! build_fuzzers; then
    echo "fuzz: this toolchain cannot build libFuzzer targets; replaying the corpora instead" >&2
    replay=true
fi

status=0
for name in "${targets[@]}"; do
    read -r product max_len seed_kind dictionary <<<"$(describe "$name")"
    regressions=Tests/HostileInputTests/Corpus/$name
    inputs=()
    if [[ $seed_kind == */* ]]; then
        [[ -d $seed_kind ]] && inputs+=("$seed_kind")
    elif [[ $seed_kind != - && -d $seeds/$seed_kind ]]; then
        inputs+=("$seeds/$seed_kind")
    fi
    [[ -d $regressions ]] && inputs+=("$regressions")

    if $replay; then
        "$SWIFT" build --product "$product" 2>&1 | grep -E 'error|warning: ' >&2 || true
        if ((${#inputs[@]})); then
            HAPSCOPE_FUZZ_KEYLOG=$keylog "$("$SWIFT" build --show-bin-path)/$product" "${inputs[@]}" || status=1
        else
            echo "$product: no inputs to replay"
        fi
        continue
    fi

    corpus=.build/fuzz-corpus/$name
    findings=.build/fuzz-findings/$name
    log=.build/fuzz-logs/$name.log
    mkdir -p "$corpus" "$findings"
    flags=(
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=256
        -artifact_prefix="$findings/" -print_final_stats=1
    )
    [[ $dictionary != - ]] && flags+=(-dict="scripts/fuzz-dictionaries/$dictionary")
    echo "fuzz: $name for ${seconds}s (log: $log)"
    if HAPSCOPE_FUZZ_KEYLOG=$keylog ".build/fuzz/release/$product" "${flags[@]}" "${extra_flags[@]}" \
        "$corpus" "${inputs[@]}" >"$log" 2>&1; then
        if grep -q 'Is the code instrumented for coverage' "$log"; then
            echo "fuzz: $name: libFuzzer saw no coverage; the build is not instrumented (see $log)" >&2
            status=1
            continue
        fi
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        echo "fuzz: $name: ${runs:-?} executions (${rate:-?}/s), no finding; corpus $(find "$corpus" -type f | wc -l) inputs"
    else
        status=1
        artifact=$(sed -n "s|.*Test unit written to \(.*\)|\1|p" "$log" | tail -1)
        grep -E '^(==[0-9]+==|SUMMARY|fuzz invariant|Fatal error|.*ERROR)' "$log" | head -8 >&2 || true
        echo "fuzz: $name: FINDING ${artifact:-(see $log)}" >&2
        echo "fuzz: reproduce with: swift build --product $product && .build/debug/$product ${artifact:-INPUT}" >&2
    fi
done
exit $status
