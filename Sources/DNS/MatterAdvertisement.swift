/// What a Matter service instance in one mDNS message says: its role, the identity its
/// instance name carries, the subtypes it is browsable under and its TXT keys.
public struct MatterAdvertisement: Sendable, Hashable {
    public var role: MatterServiceRole
    /// For an operational instance, `<compressed fabric ID>-<node ID>`: the fabric part.
    public var compressedFabricID: UInt64?
    /// For an operational instance, the node ID on that fabric.
    public var nodeID: UInt64?
    /// The subtypes whose PTR records name this instance, in message order.
    public var subtypes: [MatterSubtype]
    /// The decoded TXT record, when the message carries one.
    public var txt: MatterServiceTXT?
    /// Problems with the instance name and subtypes. TXT problems are in `txt.diagnostics`;
    /// `allDiagnostics` lists both.
    public var diagnostics: [MatterDiagnostic]

    public init(
        role: MatterServiceRole, compressedFabricID: UInt64?, nodeID: UInt64?, subtypes: [MatterSubtype],
        txt: MatterServiceTXT?, diagnostics: [MatterDiagnostic]
    ) {
        self.role = role
        self.compressedFabricID = compressedFabricID
        self.nodeID = nodeID
        self.subtypes = subtypes
        self.txt = txt
        self.diagnostics = diagnostics
    }

    /// Decodes a Matter instance from its name, the PTR records that point to it and its TXT.
    /// `nameOffset` locates the instance name for diagnostics.
    public init(
        instance: ServiceInstanceName, role: MatterServiceRole, nameOffset: Int?, pointers: [ServicePointer],
        txt: ServiceTXT?
    ) {
        self.role = role
        diagnostics = []
        compressedFabricID = nil
        nodeID = nil
        if role == .operational {
            // connectedhomeip `ServiceNaming.cpp` MakeInstanceName: "%016X-%016X".
            let name = instance.instance
            if name.count == 33, name[16] == UInt8(ascii: "-"),
               let fabric = ASCIIText.hexNumber(name[..<16]), let node = ASCIIText.hexNumber(name[17...]) {
                compressedFabricID = fabric
                nodeID = node
            } else {
                diagnostics.append(
                    MatterDiagnostic(offset: nameOffset, kind: .operationalInstanceNameMalformed(instance.instanceText)))
            }
        }
        var subtypes: [MatterSubtype] = []
        for pointer in pointers {
            guard let label = pointer.serviceType?.subtype else { continue }
            let subtype = MatterSubtype(label: label)
            if case .other(let text) = subtype {
                diagnostics.append(MatterDiagnostic(offset: pointer.offset, kind: .unknownSubtype(text)))
            }
            subtypes.append(subtype)
        }
        self.subtypes = subtypes
        self.txt = txt.map { MatterServiceTXT($0, role: role) }
    }

    /// Name, subtype and TXT diagnostics together.
    public var allDiagnostics: [MatterDiagnostic] { diagnostics + (txt?.diagnostics ?? []) }
}
