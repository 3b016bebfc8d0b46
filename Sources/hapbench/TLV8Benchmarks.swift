import TLV8
import WireParsing

/// TLV8 decoding and encoding of the corpus messages, each against `memcpy` of the same bytes:
/// the ceiling for any pass that touches every byte once.
enum TLV8Benchmarks {
    static func run(settings: RunSettings, filter: BenchmarkFilter) -> [Ratio] {
        var ratios: [Ratio] = []
        for message in TLV8CorpusMessage.all {
            let copy = memcpyBenchmark(message)
            for (measured, meaning) in [
                (readerBenchmark(message), "zero-copy TLV8Reader pass (fragments found, values borrowed) vs memcpy of the same bytes"),
                (bodyBenchmark(message), "owned TLV8Body decode (values joined and copied) vs memcpy of the same bytes"),
                (encodeBenchmark(message), "TLV8Encoder writing the decoded items back vs memcpy of the same bytes"),
            ] where filter.includes(measured.name) {
                ratios.append(BenchmarkRunner.compare(
                    measured, against: copy, settings: settings, target: nil, name: measured.name + "/memcpy", meaning: meaning))
            }
        }
        return ratios
    }

    static let iterations = 400_000

    /// One strict reader pass, summing value lengths so every item is read.
    static func readerBenchmark(_ message: TLV8CorpusMessage) -> Benchmark {
        let bytes = message.bytes
        return Benchmark(name: "tlv8.decode.reader.\(message.name)", unit: .message, bytesPerOperation: bytes.count, iterations: iterations) { count in
            var total = 0
            for _ in 0..<count {
                var reader = TLV8Reader(bytes.span.bytes)
                do throws(DecodeError) {
                    while let element = try reader.next() { total &+= element.valueLength &+ Int(element.type.rawValue) }
                } catch {
                    total &+= error.offset
                }
            }
            return total
        }
    }

    /// The owned decode: what the analyzer keeps in its pairing events.
    static func bodyBenchmark(_ message: TLV8CorpusMessage) -> Benchmark {
        let bytes = message.bytes
        return Benchmark(name: "tlv8.decode.body.\(message.name)", unit: .message, bytesPerOperation: bytes.count, iterations: iterations) { count in
            var total = 0
            for _ in 0..<count {
                var cursor = ByteCursor(bytes.span.bytes, layer: .tlv8)
                do throws(DecodeError) {
                    let body = try TLV8Body(parsing: &cursor)
                    total &+= body.items.count &+ (body.items.last?.value.count ?? 0)
                } catch {
                    total &+= error.offset
                }
            }
            return total
        }
    }

    /// Writes the message's items (decoded once, untimed) into one reused buffer.
    static func encodeBenchmark(_ message: TLV8CorpusMessage) -> Benchmark {
        var cursor = ByteCursor(message.bytes.span.bytes, layer: .tlv8)
        let items = (try? TLV8Body(parsing: &cursor).items) ?? []
        let capacity = items.reduce(0) { $0 + TLV8Encoder.encodedByteCount(valueLength: $1.value.count) }
        return Benchmark(name: "tlv8.encode.\(message.name)", unit: .message, bytesPerOperation: capacity, iterations: iterations) { count in
            var storage = [UInt8](repeating: 0, count: capacity)
            var total = 0
            storage.withUnsafeMutableBufferPointer { buffer in
                for _ in 0..<count {
                    var output = OutputSpan(buffer: buffer, initializedCount: 0)
                    do throws(TLV8EncodingError) {
                        for item in items { try TLV8Encoder.append(item.type, value: item.value.span.bytes, to: &output) }
                    } catch {
                        total &+= error.freeCapacity
                    }
                    total &+= output.finalize(for: buffer)
                }
            }
            return total &+ Int(storage[capacity - 1])
        }
    }

    /// `memcpy` of the message into one reused buffer: the ceiling.
    static func memcpyBenchmark(_ message: TLV8CorpusMessage) -> Benchmark {
        let bytes = message.bytes
        return Benchmark(name: "memcpy.\(message.name)", unit: .message, bytesPerOperation: bytes.count, iterations: iterations) { count in
            var destination = [UInt8](repeating: 0, count: bytes.count)
            var total = 0
            bytes.withUnsafeBytes { source in
                destination.withUnsafeMutableBytes { target in
                    for index in 0..<count {
                        target.copyMemory(from: source)
                        total &+= Int(target[index % target.count])
                    }
                }
            }
            return total
        }
    }
}
