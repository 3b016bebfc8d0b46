#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with its condition variable, wrapped once: the one blocking primitive of the
/// threads of a sharded run (`ThreadedShards`). Allocated, not stored inline, so that the C
/// objects never move.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits for a `broadcast`; call it holding the lock (inside `withLock`), in a loop over the
    /// condition waited for.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// A queue between two threads: one pushes chunks, the other takes everything waiting, or
/// waits for something. Unbounded by itself: what bounds it is the run's window of handoffs in
/// flight (`HandoffWindow`).
final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    private let monitor = Monitor()
    // Guarded by `monitor`: that is what makes the class Sendable.
    private var items: [Element] = []

    func push(_ chunk: [Element]) {
        guard !chunk.isEmpty else { return }
        monitor.withLock {
            items.append(contentsOf: chunk)
            monitor.broadcast()
        }
    }

    /// Everything waiting, at least one element.
    func takeAll() -> [Element] {
        monitor.withLock {
            while items.isEmpty { monitor.wait() }
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }
}

/// How much of the reader's work is shipped and not merged yet, in units (a call, and a unit
/// per 512 bytes it carries): the reader waits above `limit` until the merger has brought it
/// down to half (so that the two do not wake each other for every chunk), the merger frees what
/// it replayed, so that memory stays bounded however far the reader could run ahead. It cannot
/// deadlock: the reader waits only after it has pushed everything it shipped (shard calls first,
/// then its log), shards never wait on anything but their input, and the merger needs only what
/// was pushed.
final class HandoffWindow: @unchecked Sendable {
    private let monitor = Monitor()
    private let limit: Int
    // Guarded by `monitor`.
    private var inFlight = 0
    private var readerWaits = false
    private var stopped = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds `units` shipped; above the limit, waits until half of it is left (or the run stopped).
    func add(_ units: Int) {
        monitor.withLock {
            inFlight += units
            guard inFlight > limit else { return }
            readerWaits = true
            while inFlight > limit / 2, !stopped { monitor.wait() }
            readerWaits = false
        }
    }

    func remove(_ units: Int) {
        monitor.withLock {
            inFlight -= units
            if readerWaits, inFlight <= limit / 2 { monitor.broadcast() }
        }
    }

    /// The merger found a conflict: the reader stops at its next packet.
    func stop() {
        monitor.withLock {
            stopped = true
            monitor.broadcast()
        }
    }

    var isStopped: Bool { monitor.withLock { stopped } }
}

/// A thread running `body`, joined once.
final class WorkerThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var thread = pthread_t()

    /// Nil when the system will not start another thread (`pthread_create` failed).
    init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body))
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context.toOpaque())
        guard status == 0 else {
            context.release()
            return nil
        }
    }

    func join() {
        pthread_join(thread, nil)
    }
}
