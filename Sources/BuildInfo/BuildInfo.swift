/// What a build of hapscope is: the version, and the commit it was built from.
public enum BuildInfo {
    public static let version = "0.1.0"

    /// The short hash of the commit the build was made from, or "unknown" when it was made outside
    /// a git checkout (a source tarball). `buildCommit` is written by the BuildCommit plugin before
    /// every build (Plugins/BuildCommit).
    public static let commit = buildCommit
}
