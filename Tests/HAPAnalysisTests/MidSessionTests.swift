@testable import HAPAnalysis
import HAPCore
import HAPEvents
import WireParsing
import Testing
import TestSupport

/// Captures that start in the middle of encrypted sessions, as captures from a real home do
/// (captures/README.md: `mid-session`, `mid-frame`, `long-session`): every session whose keys the
/// key log holds is joined where the peers' own nonce counters say, and every message the capture
/// holds whole is recovered.
@Suite struct MidSessionTests {
    static let captures = RecordedCapture.all.filter { (try? RecordedCapture($0).captureStarts().isEmpty) == false }

    private func joins(_ recorded: RecordedAnalysis) -> [String: [HAPDirection: SessionJoinEvent.Outcome]] {
        var joins: [String: [HAPDirection: SessionJoinEvent.Outcome]] = [:]
        for join in recorded.events({ kind -> SessionJoinEvent? in if case .sessionJoined(let join) = kind { join } else { nil } }) {
            joins[join.connection.controller.description, default: [:]][join.direction] = join.outcome
        }
        return joins
    }

    @Test func theCorpusHasCapturesThatStartInsideASessionAndInsideAFrame() throws {
        #expect(Self.captures.contains("mid-session") && Self.captures.contains("mid-frame"))
        let skipped = try Self.captures.flatMap { try RecordedCapture($0).captureStarts().values.flatMap(\.values) }.map(\.skippedBytes)
        #expect(skipped.contains { $0 > 0 }, "one capture starts inside a frame")
    }

    @Test(arguments: captures)
    func eventsComeInCaptureOrderThoughJoinedConnectionsReplayWhatTheyHeld(capture: String) throws {
        let numbers = try RecordedAnalysis(capture).events.compactMap(\.packet?.number)
        let outOfOrder = zip(numbers, numbers.dropFirst()).filter { $0 > $1 }
        #expect(outOfOrder.isEmpty, "packet numbers that go back: \(outOfOrder.prefix(5))")
    }

    @Test(arguments: captures)
    func eachDirectionIsJoinedAtTheCounterThePeersUsed(capture: String) throws {
        let recorded = try RecordedAnalysis(capture)
        let joins = joins(recorded)
        for (client, directions) in try recorded.capture.captureStarts() {
            for (direction, start) in directions {
                guard case .joined(let joined)? = joins[client]?[direction] else {
                    Issue.record("\(client) \(direction) not joined: \(String(describing: joins[client]?[direction]))")
                    continue
                }
                #expect(joined.firstCounter == start.firstFrameCounter, "\(client) \(direction)")
                #expect(joined.skippedBytes == start.skippedBytes, "\(client) \(direction)")
            }
        }
    }

    @Test(arguments: captures)
    func aSessionAlreadyRunningIsRecognisedAndStartsDecryptable(capture: String) throws {
        let recorded = try RecordedAnalysis(capture)
        let starts = recorded.events { kind -> SessionStartEvent? in
            if case .sessionStarted(let start) = kind, start.trigger == .beforeCapture { start } else { nil }
        }
        #expect(starts.count == (try recorded.capture.captureStarts()).count)
        for start in starts {
            #expect(start.decryptable == [.controllerToAccessory, .accessoryToController])
            #expect(start.keyLogMatch == .sessionEndpoints, "the exporters name the session by its endpoints")
        }
    }

    @Test func withoutSessionEndpointsTheKeysAreTriedAndStillOpenTheSession() throws {
        for capture in ["mid-session", "mid-frame"] {
            let named = try RecordedAnalysis(capture)
            let tried = try RecordedAnalysis(capture, keyLogFilter: { !$0.hasPrefix("SESSION_ENDPOINTS") })
            #expect(tried.decodedMessages == named.decodedMessages, "\(capture)")
            let matches = tried.events { kind -> SessionStartEvent.KeyLogMatch? in
                if case .sessionStarted(let start) = kind { start.keyLogMatch } else { nil }
            }
            #expect(matches == [.keyTrial], "\(capture)")
            let recognised = tried.events { kind -> ConnectionOpenedEvent.Recognition? in
                if case .connectionOpened(let opened) = kind, !opened.handshakeSeen { opened.recognisedBy } else { nil }
            }
            #expect(recognised == [.sessionKey], "\(capture): nothing but a key marks the connection as HAP")
        }
    }

