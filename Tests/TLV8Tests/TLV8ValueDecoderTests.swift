import Foundation
import Testing
import TestSupport
import WireParsing
@testable import TLV8

/// Characteristic values read by their schema. The values are those HAP-python 4.9.2 and the
/// recording toolkit put on the wire in captures/camera.pcap (captures/camera.truth.json).
@Suite struct TLV8ValueDecoderTests {
    static func base64(_ text: String) -> [UInt8] { Array(Data(base64Encoded: text)!) }

    static let cameraShortTypes: [UInt32] = [0x114, 0x115, 0x116, 0x117, 0x118, 0x120, 0x123, 0x124, 0x126, 0x128, 0x144]

    // The controller's Setup Endpoints write (packet 8 of connection 2 in the truth).
    static let setupEndpointsWrite = base64(
        "ARB8gmz54jZHAZWKxuIanB4uAxYBAQACCTEwLjc3LjAuMQMCOMcEAjrHBCUBAQACEH60R41iUg45kxiBCpvQFaADDqHGIUwYPSU+azhW5lNTBSUBAQACEKyqDiUBBbA12xBhh8ZM6W4DDiHOs04Sgsni6kW8ILpf")
    // HAP-python's answer, read back.
    static let setupEndpointsRead = base64(
        "ARB8gmz54jZHAZWKxuIanB4uAgEAAxYBAQACCTEwLjc3LjAuMgMCOMcEAjrHBCUBAQACEH60R41iUg45kxiBCpvQFaADDqHGIUwYPSU+azhW5lNTBSUBAQACEKyqDiUBBbA12xBhh8ZM6W4DDiHOs04Sgsni6kW8ILpfBgSWnXQABwQsDKQA")

    @Test func everyCharacteristicButTransitionControlHasOneSchemaForBothDirections() {
        for type in Self.cameraShortTypes {
            let written = TLV8ValueSchema.characteristic(shortType: type, written: true)
            let reported = TLV8ValueSchema.characteristic(shortType: type, written: false)
            #expect(written != nil && written?.name == reported?.name, "\(String(type, radix: 16))")
        }
        #expect(TLV8ValueSchema.characteristic(shortType: 0x25, written: false) == nil, "On is a bool")
    }

