import WireParsing

/// One fuzz target's harness: what both builds of the target run for each input.
///
/// A target's source declares libFuzzer's entry point, which must be a C symbol of the
/// executable itself, and, outside the fuzzer build, makes the harness its `@main`:
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzzDNS(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
///     DNSHarness.testOneInput(data, count)
/// }
///
/// #if !FUZZING
/// @main extension DNSHarness {}
/// #endif
/// ```
public protocol FuzzHarness {
    /// The product's name, as the replay's messages say it.
    static var name: String { get }

    /// Runs one input. A broken promise stops the run through `fuzzInvariant`.
    static func run(_ input: UnsafeRawBufferPointer)
}

extension FuzzHarness {
    /// libFuzzer's `LLVMFuzzerTestOneInput`: the input, then 0 (the input is never rejected
    /// from the corpus).
    public static func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        run(UnsafeRawBufferPointer(start: data, count: count))
        return 0
    }

    /// The replay build's entry point (`FuzzReplay`).
    public static func main() {
        FuzzReplay.main(name: name, harness: run)
    }
}

/// Checks the promise every wire parser makes about its errors: the offset lies in `range` (the
/// input's bytes, its end included, where "more was expected"), and the layer is one of
/// `layers` when they are named. The description is rendered too, so that its code runs.
public func fuzzCheck(
    _ error: DecodeError, within range: ClosedRange<Int>, layers: Set<DecodeError.Layer> = [],
    file: StaticString = #fileID, line: UInt = #line
) {
    fuzzInvariant(range.contains(error.offset), "error offset \(error.offset) outside \(range): \(error)", file: file, line: line)
    fuzzInvariant(layers.isEmpty || layers.contains(error.layer), "an error of layer \(error.layer), not \(layers.map(\.rawValue).sorted())", file: file, line: line)
    _ = error.description
}
