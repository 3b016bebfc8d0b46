/// The TLV8-valued characteristics whose structure the open implementations agree on.
///
/// The characteristic types are HomeKitADK's (HAP/HAPCharacteristicTypes.c:
/// `kHAPCharacteristicType_SupportedVideoStreamConfiguration = HAPUUIDCreateAppleDefined(0x114)`
/// … `SetupEndpoints` 0x118, `StreamingStatus` 0x120, `TargetControlSupportedConfiguration`
/// 0x123, `TargetControlList` 0x124, `ButtonEvent` 0x126, `SelectedAudioStreamConfiguration`
/// 0x128); the Adaptive Lighting ones (0x143, 0x144) are newer than the ADK and HAP-python's
/// (pyhap/resources/characteristics.json). The structures: Camera RTP Stream Management from
/// HAP-python pyhap/camera.py (`SETUP_TYPES`, `VIDEO_TYPES`, `RTP_PARAM_TYPES`, …) and HAP-NodeJS
/// src/lib/camera/RTPStreamManagement.ts ("TLV DEFINITIONS"), which give the same numbers;
/// Adaptive Lighting from HAP-NodeJS src/lib/controller/AdaptiveLightingController.ts,
/// reverse-engineered there (its `UNKNOWN_n` types are named here for what HAP-NodeJS does with
/// them); Target Control (Apple TV remotes) and Siri audio from HAP-NodeJS
/// src/lib/controller/RemoteController.ts.
extension TLV8ValueSchema {
    /// The schema of the value of the Apple characteristic with short type `shortType`
    /// (`0x118` for 00000118-0000-1000-8000-0026BB765291): `written` for what a controller
    /// writes, else for what the accessory reports (reads, events, write responses). Nil for a
    /// characteristic whose structure is not known.
    public static func characteristic(shortType: UInt32, written: Bool) -> TLV8ValueSchema? {
        switch shortType {
        case 0x114: supportedVideoStreamConfiguration
        case 0x115: supportedAudioStreamConfiguration
        case 0x116: supportedRTPConfiguration
        case 0x117: selectedRTPStreamConfiguration
        case 0x118: setupEndpoints
        case 0x120: streamingStatus
        case 0x123: targetControlSupportedConfiguration
        case 0x124: targetControlList
        case 0x126: buttonEvent
        case 0x128: selectedAudioStreamConfiguration
        case 0x143: written ? transitionControlWrite : transitionControlResponse
        case 0x144: supportedTransitionConfiguration
        default: nil
        }
    }

    /// Every schema, for tests and the fuzz target.
    public static let all: [TLV8ValueSchema] = [
        supportedVideoStreamConfiguration, supportedAudioStreamConfiguration, supportedRTPConfiguration,
        selectedRTPStreamConfiguration, setupEndpoints, streamingStatus, targetControlSupportedConfiguration, targetControlList,
        buttonEvent, selectedAudioStreamConfiguration, transitionControlWrite, transitionControlResponse,
        supportedTransitionConfiguration,
    ]

    // MARK: Camera RTP Stream Management

    // HAP-NodeJS StreamingStatus; HAP-python STREAMING_STATUS names 1 STREAMING and 2 BUSY.
    static let streamingStatus = TLV8ValueSchema("Streaming Status", [
        .init(0x01, "status", .enumeration(maximumByteCount: 1, names: [0: "available", 1: "in use", 2: "unavailable"])),
    ])

    // HAP-NodeJS SRTPCryptoSuites; HAP-python SRTP_CRYPTO_SUITES.
    static let srtpCryptoSuite = TLV8FieldSchema.Kind.enumeration(
        maximumByteCount: 1, names: [0: "AES_CM_128_HMAC_SHA1_80", 1: "AES_256_CM_HMAC_SHA1_80", 2: "none"])

    // HAP-NodeJS SupportedRTPConfigurationTypes; HAP-python RTP_CONFIG_TYPES.
    static let supportedRTPConfiguration = TLV8ValueSchema("Supported RTP Configuration", [
        .init(0x02, "srtpCryptoSuite", srtpCryptoSuite),
    ])

