import Testing
@testable import hapbench
