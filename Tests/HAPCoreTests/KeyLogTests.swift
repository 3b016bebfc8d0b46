@testable import HAPCore
import HAPCrypto
import HAPEvents
import Testing
import TestSupport
import WireParsing

@Suite struct KeyLogTests {
    private let controllerKey = String(repeating: "ab", count: 32)
    private let secret = String(repeating: "CD", count: 32)

    @Test func readsEveryLabelInEitherCaseSkippingCommentsAndBlankLines() throws {
        let text = """
            # written by the recording toolkit
            PAIR_VERIFY_SHARED_SECRET \(controllerKey) \(secret)

            CONTROL_WRITE_KEY\t\(controllerKey)\t\(secret)\r
            PAIR_SETUP_SESSION_KEY \(controllerKey) \(String(repeating: "01", count: 64))
            ACCESSORY_LTPK 1A:2B:3C:4D:5E:6F \(String(repeating: "02", count: 32))
            CONTROLLER_LTPK 5b0d3c62-1111-2222-3333-444455556666 \(String(repeating: "03", count: 32))
            """
        let log = try KeyLog(parsing: text, source: "keys.txt")
        let id = try #require(Hex.decode(controllerKey))
        #expect(log.secret(.pairVerifySharedSecret, for: id)?.revealedBytes() == [UInt8](repeating: 0xCD, count: 32))
        #expect(log.secret(.controlWriteKey, for: id) != nil)
        #expect(log.secret(.controlReadKey, for: id) == nil)
        #expect(log.pairSetupSessionKey(forControllerPublicKey: id + [UInt8](repeating: 9, count: 352))?.count == 64)
        #expect(log.accessoryLongTermPublicKey("1a:2b:3c:4d:5e:6f") == [UInt8](repeating: 2, count: 32))
        #expect(log.controllerLongTermPublicKey("5B0D3C62-1111-2222-3333-444455556666") == [UInt8](repeating: 3, count: 32))
        #expect(log.warnings.isEmpty)
    }

    @Test func anUnknownLabelIsAWarningAndTheRestIsRead() throws {
        let log = try KeyLog(parsing: "FUTURE_SECRET 00 11\nCONTROL_READ_KEY \(controllerKey) \(secret)\n", source: "k")
        #expect(log.warnings.map(\.description) == ["k:1: unknown label 'FUTURE_SECRET', line ignored"])
        #expect(log.counts[.controlReadKey] == 1)
    }

