import Testing
import Packets

@Suite struct IPAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"),
        ("::1", "::1"),
        ("fe80:0:0:0:1:0:0:1", "fe80::1:0:0:1"),
        ("2001:db8:0:0:1:0:0:0", "2001:db8:0:0:1::"),
        ("0:0:0:0:0:0:0:0", "::"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2:3:4:5:6"),
    ])
    func formatsAsRFC5952(input: String, expected: String) throws {
        let address = try #require(IPAddress(input))
        #expect(address.description == expected)
        #expect(IPAddress(expected) == address)
    }

    @Test func rejectsMalformedText() {
        for text in ["1.2.3", "256.0.0.1", "1::2::3", "12345::", "1.2.3.4.5", ":::"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }

    @Test func endpointsPrintAsToolsWriteThem() throws {
        #expect(Endpoint(address: try #require(IPAddress("10.0.0.2")), port: 51826).description == "10.0.0.2:51826")
        #expect(Endpoint(address: try #require(IPAddress("::1")), port: 80).description == "[::1]:80")
    }
}
