// HAP: accessory category identifiers, the `ci` TXT key (HAP §7; data/categories.tsv in the
// shared fact sheet, merged from seven open-source implementations).

public enum HAPCatalog {
    /// The category an accessory advertises in its `ci` TXT key; nil when no source defines it.
    public static func categoryName(_ id: Int) -> String? {
        categoryNames[id]
    }

    private static let categoryNames: [Int: String] = [
        0: "Bridged accessory", 1: "Other", 2: "Bridge", 3: "Fan", 4: "Garage Door Opener",
        5: "Lightbulb", 6: "Door Lock", 7: "Outlet", 8: "Switch", 9: "Thermostat", 10: "Sensor",
        11: "Security System", 12: "Door", 13: "Window", 14: "Window Covering",
        15: "Programmable Switch", 16: "Range Extender", 17: "IP Camera", 18: "Video Doorbell",
        19: "Air Purifier", 20: "Heater", 21: "Air Conditioner", 22: "Humidifier",
        23: "Dehumidifier", 24: "Apple TV", 25: "HomePod", 26: "Speaker", 27: "AirPort",
        28: "Sprinkler", 29: "Faucet", 30: "Shower System", 31: "Television",
        32: "Remote Control", 33: "Wi-Fi Router", 34: "Audio Receiver", 35: "TV Set Top Box",
        36: "TV Streaming Stick",
    ]
}
