import HAPCore
import HAPEvents
@testable import Reports
import Testing
import TestSupport

@Suite struct HTMLWriterTests {
    private func escaped(_ text: String) -> String {
        var html = HTMLWriter()
        html.text(text)
        return html.output
    }

    @Test func theFiveMarkupCharactersAreEscapedInText() {
        #expect(escaped(#"<script>alert("x") & 'y'</script>"#)
            == "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;")
    }

    @Test func plainTextAndOtherUnicodeAreKeptAsTheyAre() {
        #expect(escaped("Living Room Sensor 4D5E6F") == "Living Room Sensor 4D5E6F")
        #expect(escaped("Küche 22.5 °C · 温度") == "Küche 22.5 °C · 温度")
        #expect(escaped("two\tcolumns\nand lines") == "two\tcolumns\nand lines")
    }

    @Test func controlCharactersShowAsTheirControlPictures() {
        #expect(escaped("Desk\u{07}Lamp\u{00}\u{7F}") == "Desk\u{2407}Lamp\u{2400}\u{2421}")
        #expect(escaped("a\rb") == "a\u{240D}b")
    }

    @Test func bidirectionalOverridesAreShownInsteadOfReorderingText() {
        #expect(escaped("abc\u{202E}fdp.exe") == "abc⟨U+202E⟩fdp.exe")
        #expect(escaped("\u{2066}x\u{2069}") == "⟨U+2066⟩x⟨U+2069⟩")
    }

    @Test func attributeValuesAreEscapedAndKeepTheirOrder() {
        var html = HTMLWriter()
        html.open("span", ["class": "chip", "title": #"a"b<c>"#])
        html.close("span")
        #expect(html.output == #"<span class="chip" title="a&quot;b&lt;c&gt;"></span>"#)
    }

    @Test func elementsNestInTheOrderTheyAreWritten() {
        var html = HTMLWriter()
        html.element("p", ["class": "note"]) { html in
            html.text("1 < 2 ")
            html.element("code", text: "&")
        }
        #expect(html.output == #"<p class="note">1 &lt; 2 <code>&amp;</code></p>"#)
    }

    @Test func markupIsWrittenVerbatimBecauseOnlyLiteralsCanBeMarkup() {
        var html = HTMLWriter()
        html.markup("<br>")
        #expect(html.output == "<br>")
    }
}
