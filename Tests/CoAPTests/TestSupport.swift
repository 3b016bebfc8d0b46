import WireParsing
@testable import CoAP

func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.filter { !$0.isWhitespace }) ?? []
}

func message(_ bytes: [UInt8]) -> Result<CoAPMessage, DecodeError> {
    var cursor = ByteCursor(bytes.span.bytes, layer: .coap)
    do {
        return .success(try CoAPMessage(parsing: &cursor))
    } catch {
        return .failure(error)
    }
}

extension Result {
    var value: Success? { try? get() }
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
