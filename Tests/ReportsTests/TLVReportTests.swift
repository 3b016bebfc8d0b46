import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("TLV report")
struct TLVReportTests {
    /// HAP: Pair Setup M2 — State, Salt, and a 384-byte PublicKey in fragments of 255 and 129.
    static let pairSetupM2: [UInt8] = [0x06, 0x01, 0x02, 0x02, 0x10] + Array(repeating: 0xA5, count: 16)
        + [0x03, 0xFF] + Array(repeating: 0x11, count: 255) + [0x03, 0x81] + Array(repeating: 0x22, count: 129)

    @Test("a well-formed body decodes strictly, item by item")
    func clean() {
        let report = TLVReport(bytes: Self.pairSetupM2, source: "test", as: .pairSetup)
        #expect(report.isClean)
        #expect(report.strictError == nil)
        let text = report.render(ReportSettings())
        #expect(text.contains("strict decode: ok"))
        #expect(text.contains("    21  publicKey     384  384 bytes 1111…2222  (2 fragments)"))
        #expect(text.contains("as pair-setup: Pair Setup M2"))
        #expect(text.contains("no diagnostics"))
    }

    @Test("a truncated body names the strict error's offset and still shows what can be read")
    func truncated() {
        let report = TLVReport(bytes: Array(Self.pairSetupM2.prefix(30)), source: "log", as: .pairSetup)
        #expect(!report.isClean)
        #expect(report.strictError?.code == .truncated)
        #expect(report.strictError?.offset == 21)
        let text = report.render(ReportSettings())
        #expect(text.contains("strict decode: truncated at byte 21: expected 255 value bytes of a PublicKey item (7 remain)"))
        #expect(text.contains("     3  salt       16  16 bytes a5a5…a5a5"))
        #expect(text.contains("! at byte 0: missing PublicKey item"))
    }

    @Test("a well-formed body that is the wrong message has diagnostics")
    func wrongMessage() {
        let report = TLVReport(bytes: Self.pairSetupM2, source: "test", as: .pairVerify)
        #expect(!report.isClean)
        #expect(report.messageDiagnostics.isEmpty == false)
    }

    @Test("JSON gives the strict verdict, the items and the message")
    func json() throws {
        let report = TLVReport(bytes: Array(Self.pairSetupM2.prefix(30)), source: "log", as: .pairSetup)
        let root = try JSONDocument(bytes: Array(report.render(ReportSettings(format: .json)).utf8)).root
        #expect(root["strict"]?["ok"]?.boolValue == false)
        #expect(root["strict"]?["code"]?.stringValue == "truncated")
        #expect(root["strict"]?["offset"]?.numberValue?.int64Value == 21)
        #expect(root["items"]?.arrayValue?.map { $0["field"]?.stringValue } == ["state", "salt"])
        #expect(root["message"]?["state"]?.stringValue == "M2")
        #expect(root["clean"]?.boolValue == false)
    }

    @Test("input is read as hex, with separators and a 0x prefix, else base64, else raw bytes", arguments: [
        ("060102", [0x06, 0x01, 0x02]),
        ("06 01 02", [0x06, 0x01, 0x02]),
        ("06:01:02\n", [0x06, 0x01, 0x02]),
        ("0x060102", [0x06, 0x01, 0x02]),
        ("BgEC", [0x06, 0x01, 0x02]),
    ] as [(String, [UInt8])])
    func input(text: String, expected: [UInt8]) {
        #expect(TLVInput.decode(Array(text.utf8)) == expected)
    }

    @Test("binary input is taken as it is, text that is neither hex nor base64 is refused")
    func rawAndRefused() {
        #expect(TLVInput.decode([0x06, 0x01, 0x02]) == [0x06, 0x01, 0x02])
        #expect(TLVInput.decode(Array("not a blob!".utf8)) == nil)
        #expect(TLVInput.decode(Array("0601".utf8), as: .base64) == [0xD3, 0xAD, 0x35])
        #expect(TLVInput.decode(Array("zz".utf8), as: .hex) == nil)
    }
}
