import Bluetooth
import Testing
@testable import BLETransport

@Suite("GATT values joined from ATT operations")
struct GATTValueAssemblerTests {
    @Test("A Write Request is a whole value")
    func write() {
        var values = GATTValueAssembler(maximumValueLength: 512)
        #expect(values.request(.writeRequest(handle: 7, value: [1, 2])) == [.written(handle: 7, value: [1, 2])])
        #expect(values.response(.writeResponse).values.isEmpty)
    }

    @Test("Prepare Writes join in order and Execute Write commits them; flags 0 cancels")
    func longWrite() {
        var values = GATTValueAssembler(maximumValueLength: 512)
        #expect(values.request(.prepareWriteRequest(handle: 7, offset: 0, partValue: [1, 2])).isEmpty)
        #expect(values.request(.prepareWriteRequest(handle: 7, offset: 2, partValue: [3])).isEmpty)
        #expect(values.request(.executeWriteRequest(flags: 1)) == [.written(handle: 7, value: [1, 2, 3])])
        _ = values.request(.prepareWriteRequest(handle: 7, offset: 0, partValue: [9]))
        #expect(values.request(.executeWriteRequest(flags: 0)).isEmpty)
        #expect(values.request(.executeWriteRequest(flags: 1)).isEmpty)
    }

    @Test("A read shorter than ATT_MTU − 1 is whole; a full one goes on with Read Blobs until a short part")
    func longRead() {
        var values = GATTValueAssembler(maximumValueLength: 512)
        _ = values.request(.readRequest(handle: 9))
        #expect(values.response(.readResponse(value: [1])).values == [.read(handle: 9, value: [1])])
        let full = [UInt8](repeating: 0xAA, count: 22)
        _ = values.request(.readRequest(handle: 9))
        #expect(values.response(.readResponse(value: full)).values.isEmpty)
        _ = values.request(.readBlobRequest(handle: 9, offset: 22))
        #expect(values.response(.readBlobResponse(partValue: full)).values.isEmpty)
        _ = values.request(.readBlobRequest(handle: 9, offset: 44))
        #expect(values.response(.readBlobResponse(partValue: [5])).values == [.read(handle: 9, value: full + full + [5])])
    }

    @Test("A full read ends at an error to its Read Blob, at another request, or at the end")
    func readEnds() {
        let full = [UInt8](repeating: 1, count: 22)
        var values = GATTValueAssembler(maximumValueLength: 512)
        _ = values.request(.readRequest(handle: 9))
        _ = values.response(.readResponse(value: full))
        _ = values.request(.readBlobRequest(handle: 9, offset: 22))
        #expect(values.response(.errorResponse(requestOpcode: .readBlobRequest, handle: 9, error: .invalidOffset)).values
            == [.read(handle: 9, value: full)])
        _ = values.request(.readRequest(handle: 9))
        _ = values.response(.readResponse(value: full))
        #expect(values.request(.writeRequest(handle: 3, value: [0])) == [.read(handle: 9, value: full), .written(handle: 3, value: [0])])
        _ = values.request(.readRequest(handle: 9))
        _ = values.response(.readResponse(value: full))
        #expect(values.finish() == [.read(handle: 9, value: full)])
    }

    @Test("The exchanged MTU sets where a read is full")
    func mtu() {
        var values = GATTValueAssembler(maximumValueLength: 512)
        _ = values.request(.exchangeMTURequest(clientReceiveMTU: 185))
        _ = values.response(.exchangeMTUResponse(serverReceiveMTU: 247))
        #expect(values.mtu == 185)
        _ = values.request(.readRequest(handle: 9))
        let value = [UInt8](repeating: 1, count: 22)
        #expect(values.response(.readResponse(value: value)).values == [.read(handle: 9, value: value)])
    }

    @Test("A value longer than the limit is dropped and counted")
    func bounded() {
        var values = GATTValueAssembler(maximumValueLength: 3)
        _ = values.request(.prepareWriteRequest(handle: 7, offset: 0, partValue: [1, 2]))
        _ = values.request(.prepareWriteRequest(handle: 7, offset: 2, partValue: [3, 4]))
        #expect(values.request(.executeWriteRequest(flags: 1)).isEmpty)
        #expect(values.oversizeValues == 1)
    }
}
