/// The step of a pairing procedure, carried in the State item (HAP: `kTLVType_State`).
///
/// Requests are odd (M1, M3, M5: controller to accessory), responses even.
public enum PairingState: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case m1 = 1
    case m2 = 2
    case m3 = 3
    case m4 = 4
    case m5 = 5
    case m6 = 6

    /// Whether the accessory sends this step (M2, M4, M6).
    public var isResponse: Bool { rawValue % 2 == 0 }

    /// `M1` … `M6`, as HAP names the steps.
    public var description: String { "M\(rawValue)" }
}
