import Testing
@testable import HAPJSON

@Suite struct Base64Tests {
    @Test func decodesRFC4648TestVectorsWithAndWithoutPadding() {
        // RFC 4648 §10.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.decode(encoded) == Array(plain.utf8))
            #expect(Base64.decode(String(encoded.prefix { $0 != "=" })) == Array(plain.utf8))
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
        }
    }

    @Test func rejectsWhatNoEncoderProduces() {
        for text in ["Z", "Zg=", "Zg===", "Zm9v=", "Zh==", "Zm9*", "Zm 9v", "=", "Zm8=Zm8="] {
            #expect(Base64.decode(text) == nil, "\(text)")
        }
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0 ... 255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }
}
