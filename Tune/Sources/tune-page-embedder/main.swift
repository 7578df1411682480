// Build-time tool of `TunePagePlugin`: writes the Swift source of `TunePageAssets`, one
// `static let NAME = ##"""…"""##` constant per page file, from
// `tune-page-embedder OUTPUT.swift NAME FILE [NAME FILE …]`. Runs on the build machine only;
// the C library alone reads and writes (no Foundation to link, statically or not).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends the tool with `message` on standard error.
func fail(_ message: String, status: Int32 = 1) -> Never {
    fputs("tune-page-embedder: \(message)\n", stderr)
    exit(status)
}

/// The bytes of the file at `path` as UTF-8 text, or nil when it cannot be read or is not UTF-8.
func contents(of path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    guard ferror(file) == 0 else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    return Array(text.utf8) == bytes ? text : nil  // decoding replaced an invalid sequence
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, arguments.count % 2 == 1 else {
    fail("usage: tune-page-embedder OUTPUT.swift NAME FILE [NAME FILE …]", status: 64)
}
var lines = [
    "// Generated at build time by tune-page-embedder (TunePagePlugin) from Page/Assets.",
    "",
    "/// The page's files (`Tune/Sources/TactusTune/Page/Assets`), compiled in; each constant is its",
    "/// file's text without the final newline. In `html`, `{{token}}` stands where the run's token goes.",
    "enum TunePageAssets {",
]
for index in stride(from: 1, to: arguments.count, by: 2) {
    let (name, path) = (arguments[index], arguments[index + 1])
    guard let text = contents(of: path) else { fail("\(path): cannot be read as UTF-8 text") }
    guard text.hasSuffix("\n"), !text.contains("\"\"\"##") else { fail("\(path): must end with a newline and hold no \"\"\"##") }
    lines.append("    /// `\(path.split(separator: "/").last.map(String.init) ?? path)`.")
    lines.append("    static let \(name) = ##\"\"\"")
    lines.append(String(text.dropLast()))
    lines.append("\"\"\"##")
}
lines += ["}", ""]
let output = lines.joined(separator: "\n")
// An unchanged source is left as it is, so that `TactusTune` is not compiled again: the tool
// runs whenever it was linked again (as when another package builds in the same folder).
if contents(of: arguments[0]) == output { exit(0) }
guard let file = fopen(arguments[0], "wb") else { fail("\(arguments[0]): cannot be written") }
let written = output.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
guard written == output.utf8.count, fclose(file) == 0 else { fail("\(arguments[0]): cannot be written") }
