// swift-tools-version: 6.2
//
// hapscope — a HomeKit Accessory Protocol capture and protocol analyzer.
//
// The module graph follows the data flow (docs/architecture.md):
//   packets → streams and datagrams → messages → HAP events → model → reports.
// Each C library is imported by exactly one Swift module: CPcap by Capture, CSodium by HAPCrypto.

import PackageDescription

/// Every Swift target is built the same way: Swift 6 language mode, and the lifetime
/// annotations that let parsers hand out borrowed `RawSpan`s instead of copies.
let swiftSettings: [SwiftSetting] = [
    .enableExperimentalFeature("Lifetimes"),
]

func library(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: swiftSettings)
}

/// Test fixtures are read at run time through `#filePath`, so they are excluded from the target
/// rather than bundled as resources.
func tests(_ name: String, _ dependencies: [Target.Dependency], fixtures: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: fixtures, swiftSettings: swiftSettings)
}

let package = Package(
    name: "hapscope",
    products: [
        .executable(name: "hapscope", targets: ["hapscope"]),
        .executable(name: "hapbench", targets: ["hapbench"]),
    ],
    targets: [
        // C libraries, each wrapped by one Swift module.
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),

        // Shared parsing primitives: the byte cursor and the decode error. No I/O, no C.
        library("WireParsing"),

        // Pure codecs: no I/O, no C, every input untrusted.
        library("HAPCatalog"),
        library("TLV8", ["WireParsing"]),
        library("HTTP1", ["WireParsing"]),
        library("DNS", ["WireParsing", "HAPCatalog"]),
        library("HAPJSON", ["WireParsing", "HAPCatalog"]),
        // HAP over Bluetooth LE and over CoAP: HCI to ATT, the HAP PDU codec, CoAP messages.
        library("Bluetooth", ["WireParsing"]),
        library("HAPPDU", ["WireParsing", "TLV8", "HAPCatalog"]),
        library("CoAP", ["WireParsing"]),

        // Cryptography over libsodium.
        library("HAPCrypto", ["CSodium", "WireParsing"]),

        // Capture over libpcap, then link/IP/UDP/TCP decoding and stream reassembly.
        library("Capture", ["CPcap", "Packets"]),
        library("Packets", ["WireParsing"]),
        library("TCPReassembly", ["Packets"]),

        // The event vocabulary: the one contract between the analysis and its consumers.
        library("HAPEvents", [
            "Packets", "WireParsing", "TLV8", "HTTP1", "DNS", "HAPJSON", "HAPCatalog", "TCPReassembly", "Bluetooth", "HAPPDU",
        ]),

        // The analysis: the transport-independent core (configuration, key log, pairing), the
        // transports, and the pipeline that drives them.
        library("HAPCore", ["HAPEvents", "HAPCatalog", "HAPCrypto", "HAPJSON", "HAPPDU", "TLV8", "Packets", "WireParsing", "Bluetooth"]),
        library("IPTransport", [
            "HAPCore", "HAPEvents", "HAPCatalog", "HAPCrypto", "HAPJSON", "HTTP1", "DNS", "TLV8", "Packets", "TCPReassembly", "WireParsing",
        ]),
        library("CoAPTransport", [
            "HAPCore", "HAPEvents", "HAPCatalog", "HAPCrypto", "HAPJSON", "HAPPDU", "CoAP", "DNS", "TLV8", "Packets", "WireParsing",
        ]),
        library("BLETransport", [
            "HAPCore", "HAPEvents", "HAPCatalog", "HAPCrypto", "HAPJSON", "HAPPDU", "Bluetooth", "TLV8", "Packets", "WireParsing",
        ]),
        library("HAPAnalysis", [
            "HAPCore", "IPTransport", "CoAPTransport", "BLETransport", "Bluetooth", "HAPEvents", "Capture", "Packets", "WireParsing",
        ]),

        // Consumers of the event stream.
        library("HAPModel", ["HAPEvents", "DNS", "HAPCatalog", "HAPJSON", "Packets", "TLV8"]),
        library("Audit", ["HAPEvents", "DNS", "HAPJSON", "HAPPDU", "HTTP1", "Packets", "TLV8", "WireParsing", "Differences"]),
        library("Reports", ["HAPEvents", "HAPModel", "HTTP1", "TLV8", "DNS", "HAPJSON", "HAPCatalog", "HAPCrypto", "HAPPDU", "Packets", "WireParsing"]),
        library("Exports", ["HAPEvents", "Capture", "Packets", "HAPJSON", "HTTP1", "TLV8", "WireParsing"]),

        // Field-level differences of JSON values, record sequences and accessory databases
        // (`hapscope check`, and `hapscope diff`); JUnit XML for CI systems.
        library("Differences", ["HAPJSON", "HAPCatalog"]),
        library("JUnitXML"),

        // The command line: the table-driven parser, and the help, manual page and completions
        // written from the same table.
        library("ArgumentParsing"),
        // The version and the commit a build is made from (`hapscope --version`); the commit is
        // written by the BuildCommit plugin, which asks git (or says "unknown").
        .target(name: "BuildInfo", swiftSettings: swiftSettings, plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        .executableTarget(
            name: "hapscope",
            dependencies: [
                "ArgumentParsing", "BuildInfo", "HAPAnalysis", "HAPCore", "HAPEvents", "Audit", "Reports", "Exports", "Capture",
                "HAPCrypto", "HAPJSON", "TLV8", "WireParsing", "Differences", "JUnitXML",
            ],
            swiftSettings: swiftSettings),
        // Counts heap allocations for hapbench's per-operation figures; linked into hapbench only.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "hapbench",
            dependencies: [
                "ArgumentParsing", "BuildInfo", "HAPAnalysis", "HAPCore", "HAPEvents", "HAPCrypto", "TLV8", "Capture", "Packets",
                "WireParsing", "CAllocationCounter", "HAPCatalog", "HAPPDU", "CoAP",
            ],
            swiftSettings: swiftSettings),

        // Tests mirror the modules. What several test targets share (the recorded corpus, seeded
        // randomness, scratch folders, the binary under test, output comparison) is in one place.
        .target(
            name: "TestSupport",
            dependencies: [
                "HAPAnalysis", "HAPCore", "HAPEvents", "Audit", "Reports", "Capture", "HAPCrypto", "HAPJSON", "Differences", "TLV8",
                "Packets", "WireParsing",
            ],
            path: "Tests/TestSupport", swiftSettings: swiftSettings),
        tests("WireParsingTests", ["WireParsing"]),
        tests("HAPCatalogTests", ["HAPCatalog"]),
        tests("TLV8Tests", ["TLV8", "WireParsing", "TestSupport"], fixtures: ["Fixtures"]),
        tests("HTTP1Tests", ["HTTP1", "WireParsing", "TestSupport"]),
        tests("DNSTests", ["DNS", "WireParsing"]),
        tests("HAPJSONTests", ["HAPJSON", "WireParsing", "HAPCatalog", "TestSupport"], fixtures: ["Fixtures"]),
        tests("HAPCryptoTests", ["HAPCrypto", "TestSupport"]),
        tests("BluetoothTests", ["Bluetooth", "WireParsing"]),
        tests("HAPPDUTests", ["HAPPDU", "TLV8", "HAPCatalog", "WireParsing"]),
        tests("CoAPTests", ["CoAP", "WireParsing"]),
        tests("CaptureTests", ["Capture", "Packets", "TestSupport"]),
        tests("PacketsTests", ["Packets", "WireParsing", "TestSupport"]),
        tests("TCPReassemblyTests", ["TCPReassembly", "Packets", "TestSupport"]),
        tests("HAPEventsTests", ["HAPEvents", "HAPCatalog", "HTTP1", "HAPJSON", "TCPReassembly", "TLV8", "Packets", "WireParsing", "Bluetooth"]),
        tests("HAPCoreTests", ["HAPCore", "HAPEvents", "HAPCrypto", "TLV8", "Packets", "WireParsing", "TestSupport"]),
        tests("IPTransportTests", [
            "IPTransport", "HAPCore", "HAPEvents", "HAPCrypto", "HAPJSON", "HTTP1", "DNS", "TLV8", "Packets", "TCPReassembly",
            "WireParsing", "TestSupport",
        ]),
        tests("CoAPTransportTests", [
            "CoAPTransport", "HAPAnalysis", "Capture", "HAPCore", "HAPEvents", "HAPCatalog", "HAPCrypto", "HAPJSON", "HAPPDU", "CoAP", "TLV8",
            "Packets", "WireParsing",
            "TestSupport",
        ]),
        tests("BLETransportTests", [
            "BLETransport", "Audit", "HAPAnalysis", "HAPCore", "HAPEvents", "HAPCrypto", "HAPPDU", "Bluetooth", "Capture", "TLV8", "Packets",
            "WireParsing", "TestSupport",
        ]),
        tests("HAPAnalysisTests", [
            "HAPAnalysis", "HAPCore", "HAPEvents", "HAPCrypto", "WireParsing", "Capture", "HAPJSON", "HTTP1", "TLV8", "Packets",
            "TCPReassembly", "HAPCatalog", "DNS", "Reports", "TestSupport",
        ]),
        tests("HAPModelTests", ["HAPModel", "HAPEvents", "HAPCore", "HAPJSON", "Packets", "TLV8", "TestSupport"]),
        tests("AuditTests", ["Audit", "HAPEvents", "HAPCatalog", "HAPCore", "HAPCrypto", "Capture", "HAPJSON", "Packets", "TLV8", "DNS", "TestSupport"]),
        tests("ReportsTests", ["Reports", "HAPEvents", "HAPModel", "HAPCore", "Capture", "HAPJSON", "HAPCrypto", "Packets", "TLV8", "TestSupport"]),
        tests("ExportsTests", ["Exports", "HAPAnalysis", "HAPCore", "HAPEvents", "Capture", "Packets", "HTTP1", "TestSupport"]),
        tests("CLITests", ["TestSupport", "HAPCore", "HAPEvents", "HAPJSON", "Capture", "Packets", "WireParsing"]),
        tests("DifferencesTests", ["Differences", "HAPJSON", "TestSupport"]),
        tests("JUnitXMLTests", ["JUnitXML"]),
        tests("ArgumentParsingTests", ["ArgumentParsing"]),
        tests("hapbenchTests", ["hapbench", "HAPJSON", "HAPCore", "HAPAnalysis", "TestSupport"]),
        // Malformed and hostile captures through the whole pipeline (docs/fuzzing.md).
        tests("HostileInputTests", [
            "HAPAnalysis", "HAPCore", "HAPEvents", "Capture", "Packets", "TLV8", "HTTP1", "DNS", "HAPJSON", "HAPCrypto",
            "TCPReassembly", "WireParsing", "TestSupport",
        ]),

        // MARK: Fuzzing (docs/fuzzing.md, scripts/fuzz.sh)
        // libFuzzer targets over every parser of untrusted input. Built with
        // `--sanitize=fuzzer -Xswiftc -DFUZZING` they are fuzzers; in a normal build each is a
        // replay executable that runs its harness over the files named on its command line.
        .target(name: "FuzzSupport", dependencies: ["WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzTLV8", dependencies: ["FuzzSupport", "TLV8", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzHTTP", dependencies: ["FuzzSupport", "HTTP1", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzDNS", dependencies: ["FuzzSupport", "DNS", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzHAPJSON", dependencies: ["FuzzSupport", "HAPJSON", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzTCPReassembly", dependencies: ["FuzzSupport", "TCPReassembly", "Packets"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzFrameDecryptor", dependencies: ["FuzzSupport", "HAPCrypto"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzCapture", dependencies: ["FuzzSupport", "HAPAnalysis", "HAPCore", "HAPEvents", "Capture"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzBluetooth", dependencies: ["FuzzSupport", "Bluetooth", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzHAPPDU", dependencies: ["FuzzSupport", "HAPPDU", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzCoAP", dependencies: ["FuzzSupport", "CoAP", "WireParsing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzBTSnoop", dependencies: ["FuzzSupport", "Capture", "Bluetooth", "Packets", "WireParsing"], swiftSettings: swiftSettings),
        // Cuts the recorded captures into seed corpora for the targets above.
        .executableTarget(
            name: "FuzzSeeds", dependencies: ["FuzzSupport", "HAPAnalysis", "HAPCore", "HAPEvents", "Capture", "Packets", "HTTP1"],
            swiftSettings: swiftSettings),
    ]
)
