import HTTP1
import Testing
import WireParsing

/// HAP messages as the fact sheet (docs/PROTOCOL.md §5) and HomeKitADK's
/// `HAPIPAccessoryServer.c` write them, byte for byte.
///
/// Sources and licenses of the embedded bodies (kept in this Swift file rather than beside it,
/// because SwiftPM warns about non-source files in a target that Package.swift does not declare):
/// - `accessoryDatabaseJSON`: Home Assistant Core (Apache-2.0),
///   `tests/components/homekit_controller/fixtures/haa_fan2.json` at `824e3683fd`, a dump of a
///   RavenSystem HAA fan, copied verbatim and wrapped in `{"accessories":…}` as HAP sends it.
/// - `pairSetupM2TLV8`, `pairVerifyM2TLV8`: hapscope's TLV8 benchmark corpus
///   (`hap/tlv-corpus/pair_setup_m2.tlv8`, `pair_verify_m2.tlv8`), real structure with random
///   key material, generated for this project.
enum Fixtures {
    /// M1 of Pair Setup: State = 1, Method = 0 (PairSetup). HAP: Pair Setup M1.
    static let pairSetupM1TLV8: [UInt8] = [0x06, 0x01, 0x01, 0x00, 0x01, 0x00]

    /// M2 of Pair Setup: State = 2, Salt, a 384-byte SRP public key in two fragments.
    static let pairSetupM2TLV8: [UInt8] = hex(
        "0601020210d85b2cfbfe8ddda2e24ce5eca788df2903fffe4773ae4d7ea5937e6e9b600cbe6358b2776dc247b6d5d296" +
        "2bf172bbc562d2e95760d85d1a65996db2009cdb827ae47f6b6705813b865f02318efa67a2b27d3458076b4a31027e6c" +
        "de60f6a012ebf78956acb2db5cd1e67a42fd8b525562cb62ee79bfefa17d6d1b83bceb5b72b8cdf48e3daed10c74f5d4" +
        "f551adbebe06a66694c7ba685a870eb16c61c6c2b61dacbb7e37d5438db86df839568ac0023bb70b08a42dedb5f2a2a7" +
        "b4357248e58bf363ef63b68be717fa2ce241a57566609e11cb9c1b5e7633b54ad8a6192aee436c556e6e7cce0da753b2" +
        "c1ab2b4361efc6b801ccfeaf508588a569b47058f97e7553e0252cd7129904952a5fe00eba0903818702ab7c696ea805" +
        "db527c763fa12b8b0d585a097e653bac930c9b64aab84e49d3fdaca080ee5b8090ebb108b2bfd2b463c9e929612762f7" +
        "9c9d609b7564c7cba95d8d5c9d77c2cad7d67cb5a8d812584a1f6c94b62e1aae3369f16b6691bbbbb2686bacc5a02cd3" +
        "2d8fb115535988c4bae881bffb5c7a903af2dc8aca0784fde8"
    )

    /// M2 of Pair Verify: State = 2, an X25519 public key, EncryptedData.
    static let pairVerifyM2TLV8: [UInt8] = hex(
        "0601020320f09cab949e0e240a9884b4f2f6d69bcf8a6cc6edfe4d8c21c051e2b21559f57a05650284e9ad337b6805b0" +
        "48682989b8d8b76ef864bd455674d696570c96116fe284c93dc810ea4b43de3cdd67ef4d66c878443a038f6db60a384c" +
        "6d6aa7fd89fdf03e15654ee4b5524538ad9a838a8d04ee064c33b88e6daa96da7f9072ba02053f01507bb20c"
    )

