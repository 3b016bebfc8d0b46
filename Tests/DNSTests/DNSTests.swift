import Testing
@testable import DNS
