import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A request to end a live capture, raised from any thread or from a signal handler.
///
/// It is a flag the reading loop checks between packets, and a pipe whose read end the loop
/// polls beside the capture socket, so that raising it wakes a loop waiting for traffic (the
/// self-pipe trick). An atomic store and `write(2)` are both async-signal-safe.
final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Readable once the request is raised.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() throws(CFile.Failure) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw CFile.Failure(code: errno) }
        for descriptor in descriptors {
            // Non-blocking so that raising it many times can never block a signal handler.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    var isRaised: Bool { flag.load(ordering: .acquiring) }

    func raise() {
        flag.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }
}