    static let accessoryDatabaseJSON: [UInt8] = Array(("{\"accessories\":" + #"""
[
  {
    "aid": 1,
    "services": [
      {
        "iid": 1,
        "type": "0000003E-0000-1000-8000-0026BB765291",
        "primary": false,
        "hidden": false,
        "characteristics": [
          {
            "aid": 1,
            "iid": 2,
            "type": "00000023-0000-1000-8000-0026BB765291",
            "perms": ["pr"],
            "format": "string",
            "value": "HAA-C718B3"
          },
          {
            "aid": 1,
            "iid": 3,
            "type": "00000020-0000-1000-8000-0026BB765291",
            "perms": ["pr"],
            "format": "string",
            "value": "Jos\u00e9 A. Jim\u00e9nez Campos"
          },
          {
            "aid": 1,
            "iid": 4,
            "type": "00000030-0000-1000-8000-0026BB765291",
            "perms": ["pr"],
            "format": "string",
            "value": "C718B3-2"
          },
          {
            "aid": 1,
            "iid": 5,
            "type": "00000021-0000-1000-8000-0026BB765291",
            "perms": ["pr"],
            "format": "string",
            "value": "RavenSystem HAA"
          },
          {
            "aid": 1,
            "iid": 6,
            "type": "00000052-0000-1000-8000-0026BB765291",
            "perms": ["pr"],
            "format": "string",
            "value": "5.0.18"
          },
          {
            "aid": 1,
            "iid": 7,
            "type": "00000014-0000-1000-8000-0026BB765291",
            "perms": ["pw"],
            "format": "bool"
          }
        ]
      },
      {
        "iid": 8,
        "type": "00000049-0000-1000-8000-0026BB765291",
        "primary": true,
        "hidden": false,
        "characteristics": [
          {
            "aid": 1,
            "iid": 9,
            "type": "00000025-0000-1000-8000-0026BB765291",
            "perms": ["pr", "pw", "ev"],
            "ev": true,
            "format": "bool",
            "value": false
          }
        ]
      }
    ]
  }
]
"""# + "}").utf8)

    static let writeBody = Array(#"{"characteristics":[{"aid":1,"iid":9,"value":1}]}"#.utf8)
    static let multiStatusBody = Array(#"{"characteristics":[{"aid":1,"iid":9,"status":-70402}]}"#.utf8)
    static let onEventBody = Array(#"{"characteristics":[{"aid":1,"iid":9,"value":1}]}"#.utf8)
    static let temperatureEventBody = Array(#"{"characteristics":[{"aid":1,"iid":10,"value":23.5}]}"#.utf8)

    // MARK: Controller to accessory

    static let pairSetupM1Request = text(
        "POST /pair-setup HTTP/1.1\r\nHost: Lightbulb._hap._tcp.local\r\n" +
        "Content-Length: 6\r\nContent-Type: application/pairing+tlv8\r\n\r\n") + pairSetupM1TLV8

    static let getAccessoriesRequest = text(
        "GET /accessories HTTP/1.1\r\nHost: Lightbulb._hap._tcp.local\r\n\r\n")

    static let getCharacteristicsRequest = text(
        "GET /characteristics?id=1.9,1.10&ev=1&meta=1 HTTP/1.1\r\nHost: Lightbulb._hap._tcp.local\r\n\r\n")

    static let putCharacteristicsRequest = text(
        "PUT /characteristics HTTP/1.1\r\nHost: Lightbulb._hap._tcp.local\r\n" +
        "Content-Type: application/hap+json\r\nContent-Length: \(writeBody.count)\r\n\r\n") + writeBody

    // MARK: Accessory to controller

    /// HomeKitADK's header order: Content-Type, then Content-Length.
    static let pairSetupM2Response = text(
        "HTTP/1.1 200 OK\r\nContent-Type: application/pairing+tlv8\r\n" +
        "Content-Length: \(pairSetupM2TLV8.count)\r\n\r\n") + pairSetupM2TLV8

    static let pairVerifyM2Response = text(
        "HTTP/1.1 200 OK\r\nContent-Type: application/pairing+tlv8\r\n" +
        "Content-Length: \(pairVerifyM2TLV8.count)\r\n\r\n") + pairVerifyM2TLV8

    /// `/accessories` as HomeKitADK's `handle_accessory_serialization` sends it: chunked, in
    /// pieces of at most 1024 bytes, sizes in upper-case hex. HAP: quirk #8 of the fact sheet.
    static let chunkedAccessoriesResponse: [UInt8] = {
        var bytes = text("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/hap+json\r\n\r\n")
        var rest = accessoryDatabaseJSON[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(1024)
            bytes += text(String(chunk.count, radix: 16, uppercase: true) + "\r\n") + chunk + text("\r\n")
            rest = rest.dropFirst(chunk.count)
        }
        return bytes + text("0\r\n\r\n")
    }()

    /// HomeKitADK's write success.
    static let noContentResponse = text("HTTP/1.1 204 No Content\r\n\r\n")

    static let multiStatusResponse = text(
        "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/hap+json\r\n" +
        "Content-Length: \(multiStatusBody.count)\r\n\r\n") + multiStatusBody

    /// HomeKitADK's answer to `/accessories` on an unverified connection.
    static let connectionAuthorizationRequiredResponse = text(
        "HTTP/1.1 470 Connection Authorization Required\r\nContent-Type: application/hap+json\r\n" +
        "Content-Length: 17\r\n\r\n{\"status\":-70411}")

    static let onEvent = text(
        "EVENT/1.0 200 OK\r\nContent-Type: application/hap+json\r\n" +
        "Content-Length: \(onEventBody.count)\r\n\r\n") + onEventBody

    static let temperatureEvent = text(
        "EVENT/1.0 200 OK\r\nContent-Type: application/hap+json\r\n" +
        "Content-Length: \(temperatureEventBody.count)\r\n\r\n") + temperatureEventBody

    /// Every single-message fixture, for the split tests.
    static let all: [Fixture] = [
        Fixture("pair-setup M1 request", pairSetupM1Request),
        Fixture("GET /accessories", getAccessoriesRequest),
        Fixture("GET /characteristics", getCharacteristicsRequest),
        Fixture("PUT /characteristics", putCharacteristicsRequest),
        Fixture("pair-setup M2 response", pairSetupM2Response),
        Fixture("pair-verify M2 response", pairVerifyM2Response),
        Fixture("chunked /accessories", chunkedAccessoriesResponse),
        Fixture("204 No Content", noContentResponse),
        Fixture("207 Multi-Status", multiStatusResponse),
        Fixture("470 with HAP status", connectionAuthorizationRequiredResponse),
        Fixture("EVENT on", onEvent),
        Fixture("EVENT temperature", temperatureEvent),
    ]

    /// One controller's side of a session, pipelined.
    static let controllerStream = pairSetupM1Request + getAccessoriesRequest + getCharacteristicsRequest
        + putCharacteristicsRequest

    /// One accessory's side: responses, two events back to back, an event right after a response.
    static let accessoryStream = pairSetupM2Response + pairVerifyM2Response + chunkedAccessoriesResponse
        + multiStatusResponse + onEvent + temperatureEvent + noContentResponse + onEvent
        + connectionAuthorizationRequiredResponse

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    static func hex(_ string: String) -> [UInt8] {
        Hex.decode(string) ?? []
    }
}

/// A named byte sequence, shown by name in test results.
struct Fixture: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]

    init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    var testDescription: String { name }
}
