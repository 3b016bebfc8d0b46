# Helpers shared by the catalogue generators: Swift literals from TSV cells.

BEGIN { FS = "\t" }

function fail(message) {
    printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
    failed = 1
    exit 1
}

# A Swift string literal.
function swift_string(text) {
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    return "\"" text "\""
}

# A Swift optional string literal: nil for an empty cell.
function optional_string(text) {
    return text == "" ? "nil" : swift_string(text)
}

# A Swift HAPUUID expression for a short (`3E`) or full (`0000003E-0000-1000-8000-0026BB765291`) type.
function swift_uuid(text,    hex) {
    if (text ~ /^[0-9A-F]+$/ && length(text) <= 8)
        return "HAPUUID(appleDefined: 0x" text ")"
    if (text ~ /^[0-9A-F]+-0000-1000-8000-0026BB765291$/ && length(text) == 36) {
        hex = substr(text, 1, 8)
        sub(/^0+/, "", hex)
        return "HAPUUID(appleDefined: 0x" (hex == "" ? "0" : hex) ")"
    }
    # Interval expressions ({8}) are missing from some awks, so the dashes are checked by position.
    if (length(text) != 36 || text !~ /^[0-9A-F-]+$/ || substr(text, 9, 1) substr(text, 14, 1) \
        substr(text, 19, 1) substr(text, 24, 1) != "----" || gsub(/-/, "-", text) != 4)
        fail("not an upper-case UUID: " text)
    hex = text
    gsub(/-/, "", hex)
    return "HAPUUID(high: 0x" substr(hex, 1, 16) ", low: 0x" substr(hex, 17, 16) ")"
}

# A Swift list of HAPUUIDs from comma-separated types.
function swift_uuid_list(text,    parts, count, i, result) {
    if (text == "") return "[]"
    count = split(text, parts, ",")
    result = ""
    for (i = 1; i <= count; i++)
        result = result (i > 1 ? ", " : "") swift_uuid(parts[i])
    return "[" result "]"
}

# A Swift optional number literal: nil for an empty cell.
function optional_number(text) {
    if (text == "") return "nil"
    if (text !~ /^-?[0-9]+(\.[0-9]+)?$/) fail("not a decimal number: " text)
    return text
}
