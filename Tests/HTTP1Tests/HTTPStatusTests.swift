import HTTP1
import Testing

@Suite struct HTTPStatusTests {
    @Test func hapStatusCodesHaveTheirNames() {
        #expect(HTTPStatus.multiStatus.rawValue == 207)
        #expect(HTTPStatus.connectionAuthorizationRequired.rawValue == 470)
        #expect(HTTPStatus.connectionAuthorizationRequired.name == "Connection Authorization Required")
        #expect(HTTPStatus(rawValue: 207).description == "207 Multi-Status")
        #expect(HTTPStatus(rawValue: 418).name == nil)
        #expect(HTTPStatus(rawValue: 418).description == "418")
        let named: [HTTPStatus] = [
            .ok, .noContent, .multiStatus, .badRequest, .unauthorized, .notFound, .methodNotAllowed,
            .unprocessableEntity, .tooManyRequests, .connectionAuthorizationRequired, .internalServerError,
            .serviceUnavailable,
        ]
        #expect(named.allSatisfy { $0.name != nil })
    }

    @Test func informationalNoContentAndNotModifiedForbidABody() {
        #expect(HTTPStatus(rawValue: 100).forbidsBody)
        #expect(HTTPStatus(rawValue: 199).forbidsBody)
        #expect(HTTPStatus.noContent.forbidsBody)
        #expect(HTTPStatus.notModified.forbidsBody)
        #expect(!HTTPStatus.ok.forbidsBody)
        #expect(!HTTPStatus.multiStatus.forbidsBody)
        #expect(!HTTPStatus.connectionAuthorizationRequired.forbidsBody)
    }
}
