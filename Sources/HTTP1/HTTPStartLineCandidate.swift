/// Whether the bytes at a line start look like the beginning of a message: `HTTP/1.x `,
/// `EVENT/1.0 `, or an upper-case method followed by ` /`.
///
/// Used only to resynchronise after a gap or an error; the message that follows is then parsed
/// strictly. The patterns are narrow on purpose, so that a line of a JSON or TLV8 body is not
/// mistaken for a start line.
enum HTTPStartLineCandidate {
    enum Verdict: Equatable {
        case plausible
        case implausible
        /// The bytes end before the verdict is known.
        case undecided
    }

    /// The longest method the pattern accepts; HAP uses `GET`, `PUT` and `POST`.
    static let maxMethodLength = 16
    /// The most bytes a verdict can need.
    static let maxLength = maxMethodLength + 2

    static func classify(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Verdict {
        let response = matchLiteral(buffer, from: start, "HTTP/1.# ")
        let event = matchLiteral(buffer, from: start, "EVENT/1.0 ")
        let request = matchMethod(buffer, from: start)
        if response == .plausible || event == .plausible || request == .plausible { return .plausible }
        if response == .undecided || event == .undecided || request == .undecided { return .undecided }
        return .implausible
    }

    /// Matches `pattern`, in which `#` stands for any decimal digit.
    private static func matchLiteral(_ buffer: UnsafeRawBufferPointer, from start: Int, _ pattern: StaticString) -> Verdict {
        let bytes = pattern.utf8Start
        for offset in 0 ..< pattern.utf8CodeUnitCount {
            guard start + offset < buffer.count else { return .undecided }
            let byte = buffer[start + offset]
            let matches = bytes[offset] == UInt8(ascii: "#") ? ASCII.isDigit(byte) : byte == bytes[offset]
            if !matches { return .implausible }
        }
        return .plausible
    }

    private static func matchMethod(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Verdict {
        var index = start
        while index < buffer.count, ASCII.isUppercaseLetter(buffer[index]) {
            index += 1
            if index - start > maxMethodLength { return .implausible }
        }
        guard index < buffer.count else { return .undecided }
        guard index > start, buffer[index] == ASCII.space else { return .implausible }
        index += 1
        guard index < buffer.count else { return .undecided }
        return buffer[index] == ASCII.slash ? .plausible : .implausible
    }
}
