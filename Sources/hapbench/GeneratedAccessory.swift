import HAPCrypto

/// A simulated HAP bridge: its identity, long-term key, address and the attribute database it
/// serves. Bridged lightbulbs carry On and Brightness; each also has a temperature sensor,
/// whose readings make the EVENT traffic.
struct GeneratedAccessory {
    /// The characteristic instance IDs of a bridged accessory, fixed by `databaseJSON`.
    enum InstanceID {
        static let on = 9
        static let brightness = 10
        static let temperature = 12
    }

    /// The device ID `XX:XX:XX:XX:XX:XX`, which is also the accessory's pairing identifier.
    let deviceID: String
    let name: String
    let longTermKey: Ed25519.SigningKey
    let endpoint: GeneratedEndpoint
    /// How many lightbulbs the bridge carries (aids 2 ... lightbulbCount + 1).
    let lightbulbCount: Int
    /// The `c#` the accessory advertises.
    let configurationNumber: Int

    init(index: Int, endpoint: GeneratedEndpoint, random: inout SeededRandom) throws(CryptoError) {
        deviceID = Self.deviceID(random.bytes(6))
        name = "Bench Bridge \(index)"
        longTermKey = try Ed25519.SigningKey(seed: random.secret(Ed25519.seedByteCount))
        self.endpoint = endpoint
        lightbulbCount = random.int(in: 2...12)
        configurationNumber = random.int(in: 1...40)
    }

    /// Six bytes as `XX:XX:XX:XX:XX:XX`, upper-case: a device ID, or a Bluetooth address.
    static func deviceID(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined(separator: ":")
    }

    /// The mDNS host name, e.g. `Bench-Bridge-3.local`.
    var hostName: String { String(name.map { $0 == " " ? "-" : $0 }) + ".local" }

    /// The `/accessories` body: the bridge (aid 1) with Accessory Information and Protocol
    /// Information, then the bridged lightbulbs. HAP: attribute database (PROTOCOL §6).
    var databaseJSON: String {
        var accessories = [bridgeJSON]
        for aid in 2...(lightbulbCount + 1) {
            accessories.append(lightbulbJSON(aid: aid))
        }
        return #"{"accessories":["# + accessories.joined(separator: ",") + "]}"
    }

    private var bridgeJSON: String {
        #"{"aid":1,"services":["# + informationServiceJSON(model: "Bridge", serial: deviceID) + ","
            + #"{"iid":8,"type":"A2","characteristics":[{"iid":9,"type":"37","perms":["pr"],"format":"string","value":"1.1.0"}]}]}"#
    }

    private func lightbulbJSON(aid: Int) -> String {
        #"{"aid":\#(aid),"services":["# + informationServiceJSON(model: "Lightbulb", serial: "\(deviceID)-\(aid)") + ","
            + #"{"iid":8,"type":"43","primary":true,"characteristics":["#
            + #"{"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":false},"#
            + #"{"iid":10,"type":"8","perms":["pr","pw","ev"],"format":"int","unit":"percentage","minValue":0,"maxValue":100,"minStep":1,"value":50}]},"#
            + #"{"iid":11,"type":"8A","characteristics":["#
            + #"{"iid":12,"type":"11","perms":["pr","ev"],"format":"float","unit":"celsius","minValue":0,"maxValue":100,"minStep":0.1,"value":21.5}]}]}"#
    }

    private func informationServiceJSON(model: String, serial: String) -> String {
        #"{"iid":1,"type":"3E","characteristics":["#
            + #"{"iid":2,"type":"14","perms":["pw"],"format":"bool"},"#
            + #"{"iid":3,"type":"20","perms":["pr"],"format":"string","value":"hapscope"},"#
            + #"{"iid":4,"type":"21","perms":["pr"],"format":"string","value":"\#(model)"},"#
            + #"{"iid":5,"type":"23","perms":["pr"],"format":"string","value":"\#(name)"},"#
            + #"{"iid":6,"type":"30","perms":["pr"],"format":"string","value":"\#(serial)"},"#
            + #"{"iid":7,"type":"52","perms":["pr"],"format":"string","value":"1.0.0"}]}"#
    }
}

/// A simulated controller: a pairing identifier (a UUID string, as iOS sends) and its
/// long-term key.
struct GeneratedController {
    let pairingID: String
    let longTermKey: Ed25519.SigningKey
    let address: UInt32

    init(address: UInt32, random: inout SeededRandom) throws(CryptoError) {
        let bytes = random.bytes(16)
        let hex = bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined()
        let characters = Array(hex)
        pairingID = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
        longTermKey = try Ed25519.SigningKey(seed: random.secret(Ed25519.seedByteCount))
        self.address = address
    }
}
