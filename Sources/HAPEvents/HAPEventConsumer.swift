/// Receives the event stream: the model, the audit, every report and every export.
public protocol HAPEventConsumer: AnyObject {
    func consume(_ event: HAPEvent)
}

/// A consumer that hands every event to a closure: for tests, fuzzers and small tools that need
/// no state of their own.
public final class EventSink: HAPEventConsumer {
    private let handle: (HAPEvent) -> Void

    public init(_ handle: @escaping (HAPEvent) -> Void) {
        self.handle = handle
    }

    public func consume(_ event: HAPEvent) {
        handle(event)
    }
}
