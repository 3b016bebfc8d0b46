import Testing
@testable import TLV8
