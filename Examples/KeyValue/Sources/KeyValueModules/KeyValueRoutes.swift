import HTTPTypes
import HiveKit
import Hummingbird

/// kvd's HTTP API. The handlers know no module: they reach the store and the response
/// policy through the service registry, count keys with the action `store.count`, and
/// snapshot through the route `hive://store/snapshot`.
///
/// | request | answer |
/// |---|---|
/// | `GET /kv/KEY` | 200 and the value, or 404 |
/// | `PUT /kv/KEY` (body: the value, at most 1 MiB) | 204 |
/// | `DELETE /kv/KEY` | 204, or 404 |
/// | `GET /stats` | 200 `{"keys":N}` |
/// | `POST /snapshot` | 204 once the snapshot is written |
///
/// Every answer carries `X-KV-Node` (the `responses` module's `node` setting).
struct KeyValueRoutes: Sendable {
    let services: ServiceRegistry
    let hiveRouter: HiveKit.Router
    let mediator: Mediator

    func makeRouter() -> Hummingbird.Router<BasicRequestContext> {
        let router = Hummingbird.Router()
        router.middlewares.add(NodeHeaderMiddleware(services: services))
        router.get("/kv/:key") { _, context -> Response in
            let key = try context.parameters.require("key")
            guard let value = try await store().value(for: key) else { return Response(status: .notFound) }
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: value)))
        }
        router.put("/kv/:key") { request, context -> HTTPResponse.Status in
            let key = try context.parameters.require("key")
            let body = try await request.body.collect(upTo: 1 << 20)
            try await store().set(String(buffer: body), for: key)
            return .noContent
        }
        router.delete("/kv/:key") { _, context -> HTTPResponse.Status in
            let key = try context.parameters.require("key")
            return try await store().remove(key) ? .noContent : .notFound
        }
        router.get("/stats") { _, _ -> String in
            let keys = try await mediator.perform(target: "store", action: "count", as: Int.self)
            return "{\"keys\":\(keys)}"
        }
        router.post("/snapshot") { _, _ -> HTTPResponse.Status in
            try await hiveRouter.open("hive://store/snapshot?reason=http") ? .noContent : .serviceUnavailable
        }
        return router
    }

    private func store() throws -> any KeyValueStore {
        try services.resolve(KeyValueStore.self)
    }
}

/// Adds `X-KV-Node` to every answer, from the ``ResponsePolicy`` service as it is now.
struct NodeHeaderMiddleware<Context: RequestContext>: RouterMiddleware {
    static var name: HTTPField.Name { HTTPField.Name("X-KV-Node")! }
    let services: ServiceRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let policy = try? services.resolve(ResponsePolicy.self) { response.headers[Self.name] = policy.node }
        return response
    }
}
