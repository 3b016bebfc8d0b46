import WireParsing

extension ByteCursor {
    /// Reads the connection handle of an HCI command or event parameter: a little-endian word of
    /// which the low 12 bits are meaningful (Core Vol 4 Part E §7.7.5, `Connection_Handle`).
    mutating func readConnectionHandle(_ expected: String) throws(DecodeError) -> UInt16 {
        try readUInt16LittleEndian(expected) & 0x0FFF
    }
}
