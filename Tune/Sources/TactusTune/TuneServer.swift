import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TactusCore
import TactusFiles
import TactusPresets
import TactusPlatform
import Dispatch

/// The HTTP side of `tactus tune` (Hummingbird on 127.0.0.1 only): the page and its assets,
/// and a small JSON API over a `TuneSession`. Every request passes `TuneAccess` first; no
/// request path names a file: sounds are addressed by index, assets are compiled in.
public struct TuneServer: Sendable {
    /// The sounds and presets the page works on.
    public let session: TuneSession
    /// Who may talk to the server.
    public let access: TuneAccess
    /// The port asked for; 0 lets the system choose a free one.
    public let requestedPort: Int

    /// - Parameters:
    ///   - session: the sounds and presets served.
    ///   - port: the port on 127.0.0.1; 0 lets the system choose.
    ///   - token: the run's token.
    public init(session: TuneSession, port: Int, token: String = TuneAccess.makeToken()) {
        self.session = session
        access = TuneAccess(token: token)
        requestedPort = port
    }

    /// Serves until the task is cancelled, or (when `handlingSignals`) until SIGINT or
    /// SIGTERM; requests in progress are finished first.
    /// - Parameter onReady: called once listening, with the page's URL (token included).
    /// - Throws: when the port cannot be listened on.
    /// - Parameter handlingSignals: whether SIGINT and SIGTERM stop the server.
    public func run(handlingSignals: Bool, onReady: @escaping @Sendable (String) -> Void) async throws {
        let served = ServedPort()
        let router = Router()
        router.add(middleware: Guard(access: access, served: served))
        addRoutes(to: router)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: requestedPort), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? requestedPort
                served.set(port)
                onReady("http://127.0.0.1:\(port)/?token=\(access.token)")
            },
            logger: Logger(label: "tactus.tune", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.runService(gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [])
    }

    private func addRoutes(to router: Router<BasicRequestContext>) {
        let session = self.session, token = access.token
        router.get("/") { _, _ in
            Self.reply(TunePage.html(token: token), type: "text/html; charset=utf-8")
        }
        router.get("/tune.js") { _, _ in Self.reply(TunePageAssets.script + "\n", type: "text/javascript; charset=utf-8") }
        router.get("/tune-values.js") { _, _ in Self.reply(TunePageAssets.values + "\n", type: "text/javascript; charset=utf-8") }
        router.get("/tune.css") { _, _ in Self.reply(TunePageAssets.style + "\n", type: "text/css; charset=utf-8") }
        router.get("/api/state") { _, _ in try Self.json { try session.state() } }
        router.post("/api/parameters") { request, _ in
            let body = try await Self.body(request)
            return try Self.json { try session.parameters(try TuneSettings(json: body, base: session.base)) }
        }
        router.post("/api/preset") { request, _ in
            let body = try await Self.body(request)
            return try Self.json {
                guard let name = body["name"]?.string, (try? TuneSettings.namePattern.wholeMatch(in: name)) != nil else {
                    throw TuneRequestError("name must be a preset name (letters, digits, - or _)")
                }
                return .object([("set", try session.values(ofPreset: name))])
            }
        }
        router.post("/api/render") { request, _ in
            let body = try await Self.body(request)
            return try Self.json {
                try session.render(try TuneSettings(json: body, base: session.base), sounds: try Self.indices(body["sounds"]),
                                   target: try Self.target(body["target"]))
            }
        }
        router.get("/api/sounds/:index/audio") { _, context in
            let index = try context.parameters.require("index", as: Int.self)
            return try Self.answer { Self.reply(try session.originalAudio(index), type: "audio/wav") }
        }
        router.post("/api/haptics-audio") { request, _ in
            let body = try await Self.body(request)
            return try Self.answer {
                let settings = try TuneSettings(json: body, base: session.base)
                return Self.reply(try session.hapticAudio(settings, sound: try Self.index(body["sound"]), target: try Self.target(body["target"])),
                                  type: "audio/wav")
            }
        }
        router.post("/api/export") { request, _ in
            let body = try await Self.body(request)
            return try Self.json {
                let settings = try TuneSettings(json: body, base: session.base)
                let formats = body["formats"].flatMap(\.stringArray) ?? []
                let files = try session.export(settings, sound: try Self.index(body["sound"]), formats: formats)
                return .object([("files", .array(files.map { .string($0) }))])
            }
        }
        router.post("/api/save") { request, _ in
            let body = try await Self.body(request)
            return try Self.json {
                let settings = try TuneSettings(json: body, base: session.base)
                let target: TuneSession.SaveTarget
                switch body["target"]?.string {
                case "preset": target = .newPreset
                case "folder": target = .folder(try Self.index(body["folder"]))
                case "base": target = .base
                default: throw TuneRequestError("target must be \"preset\", \"folder\" or \"base\"")
                }
                return .object([("path", .string(try session.save(settings, to: target)))])
            }
        }
        router.post("/api/sounds") { request, _ in
            let bytes = try await request.body.collect(upTo: TuneLimits.maxDroppedBytes)
            // The page sends the name percent-encoded (a header holds ASCII only).
            let encoded: String = request.headers[HTTPField.Name("X-Tactus-Name")!] ?? ""
            let name = Self.percentDecoded(encoded)
            return try Self.json { try session.add(Data(bytes.readableBytesView), name: name) }
        }
    }

    // MARK: Requests and answers

    private static func body(_ request: Request) async throws -> JSONValue {
        let buffer = try await request.body.collect(upTo: TuneLimits.maxRequestBytes)
        do { return try JSONReader.parse(Data(buffer.readableBytesView)) } catch {
            throw HTTPError(.badRequest, message: "\(error)")
        }
    }

    /// `%XX` sequences as the UTF-8 bytes they stand for (malformed ones kept as they are),
    /// invalid UTF-8 replaced.
    static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
               let byte = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                decoded.append(byte)
                i += 3
            } else {
                decoded.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func index(_ value: JSONValue?) throws -> Int {
        guard let n = value?.number, n >= 0, n < 1e9, n == n.rounded() else { throw TuneRequestError("a sound index is required") }
        return Int(n)
    }

    /// The request's `target`: absent means the mapped track (`TuneTarget.mapped`).
    private static func target(_ value: JSONValue?) throws -> String {
        guard let value else { return TuneTarget.mapped }
        guard let id = value.string, id == TuneTarget.mapped || TuneTarget.ids.contains(id) else {
            throw TuneRequestError("target must be one of \(([TuneTarget.mapped] + TuneTarget.ids).joined(separator: ", "))")
        }
        return id
    }

    private static func indices(_ value: JSONValue?) throws -> [Int] {
        guard case .array(let items)? = value, items.count <= TuneLimits.maxSounds else {
            throw TuneRequestError("sounds must be a list of sound indices")
        }
        return try items.map { try index($0) }
    }

    static func reply(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func reply(_ data: Data, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func json(_ make: () throws -> JSONValue) throws -> Response {
        try answer { reply(try make().compactText(), type: "application/json") }
    }

    /// Runs `make`; a request that cannot be served is answered with one line, as JSON
    /// `{"error": …}`: 400 for a malformed request, 422 for settings or files that are refused.
    private static func answer(_ make: () throws -> Response) throws -> Response {
        do { return try make() } catch let error as TuneRequestError {
            return failure(.badRequest, error.description)
        } catch let error as TuneSettingsError {
            return failure(.unprocessableContent, error.description)
        } catch let error as PresetError {
            return failure(.unprocessableContent, error.description)
        } catch let error as FileError {
            return failure(.unprocessableContent, error.description)
        } catch let error as HTTPError {
            throw error
        } catch {
            return failure(.unprocessableContent, "\(error)")
        }
    }

    static func failure(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: JSONValue.object([("error", .string(message))]).compactText())))
    }
}