    // HAP-NodeJS VideoCodecType, H264Profile, H264Level, VideoCodecPacketizationMode, VideoCodecParametersTypes.
    static let videoCodecType = TLV8FieldSchema.Kind.enumeration(maximumByteCount: 1, names: [0: "H.264"])
    static let videoCodecParameters = TLV8ValueSchema("video codec parameters", [
        .init(0x01, "profileID", .enumeration(maximumByteCount: 1, names: [0: "baseline", 1: "main", 2: "high"])),
        .init(0x02, "level", .enumeration(maximumByteCount: 1, names: [0: "3.1", 1: "3.2", 2: "4.0"])),
        .init(0x03, "packetizationMode", .enumeration(maximumByteCount: 1, names: [0: "non-interleaved"])),
        // HAP-NodeJS VideoCodecCVO: 1 unsupported, 2 supported; CVO_ID "in range from 1 to 14".
        .init(0x04, "cvoEnabled", .enumeration(maximumByteCount: 1, names: [1: "unsupported", 2: "supported"])),
        .init(0x05, "cvoID", .unsigned(maximumByteCount: 1)),
    ])
    // HAP-NodeJS VideoAttributesTypes. HAP-python packs the frame rate of a supported
    // resolution as '<H' and reads a selected one as '<B', so it may be one or two bytes.
    static let videoAttributes = TLV8ValueSchema("video attributes", [
        .init(0x01, "imageWidth", .unsigned(maximumByteCount: 2)),
        .init(0x02, "imageHeight", .unsigned(maximumByteCount: 2)),
        .init(0x03, "frameRate", .unsigned(maximumByteCount: 2)),
    ])

    // HAP-NodeJS SupportedVideoStreamConfigurationTypes, VideoCodecConfigurationTypes; HAP-python
    // SUPPORTED_VIDEO_CONFIG_TAG, VIDEO_TYPES.
    static let supportedVideoStreamConfiguration = TLV8ValueSchema("Supported Video Stream Configuration", [
        .init(0x01, "videoCodecConfiguration", .nested(TLV8ValueSchema("video codec configuration", [
            .init(0x01, "codecType", videoCodecType),
            .init(0x02, "codecParameters", .nested(videoCodecParameters)),
            .init(0x03, "attributes", .nested(videoAttributes)),
        ]))),
    ])

    // HAP-NodeJS AudioCodecTypes, AudioCodecParametersTypes, AudioBitrate, AudioSamplerate;
    // HAP-python AUDIO_CODEC_TYPES, AUDIO_CODEC_PARAM_TYPES.
    static let audioCodecType = TLV8FieldSchema.Kind.enumeration(maximumByteCount: 1, names: [
        0: "PCMU", 1: "PCMA", 2: "AAC-ELD", 3: "Opus", 4: "mSBC", 5: "AMR", 6: "AMR-WB",
    ])
    static let audioCodecParameters = TLV8ValueSchema("audio codec parameters", [
        .init(0x01, "channels", .unsigned(maximumByteCount: 1)),
        .init(0x02, "bitRate", .enumeration(maximumByteCount: 1, names: [0: "variable", 1: "constant"])),
        .init(0x03, "sampleRate", .enumeration(maximumByteCount: 1, names: [0: "8 kHz", 1: "16 kHz", 2: "24 kHz"])),
        // Milliseconds; "only present in selected audio codec parameters" (HAP-NodeJS).
        .init(0x04, "packetTime", .unsigned(maximumByteCount: 1)),
    ])

    // HAP-NodeJS SupportedAudioStreamConfigurationTypes, AudioCodecConfigurationTypes; HAP-python
    // SUPPORTED_AUDIO_CODECS_TAG, SUPPORTED_COMFORT_NOISE_TAG.
    static let supportedAudioStreamConfiguration = TLV8ValueSchema("Supported Audio Stream Configuration", [
        .init(0x01, "audioCodecConfiguration", .nested(TLV8ValueSchema("audio codec configuration", [
            .init(0x01, "codecType", audioCodecType),
            .init(0x02, "codecParameters", .nested(audioCodecParameters)),
        ]))),
        .init(0x02, "comfortNoiseSupport", .unsigned(maximumByteCount: 1)),
    ])

