import Testing
@testable import TCPReassembly
