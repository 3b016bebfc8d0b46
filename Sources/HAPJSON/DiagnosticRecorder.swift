/// Decoding state shared by the lenient decoders of one body: what they found.
struct DiagnosticRecorder {
    var diagnostics: [HAPJSONDiagnostic] = []

    /// The diagnostics in document order.
    var inDocumentOrder: [HAPJSONDiagnostic] {
        diagnostics.inDocumentOrder
    }

    /// The paths are made only when a diagnostic is recorded: an `/accessories` body names every
    /// accessory, service and characteristic by one, and almost none of them gets a diagnostic
    /// (made eagerly, they cost ~1,200 instructions a characteristic).
    mutating func record(
        _ code: HAPJSONDiagnostic.Code, _ severity: HAPJSONDiagnostic.Severity, _ value: JSONValue,
        path: @autoclosure () -> String, _ message: String, aid: UInt64? = nil, iid: UInt64? = nil
    ) {
        diagnostics.append(HAPJSONDiagnostic(code, severity, path: path(), offset: value.offset, message: message, aid: aid, iid: iid))
    }

    /// A note for a member whose key HAP does not define.
    mutating func recordNonHAPKey(_ member: JSONMember, path: @autoclosure () -> String, in what: String, aid: UInt64? = nil, iid: UInt64? = nil) {
        diagnostics.append(HAPJSONDiagnostic(
            .nonHAPKey, .note, path: JSONPointer.appending(member.key, to: path()), offset: member.keyOffset,
            message: "\"\(member.key)\" is not a HAP \(what) key; ignored", aid: aid, iid: iid))
    }

    /// A warning for a HAP field whose value is unusable; the field is ignored.
    mutating func recordInvalidField(
        _ member: JSONMember, path: @autoclosure () -> String, expected: String, aid: UInt64? = nil, iid: UInt64? = nil
    ) {
        diagnostics.append(HAPJSONDiagnostic(
            .invalidField, .warning, path: JSONPointer.appending(member.key, to: path()), offset: member.value.offset,
            message: "\"\(member.key)\" should be \(expected), found \(member.value.abbreviatedDescription); ignored",
            aid: aid, iid: iid))
    }
}

extension [HAPJSONDiagnostic] {
    /// Sorted by offset; at the same offset, in their present order.
    var inDocumentOrder: [HAPJSONDiagnostic] {
        enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
    }
}

extension JSONValue {
    /// The compact JSON text, cut to about 40 characters with `…`, for messages.
    var abbreviatedDescription: String {
        let text = description
        return text.count <= 40 ? text : text.prefix(39) + "…"
    }
}