    // HAP-NodeJS SRTPParametersTypes: master key 16 bytes (AES_CM_128) or 32 (AES_256), salt 14.
    static let srtpParameters = TLV8ValueSchema("SRTP parameters", [
        .init(0x01, "srtpCryptoSuite", srtpCryptoSuite),
        .init(0x02, "masterKey", .secret),
        .init(0x03, "masterSalt", .secret),
    ])

    // HAP-NodeJS SetupEndpointsTypes (the controller's write) and SetupEndpointsResponseTypes
    // (the accessory's answer) share their numbers; HAP-python SETUP_TYPES, SETUP_ADDR_INFO,
    // SETUP_STATUS, SETUP_IPV. SSRCs are '<I' (HAP-python struct.pack).
    static let setupEndpoints = TLV8ValueSchema("Setup Endpoints", [
        .init(0x01, "sessionID", .uuid),
        .init(0x02, "status", .enumeration(maximumByteCount: 1, names: [0: "success", 1: "busy", 2: "error"])),
        .init(0x03, "address", .nested(TLV8ValueSchema("address", [
            .init(0x01, "ipVersion", .enumeration(maximumByteCount: 1, names: [0: "IPv4", 1: "IPv6"])),
            .init(0x02, "address", .text),
            .init(0x03, "videoRTPPort", .unsigned(maximumByteCount: 2)),
            .init(0x04, "audioRTPPort", .unsigned(maximumByteCount: 2)),
        ]))),
        .init(0x04, "videoSRTPParameters", .nested(srtpParameters)),
        .init(0x05, "audioSRTPParameters", .nested(srtpParameters)),
        .init(0x06, "videoSSRC", .unsigned(maximumByteCount: 4)),
        .init(0x07, "audioSSRC", .unsigned(maximumByteCount: 4)),
    ])

    // HAP-NodeJS SelectedRTPStreamConfigurationTypes, SessionControlTypes, SessionControlCommand,
    // SelectedVideoParametersTypes, VideoRTPParametersTypes, SelectedAudioParametersTypes,
    // AudioRTPParametersTypes; HAP-python SELECTED_STREAM_CONFIGURATION_TYPES, RTP_PARAM_TYPES
    // (MAX_BIT_RATE '<H' in kbit/s, RTCP_SEND_INTERVAL '<f' in seconds).
    static let selectedRTPStreamConfiguration = TLV8ValueSchema("Selected RTP Stream Configuration", [
        .init(0x01, "sessionControl", .nested(TLV8ValueSchema("session control", [
            .init(0x01, "sessionIdentifier", .uuid),
            .init(0x02, "command", .enumeration(maximumByteCount: 1, names: [
                0: "end", 1: "start", 2: "suspend", 3: "resume", 4: "reconfigure",
            ])),
        ]))),
        .init(0x02, "selectedVideoParameters", .nested(TLV8ValueSchema("selected video parameters", [
            .init(0x01, "codecType", videoCodecType),
            .init(0x02, "codecParameters", .nested(videoCodecParameters)),
            .init(0x03, "attributes", .nested(videoAttributes)),
            .init(0x04, "rtpParameters", .nested(TLV8ValueSchema("video RTP parameters", [
                .init(0x01, "payloadType", .unsigned(maximumByteCount: 1)),
                .init(0x02, "ssrc", .unsigned(maximumByteCount: 4)),
                .init(0x03, "maximumBitRate", .unsigned(maximumByteCount: 2)),
                .init(0x04, "minimumRTCPInterval", .float32),
                .init(0x05, "maximumMTU", .unsigned(maximumByteCount: 2)),
            ]))),
        ]))),
        .init(0x03, "selectedAudioParameters", .nested(TLV8ValueSchema("selected audio parameters", [
            .init(0x01, "codecType", audioCodecType),
            .init(0x02, "codecParameters", .nested(audioCodecParameters)),
            .init(0x03, "rtpParameters", .nested(TLV8ValueSchema("audio RTP parameters", [
                .init(0x01, "payloadType", .unsigned(maximumByteCount: 1)),
                .init(0x02, "ssrc", .unsigned(maximumByteCount: 4)),
                .init(0x03, "maximumBitRate", .unsigned(maximumByteCount: 2)),
                .init(0x04, "minimumRTCPInterval", .float32),
                .init(0x06, "comfortNoisePayloadType", .unsigned(maximumByteCount: 1)),
            ]))),
            .init(0x04, "comfortNoise", .unsigned(maximumByteCount: 1)),
        ]))),
    ])

