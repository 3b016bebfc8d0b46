import Testing
@testable import DNS

@Suite struct ServiceTypeTests {
    @Test func splitsAServiceTypeIntoServiceTransportAndDomain() throws {
        let type = try #require(ServiceType(try dnsName("_hap._tcp.local")))
        #expect(type.subtype == nil)
        #expect(type.service == "_hap")
        #expect(type.transport == .tcp)
        #expect(type.domain == DNSName("local"))
        #expect(type.serviceAndTransport == "_hap._tcp")
        #expect(type.description == "_hap._tcp.local.")
    }

    @Test func readsASubtypeBeforeTheSubMarker() throws {
        let type = try #require(ServiceType(try dnsName("_L840._sub._matterc._udp.local")))
        #expect(type.subtypeText == "_L840")
        #expect(type.service == "_matterc")
        #expect(type.transport == .udp)
        #expect(type.withoutSubtype == ServiceType(service: "_matterc", transport: .udp, domain: try dnsName("local")))
        #expect(type.description == "_L840._sub._matterc._udp.local.")
    }

    @Test func matchesLabelsIgnoringCase() throws {
        let type = try #require(ServiceType(try dnsName("_HAP._TCP.local")))
        #expect(type.service == "_hap")
        #expect(type.transport == .tcp)
    }

    @Test func rejectsNamesThatAreNotServiceTypes() throws {
        #expect(ServiceType(try dnsName("local")) == nil)
        #expect(ServiceType(try dnsName("_hap._sctp.local")) == nil)
        #expect(ServiceType(try dnsName("hap._tcp.local")) == nil)
        #expect(ServiceType(try dnsName("_a-very-long-service-name._tcp.local")) == nil)
        #expect(ServiceType(try dnsName("Living\\032Room._hap._tcp.local")) == nil)
    }

    @Test func recognisesTheServiceTypeEnumerationName() throws {
        #expect(ServiceType.isServiceTypeEnumeration(try dnsName("_services._dns-sd._udp.local")))
        #expect(!ServiceType.isServiceTypeEnumeration(try dnsName("_hap._tcp.local")))
    }
}

@Suite struct ServiceInstanceNameTests {
    @Test func keepsDotsSpacesAndUTF8InsideTheInstanceLabel() throws {
        let name = try #require(DNSName(labels: [Array("Küche Lamp v1.2".utf8), Array("_hap".utf8), Array("_tcp".utf8),
                                                  Array("local".utf8)]))
        let instance = try #require(ServiceInstanceName(name))
        #expect(instance.instanceText == "Küche Lamp v1.2")
        #expect(instance.type.serviceAndTransport == "_hap._tcp")
        #expect(instance.type.domain == DNSName("local"))
        #expect(instance.description == #"K\195\188che\032Lamp\032v1\.2._hap._tcp.local."#)
    }

    @Test func rejectsServiceTypesAndHostNames() throws {
        #expect(ServiceInstanceName(try dnsName("_hap._tcp.local")) == nil)
        #expect(ServiceInstanceName(try dnsName("_L840._sub._matterc._udp.local")) == nil)
        #expect(ServiceInstanceName(try dnsName("Living-Room-Lamp.local")) == nil)
    }
}
