import Differences
import HAPJSON
import Testing

@Suite struct AccessoryTermsTests {
    private let database: JSONValue

    init() throws {
        database = try Corpus.json(try Corpus.expectedLines("bridge")[36])
    }

    @Test func aCharacteristicOfTheDatabaseRecordIsNamedByAidIidAndTypeName() throws {
        let path = FieldPath([.key("accessories"), .index(3), .key("services"), .index(1), .key("characteristics"), .index(0), .key("value")])
        let terms = try #require(AccessoryTerms(path: path, in: database, recordType: "accessory-database"))
        #expect(terms.element == .characteristic)
        #expect(terms.description == "4.9 On")
        #expect(terms.member == FieldPath([.key("value")]))
    }

    @Test func servicesAndAccessoriesAreNamedToo() throws {
        let service = FieldPath([.key("accessories"), .index(3), .key("services"), .index(1), .key("primary")])
        #expect(AccessoryTerms(path: service, in: database, recordType: "accessory-database")?.description == "service 4.8 Outlet")
        let accessory = FieldPath([.key("accessories"), .index(3), .key("name")])
        #expect(AccessoryTerms(path: accessory, in: database, recordType: "accessory-database")?.description == "accessory 4 Coffee Maker")
    }

    @Test func pathsOutsideTheAccessoriesHaveNoTerms() {
        #expect(AccessoryTerms(path: FieldPath([.key("packet")]), in: database, recordType: "accessory-database") == nil)
        #expect(AccessoryTerms(path: FieldPath([.key("accessories"), .index(99)]), in: database, recordType: "accessory-database") == nil)
    }

    @Test func aCharacteristicRecordNamesItself() throws {
        let record = try Corpus.json(try Corpus.expectedLines("bridge")[39])
        let terms = try #require(AccessoryTerms(path: FieldPath([.key("value")]), in: record, recordType: "characteristic"))
        #expect(terms.description == "4.9 On")
        #expect(AccessoryTerms(path: FieldPath([.key("time")]), in: record, recordType: "characteristic") == nil,
                "where and when the record happened is not the characteristic's")
    }

    @Test func wireJSONIsNamedFromTheCatalogueAndTheAccessoryInformation() throws {
        // HAP /accessories as an accessory sends it: no typeName, no accessory name.
        let wire = try Corpus.json(#"""
        {"accessories":[{"aid":1,"services":[
          {"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","value":"Lamp"}]},
          {"iid":8,"type":"00000043-0000-1000-8000-0026BB765291","characteristics":[{"iid":9,"type":"25","value":true},
           {"iid":10,"type":"ABCDEF01-0000-1000-8000-000000000000","description":"Vendor Thing"}]}]}]}
        """#)
        func terms(_ service: Int, _ characteristic: Int?) -> String? {
            var path = FieldPath([.key("accessories"), .index(0), .key("services"), .index(service)])
            if let characteristic { path = path.appending("characteristics").appending(characteristic) }
            return AccessoryTerms(path: path, in: wire, recordType: nil)?.description
        }
        #expect(terms(1, 0) == "1.9 On")
        #expect(terms(1, nil) == "service 1.8 Lightbulb")
        #expect(terms(1, 1) == "1.10 Vendor Thing")
        #expect(AccessoryTerms(path: FieldPath([.key("accessories"), .index(0)]), in: wire, recordType: nil)?.description == "accessory 1 Lamp")
    }

    @Test func aDumpsBareArrayIsADatabaseToo() throws {
        let dump = try Corpus.realDatabase("home_assistant_bridge_humidifier")
        let path = FieldPath([.index(1), .key("services"), .index(1), .key("characteristics"), .index(0)])
        #expect(AccessoryTerms(path: path, in: dump, recordType: nil) != nil)
    }
}
