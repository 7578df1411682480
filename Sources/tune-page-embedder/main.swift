// Build-time tool of `TunePagePlugin`: writes the Swift source of `TunePageAssets`, one
// `static let NAME = ##"""…"""##` constant per page file, from
// `tune-page-embedder OUTPUT.swift NAME FILE [NAME FILE …]`. Runs on the build machine only.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, arguments.count % 2 == 1 else {
    FileHandle.standardError.write(Data("usage: tune-page-embedder OUTPUT.swift NAME FILE [NAME FILE …]\n".utf8))
    exit(64)
}
var lines = [
    "// Generated at build time by tune-page-embedder (TunePagePlugin) from Page/Assets.",
    "",
    "/// The page's files (`Sources/TactusTune/Page/Assets`), compiled in; each constant is its",
    "/// file's text without the final newline. In `html`, `{{token}}` stands where the run's token goes.",
    "enum TunePageAssets {",
]
for index in stride(from: 1, to: arguments.count, by: 2) {
    let (name, path) = (arguments[index], arguments[index + 1])
    guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n"), !text.contains("\"\"\"##") else {
        FileHandle.standardError.write(Data("\(path): cannot be embedded (unreadable, not UTF-8, no final newline, or holds \"\"\"##)\n".utf8))
        exit(1)
    }
    lines.append("    /// `\((path as NSString).lastPathComponent)`.")
    lines.append("    static let \(name) = ##\"\"\"")
    lines.append(String(text.dropLast()))
    lines.append("\"\"\"##")
}
lines += ["}", ""]
do { try lines.joined(separator: "\n").write(toFile: arguments[0], atomically: true, encoding: .utf8) } catch {
    FileHandle.standardError.write(Data("\(arguments[0]): cannot be written (\(error))\n".utf8))
    exit(1)
}