/// The port being served, known once listening (`--port 0` lets the system choose).
private final class ServedPort: @unchecked Sendable {
    private let lock = Lock()
    private var port = -1
    func set(_ value: Int) { lock.withLock { port = value } }
    var value: Int { lock.withLock { port } }
}

/// Refuses what `TuneAccess` refuses (403, one line), and gives every answer headers that
/// keep it to this page: no other script, style, frame or connection, no caching, no referrer
/// (the URL holds the token).
private struct Guard<Context: RequestContext>: RouterMiddleware {
    let access: TuneAccess
    let served: ServedPort

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = request.uri.queryParameters["token"].map(String.init)
            ?? request.headers[HTTPField.Name(TuneAccess.tokenHeader)!]
        var response: Response
        if let refusal = access.refusal(host: request.head.authority, origin: request.headers[.origin], token: token,
                                        port: served.value) {
            response = TuneServer.failure(.forbidden, refusal)
        } else {
            do { response = try await next(request, context) } catch let error as HTTPError {
                response = TuneServer.failure(error.status, error.body ?? error.status.reasonPhrase)
            }
        }
        response.headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; media-src 'self' blob:; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

extension TuneServer {
    /// Serves on this thread until SIGINT or SIGTERM (for a command-line tool).
    /// - Returns: nil after a clean stop, else why it could not serve.
    /// - Parameter onReady: called once listening, with the page's URL (token included).
    public func runBlocking(onReady: @escaping @Sendable (String) -> Void) -> (any Error)? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task {
            do { try await run(handlingSignals: true, onReady: onReady) } catch { outcome.set(error) }
            done.signal()
        }
        done.wait()
        return outcome.error
    }
}

private final class Outcome: @unchecked Sendable {
    private let lock = Lock()
    private var stored: (any Error)?
    func set(_ error: any Error) { lock.withLock { stored = error } }
    var error: (any Error)? { lock.withLock { stored } }
}
