import Testing
import WireParsing
@testable import DNS

/// Reads the name at `position` of `bytes`, returning it with the cursor's position after it.
private func readName(
    _ bytes: [UInt8], at position: Int, maxPointerJumps: Int = DNSDecodingOptions.defaultMaxPointerJumps
) throws(DecodeError) -> (DNSName, Int) {
    var cursor = ByteCursor(bytes.span.bytes, layer: .dns, position: position)
    let name = try DNSName(parsing: &cursor, maxPointerJumps: maxPointerJumps)
    return (name, cursor.position)
}

/// `count` labels of one byte each, without the root label.
private func oneByteLabels(_ count: Int, of byte: UInt8) -> [UInt8] {
    Array([[UInt8]](repeating: [0x01, byte], count: count).joined())
}

@Suite struct DNSNameParsingTests {
    @Test func readsAnUncompressedNameAndStopsAfterTheRootLabel() throws {
        let bytes = Wire.name("_hap", "_tcp", "local") + [0xEE]
        let (name, end) = try readName(bytes, at: 0)
        #expect(name.labelCount == 3)
        #expect(name.labels.map { Array($0) } == [Array("_hap".utf8), Array("_tcp".utf8), Array("local".utf8)])
        #expect(name.wireLength == 17)
        #expect(end == 17)
    }

    @Test func followsACompressionPointerAndResumesAfterIt() throws {
        // "_tcp.local" at 0, then "_hap" + pointer to 0 at 11.
        let bytes = Wire.name("_tcp", "local") + Wire.labels("_hap") + Wire.pointer(0) + [0xEE]
        let (name, end) = try readName(bytes, at: 12)
        #expect(name == DNSName("_hap._tcp.local"))
        #expect(end == 19)
    }

    @Test func followsAChainOfBackwardPointers() throws {
        // "local" at 0; "_tcp" → 0 at 7; "_hap" → 7 at 14; a bare pointer → 14 at 21.
        let bytes = Wire.name("local") + Wire.labels("_tcp") + Wire.pointer(0) + Wire.labels("_hap") + Wire.pointer(7)
            + Wire.pointer(14)
        let (name, end) = try readName(bytes, at: 21)
        #expect(name.escapedText == "_hap._tcp.local.")
        #expect(end == 23)
    }

    @Test func countsPointersFromTheMessageStartNotTheBufferStart() throws {
        let message = Wire.name("local") + Wire.labels("box") + Wire.pointer(0)
        let bytes: [UInt8] = [0xAA, 0xBB, 0xCC] + message
        var cursor = ByteCursor(bytes.span.bytes, layer: .dns, position: 10)
        let name = try DNSName(parsing: &cursor, messageStart: 3)
        #expect(name.escapedText == "box.local.")
    }

    @Test func rejectsAPointerToItself() {
        let bytes = Wire.name("local") + Wire.pointer(7)
        let error = thrownError { _ = try readName(bytes, at: 7) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 7)
    }

    @Test func rejectsALoopBetweenTwoPointers() {
        // 12 → 14 and 14 → 12: the second jump does not land earlier than the first.
        let bytes = [UInt8](repeating: 0, count: 12) + Wire.pointer(14) + Wire.pointer(12)
        let error = thrownError { _ = try readName(bytes, at: 14) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 12)
    }

    @Test func rejectsALoopThroughTheMiddleOfALabel() {
        // The label at 0 spans 0...4 and is followed by a pointer to 2, inside the label. Read
        // from 2, the bytes are a 2-byte label and then the same pointer again: a loop that a
        // rule of "point before the pointer" would let through. The name started at 0, so a
        // jump to 2 is not earlier.
        let bytes: [UInt8] = [0x04, 0x41, 0x02, 0x41, 0x41, 0xC0, 0x02]
        let error = thrownError { _ = try readName(bytes, at: 0) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 5)
    }

    @Test func rejectsAForwardPointer() {
        let bytes = Wire.pointer(4) + [0, 0] + Wire.name("local")
        let error = thrownError { _ = try readName(bytes, at: 0) }
        #expect(error?.code == .malformed)
        #expect(error?.expected.contains("earlier") == true)
    }

    @Test func rejectsAPointerPastTheEndOfTheMessage() {
        let bytes = Wire.name("local") + Wire.pointer(0x3FFF)
        let error = thrownError { _ = try readName(bytes, at: 7) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 7)
        #expect(error?.expected.contains("16383") == true)
    }

    @Test func stopsAPointerChainAtTheJumpBudget() throws {
        // "local" at 0, then 20 bare pointers, each to the one before.
        var bytes = Wire.name("local") + Wire.pointer(0)
        for index in 1..<20 { bytes += Wire.pointer(7 + 2 * (index - 1)) }
        let start = bytes.count - 2
        let error = thrownError { _ = try readName(bytes, at: start, maxPointerJumps: 10) }
        #expect(error?.code == .limitExceeded)
        let (name, _) = try readName(bytes, at: start, maxPointerJumps: 20)
        #expect(name.escapedText == "local.")
    }

