/// What the completion writers need to write shell code safely, for bash and zsh alike.
enum ShellSyntax {
    /// `text` in single quotes, safe whatever it holds: `it's` → `'it'\''s'`.
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// `hap-scope` → `hap_scope`: a name either shell accepts for a function.
    static func identifier(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }
}
