@testable import HAPAnalysis
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// hapscope's decode of each recorded capture against what the two peers themselves sent
/// (HAP-python and aiohomekit, instrumented while recording; captures/README.md).
@Suite struct GroundTruthTests {
    @Test(arguments: RecordedCapture.clean)
    func everyHTTPMessageOfEverySessionIsRecoveredByteForByte(capture: String) throws {
        let recorded = try RecordedAnalysis(capture)
        let truth = try recorded.truthMessages()
        let decoded = recorded.decodedMessages
        #expect(Set(decoded.keys) == Set(truth.keys), "connections")
        for (client, directions) in truth {
            for (direction, messages) in directions {
                let ours = decoded[client]?[direction] ?? []
                #expect(ours.count == messages.count, "\(client) \(direction): \(ours.count) messages decoded, \(messages.count) sent")
                for (index, (mine, theirs)) in zip(ours, messages).enumerated() where mine != theirs {
                    Issue.record("\(client) \(direction) message \(index) differs: \(String(decoding: mine.prefix(60), as: UTF8.self))")
                }
            }
        }
    }

    @Test(arguments: RecordedCapture.clean)
    func aCleanCaptureRaisesNoProblem(capture: String) throws {
        let recorded = try RecordedAnalysis(capture)
        let problems = recorded.events { kind -> String? in
            switch kind {
            case .problem(let problem): problem.description
            case .sessionProblem(let problem): problem.message
            default: nil
            }
        }
        #expect(problems == [])
    }
}

@Suite struct SessionKeyTests {
    @Test func theCorpusComparisonCoversEncryptedTraffic() throws {
        let recorded = try RecordedAnalysis("bridge")
        let encrypted = recorded.events { kind -> Bool? in
            if case .httpMessage(let http) = kind { return http.encrypted }
            return nil
        }
        #expect(encrypted.filter { $0 }.count >= 25)
        #expect(encrypted.filter { !$0 }.count >= 10)
    }

    @Test func withoutAKeyLogEncryptedSessionsAreCountedAndExplained() throws {
        let recorded = try RecordedAnalysis("bridge", withKeys: false)
        let starts = recorded.events { kind -> SessionStartEvent? in
            if case .sessionStarted(let start) = kind { return start }
            return nil
        }
        #expect(starts.count == 1)
        #expect(starts.first?.decryptable.isEmpty == true)
        guard case .noKeyLogEntry(let key)? = starts.first?.undecryptableBecause else {
            Issue.record("the session should say the key log has no entry for its pair-verify")
            return
        }
        #expect(key?.count == 32, "it names the pair-verify by the controller's ephemeral key")
        let summaries = recorded.events { kind -> ConnectionSummary? in
            if case .connectionClosed(let summary) = kind, summary.encrypted { return summary }
            return nil
        }
        #expect(summaries.first?.frames[.accessoryToController]?.frames ?? 0 > 10)
        #expect(summaries.first?.decrypted.isEmpty == true)
        // Without keys only the plaintext pair-setup (M1–M6) and pair-verify (M1–M4) are readable.
        #expect(recorded.decodedMessages.values.flatMap(\.values).joined().count == 10)
    }

    @Test(arguments: [
        ("PAIR_VERIFY_SHARED_SECRET", KeySource.pairVerifySharedSecret),
        ("CONTROLLER_EPHEMERAL_SECRET", .controllerEphemeralSecret),
        ("ACCESSORY_EPHEMERAL_SECRET", .accessoryEphemeralSecret),
        ("CONTROL_", .controlKeys),
    ])
    func anyOneKindOfSecretOpensTheSession(label: String, source: KeySource) throws {
        let recorded = try RecordedAnalysis("bridge", keyLogFilter: { $0.hasPrefix(label) || $0.contains("_LTPK") })
        let start = recorded.events { kind -> SessionStartEvent? in
            if case .sessionStarted(let start) = kind { return start }
            return nil
        }.first
        #expect(start?.keySource == source)
        #expect(start?.decryptable == [.controllerToAccessory, .accessoryToController])
        #expect(recorded.decodedMessages == (try RecordedAnalysis("bridge")).decodedMessages)
    }

    @Test func aKeyThatDoesNotFitIsDiagnosedOncePerDirection() throws {
        let recorded = try RecordedAnalysis("bridge", keyLogFilter: { _ in true }, corruptKeys: true)
        let problems = recorded.events { kind -> SessionProblemEvent? in
            if case .sessionProblem(let problem) = kind { return problem }
            return nil
        }
        #expect(problems.map(\.kind) == [.keyDoesNotFit, .keyDoesNotFit])
        #expect(Set(problems.map(\.direction)) == [.controllerToAccessory, .accessoryToController])
    }
}

@Suite struct MisbehavingGroundTruthTests {
    /// A misbehaving peer may make a direction undecryptable from a corrupted frame on, so what
    /// hapscope recovers is a prefix of what was sent — but every message it does show is exact.
    @Test(arguments: RecordedCapture.misbehaving)
    func everyRecoveredMessageIsExactlyWhatThePeerSent(capture: String) throws {
        let recorded = try RecordedAnalysis(capture)
        let truth = try recorded.truthMessages()
        let decoded = recorded.decodedMessages
        var compared = 0
        for (client, directions) in decoded {
            for (direction, messages) in directions {
                let sent = truth[client]?[direction] ?? []
                #expect(messages.count <= sent.count, "\(client) \(direction): more messages than were sent")
                for (index, (mine, theirs)) in zip(messages, sent).enumerated() where mine != theirs {
                    Issue.record("\(client) \(direction) message \(index) differs: \(String(decoding: mine.prefix(60), as: UTF8.self))")
                }
                compared += min(messages.count, sent.count)
            }
        }
        #expect(compared > 10)
    }
}
