import Testing
@testable import HAPCatalog