    @Test func schemasNestAFewLevelsAtMost() {
        for schema in TLV8ValueSchema.all { #expect((1 ... 5).contains(schema.depth), "\(schema.name)") }
        #expect(TLV8ValueSchema.transitionControlWrite.depth == 5)
    }

    @Test func theControllersSetupEndpointsNameItsAddressAndPortsAndHideItsKeys() throws {
        let value = TLV8ValueDecoder.decode(Self.setupEndpointsWrite, as: .setupEndpoints)
        #expect(value.error == nil)
        #expect(value.field("address", "address")?.value == .text("10.77.0.1"))
        #expect(value.field("address", "ipVersion")?.value == .enumerated(0, name: "IPv4"))
        #expect(value.field("address", "videoRTPPort")?.value == .unsigned(51000))
        #expect(value.field("address", "audioRTPPort")?.value == .unsigned(51002))
        #expect(value.field("videoSRTPParameters", "srtpCryptoSuite")?.value == .enumerated(0, name: "AES_CM_128_HMAC_SHA1_80"))
        #expect(value.field("videoSRTPParameters", "masterKey")?.value == .secret(byteCount: 16, bytes: nil))
        #expect(value.field("audioSRTPParameters", "masterSalt")?.value == .secret(byteCount: 14, bytes: nil))
        #expect(value.secretsWithheld)
        #expect(value.secretRanges.map(\.count) == [16, 14, 16, 14])
        let redacted = value.withoutSecrets(Self.setupEndpointsWrite)
        #expect(redacted.count == Self.setupEndpointsWrite.count)
        for range in value.secretRanges { #expect(redacted[range].allSatisfy { $0 == 0 }) }
        let again = TLV8ValueDecoder.decode(redacted, as: .setupEndpoints)
        #expect(again.field("address", "videoRTPPort")?.value == .unsigned(51000), "only the secrets change")
    }

    @Test func keysAreThereWhenTheUserAsksForThem() {
        let value = TLV8ValueDecoder.decode(Self.setupEndpointsWrite, as: .setupEndpoints, revealSecrets: true)
        guard case .secret(16, let key?)? = value.field("videoSRTPParameters", "masterKey")?.value else {
            Issue.record("no key")
            return
        }
        #expect(key == Array(Self.setupEndpointsWrite[49 ..< 65]))
        #expect(!value.secretsWithheld)
    }

    @Test func theCamerasAnswerHasItsStatusAddressAndSSRCs() {
        let value = TLV8ValueDecoder.decode(Self.setupEndpointsRead, as: .setupEndpoints)
        #expect(value.error == nil)
        #expect(value.field("status")?.value == .enumerated(0, name: "success"))
        #expect(value.field("address", "address")?.value == .text("10.77.0.2"))
        #expect(value.field("sessionID")?.value == .uuid(Array(Self.setupEndpointsRead[2 ..< 18])))
        #expect(value.field("videoSSRC")?.value == .unsigned(0x0074_9D96))
        #expect(value.field("audioSSRC")?.value == .unsigned(0x00A4_0C2C))
    }

    @Test func hapPythonsSupportedVideoConfigurationListsProfilesLevelsAndResolutionsAsRepeatedItems() throws {
        let value = TLV8ValueDecoder.decode(
            Self.base64("AVIBAQACFQMBAAEBAAEBAQEBAgIBAAIBAQIBAgMMAQKABwICOAQDAh4AAwwBAgAFAgLQAgMCHgADDAECgAICAmgBAwIeAAMMAQJAAQIC8AADAg8A"),
            as: .supportedVideoStreamConfiguration)
        #expect(value.error == nil)
        guard case .fields(let configuration)? = value.field("videoCodecConfiguration")?.value,
              case .fields(let parameters)? = value.field("videoCodecConfiguration", "codecParameters")?.value
        else {
            Issue.record("no configuration")
            return
        }
        #expect(parameters.filter { $0.name == "profileID" }.map(\.value) == [
            .enumerated(0, name: "baseline"), .enumerated(1, name: "main"), .enumerated(2, name: "high"),
        ])
        #expect(parameters.filter { $0.name == "level" }.count == 3)
        let resolutions = configuration.filter { $0.name == "attributes" }.compactMap { field -> [UInt64]? in
            guard case .fields(let attributes) = field.value else { return nil }
            return attributes.compactMap { if case .unsigned(let number) = $0.value { number } else { nil } }
        }
        #expect(resolutions.first == [1920, 1080, 30], "HAP-python packs the frame rate in two bytes")
        #expect(resolutions.count == 4, "the four resolutions of the toolkit's CAMERA_OPTIONS")
    }

    @Test func audioRTPAndStatusValuesFromTheCapture() {
        let audio = TLV8ValueDecoder.decode(Self.base64("AQ4BAQMCCQEBAQIBAAMBAgEOAQECAgkBAQECAQADAQECAQA="), as: .supportedAudioStreamConfiguration)
        #expect(audio.error == nil)
        #expect(audio.fields.filter { $0.name == "audioCodecConfiguration" }.count == 2)
        #expect(audio.field("audioCodecConfiguration", "codecType")?.value == .enumerated(3, name: "Opus"))
        #expect(audio.field("audioCodecConfiguration", "codecParameters", "sampleRate")?.value == .enumerated(2, name: "24 kHz"))
        #expect(audio.field("comfortNoiseSupport")?.value == .unsigned(0))
        let rtp = TLV8ValueDecoder.decode(Self.base64("AgEA"), as: .supportedRTPConfiguration)
        #expect(rtp.fields.first?.value == .enumerated(0, name: "AES_CM_128_HMAC_SHA1_80"))
        let streaming = TLV8ValueDecoder.decode(Self.base64("AQEB"), as: .streamingStatus)
        #expect(streaming.fields.first?.value == .enumerated(1, name: "in use"))
    }

