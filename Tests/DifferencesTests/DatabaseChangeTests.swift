import Differences
import HAPJSON
import Testing

@Suite struct DatabaseChangeTests {
    private let lamp = AccessoryTerms(element: .characteristic, aid: "2", iid: "9", name: "On", member: .root)
    private let service = AccessoryTerms(element: .service, aid: "2", iid: "8", name: "Lightbulb", member: .root)

    @Test func aChangeListsItsMembersBelowTheElement() {
        let path = FieldPath([.key("accessories"), .index(1), .key("services"), .index(1), .key("characteristics"), .index(0)])
        let change = DatabaseChange(
            kind: .changed, element: .characteristic, old: lamp, new: lamp, oldPath: path, newPath: path, service: service,
            differences: [
                JSONDifference(kind: .changed, oldPath: path.appending("value"), newPath: path.appending("value"), old: .bool(true), new: .bool(false)),
                JSONDifference(kind: .added, oldPath: nil, newPath: path.appending("unit"), old: nil, new: .string("celsius")),
            ])
        #expect(change.description == #"2.9 On (service 2.8 Lightbulb): value: true → false; unit added: "celsius""#)
    }

    @Test func aRenumberedElementShowsBothNumbersAndWhatElseChanged() {
        let renumbered = AccessoryTerms(element: .characteristic, aid: "2", iid: "19", name: "On", member: .root)
        let oldPath = FieldPath([.key("accessories"), .index(1)])
        let change = DatabaseChange(
            kind: .renumbered, element: .characteristic, old: lamp, new: renumbered, oldPath: oldPath, newPath: oldPath,
            differences: [JSONDifference(kind: .removed, oldPath: oldPath.appending("ev"), newPath: nil, old: .bool(true), new: nil)])
        #expect(change.description == "2.9 → 2.19 On renumbered; ev removed: true")
    }

    @Test func addedAndRemovedElementsAreNamedOnTheirSide() {
        let accessory = AccessoryTerms(element: .accessory, aid: "5", iid: nil, name: "Fan", member: .root)
        #expect(DatabaseChange(kind: .added, element: .accessory, old: nil, new: accessory, oldPath: nil, newPath: .root).description == "accessory 5 Fan added")
        #expect(DatabaseChange(kind: .removed, element: .accessory, old: accessory, new: nil, oldPath: .root, newPath: nil).description == "accessory 5 Fan removed")
    }
}
