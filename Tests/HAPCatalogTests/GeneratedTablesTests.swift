import Testing
@testable import HAPCatalog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rows of `scripts/catalog/data/<name>`, split at tabs, without the header.
private func tableRows(_ name: String) throws -> [[String]] {
    // This file is Tests/HAPCatalogTests/GeneratedTablesTests.swift: the package root is two up.
    let directories = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
    let path = directories.joined(separator: "/") + "/scripts/catalog/data/" + name
    guard let handle = fopen(path, "rb") else { throw TableError(path: path) }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while case let count = fread(&chunk, 1, chunk.count, handle), count > 0 {
        bytes.append(contentsOf: chunk[..<count])
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    return lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
}

private struct TableError: Error {
    let path: String
}

/// The generated Swift tables say what the TSV data says (so `generate.sh` was run after the
/// last edit of the data, and reads every column it should).
@Suite struct GeneratedTablesTests {
    @Test func everyCharacteristicRowIsInTheTable() throws {
        let rows = try tableRows("characteristics.tsv")
        #expect(rows.count == 248)
        #expect(HAPCatalog.characteristics.count == rows.count)
        for row in rows {
            let type = try #require(HAPUUID(row[1]), "\(row[0])")
            let definition = try #require(HAPCatalog.characteristic(type), "\(row[0])")
            #expect(definition.type == HAPUUID(row[0]))
            #expect(definition.name == row[2])
            #expect(definition.format.wireName == row[3])
            #expect(definition.permissions.description == row[4])
            #expect(definition.unit?.wireName ?? "" == row[5])
            #expect(definition.minimumValue == Double(row[6]))
            #expect(definition.maximumValue == Double(row[7]))
            #expect(definition.stepValue == Double(row[8]))
            #expect(definition.maximumLength == Int(row[9]))
            #expect(definition.validValues.count + definition.validBits.count
                    == (row[10].isEmpty ? 0 : row[10].split(separator: ";").count) + (row[11].isEmpty ? 0 : row[11].split(separator: ";").count))
            #expect(definition.introduced ?? "" == row[12])
            #expect(definition.sourceDisagreements ?? "" == row[14])
        }
    }

    @Test func everyServiceRowIsInTheTable() throws {
        let rows = try tableRows("services.tsv")
        #expect(rows.count == 72)
        #expect(HAPCatalog.services.count == rows.count)
        for row in rows {
            let type = try #require(HAPUUID(row[1]), "\(row[0])")
            let definition = try #require(HAPCatalog.service(type), "\(row[0])")
            #expect(definition.name == row[2])
            #expect(definition.requiredCharacteristics.map(\.displayString).joined(separator: ",") == row[3])
            #expect(definition.optionalCharacteristics.map(\.displayString).joined(separator: ",") == row[5])
            #expect(definition.introduced ?? "" == row[7])
        }
    }

    @Test func everyCategoryRowHasAName() throws {
        let rows = try tableRows("categories.tsv")
        #expect(rows.count == 37)
        for row in rows {
            let id = try #require(Int(row[0]))
            let name = try #require(HAPCatalog.categoryName(id))
            #expect(row[1].hasPrefix(name))
        }
    }
}
