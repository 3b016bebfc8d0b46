/// One service instance as a consumer of an mDNS message wants it: where it listens, what
/// its TXT record says, the addresses of its host, and the PTR records that point to it.
///
/// Everything comes from one message; a field is nil when that message does not carry the
/// record (an answer to a TXT query has no SRV, for example).
public struct ServiceAdvertisement: Sendable, Hashable {
    /// The full instance name, as the SRV and TXT records own it.
    public var name: DNSName
    /// The name split into instance label and service type.
    public var instance: ServiceInstanceName
    /// The PTR records of the message that point to this instance: the service type and any
    /// subtypes it is browsable under.
    public var pointers: [ServicePointer]
    /// The SRV data: target host and port.
    public var location: DNSServiceLocation?
    public var locationTTL: UInt32?
    /// The TXT record as DNS-SD key/value pairs.
    public var txt: ServiceTXT?
    public var txtTTL: UInt32?
    /// The A and AAAA records of the SRV target found anywhere in the message.
    public var addresses: [AdvertisedAddress]
    /// The TXT record decoded as HAP's, for `_hap._tcp` and `_hap._udp`.
    public var hap: HAPServiceTXT?
    /// The instance decoded as Matter's, for `_matter._tcp`, `_matterc._udp` and
    /// `_matterd._udp`.
    public var matter: MatterAdvertisement?
    /// Offset of the first record of the message that concerns this instance.
    public var offset: Int

    public init(
        name: DNSName, instance: ServiceInstanceName, pointers: [ServicePointer] = [], location: DNSServiceLocation? = nil,
        locationTTL: UInt32? = nil, txt: ServiceTXT? = nil, txtTTL: UInt32? = nil, addresses: [AdvertisedAddress] = [],
        hap: HAPServiceTXT? = nil, matter: MatterAdvertisement? = nil, offset: Int
    ) {
        self.name = name
        self.instance = instance
        self.pointers = pointers
        self.location = location
        self.locationTTL = locationTTL
        self.txt = txt
        self.txtTTL = txtTTL
        self.addresses = addresses
        self.hap = hap
        self.matter = matter
        self.offset = offset
    }

    public var serviceType: ServiceType { instance.type }

    /// The subtype labels of the PTR records that point here (RFC 6763 §7.1).
    public var subtypes: [[UInt8]] { pointers.compactMap { $0.serviceType?.subtype } }

    /// Every PTR, SRV and TXT record of the instance in the message has TTL zero: the
    /// instance is leaving (RFC 6762 §10.1).
    public var isGoodbye: Bool {
        let ttls = pointers.map(\.ttl) + [locationTTL, txtTTL].compactMap { $0 }
        return !ttls.isEmpty && ttls.allSatisfy { $0 == 0 }
    }
}
