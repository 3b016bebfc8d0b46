import Foundation
import HAPCore
import HAPEvents
import HAPJSON
import Testing
import TestSupport

/// No secret from a key log, and no session key, ever reaches a report unless the user asks
/// with `--show-keys` (docs/keylog.md, "Keeping secrets secret").
@Suite("Secrets")
struct SecretsTests {
    static let commands = ["summary", "discover", "pairing", "tree", "timeline", "http", "stats", "events"]
    static let formats = ["text", "json", "ndjson"]

    @Test("every command in every format works on the capture and prints no secret", arguments: RecordedCapture.all)
    func noSecrets(name: String) throws {
        let secrets = try RecordedCapture(name).secrets()
        try #require(!secrets.isEmpty)
        let capture = RecordedCapture(name).capturePath
        for command in Self.commands {
            for format in Self.formats {
                let result = try HapscopeBinary.run([command, capture, "--keylog", RecordedCapture(name).keyLogPath, "--format", format])
                #expect(result.status == 0, "\(command) --format \(format): \(result.standardError)")
                for secret in secrets {
                    #expect(!result.standardOutput.contains(secret), "\(command) --format \(format) printed a secret")
                    #expect(!result.standardError.contains(secret))
                }
                switch format {
                case "json":
                    #expect(throws: Never.self, "\(command) writes one JSON document") {
                        _ = try JSONDocument(bytes: Array(result.outputBytes))
                    }
                case "ndjson":
                    for line in result.standardOutput.split(separator: "\n") {
                        #expect(throws: Never.self, "\(command) writes one JSON object a line") {
                            _ = try JSONDocument(bytes: Array(line.utf8))
                        }
                    }
                default:
                    break
                }
            }
        }
    }

    @Test("with --show-keys the session keys appear, and no other secret", arguments: RecordedCapture.all)
    func showKeys(name: String) throws {
        let sessionKeys = try RecordedCapture(name).sessionKeys()
        let otherSecrets = try RecordedCapture(name).secrets().filter { !sessionKeys.contains($0) }
        try #require(!sessionKeys.isEmpty)
        for format in Self.formats {
            let result = try HapscopeBinary.run([
                "events", RecordedCapture(name).capturePath, "--keylog", RecordedCapture(name).keyLogPath, "--format", format, "--show-keys",
            ])
            #expect(result.status == 0)
            for key in sessionKeys {
                #expect(result.standardOutput.contains(key), "events --format \(format) --show-keys shows every session key")
            }
            for secret in otherSecrets {
                #expect(!result.standardOutput.contains(secret), "events --format \(format) --show-keys printed a key-log secret")
            }
        }
    }
}
