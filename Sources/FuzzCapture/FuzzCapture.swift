import Capture
import FuzzSupport
import HAPAnalysis
import HAPCore
import HAPEvents
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fuzz target: a whole capture file through the whole pipeline — libpcap's reader, link, IP, UDP
/// and TCP decoding, fragment and stream reassembly, mDNS, HTTP, pairing, decryption, JSON — as
/// `CaptureAnalyzer.analyze` runs it for `hapscope`.
///
/// The input is written to a file (in /dev/shm when there is one) and read back with
/// `CaptureFileReader`, exactly as a user's capture is. Slices of the recorded captures are the
/// seeds; with `HAPSCOPE_FUZZ_KEYLOG` naming a key log (scripts/fuzz.sh passes the recorded
/// captures' logs), their sessions are decrypted and the decrypted layers are fuzzed too.
///
/// Besides not crashing, hanging or exhausting memory, the analysis must end exactly once: one
/// `inputEnded` event, the last.
enum CaptureHarness: FuzzHarness {
    static let name = "FuzzCapture"

    static let keyLog: KeyLog = {
        var keyLog = KeyLog()
        guard let path = getenv("HAPSCOPE_FUZZ_KEYLOG").map({ String(cString: $0) }) else { return keyLog }
        guard let bytes = readFile(path), (try? keyLog.add(parsing: String(decoding: bytes, as: UTF8.self), source: path)) != nil else {
            writeToStandardError("FuzzCapture: cannot use the key log \(path)\n")
            exit(2)
        }
        return keyLog
    }()

    /// The recorded captures' key logs together hold hundreds of sessions, and a seed cut from a
    /// capture that starts mid-session tries every unnamed one on each direction, every counter up
    /// to `frame.counter-search`: a second or more per input under the sanitizers. The search is
    /// bounded and measured in hapbench; here it is kept small so that each input exercises the
    /// joiner's parsing rather than libsodium.
    static let configuration: AnalysisConfiguration = {
        var configuration = AnalysisConfiguration(keyLog: keyLog)
        configuration.limits.maximumCounterSearch = 256
        return configuration
    }()

    static let path: String = {
        let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(directory)/hapscope-fuzz-capture-\(getpid()).pcap"
    }()

    static func run(_ input: UnsafeRawBufferPointer) {
        guard write(input, to: path) else {
            writeToStandardError("FuzzCapture: cannot write \(path)\n")
            exit(2)
        }
        defer { unlink(path) }
        let reader: CaptureFileReader
        do {
            reader = try CaptureFileReader(files: [path])
        } catch {
            _ = error.description
            return
        }
        var ended = 0
        var eventsAfterEnd = 0
        let sink = EventSink { event in
            if ended > 0 { eventsAfterEnd += 1 }
            if case .inputEnded = event.kind { ended += 1 }
        }
        AnalysisPipeline(configuration: configuration, consumers: [sink]).run(reader)
        fuzzInvariant(ended == 1, "the analysis ended \(ended) times")
        fuzzInvariant(eventsAfterEnd == 0, "\(eventsAfterEnd) events after the end of the input")
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        let written = bytes.isEmpty ? 0 : fwrite(bytes.baseAddress, 1, bytes.count, file)
        return fclose(file) == 0 && written == bytes.count
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    CaptureHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension CaptureHarness {}
#endif
