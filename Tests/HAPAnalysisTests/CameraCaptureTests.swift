import HAPCore
import HAPEvents
import HAPJSON
import Testing
import TestSupport
import TLV8

/// captures/camera.pcap: HAP-python 4.9.2's camera and an Adaptive Lighting lamp, driven by the
/// toolkit over aiohomekit 4.0.1. Every TLV8 value of known structure decodes; Setup Endpoints
/// names the controller's address and ports and keeps its SRTP keys out unless asked for.
@Suite struct CameraCaptureTests {
    static let setupEndpoints = CharacteristicID(aid: 2, iid: 17)
    static let selectedConfiguration = CharacteristicID(aid: 2, iid: 15)

    private func activities(_ recorded: RecordedAnalysis) -> [CharacteristicActivity] {
        recorded.events { kind -> CharacteristicActivity? in if case .characteristic(let activity) = kind { activity } else { nil } }
    }

    @Test func everyStreamManagementAndAdaptiveLightingValueDecodesWhole() throws {
        let recorded = try RecordedAnalysis("camera")
        let structured = activities(recorded).filter { $0.structure != nil }
        // 16 TLV8 reads and writes of the story, less the empty Transition Control the lamp starts with.
        #expect(structured.count == 15)
        for activity in structured { #expect(activity.structure?.error == nil, "\(activity.kind) \(activity.id)") }
        let schemas = Set(structured.compactMap { $0.structure?.schemaName })
        #expect(schemas == [
            "Supported Video Stream Configuration", "Supported Audio Stream Configuration", "Supported RTP Configuration",
            "Streaming Status", "Setup Endpoints", "Selected RTP Stream Configuration", "Transition Control",
            "Supported Transition Configuration",
        ])
        let problems = recorded.events { kind -> CaptureProblem? in if case .problem(let problem) = kind { problem } else { nil } }
        #expect(problems.filter { $0.kind == .undecodableValue }.isEmpty)
    }

    @Test func streamManagementIsBothReadAndWritten() throws {
        let recorded = try RecordedAnalysis("camera")
        let kinds = { (id: CharacteristicID) in Set(self.activities(recorded).filter { $0.id == id }.map(\.kind)) }
        #expect(kinds(Self.setupEndpoints) == [.write, .read])
        #expect(kinds(Self.selectedConfiguration).contains(.write))
        let commands = activities(recorded).filter { $0.id == Self.selectedConfiguration && $0.kind == .write }
            .compactMap { $0.structure?.field("sessionControl", "command")?.value }
        #expect(commands == [.enumerated(1, name: "start"), .enumerated(0, name: "end")])
    }

    @Test func setupEndpointsShowTheControllersAddressAndPortsAndHideTheKeys() throws {
        let recorded = try RecordedAnalysis("camera")
        let write = try #require(activities(recorded).first { $0.id == Self.setupEndpoints && $0.kind == .write })
        let structure = try #require(write.structure)
        #expect(structure.field("address", "address")?.value == .text("10.77.0.1"))
        #expect(structure.field("address", "videoRTPPort")?.value == .unsigned(51000))
        #expect(structure.field("address", "audioRTPPort")?.value == .unsigned(51002))
        #expect(structure.secretsWithheld)
        for parameters in ["videoSRTPParameters", "audioSRTPParameters"] {
            #expect(structure.field(parameters, "masterKey")?.value == .secret(byteCount: 16, bytes: nil))
            #expect(structure.field(parameters, "masterSalt")?.value == .secret(byteCount: 14, bytes: nil))
        }
        guard case .bytes(let shown)? = write.value?.value else {
            Issue.record("no value")
            return
        }
        for range in structure.secretRanges { #expect(shown[range].allSatisfy { $0 == 0 }) }

        let answer = try #require(activities(recorded).first { $0.id == Self.setupEndpoints && $0.kind == .read }?.structure)
        #expect(answer.field("address", "address")?.value == .text("10.77.0.2"), "the camera's own address")
        #expect(answer.field("status")?.value == .enumerated(0, name: "success"))
    }

    @Test func withShowKeysTheKeysTheControllerSentAreThoseTheCameraEchoes() throws {
        let recorded = try RecordedAnalysis("camera", configure: { $0.revealsSessionKeys = true })
        let endpoints = activities(recorded).filter { $0.id == Self.setupEndpoints }
        let keys = endpoints.map { activity -> TLV8Field.Value? in activity.structure?.field("videoSRTPParameters", "masterKey")?.value }
        #expect(keys.count == 2)
        guard case .secret(16, let key?)? = keys.first else {
            Issue.record("no key")
            return
        }
        #expect(key.contains { $0 != 0 })
        #expect(keys.last == keys.first, "HAP-python echoes the controller's SRTP parameters")
        #expect(endpoints.allSatisfy { $0.structure?.secretsWithheld == false })
    }

    @Test func noHTTPBodyOfTheReportsCarriesAKeyUnlessAsked() throws {
        let recorded = try RecordedAnalysis("camera")
        let messages = recorded.events { kind -> HTTPMessageEvent? in if case .httpMessage(let http) = kind { http } else { nil } }
        let redacted = messages.filter { $0.bodyWithoutSecrets != nil }
        #expect(redacted.count == 2, "the Setup Endpoints write and the read of it")
        let revealed = try RecordedAnalysis("camera", configure: { $0.revealsSessionKeys = true })
        guard case .secret(_, let key?)? = activities(revealed).first(where: { $0.id == Self.setupEndpoints })?
            .structure?.field("videoSRTPParameters", "masterKey")?.value
        else {
            Issue.record("no key")
            return
        }
        for message in messages {
            #expect(!Self.values(in: message.printableBody ?? []).contains { $0.contains(key) }, "packet \(message.lastPacket.number)")
        }
        let shown = revealed.events { kind -> HTTPMessageEvent? in if case .httpMessage(let http) = kind { http } else { nil } }
        #expect(shown.allSatisfy { $0.bodyWithoutSecrets == nil })
        #expect(shown.filter { Self.values(in: $0.printableBody ?? []).contains { $0.contains(key) } }.count == 2)
    }

    /// The base64 `"value"` strings of a JSON body, decoded.
    static func values(in body: ArraySlice<UInt8>) -> [[UInt8]] {
        String(decoding: body, as: UTF8.self).split(separator: #""value":""#).dropFirst().compactMap { rest in
            rest.split(separator: "\"").first.flatMap { Base64.decode(String($0)) }
        }
    }
}
