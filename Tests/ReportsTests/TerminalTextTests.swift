import HAPCore
import HAPEvents
@testable import Reports
import Testing
import TestSupport

@Suite("Terminal text")
struct TerminalTextTests {
    @Test("printable text passes unchanged, Unicode included")
    func printable() {
        #expect(TerminalText.sanitized("Living Room Lamp ✓ °C") == "Living Room Lamp ✓ °C")
    }

    @Test("escape sequences from the capture are shown, not obeyed")
    func escapes() {
        // An accessory name that would clear the screen and retitle the window.
        let hostile = "Lamp\u{1B}[2J\u{1B}]0;owned\u{07}"
        let shown = TerminalText.sanitized(hostile)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 })
        #expect(shown == "Lamp\\u{1B}[2J\\u{1B}]0;owned\\u{07}")
    }

    @Test("C1 controls and DEL are escaped too: some terminals read U+009B as CSI")
    func c1Controls() {
        #expect(TerminalText.sanitized("a\u{9B}31mb\u{7F}") == "a\\u{9B}31mb\\u{7F}")
    }

    @Test("color wraps text in SGR sequences only when asked")
    func style() {
        #expect(TextStyle.plain.paint("ok", .good) == "ok")
        #expect(TextStyle.colored.paint("ok", .good) == "\u{1B}[32mok\u{1B}[0m")
        #expect(TextStyle.colored.paint("", .good) == "")
    }
}
