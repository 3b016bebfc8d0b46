/// The pairing messages' encoders: optional values are left out, integers minimal.
extension TLV8Writer {
    mutating func append(_ type: TLV8Type, ifPresent value: [UInt8]?) {
        if let value { append(type, value) }
    }

    mutating func append(_ type: TLV8Type, byte: UInt8?) {
        if let byte { append(type, integer: UInt64(byte)) }
    }

    mutating func append(_ state: PairingState) {
        append(.state, integer: UInt64(state.rawValue))
    }

    mutating func append(_ method: PairingMethod?) {
        append(.method, byte: method?.rawValue)
    }

    /// HomeKitADK sends Flags in as few bytes as hold them (`HAPPairingGetNumBytes`).
    mutating func append(_ flags: PairingFlags?) {
        if let flags { append(.flags, integer: UInt64(flags.rawValue)) }
    }

    mutating func append(_ identifier: PairingIdentifier?) {
        append(.identifier, ifPresent: identifier?.bytes)
    }

    mutating func append(_ permissions: PairingPermissions?) {
        append(.permissions, byte: permissions?.rawValue)
    }
}
