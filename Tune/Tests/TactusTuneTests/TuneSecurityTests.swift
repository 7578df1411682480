import Foundation
import TactusCore
@testable import TactusTune
import TactusTestSupport
import XCTest

/// Each rule of `TuneAccess` and the server's bounds, checked over real connections to a
/// server on a free loopback port.
final class TuneSecurityTests: XCTestCase {
    private var server: TuneTestServer!

    override func setUpWithError() throws {
        let folder = AudioFixture.temporaryDirectory("TuneSecurityTests-\(name.filter(\.isLetter))")
        server = try TuneTestServer(sounds: [Corpus.root.appendingPathComponent("clean/bell.wav")], folder: folder)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: server.folder)
    }

    func testServesOnlyWithTheExactHostTheOriginAndTheToken() throws {
        XCTAssertEqual(try server.request("GET", "/api/state").status, 200)
        XCTAssertEqual(try server.request("GET", "/api/state", origin: "http://\(server.host)").status, 200)
        XCTAssertEqual(try server.request("GET", "/?token=\(server.token)", token: nil).status, 200)
        // DNS rebinding: another name resolved to 127.0.0.1 arrives with its own Host.
        for host in ["evil.example:\(server.port)", "localhost:\(server.port)", "127.0.0.1", "127.0.0.1:\(server.port + 1)",
                     "[::1]:\(server.port)", "127.0.0.1:\(server.port).evil.example"] {
            let reply = try server.request("GET", "/api/state", host: host)
            XCTAssertEqual(reply.status, 403, host)
            XCTAssertFalse(reply.text.contains("sounds"), host)
        }
        XCTAssertEqual(try server.request("GET", "/api/state", host: nil).status, 403)
        for origin in ["http://evil.example", "http://localhost:\(server.port)", "https://\(server.host)", "null"] {
            XCTAssertEqual(try server.request("GET", "/api/state", origin: origin).status, 403, origin)
        }
        XCTAssertEqual(try server.request("GET", "/api/state", token: nil).status, 403)
        XCTAssertEqual(try server.request("GET", "/api/state", token: String(repeating: "0", count: 64)).status, 403)
        XCTAssertEqual(try server.request("GET", "/?token=\(server.token.dropLast())", token: nil).status, 403)
        XCTAssertEqual(try server.request("GET", "/tune.js", token: nil).status, 403)
    }

    func testNoRequestPathReachesTheFileSystem() throws {
        for path in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/tune.js/../../etc/passwd",
                     "/api/sounds/../../../etc/passwd", "/api/sounds/0/../../../../etc/passwd", "/etc/passwd",
                     "/api/sounds/-1/audio", "/api/sounds/99/audio", "/api/sounds/0x0/audio",
                     "/Corpus/clean/bell.wav", "/" + Corpus.root.appendingPathComponent("clean/bell.wav").path] {
            let reply = try server.request("GET", path)
            XCTAssertNotEqual(reply.status, 200, path)
            XCTAssertFalse(reply.text.contains("root:"), path)
            XCTAssertFalse(reply.body.starts(with: Data("RIFF".utf8)), path)
        }
        // The one sound, by index, decoded (a WAV the server made, not the file's bytes).
        let audio = try server.request("GET", "/api/sounds/0/audio")
        XCTAssertEqual(audio.status, 200)
        XCTAssertEqual(audio.headers["content-type"], "audio/wav")
        XCTAssertTrue(audio.body.starts(with: Data("RIFF".utf8)))
    }

    func testEveryAnswerKeepsItselfToThePage() throws {
        for reply in [try server.request("GET", "/?token=\(server.token)", token: nil), try server.request("GET", "/api/state"),
                      try server.request("GET", "/api/state", token: nil)] {
            XCTAssertEqual(reply.headers["x-content-type-options"], "nosniff")
            XCTAssertEqual(reply.headers["referrer-policy"], "no-referrer")
            let policy = try XCTUnwrap(reply.headers["content-security-policy"])
            XCTAssertTrue(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"), policy)
        }
    }

    func testNamesNeverBecomeMarkup() throws {
        // The page writes what the server sends as text only; the document holds no name at all.
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            for script in [TunePageAssets.script, TunePageAssets.values] { XCTAssertFalse(script.contains(sink), sink) }
        }
        let hostile = "<img src=x onerror=alert(1)>\u{0}\u{7}.wav"
        let wav = try Data(contentsOf: Corpus.root.appendingPathComponent("clean/bell.wav"))
        let added = try server.request("POST", "/api/sounds", origin: "http://\(server.host)",
                                       headers: ["X-Tactus-Name": hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!],
                                       body: wav)
        XCTAssertEqual(added.status, 200, added.text)
        XCTAssertEqual(try added.json()["name"]?.string, "<img src=x onerror=alert(1)>.wav")  // control characters dropped
        let page = try server.request("GET", "/?token=\(server.token)", token: nil).text
        XCTAssertFalse(page.contains("onerror"))
        XCTAssertFalse(page.contains("bell"))
    }

    func testRequestsAndDroppedSoundsAreBounded() throws {
        let big = "{\"name\":\"x\",\"pad\":\"" + String(repeating: "a", count: TuneLimits.maxRequestBytes) + "\"}"
        XCTAssertEqual(try server.post("/api/render", big).status, 413)
        let huge = Data(count: TuneLimits.maxDroppedBytes + 1)
        XCTAssertEqual(try server.request("POST", "/api/sounds", origin: "http://\(server.host)", body: huge).status, 413)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: server.session.temporaryFolder.path), [])
    }

    func testADroppedFileThatIsNotASoundIsRefusedAndRemoved() throws {
        let reply = try server.request("POST", "/api/sounds", origin: "http://\(server.host)", headers: ["X-Tactus-Name": "notes.wav"],
                                       body: Data("not audio at all".utf8))
        XCTAssertEqual(reply.status, 422)
        let message = try XCTUnwrap(reply.json()["error"]?.string)
        XCTAssertTrue(message.hasPrefix("notes.wav: "), message)
        XCTAssertFalse(message.contains("\n"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: server.session.temporaryFolder.path), [])
        XCTAssertEqual(server.session.soundCount, 1)
    }

    func testMalformedRequestsGetOneLineAnswers() throws {
        for body in ["", "[", "{\"name\":\"../../etc/passwd\",\"sounds\":[0]}", "{\"name\":\"x\",\"sounds\":[7]}",
                     "{\"name\":\"x\",\"sounds\":[0],\"set\":{\"nosuch.key\":1}}",
                     "{\"name\":\"x\",\"sounds\":[0],\"set\":{\"mapping.intensity.gamma\":99}}"] {
            let reply = try server.post("/api/render", body)
            XCTAssertTrue([400, 422].contains(reply.status), "\(body): \(reply.status)")
            XCTAssertFalse(reply.text.contains("\n"), body)
        }
    }

    func testTheTemporaryFolderGoesWithTheSession() throws {
        let folder = server.session.temporaryFolder
        let wav = try Data(contentsOf: Corpus.root.appendingPathComponent("clean/bell.wav"))
        XCTAssertEqual(try server.request("POST", "/api/sounds", origin: "http://\(server.host)", body: wav).status, 200)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 1)
        server.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
    }

    func testOnlyAHundredSoundsCanBeDropped() throws {
        let wav = try Data(contentsOf: Corpus.root.appendingPathComponent("clean/bell.wav"))
        let tiny = wav.prefix(44) + Data(count: 0)  // refused, but counted
        for _ in 0..<TuneLimits.maxDroppedSounds { _ = try? server.session.add(tiny, name: "x.wav") }
        XCTAssertThrowsError(try server.session.add(wav, name: "one-more.wav")) { error in
            XCTAssertTrue("\(error)".contains("no more sounds"), "\(error)")
        }
    }
}
