import Foundation
import TactusCore
import TactusMapping
import TactusPresets
@testable import TactusTune
import TactusTestSupport

/// A `TuneServer` on a free loopback port in this process, and raw HTTP/1.1 requests to it
/// (raw, so a test can send the `Host` and `Origin` a hostile page would).
final class TuneTestServer {
    let session: TuneSession
    let port: Int
    let token: String
    let folder: URL
    private let task: Task<Void, Never>
    private let stopped = DispatchSemaphore(value: 0)

    /// A `Sounds` folder in `folder` holding a copy of the Corpus' `clean/bell.wav`, as a
    /// designer's project has one.
    /// - Returns: the folder, and the copied sound.
    static func soundsFolder(in folder: URL) throws -> (folder: URL, bell: URL) {
        let sounds = folder.appendingPathComponent("Sounds")
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        let bell = sounds.appendingPathComponent("bell.wav")
        try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent("clean/bell.wav"), to: bell)
        return (sounds, bell)
    }

    /// Serves `sounds` with `preset`; exports go to `folder/export`, saved presets to `folder/<presets>`.
    init(sounds: [URL], preset: String = "default", folder: URL, presets: String = "presets") throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = PresetLibrary.standard()
        let base = try TuneBase(reference: preset, overrides: [], library: library)
        let (session, problems) = try TuneSession.open(
            sounds.map { FoundSound(url: $0, name: $0.lastPathComponent, folder: $0.deletingLastPathComponent()) },
            base: base, library: library, exportFolder: folder.appendingPathComponent("export"),
            presetFolder: folder.appendingPathComponent(presets), jobs: 2)
        precondition(problems.isEmpty, "\(problems)")
        self.session = session
        let server = TuneServer(session: session, port: 0)
        token = server.access.token
        let ready = DispatchSemaphore(value: 0)
        let url = Box()
        let stopped = self.stopped
        task = Task {
            try? await server.run(handlingSignals: false) { url.value = $0; ready.signal() }
            stopped.signal()
        }
        guard ready.wait(timeout: .now() + CLIRunner.hangLimit) == .success, let text = url.value,
              let port = URLComponents(string: text)?.port else {
            throw TuneRequestError("the server did not start")
        }
        self.port = port
    }

    private var running = true

    /// Stops the server (once) and removes the session's temporary folder.
    func stop() {
        guard running else { return }
        running = false
        task.cancel()
        _ = stopped.wait(timeout: .now() + CLIRunner.hangLimit)
        session.close()
    }

    var host: String { "127.0.0.1:\(port)" }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> JSONValue { try JSONReader.parse(body) }
    }

    /// Sends one request; `host` nil sends no Host header, `token` nil no token.
    func request(_ method: String, _ path: String, host: String? = "default", origin: String? = nil,
                 token: String? = "default", headers extra: [String: String] = [:], body: Data = Data()) throws -> Reply {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if let host { head += "Host: \(host == "default" ? self.host : host)\r\n" }
        if let origin { head += "Origin: \(origin)\r\n" }
        if let token { head += "X-Tactus-Token: \(token == "default" ? self.token : token)\r\n" }
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return try exchange(Data(head.utf8) + body)
    }

    func post(_ path: String, _ json: String) throws -> Reply {
        try request("POST", path, origin: "http://\(host)", headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    /// Writes `bytes` on a new connection and reads the answer until the server closes it.
    func exchange(_ bytes: Data) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TuneRequestError("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TuneRequestError("connect") }
        var timeout = timeval(tv_sec: Int(CLIRunner.hangLimit), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        try bytes.withUnsafeBytes { raw in
            while sent < raw.count {
                let n = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { break }  // the server may answer (413) and close before reading it all
                sent += n
            }
            if sent == 0 { throw TuneRequestError("send") }
        }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer.append(contentsOf: buffer[0..<n])
        }
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { throw TuneRequestError("no answer") }
        let lines = String(decoding: answer[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: Data(answer[split.upperBound...]))
    }
}

private final class Box: @unchecked Sendable {
    var value: String?
}

extension JSONValue {
    /// The item at `index` of an array, or nil (not an array, or no such item).
    func array(_ index: Int) -> JSONValue? {
        guard let items, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The items of an array, or nil for anything else.
    var items: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }
}
