import Testing
@testable import HAPAnalysis