    @Test func aSelectedStreamConfigurationStartsASessionWithItsParameters() {
        let value = TLV8ValueDecoder.decode(
            Self.base64("ARUBEHyCbPniNkcBlYrG4hqcHi4CAQECNAEBAAIJAQEBAgECAwEAAwsBAgAFAgLQAgMBHgQXAQFjAgSWnXQAAwIrAQQEAAAAPwUCYgUDLAEBAwIMAQEBAgEAAwEBBAEUAxYBAW4CBCwMpAADAhgABAQAAKBABgENBAEA"),
            as: .selectedRTPStreamConfiguration)
        #expect(value.error == nil)
        #expect(value.field("sessionControl", "command")?.value == .enumerated(1, name: "start"))
        #expect(value.field("selectedVideoParameters", "attributes", "imageWidth")?.value == .unsigned(1280))
        #expect(value.field("selectedVideoParameters", "rtpParameters", "minimumRTCPInterval")?.value == .float(0.5))
        #expect(value.field("selectedVideoParameters", "rtpParameters", "maximumMTU")?.value == .unsigned(1378))
        #expect(value.field("selectedAudioParameters", "rtpParameters", "comfortNoisePayloadType")?.value == .unsigned(13))
        #expect(value.field("selectedAudioParameters", "codecParameters", "packetTime")?.value == .unsigned(20))
    }