    // MARK: Target Control and Siri (Apple TV remotes)

    // HAP-NodeJS ButtonType, written `tlv.writeUInt16`.
    static let buttonType = TLV8FieldSchema.Kind.enumeration(maximumByteCount: 2, names: [
        0: "undefined", 1: "menu", 2: "play/pause", 3: "TV home", 4: "select", 5: "arrow up", 6: "arrow right",
        7: "arrow down", 8: "arrow left", 9: "volume up", 10: "volume down", 11: "Siri", 12: "power", 13: "generic",
    ])

    // HAP-NodeJS TargetControlCommands, SupportedButtonConfigurationTypes
    // (buildTargetControlSupportedConfigurationTLV: ticks per second `writeUInt64`, the button
    // ID and type pairs one after the other, type 1 for a hardware remote).
    static let targetControlSupportedConfiguration = TLV8ValueSchema("Target Control Supported Configuration", [
        .init(0x01, "maximumTargets", .unsigned(maximumByteCount: 4)),
        .init(0x02, "ticksPerSecond", .unsigned(maximumByteCount: 8)),
        .init(0x03, "supportedButtonConfiguration", .nested(TLV8ValueSchema("supported button configuration", [
            .init(0x01, "buttonID", .unsigned(maximumByteCount: 1)),
            .init(0x02, "buttonType", buttonType),
        ]))),
        .init(0x04, "type", .enumeration(maximumByteCount: 1, names: [0: "software", 1: "hardware"])),
    ])

    // HAP-NodeJS TargetControlList, Operation, TargetConfigurationTypes, TargetCategory,
    // ButtonConfigurationTypes (updatedTargetConfiguration: identifier `writeUInt32`, category
    // `writeUInt16`). A write holds an operation and targets; a read, the targets.
    static let targetControlList = TLV8ValueSchema("Target Control List", [
        .init(0x01, "operation", .enumeration(maximumByteCount: 1, names: [
            0: "undefined", 1: "list", 2: "add", 3: "remove", 4: "reset", 5: "update",
        ])),
        .init(0x02, "targetConfiguration", .nested(TLV8ValueSchema("target configuration", [
            .init(0x01, "targetIdentifier", .unsigned(maximumByteCount: 4)),
            .init(0x02, "targetName", .text),
            .init(0x03, "targetCategory", .enumeration(maximumByteCount: 2, names: [0: "undefined", 0x18: "Apple TV"])),
            .init(0x04, "buttonConfiguration", .nested(TLV8ValueSchema("button configuration", [
                .init(0x01, "buttonID", .unsigned(maximumByteCount: 1)),
                .init(0x02, "buttonType", buttonType),
                .init(0x03, "buttonName", .text),
            ]))),
        ]))),
    ])

    // HAP-NodeJS ButtonEvent, ButtonState (sendButtonEvent: timestamp `writeUInt64`, active
    // identifier `writeUInt32`).
    static let buttonEvent = TLV8ValueSchema("Button Event", [
        .init(0x01, "buttonID", .unsigned(maximumByteCount: 1)),
        .init(0x02, "buttonState", .enumeration(maximumByteCount: 1, names: [0: "up", 1: "down"])),
        .init(0x03, "timestamp", .unsigned(maximumByteCount: 8)),
        .init(0x04, "activeIdentifier", .unsigned(maximumByteCount: 4)),
    ])

    // HAP-NodeJS SelectedAudioInputStreamConfigurationTypes around the audio codec configuration
    // the camera uses too (buildSelectedAudioConfigurationTLV).
    static let selectedAudioStreamConfiguration = TLV8ValueSchema("Selected Audio Stream Configuration", [
        .init(0x01, "selectedAudioInputStreamConfiguration", .nested(TLV8ValueSchema("audio codec configuration", [
            .init(0x01, "codecType", audioCodecType),
            .init(0x02, "codecParameters", .nested(audioCodecParameters)),
        ]))),
    ])

    // MARK: Adaptive Lighting

