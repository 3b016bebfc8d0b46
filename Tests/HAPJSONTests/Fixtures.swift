/// Reads test fixtures from `Fixtures/` beside this file, so tests need no bundle resources.
enum Fixtures {
    static let directory: String = {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures"
    }()

    /// The bytes of `Fixtures/<name>`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try readFile(directory + "/" + name)
    }

    /// The names of the real accessory databases in `Fixtures/real-databases/`.
    static let realDatabaseNames: [String] = [
        "airversa_ap2", "aqara_e1", "aqara_switch", "arlo_baby", "connectsense", "ecobee3_lite",
        "ecobee3_no_sensors", "ecobee3_service_removed", "ecobee_501", "ecobee_occupancy", "eve_degree",
        "haa_fan", "haa_fan1", "haa_fan2", "home_assistant_bridge_basic_cover", "home_assistant_bridge_basic_fan",
        "home_assistant_bridge_basic_heater_cooler", "home_assistant_bridge_basic_light", "home_assistant_bridge_cover",
        "home_assistant_bridge_fan", "home_assistant_bridge_fan_one_removed", "home_assistant_bridge_heater_cooler",
        "home_assistant_bridge_humidifier", "home_assistant_bridge_humidifier_new_range", "home_assistant_bridge_light",
        "koogeek_p1eu", "koogeek_sw2", "lennox_e30", "mss425f", "mss565", "multi_valve_irrigation_control",
        "mysa_living", "netamo_doorbell", "netamo_smart_co_alarm", "ryse_smart_bridge", "ryse_smart_bridge_four_shades",
        "simpleconnect_fan", "somfy_venetian_blinds", "velux_active_netatmo_co2", "velux_window", "velux_window_cover",
        "vocolinc_vp3",
    ]

    static func realDatabase(_ name: String) throws -> [UInt8] {
        try bytes("real-databases/\(name).json")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole file, read with the C library so that the tests need no Foundation.
private func readFile(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw FixtureError(description: "cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        bytes.append(contentsOf: chunk[..<count])
        if count < chunk.count { break }
    }
    return bytes
}
