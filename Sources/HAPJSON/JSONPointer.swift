/// RFC 6901 JSON Pointers, the form diagnostics use to say where in a document they apply.
public enum JSONPointer {
    /// `path` extended by one object key, escaped as RFC 6901 §3 requires (`~` → `~0`, `/` → `~1`).
    public static func appending(_ key: String, to path: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return path + "/" + key
        }
        var escaped = ""
        for character in key.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return path + "/" + escaped
    }

    /// `path` extended by one array index.
    public static func appending(_ index: Int, to path: String) -> String {
        path + "/" + String(index)
    }
}