    // HAP-NodeJS SupportedCharacteristicValueTransitionConfigurationsTypes,
    // SupportedValueTransitionConfigurationTypes, TransitionType.
    static let supportedTransitionConfiguration = TLV8ValueSchema("Supported Transition Configuration", [
        .init(0x01, "supportedTransitionConfiguration", .nested(TLV8ValueSchema("supported transition configuration", [
            .init(0x01, "characteristicIID", .unsigned(maximumByteCount: 8)),
            .init(0x02, "transitionType", .enumeration(maximumByteCount: 1, names: [1: "brightness", 2: "color temperature"])),
        ]))),
    ])

    // HAP-NodeJS ValueTransitionParametersTypes: an id (16 bytes), the start in milliseconds
    // since 2001-01-01 (8 bytes, unsigned LE), a second id (8 bytes).
    static let transitionParameters = TLV8ValueSchema("transition parameters", [
        .init(0x01, "transitionID", .bytes),
        .init(0x02, "startTime", .unsigned(maximumByteCount: 8)),
        .init(0x03, "transitionID3", .bytes),
    ])

    // HAP-NodeJS TransitionControlTypes (0x01 reads the active transition, 0x02 updates it),
    // ValueTransitionConfigurationsTypes, ValueTransitionConfigurationTypes,
    // TransitionCurveConfigurationTypes, TransitionEntryTypes, TransitionAdjustmentMultiplierRange.
    static let transitionControlWrite = TLV8ValueSchema("Transition Control", [
        .init(0x01, "readTransition", .nested(TLV8ValueSchema("read transition", [
            .init(0x01, "characteristicIID", .unsigned(maximumByteCount: 8)),
        ]))),
        .init(0x02, "updateTransition", .nested(TLV8ValueSchema("update transition", [
            .init(0x01, "valueTransitionConfiguration", .nested(TLV8ValueSchema("value transition configuration", [
                .init(0x01, "characteristicIID", .unsigned(maximumByteCount: 8)),
                .init(0x02, "transitionParameters", .nested(transitionParameters)),
                // HAP-NodeJS UNKNOWN_3, "sent with value = 1": Adaptive Lighting on.
                .init(0x03, "enable", .unsigned(maximumByteCount: 1)),
                .init(0x05, "transitionCurve", .nested(TLV8ValueSchema("transition curve", [
                    .init(0x01, "entry", .nested(TLV8ValueSchema("transition entry", [
                        .init(0x01, "adjustmentFactor", .float32),
                        .init(0x02, "value", .float32),
                        .init(0x03, "transitionOffset", .unsigned(maximumByteCount: 8)),
                        .init(0x04, "duration", .unsigned(maximumByteCount: 8)),
                    ]))),
                    .init(0x02, "adjustmentCharacteristicIID", .unsigned(maximumByteCount: 8)),
                    .init(0x03, "adjustmentMultiplierRange", .nested(TLV8ValueSchema("adjustment multiplier range", [
                        .init(0x01, "minimum", .unsigned(maximumByteCount: 4)),
                        .init(0x02, "maximum", .unsigned(maximumByteCount: 4)),
                    ]))),
                ]))),
                .init(0x06, "updateInterval", .unsigned(maximumByteCount: 2)),
                .init(0x08, "notifyIntervalThreshold", .unsigned(maximumByteCount: 4)),
            ]))),
        ]))),
    ])

    // HAP-NodeJS ValueTransitionConfigurationResponseTypes, ValueTransitionConfigurationStatusTypes:
    // what a read of the control point holds. The response to an update wraps the same status
    // in the update's type 0x02 (HAP-python 4.9.2 answers so in captures/camera.pcap).
    static let valueConfigurationStatus = TLV8FieldSchema(0x01, "valueConfigurationStatus", .nested(TLV8ValueSchema("value configuration status", [
        .init(0x01, "characteristicIID", .unsigned(maximumByteCount: 8)),
        .init(0x02, "transitionParameters", .nested(transitionParameters)),
        .init(0x03, "timeSinceStart", .unsigned(maximumByteCount: 8)),
    ])))
    static let transitionControlResponse = TLV8ValueSchema("Transition Control", [
        valueConfigurationStatus,
        .init(0x02, "updateTransition", .nested(TLV8ValueSchema("update transition response", [valueConfigurationStatus]))),
    ])
}
