import Bluetooth

/// Joins the ATT operations that carry one GATT value, for one connection: a Write Request; a
/// long write's Prepare Write Requests and the Execute Write that commits them; a Read Response
/// and the Read Blob Responses that continue it (Core Vol 3 Part G §4.8.3, §4.9.4). HAP-BLE
/// puts one PDU fragment in each GATT value and seals each on its own, so values are joined
/// before they are decrypted (HomeKitADK HAPBLEPeripheralManager.c).
///
/// ATT allows one outstanding request per client (Core Vol 3 Part F §3.3.2), so a response is
/// read against the last request. A read is whole when a part is shorter than ATT_MTU − 1 (a
/// longer value is read on with Read Blob), or when the client moves on to another request.
/// Values longer than `maximumValueLength` are dropped and reported.
struct GATTValueAssembler {
    /// A whole GATT value, with the handle of its attribute.
    enum Value: Equatable {
        /// The client wrote it (the HAP controller to the accessory).
        case written(handle: UInt16, value: [UInt8])
        /// The client read it (the accessory to the HAP controller).
        case read(handle: UInt16, value: [UInt8])
    }

    /// Core Vol 3 Part F §3.2.8: ATT_MTU is 23 on LE until an Exchange MTU raises it.
    static let defaultMTU = 23

    let maximumValueLength: Int
    private(set) var mtu = defaultMTU
    private var clientMTU: Int?
    /// The client's request waiting for its response.
    private(set) var outstandingRequest: ATTPDU?
    private var preparedWrites: [(handle: UInt16, bytes: [UInt8])] = []
    private var partialRead: (handle: UInt16, bytes: [UInt8])?
    /// Values dropped for being longer than `maximumValueLength`.
    private(set) var oversizeValues = 0

    init(maximumValueLength: Int) {
        self.maximumValueLength = maximumValueLength
    }

    /// Takes one client request; returns the values it completed.
    mutating func request(_ pdu: ATTPDU) -> [Value] {
        var values: [Value] = []
        if let partial = partialRead {
            if case .readBlobRequest(let handle, _) = pdu, handle == partial.handle {} else {
                values.append(.read(handle: partial.handle, value: partial.bytes))
                partialRead = nil
            }
        }
        switch pdu {
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value):
            values.append(.written(handle: handle, value: value))
        case .prepareWriteRequest(let handle, _, let part):
            // Parts are joined in order; a client writes a long value front to back.
            if let index = preparedWrites.firstIndex(where: { $0.handle == handle }) {
                guard fits(preparedWrites[index].bytes.count, part.count) else {
                    preparedWrites.remove(at: index)
                    break
                }
                preparedWrites[index].bytes += part
            } else if fits(preparedWrites.reduce(0) { $0 + $1.bytes.count }, part.count) {
                preparedWrites.append((handle, part))
            }
        case .executeWriteRequest(let flags):
            // Flags 0x01 write every prepared value, 0x00 cancel them (Core Vol 3 Part F §3.4.6.3).
            if flags == 0x01 { values += preparedWrites.map { .written(handle: $0.handle, value: $0.bytes) } }
            preparedWrites.removeAll()
        case .exchangeMTURequest(let client):
            clientMTU = Int(client)
        default:
            break
        }
        outstandingRequest = pdu
        return values
    }

    /// Takes one server response; returns the request it answers and the values it completed.
    mutating func response(_ pdu: ATTPDU) -> (request: ATTPDU?, values: [Value]) {
        let request = outstandingRequest
        outstandingRequest = nil
        var values: [Value] = []
        switch (request, pdu) {
        case (.readRequest(let handle)?, .readResponse(let value)):
            if value.count < mtu - 1 {
                values.append(.read(handle: handle, value: value))
            } else {
                partialRead = (handle, value)
            }
        case (.readBlobRequest(let handle, _)?, .readBlobResponse(let part)):
            guard var partial = partialRead, partial.handle == handle else { break }
            guard fits(partial.bytes.count, part.count) else {
                partialRead = nil
                break
            }
            partial.bytes += part
            if part.count < mtu - 1 {
                values.append(.read(handle: handle, value: partial.bytes))
                partialRead = nil
            } else {
                partialRead = partial
            }
        case (.readBlobRequest?, .errorResponse):
            // A value exactly ATT_MTU − 1 long: the blob read past its end is refused.
            if let partial = partialRead { values.append(.read(handle: partial.handle, value: partial.bytes)) }
            partialRead = nil
        case (.exchangeMTURequest?, .exchangeMTUResponse(let server)):
            // Core Vol 3 Part F §3.4.2.2: both use the smaller of the two receive MTUs.
            mtu = max(Self.defaultMTU, min(clientMTU ?? Int(server), Int(server)))
        default:
            break
        }
        return (request, values)
    }

    /// The read still open when the connection ends.
    mutating func finish() -> [Value] {
        defer { partialRead = nil }
        return partialRead.map { [.read(handle: $0.handle, value: $0.bytes)] } ?? []
    }

    private mutating func fits(_ held: Int, _ adding: Int) -> Bool {
        guard held + adding <= maximumValueLength else {
            oversizeValues += 1
            return false
        }
        return true
    }
}
