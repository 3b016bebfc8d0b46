import HAPEvents
import HAPCrypto
import HAPJSON

/// The report's only style sheet, and the policy that keeps the document self-contained.
enum HTMLStyleSheet {
    /// No script runs, nothing is fetched, no form posts and no `<base>` redirects links: the only
    /// thing the document may use is this style sheet, named by its hash so that no injected
    /// `<style>` or `style` attribute applies either. (CSP Level 3 §2.3.1, hash-source; directives
    /// a `<meta>` policy ignores, such as `frame-ancestors`, are left out because browsers warn
    /// about them in the console.)
    static let contentSecurityPolicy =
        "default-src 'none'; style-src '\(hashSource)'; base-uri 'none'; form-action 'none'"

    /// `sha512-<base64>` of the style element's content.
    private static let hashSource: String = css.withUTF8Buffer { bytes in
        var hasher = SHA512()
        hasher.update(UnsafeRawBufferPointer(bytes))
        return "sha512-" + Base64.encode(hasher.finalize())
    }

    /// Light and dark through `prefers-color-scheme`, and a print layout that unfolds every
    /// `<details>` and keeps diagrams whole on a page.
    static let css: StaticString = """

        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1d2127; --muted: #5c6470; --border: #d8dde4; --panel: #f5f7fa;
          --head: #eef1f5; --accent: #0b62c4; --ok: #1a7f37; --bad: #c62828; --warn: #9a6100;
          --info: #3b6fb6; --changed: #fff1b8; --controller: #0b62c4; --accessory: #7b3fd0;
          --plot: #0b62c4; --grid: #e3e7ec;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0f1217; --fg: #e4e7eb; --muted: #98a1ac; --border: #2d333d; --panel: #161a21;
            --head: #1c212a; --accent: #6cb0ff; --ok: #4cc265; --bad: #ff6e6e; --warn: #e0a534;
            --info: #7aa7e6; --changed: #4a3b00; --controller: #6cb0ff; --accessory: #b48cff;
            --plot: #6cb0ff; --grid: #262c35;
          }
        }
        * { box-sizing: border-box; }
        body {
          margin: 0; background: var(--bg); color: var(--fg);
          font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif;
        }
        header, main, footer { max-width: 1180px; margin: 0 auto; padding: 0 24px; }
        header { padding-top: 20px; border-bottom: 1px solid var(--border); }
        h1 { font-size: 24px; margin: 0 0 2px; overflow-wrap: anywhere; }
        h2 { font-size: 19px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--border); }
        h3 { font-size: 15px; margin: 20px 0 8px; }
        p { margin: 6px 0; }
        a { color: var(--accent); }
        code, .mono, td.num, .pkt { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 12.5px; }
        .subtitle, .muted, .note { color: var(--muted); }
        .note { font-style: italic; }
        nav { display: flex; flex-wrap: wrap; gap: 4px 18px; padding: 10px 0 12px; }
        nav a { text-decoration: none; font-weight: 600; }
        footer { color: var(--muted); font-size: 12px; border-top: 1px solid var(--border); margin-top: 40px; padding-bottom: 24px; }
        table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
        th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--border); overflow-wrap: anywhere; }
        th { background: var(--head); font-weight: 600; font-size: 12.5px; white-space: nowrap; overflow-wrap: normal; }
        table.compact { width: auto; min-width: 40%; }
        table.characteristics { table-layout: fixed; }
        table.characteristics th:nth-child(1) { width: 5%; }
        table.characteristics th:nth-child(2) { width: 21%; }
        table.characteristics th:nth-child(3) { width: 7%; }
        table.characteristics th:nth-child(4) { width: 5%; }
        table.characteristics th:nth-child(5) { width: 10%; }
        table.characteristics th:nth-child(6) { width: 17%; }
        table.characteristics th:nth-child(7) { width: 15%; }
        table.characteristics th:nth-child(8) { width: 20%; }
        table.evidence { table-layout: fixed; }
        table.evidence th:nth-child(1) { width: 9%; }
        table.evidence th:nth-child(2) { width: 10%; }
        table.evidence th:nth-child(3) { width: 31%; }
        tbody tr:nth-child(even) td { background: var(--panel); }
        td.num, th.num { text-align: right; white-space: nowrap; }
        td.pkt, td.mono, td.kind { white-space: nowrap; }
        td.wrap { white-space: normal; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(125px, 1fr)); gap: 10px; margin: 10px 0 16px; }
        .card { border: 1px solid var(--border); border-radius: 8px; padding: 8px 12px; background: var(--panel); }
        .card .figure { font-size: 22px; font-weight: 650; }
        .card .label { color: var(--muted); font-size: 12px; }
        .ok { color: var(--ok); }
        .bad { color: var(--bad); }
        .warn { color: var(--warn); }
        .badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 11.5px; font-weight: 650;
          border: 1px solid currentColor; white-space: nowrap; }
        .sev-high { color: var(--bad); }
        .sev-medium { color: var(--warn); }
        .sev-low { color: var(--info); }
        .sev-info { color: var(--muted); }
        details { margin: 4px 0; }
        details > summary { cursor: pointer; padding: 3px 0; }
        details.accessory { border: 1px solid var(--border); border-radius: 8px; padding: 4px 12px; margin: 8px 0; }
        details.accessory > summary { font-weight: 600; }
        details.service { margin-left: 14px; }
        details.service > summary { font-weight: 600; color: var(--muted); }
        details.service > summary .name { color: var(--fg); }
        details.service > summary .identity { font-weight: 400; }
        .plots { display: grid; grid-template-columns: repeat(auto-fill, minmax(470px, 1fr)); gap: 0 14px; }
        .ladder-block, .plot-block, .finding { border: 1px solid var(--border); border-radius: 8px; padding: 8px 14px; margin: 12px 0; }
        .ladder-block h3, .plot-block h3, .finding h3 { margin-top: 4px; }
        svg { display: block; max-width: 100%; height: auto; font-family: inherit; }
        svg text { fill: var(--fg); font-size: 12px; }
        svg .muted { fill: var(--muted); }
        svg .ok { fill: var(--ok); }
        svg .bad { fill: var(--bad); }
        svg .lane { stroke: var(--border); stroke-width: 2; }
        svg .lane-head { fill: var(--panel); stroke: var(--border); }
        svg .controller { fill: var(--controller); font-weight: 650; }
        svg .accessory { fill: var(--accessory); font-weight: 650; }
        svg .arrow { stroke: var(--fg); stroke-width: 1.6; fill: none; }
        svg .arrow-head { fill: var(--fg); }
        svg .error .arrow { stroke: var(--bad); }
        svg .error .arrow-head, svg .error text { fill: var(--bad); }
        svg .step { font-weight: 650; }
        svg .axis { stroke: var(--muted); stroke-width: 1; }
        svg .grid { stroke: var(--grid); stroke-width: 1; }
        svg .series { stroke: var(--plot); stroke-width: 2; fill: none; }
        svg .plot-point { fill: var(--plot); stroke: var(--bg); stroke-width: 1; }
        svg .plot-point.write { fill: var(--accessory); }
        svg .plot-point.slow { fill: var(--bad); }
        svg .event-tick { stroke: var(--plot); stroke-width: 1.5; }
        svg .event-tick.burst { stroke: var(--bad); }
        svg .threshold { stroke: var(--bad); stroke-width: 1; stroke-dasharray: 4 3; }
        ul.checks { list-style: none; padding-left: 0; margin: 6px 0; }
        ul.checks li { padding: 1px 0; }
        .chips { display: flex; flex-wrap: wrap; gap: 3px 5px; }
        .chip { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; padding: 0 5px;
          border: 1px solid var(--border); border-radius: 4px; white-space: nowrap; }
        .chip.same { color: var(--muted); }
        .chip.changed, .changed { background: var(--changed); color: var(--fg); }
        .old { text-decoration: line-through; color: var(--muted); }
        .finding.finding-high { border-left: 5px solid var(--bad); }
        .finding.finding-medium { border-left: 5px solid var(--warn); }
        .finding.finding-low { border-left: 5px solid var(--info); }
        .finding.finding-info { border-left: 5px solid var(--muted); }
        .finding .rule { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; color: var(--muted); }
        .finding .party { font-size: 12px; color: var(--muted); }
        @media print {
          :root {
            --bg: #ffffff; --fg: #000000; --muted: #4a4f57; --border: #bfc5cd; --panel: #f3f4f6; --head: #e9ecf0;
            --changed: #fff1b8; --grid: #e3e7ec;
          }
          body { font-size: 10.5pt; }
          header, main, footer { max-width: none; padding: 0; }
          nav { display: none; }
          a { color: inherit; text-decoration: none; }
          details::details-content { content-visibility: visible; display: block; }
          details > summary { list-style: none; }
          h2 { break-after: avoid; }
          tr, svg, .finding, .ladder-block, .plot-block, .card { break-inside: avoid; }
        }

        """
}
