import Capture
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into a clean stop of a live capture: the analysis finishes,
/// open connections are summarised and the report is completed. A second signal ends the
/// process at once, for a user who does not want to wait.
///
/// The signals are blocked in every thread and taken by one thread that waits for them with
/// `sigwait(3)`, so no code runs in a signal handler: stopping is an ordinary call there.
enum StopSignals {
    /// Blocks SIGINT and SIGTERM and starts the thread that stops `stopper` when one arrives.
    /// Call before any other thread starts, so that they all inherit the mask.
    static func install(stopping stopper: CaptureStopper) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let context = Unmanaged.passRetained(Waiter(stopper: stopper, signals: signals)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let waiter = Unmanaged<Waiter>.fromOpaque(context!).takeRetainedValue()
            waiter.wait()
            return nil
        }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            // Without the thread, signals keep their default action: Ctrl-C ends the process
            // as it would without hapscope's help.
            Unmanaged<Waiter>.fromOpaque(context).release()
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }

    private final class Waiter {
        let stopper: CaptureStopper
        var signals: sigset_t

        init(stopper: CaptureStopper, signals: sigset_t) {
            self.stopper = stopper
            self.signals = signals
        }

        func wait() {
            var signal: Int32 = 0
            guard sigwait(&signals, &signal) == 0 else { return }
            stopper.stop()
            guard sigwait(&signals, &signal) == 0 else { return }
            // The conventional status of a process ended by a signal.
            _exit(128 + signal)
        }
    }
}
