/// Sees every packet a run reads, before and after the analysis of it: for consumers that
/// rebuild the capture (the decrypted copy), which need each packet's bytes as well as the
/// events its analysis produced in between.
public protocol CapturedPacketObserver: AnyObject {
    /// `packet` is about to be analysed; its bytes are valid until `packetEnded`.
    func packetBegan(_ packet: CapturedPacket)
    /// The analysis of the packet is done.
    func packetEnded()
}
