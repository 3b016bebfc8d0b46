/// The `PH` TXT key: how a user puts the device into commissioning mode (Matter Core
/// Pairing Hint table; matter.js `PairingHintBitmap`).
public struct MatterPairingHint: OptionSet, Sendable, Hashable, TXTFlags {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// What each bit asks the user to do, by bit number.
    public static let bitMeanings: [String] = [
        "power cycle the device",
        "follow the manufacturer's custom commissioning flow (URL in the DCL)",
        "use an administrator that already commissioned it",
        "use the device's settings menu",
        "follow the custom instruction in PI",
        "follow the device manual",
        "press the reset button",
        "press the reset button while applying power",
        "press the reset button for N seconds (N in PI)",
        "press the reset button until the light blinks",
        "press the reset button for N seconds while applying power (N in PI)",
        "press the reset button until the light blinks while applying power",
        "press the reset button N times (N in PI)",
        "press the setup button",
        "press the setup button while applying power",
        "press the setup button for N seconds (N in PI)",
        "press the setup button until the light blinks",
        "press the setup button for N seconds while applying power (N in PI)",
        "press the setup button until the light blinks while applying power",
        "press the setup button N times (N in PI)",
    ]

    public static let known = MatterPairingHint(rawValue: 1 << UInt64(bitMeanings.count) - 1)

    /// The bits whose instruction needs a value from the `PI` key: the custom instruction
    /// and every "N seconds" / "N times" hint.
    public static let needingInstruction = MatterPairingHint(
        rawValue: [4, 8, 10, 12, 15, 17, 19].reduce(0) { $0 | 1 << UInt64($1) })

    /// The meanings of the bits set, lowest bit first.
    public var meanings: [String] {
        Self.bitMeanings.indices.filter { rawValue & 1 << UInt64($0) != 0 }.map { Self.bitMeanings[$0] }
    }
}

/// The `T` TXT key: which TCP roles the node supports for Matter messages
/// (connectedhomeip `TCPModeAdvertise`). Bit 0 is not a mode bit.
public struct MatterTCPSupport: OptionSet, Sendable, Hashable, TXTFlags {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let client = MatterTCPSupport(rawValue: 1 << 1)
    public static let server = MatterTCPSupport(rawValue: 1 << 2)

    public static let known: MatterTCPSupport = [.client, .server]

    var meanings: [String] {
        meanings(from: [(.client, "TCP client"), (.server, "TCP server")])
    }
}

/// The `JF` TXT key: the node's part in a Joint Fabric (connectedhomeip Joint Fabric
/// Administrator example, `GetJointFabricMode`).
public struct MatterJointFabricMode: OptionSet, Sendable, Hashable, TXTFlags {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: not yet on a joint fabric, available to join one.
    public static let available = MatterJointFabricMode(rawValue: 1 << 0)
    /// Bit 1: a Joint Fabric Administrator.
    public static let administrator = MatterJointFabricMode(rawValue: 1 << 1)
    /// Bit 2: the anchor administrator.
    public static let anchor = MatterJointFabricMode(rawValue: 1 << 2)
    /// Bit 3: holds the Joint Fabric Datastore.
    public static let datastore = MatterJointFabricMode(rawValue: 1 << 3)

    public static let known: MatterJointFabricMode = [.available, .administrator, .anchor, .datastore]

    var meanings: [String] {
        meanings(from: [
            (.available, "available to join a joint fabric"),
            (.administrator, "Joint Fabric Administrator"),
            (.anchor, "anchor administrator"),
            (.datastore, "holds the Joint Fabric Datastore"),
        ])
    }
}
