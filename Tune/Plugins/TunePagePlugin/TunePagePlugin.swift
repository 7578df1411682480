import PackagePlugin

/// Compiles the page of `tactus tune` into `TactusTune` at build time: its HTML, CSS and
/// JavaScript files (`Page/Assets`, excluded from the target's sources) become the string
/// constants of `TunePageAssets`, written by the `tune-page-embedder` tool into the plugin's work
/// folder. The page is kept as files (linted and tested as code: `make check-tune-page`) and
/// served with no file beside the binary (on Linux the product uses FoundationEssentials, which
/// has no `Bundle` to find SwiftPM resources with). Editing an asset re-embeds it.
@main
struct TunePagePlugin: BuildToolPlugin {
    /// The assets, as `tune-page-embedder` takes them: the Swift constant, then the file.
    static let assets = [("html", "tune.html"), ("style", "tune.css"), ("values", "tune-values.js"), ("script", "tune.js")]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directory.appending(subpath: "Page/Assets")
        let output = context.pluginWorkDirectory.appending(subpath: "TunePageAssets.swift")
        let files = Self.assets.map { folder.appending(subpath: $0.1) }
        return [.buildCommand(
            displayName: "Embedding the tune page (\(Self.assets.map(\.1).joined(separator: ", ")))",
            executable: try context.tool(named: "tune-page-embedder").path,
            arguments: [output.string] + zip(Self.assets, files).flatMap { [$0.0.0, $0.1.string] },
            inputFiles: files,
            outputFiles: [output])]
    }
}
