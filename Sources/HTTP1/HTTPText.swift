import WireParsing

/// Contiguous bytes of a header block, with the absolute stream offset of the first, so that
/// every error names the byte a user can find in the capture.
struct HTTPText {
    let buffer: UnsafeRawBufferPointer
    let baseOffset: Int

    var count: Int { buffer.count }

    @inline(__always)
    subscript(index: Int) -> UInt8 { buffer[index] }

    /// Whether the bytes from `index` on begin with `literal`.
    @inline(__always)
    func hasPrefix(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index >= 0, length <= count - index else { return false }
        let bytes = literal.utf8Start
        for offset in 0 ..< length where buffer[index + offset] != bytes[offset] {
            return false
        }
        return true
    }

    func malformed(_ expected: String, at index: Int) -> DecodeError {
        DecodeError(.malformed, layer: .http, offset: baseOffset + index, expected: expected)
    }

    func unsupported(_ expected: String, at index: Int) -> DecodeError {
        DecodeError(.unsupported, layer: .http, offset: baseOffset + index, expected: expected)
    }

    func limitExceeded(_ expected: String, _ limit: LimitName, at index: Int) -> DecodeError {
        DecodeError(.limitExceeded, layer: .http, offset: baseOffset + index, expected: expected, limit: limit)
    }

    /// The line ending that starts exactly at `index`: CR LF, or LF alone (RFC 9112 §2.2 lets a
    /// recipient accept it). Returns the index after it.
    @inline(__always)
    func lineEnding(at index: Int, _ what: @autoclosure () -> String, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> Int {
        guard index < count else { throw malformed(what(), at: index) }
        switch buffer[index] {
        case ASCII.lineFeed:
            diagnostics.note(.bareLineFeed, offset: baseOffset + index)
            return index + 1
        case ASCII.carriageReturn:
            guard index + 1 < count, buffer[index + 1] == ASCII.lineFeed else {
                throw malformed("LF after CR (RFC 9112 §2.2)", at: index + 1)
            }
            return index + 2
        default:
            throw malformed(what(), at: index)
        }
    }

    /// Finds the end of a line whose remaining content starts at `index` and may hold any byte
    /// but a control character (horizontal tab allowed). Returns where the content ends and
    /// where the next line starts.
    @inline(__always)
    func lineContent(from index: Int, _ what: @autoclosure () -> String, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> (end: Int, next: Int) {
        var position = index
        while true {
            guard let control = ASCII.firstControlCharacter(in: buffer, from: position, to: count) else {
                throw DecodeError(.truncated, layer: .http, offset: baseOffset + count, expected: "a line ending")
            }
            if buffer[control] == ASCII.horizontalTab {
                position = control + 1
                continue
            }
            guard buffer[control] == ASCII.carriageReturn || buffer[control] == ASCII.lineFeed else {
                throw malformed("\(what()) without control characters", at: control)
            }
            return (control, try lineEnding(at: control, what(), diagnostics: &diagnostics))
        }
    }
}

/// The diagnostics of one message: the first occurrence of each kind.
struct HTTPDiagnostics {
    private(set) var all: [HTTPDiagnostic] = []

    mutating func note(_ kind: HTTPDeviation, offset: Int) {
        guard !all.contains(where: { $0.kind == kind }) else { return }
        all.append(HTTPDiagnostic(kind, offset: offset))
    }
}
