import DNS
import FuzzSupport
import WireParsing

/// Fuzz target: one UDP payload through the DNS/mDNS decoder, the DNS-SD reading of it
/// (`DiscoveryMessage`), and the HAP and Matter TXT readers.
///
/// Every TXT record of the message is also read as a HAP TXT record (both transports) and as the
/// TXT record of each Matter role, whatever its owner name, so that mutations of a recorded
/// advertisement reach every TXT key's reader.
///
/// Besides not crashing, the decoder must keep its documented promise that strictness only turns
/// diagnostics into errors: a message the strict decode accepts decodes leniently to the same
/// message without diagnostics, and one the lenient decode rejects, the strict decode rejects.
enum DNSHarness: FuzzHarness {
    static let name = "FuzzDNS"

    static let matterRoles: [MatterServiceRole] = [.operational, .commissionable, .commissioner]

    static func run(_ input: UnsafeRawBufferPointer) {
        let lenient: DNSMessage?
        do {
            lenient = try DNSMessage(parsing: input)
        } catch {
            fuzzCheck(error, within: 0 ... input.count, layers: [.dns])
            lenient = nil
        }
        do {
            let strict = try DNSMessage(parsing: input, options: DNSDecodingOptions(isStrict: true))
            fuzzInvariant(lenient == strict, "the strict and lenient decodes of a valid message differ")
            fuzzInvariant(strict.diagnostics.isEmpty, "a strict decode has diagnostics")
        } catch {
            fuzzCheck(error, within: 0 ... input.count, layers: [.dns])
        }
        guard let lenient else { return }

        for diagnostic in lenient.diagnostics { _ = diagnostic.description }
        for question in lenient.questions { _ = question.name.description }
        for record in lenient.records {
            _ = record.name.description
            guard case .text(let strings) = record.data else { continue }
            let txt = ServiceTXT(strings, dataOffset: record.dataOffset)
            for transport in [ServiceType.Transport.tcp, .udp] {
                let hap = HAPServiceTXT(txt, transport: transport)
                for diagnostic in hap.diagnostics { _ = diagnostic.description }
            }
            for role in matterRoles {
                let matter = MatterServiceTXT(txt, role: role)
                for diagnostic in matter.diagnostics { _ = diagnostic.description }
            }
        }

        let discovery = DiscoveryMessage(lenient)
        for diagnostic in discovery.diagnostics { _ = diagnostic.description }
        for service in discovery.services {
            _ = service.name.description
            _ = service.serviceType.description
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNS(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    DNSHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension DNSHarness {}
#endif
