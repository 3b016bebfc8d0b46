import Testing
@testable import HAPJSON
