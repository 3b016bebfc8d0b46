import Testing
@testable import HAPCrypto
