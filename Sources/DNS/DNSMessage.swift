import WireParsing

/// A DNS message as carried in one UDP payload: unicast DNS, mDNS (RFC 6762) or DNS-SD
/// (RFC 6763) — the wire format is the same (RFC 1035 §4.1).
///
/// Decoding is lenient by default: record data that does not fit its type, bytes after the
/// last record and a misplaced OPT record become `diagnostics`, and the rest of the message
/// is still decoded. What breaks the framing — a count the message cannot hold, an RDLENGTH
/// past the end, a bad owner name — throws, because nothing after it can be found.
public struct DNSMessage: Sendable, Hashable {
    /// Offset of the message's first byte: 0 for a whole UDP payload.
    public var offset: Int
    public var header: DNSHeader
    public var questions: [DNSQuestion]
    public var answers: [DNSResourceRecord]
    public var authorities: [DNSResourceRecord]
    public var additionals: [DNSResourceRecord]
    public var diagnostics: [DNSMessageDiagnostic]

    public init(
        offset: Int = 0, header: DNSHeader, questions: [DNSQuestion], answers: [DNSResourceRecord],
        authorities: [DNSResourceRecord], additionals: [DNSResourceRecord], diagnostics: [DNSMessageDiagnostic] = []
    ) {
        self.offset = offset
        self.header = header
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
        self.diagnostics = diagnostics
    }

    /// Decodes a whole UDP payload; error offsets count from its first byte.
    public init(parsing bytes: RawSpan, options: DNSDecodingOptions = DNSDecodingOptions()) throws(DecodeError) {
        var cursor = ByteCursor(bytes, layer: .dns)
        try self.init(parsing: &cursor, options: options)
    }

    /// Decodes a UDP payload handed over as a buffer, as `Packets.UDPDatagram.payload` is.
    /// The message copies what it keeps, so the buffer need only live for this call.
    public init(parsing bytes: UnsafeRawBufferPointer, options: DNSDecodingOptions = DNSDecodingOptions()) throws(DecodeError) {
        try self.init(parsing: RawSpan(_unsafeBytes: bytes), options: options)
    }

    /// Decodes the message that starts at the cursor and runs to the end of its bytes.
    /// Compression pointers count from the cursor's position on entry.
    public init(parsing cursor: inout ByteCursor, options: DNSDecodingOptions = DNSDecodingOptions()) throws(DecodeError) {
        let messageStart = cursor.position
        offset = cursor.offset
        header = try DNSHeader(parsing: &cursor)
        let entryCount = Int(header.questionCount) + Int(header.answerCount) + Int(header.authorityCount)
            + Int(header.additionalCount)
        guard entryCount <= options.maxEntries else {
            throw DecodeError(
                .limitExceeded, layer: cursor.layer, offset: offset + 4,
                expected: "at most \(options.maxEntries) questions and records, not \(entryCount)")
        }

        // The smallest question is 5 bytes and the smallest record 11 (a compressed or root
        // name, then the fixed fields), so capacity never exceeds what the bytes can hold.
        var questions: [DNSQuestion] = []
        questions.reserveCapacity(min(Int(header.questionCount), cursor.remainingCount / 5))
        for _ in 0..<header.questionCount {
            questions.append(try DNSQuestion(parsing: &cursor, messageStart: messageStart, options: options))
        }
        self.questions = questions

        var diagnostics: [DNSMessageDiagnostic] = []
        var sawOptionRecord = false
        func readSection(_ count: UInt16, isAdditional: Bool, _ cursor: inout ByteCursor) throws(DecodeError) -> [DNSResourceRecord] {
            var records: [DNSResourceRecord] = []
            records.reserveCapacity(min(Int(count), cursor.remainingCount / 11))
            for _ in 0..<count {
                let record = try DNSResourceRecord(parsing: &cursor, messageStart: messageStart, options: options)
                if case .undecodable(_, let reason) = record.data {
                    diagnostics.append(DNSMessageDiagnostic(
                        offset: record.dataOffset, kind: .undecodableRecordData(type: record.type, reason: reason)))
                }
                if record.type == .opt {
                    let misplacement: DNSMessageProblem? =
                        if !isAdditional { .optionRecordOutsideAdditionalSection }
                        else if sawOptionRecord { .repeatedOptionRecord }
                        else { nil }
                    sawOptionRecord = true
                    if let misplacement {
                        if options.isStrict {
                            throw DecodeError(
                                .malformed, layer: cursor.layer, offset: record.offset,
                                expected: "one OPT record at most, in the additional section (RFC 6891 §6.1.1)")
                        }
                        diagnostics.append(DNSMessageDiagnostic(offset: record.offset, kind: misplacement))
                    }
                }
                records.append(record)
            }
            return records
        }
        answers = try readSection(header.answerCount, isAdditional: false, &cursor)
        authorities = try readSection(header.authorityCount, isAdditional: false, &cursor)
        additionals = try readSection(header.additionalCount, isAdditional: true, &cursor)

        if !cursor.isAtEnd {
            if options.isStrict {
                throw cursor.malformed("the end of the message after the last counted record")
            }
            diagnostics.append(DNSMessageDiagnostic(offset: cursor.offset, kind: .trailingBytes(count: cursor.remainingCount)))
            _ = cursor.readRemaining()
        }
        self.diagnostics = diagnostics
    }

    /// Answers, authorities and additionals, in message order.
    public var records: [DNSResourceRecord] { answers + authorities + additionals }
}
