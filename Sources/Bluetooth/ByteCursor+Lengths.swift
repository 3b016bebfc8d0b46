import WireParsing

/// The length rules every Bluetooth header shares.
extension ByteCursor {
    /// Throws `malformed` when bytes remain after a structure that must fill its packet.
    func requireEnd(after structure: String, startingAt start: Int) throws(DecodeError) {
        guard isAtEnd else {
            throw malformed("the end of the packet after \(structure) starting at byte \(start), found \(remainingCount) more bytes")
        }
    }

    /// Checks that a header's length covers exactly the bytes that follow: fewer is truncated
    /// (the capture cut the packet), more is malformed.
    func requireLength(_ length: Int, of what: String, lengthAt position: Int) throws(DecodeError) {
        guard length <= remainingCount else {
            throw truncated("the \(length) bytes of \(what) the header announces")
        }
        guard length == remainingCount else {
            throw malformed("a \(what) length covering the \(remainingCount) bytes that follow, found \(length)", at: position)
        }
    }
}
