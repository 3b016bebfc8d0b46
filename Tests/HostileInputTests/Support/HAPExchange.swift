import HAPCore
import HAPEvents
import Testing
import TestSupport

/// A short, valid plaintext HAP conversation on a connection of its own: pair-setup M1 and M2,
/// then `GET /accessories` answered with a one-accessory database. Tests put it after the
/// hostile input and check that it is still decoded, which shows the analysis recovered.
struct HAPExchange {
    let conversation: TCPConversation

    /// The exchange on a connection from controller port `port`.
    init(controllerPort port: UInt16 = 49_299) {
        conversation = TCPConversation(controllerPort: port, controllerISN: 70_000, accessoryISN: 80_000)
    }

    var controllerPort: UInt16 { conversation.controllerPort }

    /// The frames of the whole connection, handshake to the last FIN.
    var frames: [[UInt8]] {
        var tcp = conversation
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(HTTPText.request("POST", "/pair-setup", body: Self.pairSetupM1, contentType: "application/pairing+tlv8")))
        frames.append(tcp.accessorySends(HTTPText.response(body: Self.pairSetupM2, contentType: "application/pairing+tlv8")))
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        frames.append(tcp.accessorySends(HTTPText.response(body: Self.database, contentType: "application/hap+json")))
        frames += tcp.close()
        return frames
    }

    /// HAP: Pair Setup M1 — Method PairSetup, State M1.
    static let pairSetupM1: [UInt8] = [0x00, 0x01, 0x00, 0x06, 0x01, 0x01]

    /// HAP: Pair Setup M2 — State M2, a 384-byte SRP public key in two fragments, a 16-byte salt.
    static let pairSetupM2: [UInt8] = {
        let publicKey = (0 ..< 384).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        return [0x06, 0x01, 0x02] + [0x03, 0xFF] + publicKey[..<255] + [0x03, 0x81] + publicKey[255...]
            + [0x02, 0x10] + (1 ... 16).map { UInt8($0) }
    }()

    static let database = Array(#"""
        {"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[\#
        {"iid":2,"type":"23","perms":["pr"],"format":"string","value":"Hostile Test Light"},\#
        {"iid":3,"type":"14","perms":["pw"],"format":"bool"}]}]}]}
        """#.utf8)
}

extension HAPExchange: CustomTestStringConvertible {
    var testDescription: String { "the HAP exchange from port \(controllerPort)" }
}
