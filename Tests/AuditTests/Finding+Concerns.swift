import HAPCore
import HAPEvents
import TestSupport

extension Finding {
    /// Whether the finding is about the connection whose controller is `client` (`ip:port`):
    /// its own connection, or one its evidence names.
    func concerns(client: String) -> Bool {
        connection?.controller.description == client || evidence.contains { $0.connection?.controller.description == client }
    }
}
