import HAPEvents
import HAPJSON
import Packets
import WireParsing

/// Object members in one call each, so that encoders read as the list of fields they write.
/// A nil value leaves the member out: the schema (docs/json.md) marks such fields optional,
/// which keeps lines short and never invents a value.
extension JSONWriter {
    mutating func member(_ key: String, _ value: String?) { member(key, value) { $0.string($1) } }
    mutating func member(_ key: String, _ value: Int?) { member(key, value) { $0.integer(Int64($1)) } }
    mutating func member(_ key: String, _ value: UInt64?) { member(key, value) { $0.unsignedInteger($1) } }
    mutating func member(_ key: String, _ value: Int64?) { member(key, value) { $0.integer($1) } }
    mutating func member(_ key: String, _ value: Bool?) { member(key, value) { $0.bool($1) } }
    mutating func member(_ key: String, seconds value: Double?) { member(key, value) { $0.double(CaptureClock.roundedSeconds($1)) } }
    mutating func member(_ key: String, _ value: JSONValue?) { member(key, value) { $0.write($1) } }

    /// Binary values as lower-case hex, the way key logs and Wireshark's byte fields spell them.
    mutating func member(_ key: String, hex value: [UInt8]?) { member(key, value) { $0.string(Hex.encode($1)) } }

    /// The member `key` with the value `write` writes; nothing when `value` is nil.
    private mutating func member<Value>(_ key: String, _ value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        guard let value else { return }
        self.key(key)
        write(&self, value)
    }

    mutating func member(_ key: String, strings values: [String]) {
        self.key(key)
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// An object member whose members `body` writes.
    mutating func object(_ key: String, _ body: (inout JSONWriter) -> Void) {
        self.key(key)
        beginObject()
        body(&self)
        endObject()
    }

    /// An array member with one element per item of `items`, each written by `body`.
    mutating func array<Items: Sequence>(_ key: String, _ items: Items, _ body: (inout JSONWriter, Items.Element) -> Void) {
        self.key(key)
        beginArray()
        for item in items { body(&self, item) }
        endArray()
    }

    /// An array member of objects, one per item, whose members `body` writes.
    mutating func objects<Items: Sequence>(_ key: String, _ items: Items, _ body: (inout JSONWriter, Items.Element) -> Void) {
        array(key, items) { writer, item in
            writer.beginObject()
            body(&writer, item)
            writer.endObject()
        }
    }

    /// Where an event's evidence is: the packet number, seconds since the first packet and the
    /// absolute time (docs/json.md, "Common fields").
    mutating func packetMembers(_ packet: PacketInfo?, clock: CaptureClock, prefix: String = "") {
        guard let packet else { return }
        member(prefix.isEmpty ? "packet" : prefix + "Packet", packet.number)
        if let seconds = clock.relativeSeconds(packet.timestamp) {
            self.key(prefix.isEmpty ? "time" : prefix + "Time")
            double(seconds)
        }
        if prefix.isEmpty {
            member("timestamp", CaptureClock.iso8601(packet.timestamp))
        }
    }
}