    @Test func aCaptureThatStartsInsideAFrameSaysWhatItSkipped() throws {
        let recorded = try RecordedAnalysis("mid-frame")
        guard case .joined(let joined)? = joins(recorded)["10.77.0.1:49202"]?[.accessoryToController] else {
            Issue.record("the accessory's direction was not joined")
            return
        }
        #expect(joined.skippedBytes > 0)
        #expect(joined.cutMessageBytes > 0, "the rest of the /accessories response whose start was not captured")
        #expect(joined.foundMessageStart)
    }

    @Test func withoutAKeyLogTheSessionIsCountedAndExplained() throws {
        let recorded = try RecordedAnalysis("mid-session", withKeys: false)
        let starts = recorded.events { kind -> SessionStartEvent? in
            if case .sessionStarted(let start) = kind, start.trigger == .beforeCapture { start } else { nil }
        }
        // Without keys and without mDNS, nothing marks the running session as HAP.
        #expect(starts.isEmpty)
        #expect(recorded.decodedMessages.keys.sorted() == ["10.77.0.1:49203"])
    }

    @Test func aWrongKeyCostsOneBoundedSearchAndOneDiagnosticPerDirection() throws {
        let recorded = try RecordedAnalysis("mid-session", keyLogFilter: { $0.hasPrefix("SESSION_ENDPOINTS") || $0.hasPrefix("CONTROL_") },
                                            corruptKeys: true, configure: { $0.limits.maximumCounterSearch = 4096 })
        let joins = joins(recorded)["10.77.0.1:49202"] ?? [:]
        #expect(joins.count == 2)
        for outcome in joins.values {
            guard case .notJoined(.noKeyOpens(_, _, let reachedLimit, _)) = outcome else {
                Issue.record("expected no key to open the direction, got \(outcome)")
                continue
            }
            #expect(reachedLimit)
        }
        let limits = recorded.events { kind -> LimitName? in
            if case .problem(let problem) = kind { problem.limit } else { nil }
        }
        #expect(limits == [.frameCounterSearch], "the limit is reported once")
    }

    @Test func theJoinBudgetEndsTheSearchOfADirectionAndIsReportedByItsName() throws {
        let recorded = try RecordedAnalysis("mid-session", keyLogFilter: { $0.hasPrefix("SESSION_ENDPOINTS") || $0.hasPrefix("CONTROL_") },
                                            corruptKeys: true, configure: { $0.limits.maximumJoinChecks = 1000 })
        let joins = joins(recorded)["10.77.0.1:49202"] ?? [:]
        #expect(joins.count == 2)
        for outcome in joins.values {
            guard case .notJoined(.noKeyOpens(_, let counters, let reachedLimit, let reachedBudget)) = outcome else {
                Issue.record("expected no key to open the direction, got \(outcome)")
                continue
            }
            #expect(reachedBudget && !reachedLimit)
            #expect(counters <= 1000)
        }
        let limits = recorded.events { kind -> LimitName? in
            if case .problem(let problem) = kind { problem.limit } else { nil }
        }
        #expect(limits == [.frameJoinChecks], "the limit is reported once")
    }

    @Test func aKeyTrialCutByTheJoinBudgetIsReportedSinceTheConnectionMayBeHAP() throws {
        let recorded = try RecordedAnalysis("mid-session", keyLogFilter: { $0.hasPrefix("CONTROL_") },
                                            corruptKeys: true, configure: { $0.limits.maximumJoinChecks = 1000 })
        #expect(joins(recorded).isEmpty, "a connection no key opens is not taken for HAP")
        let limits = recorded.events { kind -> LimitName? in
            if case .problem(let problem) = kind { problem.limit } else { nil }
        }
        #expect(limits == [.frameJoinChecks])
    }
}