    @Test func rejectsALabelLengthOver63() {
        let bytes: [UInt8] = [0x40] + [UInt8](repeating: 0x61, count: 64) + [0]
        let error = thrownError { _ = try readName(bytes, at: 0) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 0)
    }

    @Test func rejectsTheReservedLabelType() {
        let error = thrownError { _ = try readName([0x80, 0x00], at: 0) }
        #expect(error?.code == .malformed)
    }

    @Test func acceptsA255ByteNameAndRejectsA257ByteOne() throws {
        // 127 one-byte labels take 254 bytes, plus the root: 255.
        let longest = oneByteLabels(127, of: 0x61) + [0]
        let (name, _) = try readName(longest, at: 0)
        #expect(name.wireLength == 255)
        let tooLong = [0x01, 0x61] + longest
        let error = thrownError { _ = try readName(tooLong, at: 0) }
        #expect(error?.code == .malformed)
        #expect(error?.expected.contains("255") == true)
    }

    @Test func countsCompressedSuffixesTowardThe255ByteLimit() {
        // 100 one-byte labels at 0 (201 bytes), then 30 more labels and a pointer to 0.
        let suffix = oneByteLabels(100, of: 0x62) + [0]
        let bytes = suffix + oneByteLabels(30, of: 0x61) + Wire.pointer(0)
        let error = thrownError { _ = try readName(bytes, at: suffix.count) }
        #expect(error?.code == .malformed)
    }

    @Test func reportsANameCutShortAsTruncated() {
        let bytes: [UInt8] = [0x05, 0x6C, 0x6F]
        let error = thrownError { _ = try readName(bytes, at: 0) }
        #expect(error?.code == .truncated)
        let missingRoot = thrownError { _ = try readName(Wire.labels("local"), at: 0) }
        #expect(missingRoot?.code == .truncated)
        #expect(missingRoot?.offset == 6)
    }
}

@Suite struct DNSNameTextTests {
    @Test func escapesSpacesAsDecimalAndDotsWithABackslash() throws {
        let name = try #require(DNSName(labels: [Array("Living Room".utf8), Array("v1.2".utf8), Array("local".utf8)]))
        #expect(name.escapedText == #"Living\032Room.v1\.2.local."#)
        #expect(name.displayText == "Living Room.v1.2.local")
    }

    @Test func escapesUTF8BytesAndMasterFileSpecialsButDisplaysUnicode() throws {
        let name = try #require(DNSName(labels: [Array("Küche \"A\"".utf8), Array("local".utf8)]))
        #expect(name.escapedText == #"K\195\188che\032\"A\".local."#)
        #expect(name.displayText == "Küche \"A\".local")
    }

    @Test func displaysControlCharactersAndBadUTF8AsReplacementCharacters() throws {
        let name = try #require(DNSName(labels: [[0x41, 0x1B, 0x5B, 0x32, 0x4A], [0xFF, 0x42]]))
        #expect(name.displayText == "A\u{FFFD}[2J.\u{FFFD}B")
        #expect(name.escapedText == #"A\027[2J.\255B."#)
    }

    @Test func parsesEscapedTextBackToTheSameLabels() throws {
        let name = try dnsName(#"Living\032Room\.1._hap._tcp.local."#)
        #expect(name.labelCount == 4)
        #expect(Array(name.labels.first!) == Array("Living Room.1".utf8))
        #expect(DNSName(name.escapedText) == name)
        #expect(DNSName("") == .root)
        #expect(DNSName(".") == .root)
        #expect(DNSName.root.escapedText == ".")
    }

    @Test func rejectsTextThatIsNotAName() {
        #expect(DNSName("a..b") == nil)
        #expect(DNSName(#"a\256"#) == nil)
        #expect(DNSName(#"a\12"#) == nil)
        #expect(DNSName(#"trailing\"#) == nil)
        #expect(DNSName(String(repeating: "a", count: 64) + ".local") == nil)
    }
}

@Suite struct DNSNameComparisonTests {
    @Test func comparesAndHashesIgnoringASCIICase() throws {
        let lower = try dnsName("living-room-lamp.local")
        let mixed = try dnsName("Living-Room-Lamp.LOCAL")
        #expect(lower == mixed)
        #expect(Set([lower, mixed]).count == 1)
        #expect(DNSName("Küche.local") != DNSName("KÜCHE.local"))
    }

    @Test func dropsLeadingLabelsAndMatchesSuffixes() throws {
        let name = try dnsName("_L840._sub._matterc._udp.local")
        #expect(name.droppingFirstLabels(2) == DNSName("_matterc._udp.local"))
        #expect(name.droppingFirstLabels(5) == .root)
        #expect(name.hasSuffix(try dnsName("_UDP.local")))
        #expect(!name.hasSuffix(try dnsName("_tcp.local")))
        #expect(name.hasSuffix(.root))
    }
}
