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
/// waits for something. Unbounded by itself: what bounds it is the run's window of units in
/// flight (`ThreadedShards.Batching.windowUnits`).
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

    /// Everything waiting, perhaps nothing; never waits.
    func takeAllIfAny() -> [Element] {
        monitor.withLock {
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }
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
