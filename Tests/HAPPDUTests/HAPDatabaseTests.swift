import HAPCatalog
import Testing
import TLV8
import WireParsing
@testable import HAPPDU

@Suite("The CoAP database read")
struct HAPDatabaseTests {
    /// A list value as aiohomekit's `serialize_typing_sequence` writes it: entries joined by `00 00`.
    static func list(_ entries: [[UInt8]]) -> [UInt8] {
        Array(entries.joined(separator: [0x00, 0x00]))
    }

    static func characteristic(_ type: UInt32, iid: UInt16, properties: UInt16) -> [UInt8] {
        tlv(0x13, tlv(0x04, hapType(type)) + tlv(0x05, le16(iid)) + tlv(0x0A, le16(properties)) + tlv(0x0C, hex("01 00 0027 01 0000")))
    }

    static func service(_ type: UInt32, iid: UInt16, characteristics: [[UInt8]]) -> [UInt8] {
        tlv(0x15, tlv(0x06, hapType(type)) + tlv(0x07, le16(iid)) + tlv(0x14, list(characteristics)) + tlv(0x0F, le16(0)))
    }

    /// One accessory (aid 1): Accessory Information (0x3E) with Identify (0x14), and a
    /// Lightbulb (0x43) with On (0x25), in the nesting aiohomekit `Pdu09Database` decodes.
    static let database: [UInt8] = tlv(0x18, list([
        tlv(0x19, tlv(0x1A, le16(1)) + tlv(0x16, list([
            service(0x3E, iid: 1, characteristics: [characteristic(0x14, iid: 2, properties: 0x0020)]),
            service(0x43, iid: 8, characteristics: [characteristic(0x25, iid: 9, properties: 0x00B3), characteristic(0x23, iid: 10, properties: 0x0010)]),
        ]))),
    ]))

    func database(_ bytes: [UInt8]) -> Result<HAPDatabase, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPDatabase(parsing: &cursor) }
    }

    @Test("Accessories, services and characteristics, in order, with their types and IIDs")
    func nesting() throws {
        let decoded = try database(Self.database).get()
        #expect(decoded.accessories.map(\.instanceID) == [1])
        let services = decoded.accessories[0].services
        #expect(services.map(\.type) == [HAPUUID(appleDefined: 0x3E), HAPUUID(appleDefined: 0x43)])
        #expect(services.map(\.instanceID) == [1, 8])
        #expect(services[1].characteristics.map(\.instanceID) == [9, 10])
        #expect(services[1].characteristics[0].type == HAPUUID(appleDefined: 0x25))
        #expect(services[1].characteristics[0].properties?.permissions == ["pr", "pw", "ev"])
        #expect(services[0].properties == HAPServiceProperties())
    }

    @Test("Values past 255 bytes arrive TLV8-fragmented and are joined")
    func fragmented() throws {
        let characteristics = (0 ..< 12).map { Self.characteristic(0x100 + UInt32($0), iid: 20 + UInt16($0), properties: 0x0010) }
        let large = tlv(0x18, tlv(0x19, tlv(0x1A, le16(2)) + tlv(0x16, Self.service(0x8A, iid: 19, characteristics: characteristics))))
        #expect(large.count > 2 * 255)
        #expect(large[1] == 0xFF)
        let decoded = try database(large).get()
        #expect(decoded.accessories.map(\.instanceID) == [2])
        #expect(decoded.accessories[0].services[0].characteristics.map(\.instanceID) == (20 ..< 32).map(UInt64.init))
    }

    @Test("A list entry without its container item, or an accessory without an aid, is malformed")
    func malformed() {
        #expect(database(tlv(0x18, tlv(0x1A, le16(1)))).error?.code == .malformed)
        #expect(database(tlv(0x18, tlv(0x19, tlv(0x16, [])))).error?.code == .malformed)
        #expect(database(tlv(0x17, [])).error?.code == .malformed)
        #expect(database(tlv(0x18, tlv(0x19, tlv(0x1A, le16(1)) + tlv(0x44, [])))).error?.code == .malformed)
    }

    @Test("An empty database has no accessories; a cut one is a TLV8 truncation")
    func emptyAndCut() {
        #expect(database([]).value == HAPDatabase(accessories: []))
        #expect(database(Array(Self.database.dropLast(3))).error?.code == .truncated)
    }
}
