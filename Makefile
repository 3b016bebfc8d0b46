# hapscope — the two commands of README.md are `make demo` and `make test`.

SWIFT        ?= swift
BUILD_PACKAGES = libpcap-dev libsodium-dev pkg-config
# What the tests drive besides the package itself; the key-log exporter tests (scripts/keylog)
# capture with tcpdump and build one PyPI package (ed25519) from source.
TEST_PACKAGES  = $(BUILD_PACKAGES) tshark chromium tcpdump python3 python3-venv python3-dev gcc
# Real traffic between HAP-python and aiohomekit, with the key log that opens its session.
DEMO_CAPTURE   = captures/bridge.pcap
DEMO_KEYLOG    = captures/bridge.keylog
# The binary the key-log exporter tests decrypt with: the debug build `test` makes.
HAPSCOPE      ?= $(CURDIR)/.build/debug/hapscope

.PHONY: demo test fuzz-smoke keylog-test build deps test-deps clean

## Install what is missing, build in release mode and analyse a bundled capture.
demo: deps
	$(SWIFT) build -c release --product hapscope
	.build/release/hapscope summary $(DEMO_CAPTURE) --keylog $(DEMO_KEYLOG)
	.build/release/hapscope pairing $(DEMO_CAPTURE) --keylog $(DEMO_KEYLOG)

## Install what is missing, build without warnings and run every test.
test: test-deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build
	$(MAKE) keylog-test
	$(MAKE) fuzz-smoke

## The key-log exporters (scripts/keylog): real HAP stacks on loopback, captured, decrypted by the
## debug hapscope built above (docs/keylog.md).
keylog-test:
	HAPSCOPE=$(HAPSCOPE) scripts/keylog/run-tests.sh -q

## A few seconds of every fuzz target over its seeds and regression corpus (docs/fuzzing.md).
fuzz-smoke:
	SWIFT=$(SWIFT) scripts/fuzz.sh all --time 5

build: deps
	$(SWIFT) build -c release

deps:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

test-deps:
	@scripts/install-deps.sh $(TEST_PACKAGES)

clean:
	rm -rf .build