    @Test func anAdaptiveLightingScheduleHasItsCurveEntriesBetweenSeparators() {
        let write = TLV8ValueDecoder.decode(
            Self.base64("ApMBkQEBCwImARB/YtTYlaMo+BipNv44v/xHAggASIJXsAAAAAMIUPCvAEDZlqQDAQEFVwESAQRmZma/AgQAAHpDAwQAAAAAAAABGAEEmpmZvwIEAACWQwMEgO42AAQEwCcJAAAAARIBBAAAwL8CBAAAuUMDBIDuNgACAQoDDAEECgAAAAIEZAAAAAYCYOoIBMAnCQA="),
            as: .transitionControlWrite)
        #expect(write.error == nil)
        guard case .fields(let curve)? = write.field("updateTransition", "valueTransitionConfiguration", "transitionCurve")?.value else {
            Issue.record("no curve")
            return
        }
        let entries = curve.filter { $0.name == "entry" }
        #expect(entries.count == 3)
        #expect(write.field("updateTransition", "valueTransitionConfiguration", "transitionCurve", "entry", "value")?.value == .float(250))
        #expect(write.field("updateTransition", "valueTransitionConfiguration", "transitionParameters", "startTime")?.value
            == .unsigned(757_382_400_000))
        #expect(write.field("updateTransition", "valueTransitionConfiguration", "updateInterval")?.value == .unsigned(60000))
        let read = TLV8ValueDecoder.decode(
            Self.base64("ATEBAQsCJgEQf2LU2JWjKPgYqTb+OL/8RwIIAEiCV7AAAAADCFDwrwBA2ZakAwQAAAAA"), as: .transitionControlResponse)
        #expect(read.error == nil)
        #expect(read.field("valueConfigurationStatus", "characteristicIID")?.value == .unsigned(11))
        let supported = TLV8ValueDecoder.decode(Self.base64("AQYBAQoCAQEAAAEGAQELAgEC"), as: .supportedTransitionConfiguration)
        #expect(supported.error == nil)
        #expect(supported.fields.count == 2)
        let lastType: TLV8Field.Value? = supported.fields.last.flatMap { field in
            if case .fields(let inner) = field.value { inner.last?.value } else { nil }
        }
        #expect(lastType == .enumerated(2, name: "color temperature"))
    }

    // MARK: Sourced examples: Apple TV remotes (HAP-NodeJS RemoteController.ts)

    /// What buildTargetControlSupportedConfigurationTLV writes for 10 targets, 1000 ticks per
    /// second, the menu (1) and play/pause (2) buttons, a software remote.
    static let targetControlSupportedConfiguration: [UInt8] = [0x01, 0x01, 0x0A, 0x02, 0x08, 0xE8, 0x03, 0, 0, 0, 0, 0, 0]
        + [0x03, 0x0E, 0x01, 0x01, 0x01, 0x02, 0x02, 0x01, 0x00, 0x01, 0x01, 0x02, 0x02, 0x02, 0x02, 0x00] + [0x04, 0x01, 0x00]

    @Test func aRemotesSupportedConfigurationListsItsButtons() {
        let value = TLV8ValueDecoder.decode(Self.targetControlSupportedConfiguration, as: .targetControlSupportedConfiguration)
        #expect(value.error == nil)
        #expect(value.field("maximumTargets")?.value == .unsigned(10))
        #expect(value.field("ticksPerSecond")?.value == .unsigned(1000))
        guard case .fields(let buttons)? = value.field("supportedButtonConfiguration")?.value else {
            Issue.record("no buttons")
            return
        }
        #expect(buttons.filter { $0.name == "buttonType" }.map(\.value) == [.enumerated(1, name: "menu"), .enumerated(2, name: "play/pause")])
        #expect(value.field("type")?.value == .enumerated(0, name: "software"))
    }

    @Test func aTargetListWriteAddsAnAppleTVWithItsButtons() {
        // updatedTargetConfiguration's layout, behind the ADD operation of handleTargetControlWrite.
        let buttons: [UInt8] = [0x01, 0x01, 0x01, 0x02, 0x02, 0x01, 0x00, 0x03, 0x04] + Array("Menu".utf8)
        let target: [UInt8] = [0x01, 0x04, 0x2A, 0, 0, 0, 0x02, 0x0B] + Array("Living Room".utf8) + [0x03, 0x02, 0x18, 0x00]
            + [0x04, UInt8(buttons.count)] + buttons
        let value = TLV8ValueDecoder.decode([0x01, 0x01, 0x02, 0x02, UInt8(target.count)] + target, as: .targetControlList)
        #expect(value.error == nil)
        #expect(value.field("operation")?.value == .enumerated(2, name: "add"))
        #expect(value.field("targetConfiguration", "targetIdentifier")?.value == .unsigned(42))
        #expect(value.field("targetConfiguration", "targetName")?.value == .text("Living Room"))
        #expect(value.field("targetConfiguration", "targetCategory")?.value == .enumerated(0x18, name: "Apple TV"))
        #expect(value.field("targetConfiguration", "buttonConfiguration", "buttonName")?.value == .text("Menu"))
    }

    @Test func aButtonEventHasItsButtonStateTimeAndTarget() {
        let value = TLV8ValueDecoder.decode(
            [0x01, 0x01, 0x05, 0x02, 0x01, 0x01, 0x03, 0x08, 0x00, 0x10, 0xA5, 0xD4, 0xE8, 0x00, 0x00, 0x00, 0x04, 0x04, 0x2A, 0, 0, 0],
            as: .buttonEvent)
        #expect(value.error == nil)
        #expect(value.field("buttonState")?.value == .enumerated(1, name: "down"))
        #expect(value.field("timestamp")?.value == .unsigned(1_000_000_000_000))
        #expect(value.field("activeIdentifier")?.value == .unsigned(42))
    }

    // MARK: Broken values

    @Test func aTruncatedItemIsReportedAtItsOffsetAndTheFieldsBeforeItAreKept() {
        // The read answer cut 3 bytes into its audio SSRC item (type 7 at offset 129).
        let cut = Array(Self.setupEndpointsRead.prefix(Self.setupEndpointsRead.count - 3))
        let value = TLV8ValueDecoder.decode(cut, as: .setupEndpoints)
        #expect(value.error?.code == .truncated)
        #expect(value.error?.offset == 131)
        #expect(value.error?.expected.contains("audioSSRC") == true)
        #expect(value.field("videoSSRC")?.value == .unsigned(0x0074_9D96))
    }

    @Test func aFieldOfTheWrongWidthIsMalformedAtTheItemInsideItsParent() {
        // A port of three bytes inside the address (address at 18, its port item at 18 + 2 + 14).
        let value: [UInt8] = [0x03, 0x0A, 0x01, 0x01, 0x00, 0x03, 0x03, 0x01, 0x02, 0x03, 0x04, 0x00]
        let decoded = TLV8ValueDecoder.decode(value, as: .setupEndpoints)
        #expect(decoded.error?.code == .malformed)
        #expect(decoded.error?.offset == 5)
        #expect(decoded.error?.expected.contains("videoRTPPort") == true)
        #expect(decoded.field("address", "ipVersion")?.value == .enumerated(0, name: "IPv4"), "kept inside the partial parent")
    }

    @Test func aUUIDOfFifteenBytesAndTextThatIsNotUTF8AreMalformed() {
        let shortID = TLV8ValueDecoder.decode([0x01, 0x0F] + [UInt8](repeating: 7, count: 15), as: .setupEndpoints)
        #expect(shortID.error?.offset == 0)
        #expect(shortID.error?.expected.contains("16-byte UUID") == true)
        let badText = TLV8ValueDecoder.decode([0x03, 0x04, 0x02, 0x02, 0xFF, 0xFE], as: .setupEndpoints)
        #expect(badText.error?.offset == 2)
        #expect(badText.error?.expected.contains("UTF-8") == true)
    }

    @Test func unknownTypesAreKeptAsBytesAndLongItemsJoinTheirFragments() {
        // An address of 256 bytes (250 of text, then a port), sent as fragments of 255 and 1.
        let address: [UInt8] = [0x02, 0xFA] + [UInt8](repeating: 0x41, count: 250) + [0x03, 0x02, 0x38, 0xC7]
        let value = TLV8ValueDecoder.decode(
            [0x09, 0x02, 0xAA, 0xBB] + [0x03, 0xFF] + address[..<255] + [0x03, 0x01] + address[255...], as: .setupEndpoints)
        #expect(value.error == nil)
        #expect(value.fields.first?.name == nil)
        #expect(value.fields.first?.value == .bytes([0xAA, 0xBB]))
        #expect(value.field("address")?.length == 256)
        #expect(value.field("address", "address")?.value == .text(String(repeating: "A", count: 250)))
        #expect(value.field("address", "videoRTPPort")?.value == .unsigned(51000))
    }

    @Test func aSecretInsideFragmentedItemsIsLocatedAcrossTheFragmentHeaders() throws {
        // A 300-byte master key (fragments of 255 and 45) inside SRTP parameters of 323 bytes,
        // themselves sent as fragments of 255 and 68: the key's bytes lie in three pieces.
        let key = [UInt8](repeating: 0xA5, count: 300), salt = [UInt8](repeating: 0x5A, count: 14)
        let parameters: [UInt8] = [0x01, 0x01, 0x00] + [0x02, 0xFF] + key[..<255] + [0x02, 0x2D] + key[255...] + [0x03, 0x0E] + salt
        #expect(parameters.count == 323)
        let value: [UInt8] = [0x04, 0xFF] + parameters[..<255] + [0x04, 0x44] + parameters[255...]
        let decoded = TLV8ValueDecoder.decode(value, as: .setupEndpoints)
        #expect(decoded.error == nil)
        #expect(decoded.field("videoSRTPParameters", "masterKey")?.value == .secret(byteCount: 300, bytes: nil))
        #expect(decoded.field("videoSRTPParameters", "masterSalt")?.offset == 2 + 255 + 2 + (307 - 255), "the salt item, past the outer fragment header")
        #expect(decoded.secretRanges.reduce(0) { $0 + $1.count } == 314)
        let redacted = decoded.withoutSecrets(value)
        #expect(!redacted.contains(0xA5) && !redacted.contains(0x5A))
        #expect(redacted.filter { $0 == 0 }.count == value.filter { $0 == 0 }.count + 314, "only the secret bytes became zeros")
        let again = TLV8ValueDecoder.decode(redacted, as: .setupEndpoints)
        #expect(again.error == nil && again.field("videoSRTPParameters", "masterSalt")?.value == .secret(byteCount: 14, bytes: nil))
        let revealed = TLV8ValueDecoder.decode(value, as: .setupEndpoints, revealSecrets: true)
        #expect(revealed.field("videoSRTPParameters", "masterKey")?.value == .secret(byteCount: 300, bytes: key))
    }

    @Test func aBreakInsideAFragmentedItemIsReportedWhereItsBytesAre() {
        // The address (fragments of 255 and 1) ends with a port item whose length says 3.
        let address: [UInt8] = [0x02, 0xFA] + [UInt8](repeating: 0x41, count: 250) + [0x03, 0x03, 0x38, 0xC7]
        let value = TLV8ValueDecoder.decode([0x03, 0xFF] + address[..<255] + [0x03, 0x01] + address[255...], as: .setupEndpoints)
        #expect(value.error?.code == .truncated)
        // The port's value would start at byte 254 of the joined address: byte 2 + 254 of the value,
        // still in the first fragment.
        #expect(value.error?.offset == 256)
    }

    @Test func hostileBytesNeverCrashAndAlwaysEndWithinTheValue() {
        var random = SeededRandom(seed: 0x7456_3862)
        for schema in TLV8ValueSchema.all {
            for length in [0, 1, 2, 3, 7, 64, 300] {
                let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 8, using: &random) }
                let value = TLV8ValueDecoder.decode(bytes, as: schema)
                if let error = value.error { #expect((0 ... length).contains(error.offset)) }
            }
        }
    }
}