    @Test(arguments: [
        ("CONTROL_READ_KEY \(String(repeating: "ab", count: 32))", "CONTROL_READ_KEY needs two fields after the label (id and secret), found 1"),
        ("CONTROL_READ_KEY \(String(repeating: "ab", count: 32)) zz", "CONTROL_READ_KEY: the last field is not hex"),
        ("CONTROL_READ_KEY \(String(repeating: "ab", count: 32)) abcd", "CONTROL_READ_KEY: the secret field should be 32 bytes, found 2"),
        ("CONTROL_READ_KEY abcd \(String(repeating: "ab", count: 32))", "CONTROL_READ_KEY: the id field should be 32 bytes, found 2"),
        ("PAIR_SETUP_SESSION_KEY \(String(repeating: "ab", count: 32)) \(String(repeating: "ab", count: 32))", "PAIR_SETUP_SESSION_KEY: the secret field should be 64 bytes, found 32"),
    ])
    func aMalformedLineIsAnErrorNamingFileAndLine(line: String, message: String) {
        #expect(throws: KeyLog.Problem(severity: .error, source: "k", line: 1, message: message)) {
            try KeyLog(parsing: line + "\n", source: "k")
        }
    }

    @Test("A last line cut off mid-way, as a writer killed while writing leaves it, is one warning naming the line")
    func aCutOffLastLineIsAWarning() throws {
        let whole = "CONTROL_WRITE_KEY \(controllerKey) \(secret)"
        for cut in [whole.count - 1, whole.count - 10, "CONTROL_WRITE_KEY ".count + 10, "CONTROL_WRI".count] {
            let log = try KeyLog(parsing: "CONTROL_READ_KEY \(controllerKey) \(secret)\n" + whole.prefix(cut), source: "k")
            #expect(log.warnings.count == 1, "cut after \(cut) characters")
            #expect(log.warnings.first?.line == 2)
            #expect(log.counts == [.controlReadKey: 1], "the lines before it are used")
        }
    }

    @Test("A cut-off line that is not the last, or a last line wrong in a way no cut makes, is still an error")
    func onlyTheLastLineMayBeCutOff() {
        let cut = "CONTROL_WRITE_KEY \(controllerKey) \(secret.prefix(10))"
        #expect(throws: KeyLog.Problem.self) { try KeyLog(parsing: cut + "\nCONTROL_READ_KEY \(controllerKey) \(secret)\n", source: "k") }
        #expect(throws: KeyLog.Problem.self) { try KeyLog(parsing: "CONTROL_WRITE_KEY \(controllerKey) zz", source: "k") }
        #expect(throws: KeyLog.Problem.self) { try KeyLog(parsing: "CONTROL_WRITE_KEY abcd \(secret)", source: "k") }
    }

    @Test("SESSION_ENDPOINTS names a session by its endpoints: IPv4, IPv6 or Bluetooth")
    func sessionEndpoints() throws {
        let log = try KeyLog(parsing: """
            SESSION_ENDPOINTS \(controllerKey) 10.77.0.1:49202 10.77.0.2:51826
            SESSION_ENDPOINTS \(String(repeating: "01", count: 32)) [fd77::1]:49201 [fd77::2]:5683
            SESSION_ENDPOINTS \(String(repeating: "02", count: 32)) 11:22:33:44:55:66 C0:FF:EE:00:00:01/random
            CONTROL_READ_KEY \(controllerKey) \(secret)

            """, source: "k")
        #expect(log.warnings.isEmpty)
        let sessions = log.sessionEndpoints
        #expect(sessions.map { "\($0.controller) \($0.accessory)" } == [
            "[fd77::1]:49201 [fd77::2]:5683", "11:22:33:44:55:66 C0:FF:EE:00:00:01", "10.77.0.1:49202 10.77.0.2:51826",
        ])
        #expect(log.sessionIDs == [try #require(Hex.decode(controllerKey))], "only sessions with secrets are candidates")
        #expect(throws: KeyLog.Problem.self) { try KeyLog(parsing: "SESSION_ENDPOINTS \(controllerKey) 10.77.0.1 10.77.0.2:1\n", source: "k") }
    }

    @Test func theTransportsLabelsAreKnown() throws {
        let log = try KeyLog(parsing: """
            EVENT_READ_KEY \(controllerKey) \(secret)
            BROADCAST_KEY 1A:2B:3C:4D:5E:6F \(secret)

            """, source: "k")
        #expect(log.warnings.isEmpty)
        #expect(log.counts == [.eventReadKey: 1, .broadcastKey: 1])
    }

    @Test("Every BROADCAST_KEY line is kept in order: a key generated again has the same device id")
    func broadcastKeysAreKeptInOrder() throws {
        let other = String(repeating: "ab", count: 32)
        var log = try KeyLog(parsing: """
            BROADCAST_KEY 1A:2B:3C:4D:5E:6F \(secret)
            BROADCAST_KEY 1A:2B:3C:4D:5E:6F \(other)
            BROADCAST_KEY 1A:2B:3C:4D:5E:6F \(secret)

            """, source: "k")
        #expect(log.broadcastKeys.map(\.deviceID) == ["1A:2B:3C:4D:5E:6F", "1A:2B:3C:4D:5E:6F"])
        #expect(log.broadcastKeys.map(\.key) == [SecretBytes(try #require(Hex.decode(secret))), SecretBytes(try #require(Hex.decode(other)))])
        log.merge(try KeyLog(parsing: "BROADCAST_KEY 1A:2B:3C:4D:5E:6F \(other)\n", source: "k2"))
        #expect(log.counts == [.broadcastKey: 2])
    }

    @Test func secretsNeverAppearInDescriptions() throws {
        let log = try KeyLog(parsing: "CONTROL_READ_KEY \(controllerKey) \(secret)", source: "k")
        let id = try #require(Hex.decode(controllerKey))
        let loaded = try #require(log.secret(.controlReadKey, for: id))
        #expect(!String(describing: loaded).lowercased().contains("cdcd"))
        #expect(!String(reflecting: log).lowercased().contains("cdcd"))
    }

    @Test func mergingCombinesEntriesFromSeveralFiles() throws {
        var log = try KeyLog(parsing: "CONTROL_READ_KEY \(controllerKey) \(secret)", source: "a")
        log.merge(try KeyLog(parsing: "CONTROL_WRITE_KEY \(controllerKey) \(secret)", source: "b"))
        #expect(log.counts == [.controlReadKey: 1, .controlWriteKey: 1])
    }

    @Test func aPairSetupKeyIsFoundByTheFirst32BytesOfAOnly() throws {
        let log = try KeyLog(parsing: "PAIR_SETUP_SESSION_KEY \(controllerKey) \(String(repeating: "01", count: 64))", source: "k")
        let a = try #require(Hex.decode(controllerKey))
        #expect(log.pairSetupSessionKey(forControllerPublicKey: a) != nil)
        #expect(log.pairSetupSessionKey(forControllerPublicKey: Array(a.prefix(31))) == nil, "an A shorter than the id names no entry")
        #expect(log.pairSetupSessionKey(forControllerPublicKey: [0] + a) == nil)
    }

    @Test func aLaterFileReplacesAnEarlierEntryAndEveryWarningIsKept() throws {
        var log = try KeyLog(parsing: "CONTROL_READ_KEY \(controllerKey) \(secret)\nODD 1 2", source: "a")
        log.merge(try KeyLog(parsing: "CONTROL_READ_KEY \(controllerKey) \(String(repeating: "ee", count: 32))\nODDER 1 2", source: "b"))
        let id = try #require(Hex.decode(controllerKey))
        #expect(log.secret(.controlReadKey, for: id)?.revealedBytes() == [UInt8](repeating: 0xEE, count: 32))
        #expect(log.counts == [.controlReadKey: 1])
        #expect(log.warnings.map(\.source) == ["a", "b"])
    }

    @Test func aKeyLogOfCommentsAndUnknownLabelsIsEmpty() throws {
        #expect(KeyLog().isEmpty)
        let log = try KeyLog(parsing: "# nothing here\nFUTURE 1 2\n\n", source: "k")
        #expect(log.isEmpty)
        #expect(log.warnings.count == 1)
    }

    @Test func aPairingIdentifierSpelledExactlyWinsOverOneDifferingInCase() throws {
        let log = try KeyLog(parsing: """
            ACCESSORY_LTPK aa:bb:cc:dd:ee:ff \(String(repeating: "01", count: 32))
            ACCESSORY_LTPK AA:BB:CC:DD:EE:FF \(String(repeating: "02", count: 32))
            """, source: "k")
        #expect(log.accessoryLongTermPublicKey("AA:BB:CC:DD:EE:FF") == [UInt8](repeating: 2, count: 32))
        #expect(log.accessoryLongTermPublicKey("aa:bb:cc:dd:ee:ff") == [UInt8](repeating: 1, count: 32))
        #expect(log.controllerLongTermPublicKey("AA:BB:CC:DD:EE:FF") == nil, "accessories' keys are not controllers'")
    }
}
