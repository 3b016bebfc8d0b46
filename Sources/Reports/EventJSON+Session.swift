import HAPEvents
import HAPJSON

extension EventJSON {
    static func writeSessionStart(_ event: SessionStartEvent, into writer: inout JSONWriter) {
        writeConnection(event.connection, into: &writer)
        writer.member("trigger", event.trigger.rawValue)
        writeDirections("decryptable", event.decryptable, into: &writer)
        writer.member("keySource", event.keySource?.rawValue)
        writer.member("reason", event.undecryptableWording)
        writer.member("keyLogMatch", event.keyLogMatch?.rawValue)
        // Present only when the user asked for keys (`--show-keys`); the analysis leaves them out otherwise.
        if let keys = event.revealedKeys {
            writer.object("keys") { writer in
                for direction in HAPDirection.allCases {
                    writer.member(direction.rawValue, keys[direction])
                }
            }
        }
    }

    static func writeSessionJoin(_ event: SessionJoinEvent, into writer: inout JSONWriter) {
        writeConnection(event.connection, into: &writer)
        writer.member("direction", event.direction.rawValue)
        switch event.outcome {
        case .joined(let joined):
            writer.member("joined", true)
            writer.member("firstCounter", Int(clamping: joined.firstCounter))
            writer.member("skippedBytes", joined.skippedBytes)
            writer.member("cutMessageBytes", joined.cutMessageBytes)
            writer.member("foundMessageStart", joined.foundMessageStart)
            writer.member("countersTried", Int(clamping: joined.countersTried))
        case .notJoined(let reason):
            writer.member("joined", false)
            writer.member("reason", reason.wording)
            if case .noKeyOpens(let keys, let counters, let reachedLimit, let reachedBudget) = reason {
                writer.member("keysTried", keys)
                writer.member("countersTried", Int(clamping: counters))
                writer.member("reachedCounterLimit", reachedLimit)
                writer.member("reachedJoinChecks", reachedBudget)
            }
        }
        writer.member("summary", event.wording)
    }

    static func writeConnectionSummary(_ summary: ConnectionSummary, clock: CaptureClock, into writer: inout JSONWriter) {
        writeConnection(summary.connection, into: &writer)
        writer.member("deviceID", summary.deviceID)
        writer.member("reason", summary.closingWording)
        writer.member("handshakeSeen", summary.handshakeSeen)
        writer.packetMembers(summary.firstPacket, clock: clock, prefix: "first")
        writer.packetMembers(summary.lastPacket, clock: clock, prefix: "last")
        writer.object("tcp") { writer in
            for direction in HAPDirection.allCases {
                guard let counters = summary.tcp[direction] else { continue }
                writer.object(direction.rawValue) { writer in writeTCPCounters(counters, into: &writer) }
            }
        }
        writer.member("encrypted", summary.encrypted)
        writeDirections("decrypted", summary.decrypted, into: &writer)
        if !summary.frames.isEmpty {
            writer.object("frames") { writer in
                for direction in HAPDirection.allCases {
                    guard let frames = summary.frames[direction] else { continue }
                    writer.object(direction.rawValue) { writer in writeFrameStatistics(frames, into: &writer) }
                }
            }
        }
        // `httpMessages` stands in every summary, 0 over CoAP and Bluetooth LE, where the
        // transport's own counters follow it.
        switch summary.carried {
        case .http(let messages):
            writer.member("httpMessages", messages)
        case .coap(let coap):
            writer.member("httpMessages", 0)
            writer.object("coap") { writer in
                writer.member("messages", coap.messages)
                writer.member("retransmissions", coap.retransmissions)
                writer.member("pdus", coap.pdus)
            }
        case .bluetoothLE(let ble):
            writer.member("httpMessages", 0)
            writer.object("ble") { writer in
                writer.member("attPDUs", ble.attPDUs)
                writer.member("hapPDUs", ble.hapPDUs)
            }
        }
        if let change = summary.unannouncedDatabaseChange {
            writer.object("unannouncedDatabaseChange") { writer in
                writer.member("deviceID", change.deviceID)
                writer.member("earlierConnection", change.earlierConnection.id)
                writer.member("configurationNumber", Int(change.configurationNumber))
                writer.member("advertisementPacket", change.advertisementPacket.number)
                writer.member("packet", change.packet.number)
                writer.member("changes", strings: change.changes.map(\.summary))
            }
        }
        if !summary.unansweredRequests.isEmpty {
            writer.objects("unansweredRequests", summary.unansweredRequests) { writer, outstanding in
                writer.member("method", outstanding.request.method)
                writer.member("target", outstanding.request.target)
                writer.member("packet", outstanding.request.packet.number)
                writer.member("waited", seconds: outstanding.waitedSeconds)
                writer.member("neverAnswered", outstanding.isNeverAnswered(closedBy: summary.reason))
            }
        }
    }

    static func writeTCPCounters(_ counters: ConnectionSummary.TCPCounters, into writer: inout JSONWriter) {
        writer.member("packets", counters.packets)
        writer.member("payloadBytes", counters.payloadBytes)
        writer.member("retransmissions", counters.retransmissions)
        writer.member("outOfOrderSegments", counters.outOfOrderSegments)
        writer.member("conflictingOverlaps", counters.conflictingOverlaps)
        writer.member("gaps", counters.gaps)
        writer.member("gapBytes", counters.gapBytes)
        writer.member("bytesDroppedByLimit", counters.bytesDroppedByLimit)
    }

    static func writeFrameStatistics(_ frames: FrameStatistics, into writer: inout JSONWriter) {
        writer.member("frames", frames.frames)
        writer.member("ciphertextBytes", frames.ciphertextBytes)
        writer.member("plaintextBytes", frames.plaintextBytes)
        writer.member("largestFrame", frames.largestFrame)
        writer.member("oversizeFrames", frames.oversizeFrames)
    }
}
