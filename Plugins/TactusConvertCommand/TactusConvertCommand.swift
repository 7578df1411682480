import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory tactus-convert [--target NAME…] [tactus batch options]`:
/// a one-off conversion of a package's sounds into its sources. For each chosen target (all
/// source targets by default) it runs this package's `tactus batch` on the target's folder
/// with the outputs in `<target folder>/Haptics` (incremental, `tactus.json` folder presets
/// honoured); any further arguments go to `tactus batch` (`--preset impacts`, `--force`, …).
@main
struct TactusConvertCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = try (names.isEmpty ? context.package.targets : context.package.targets(named: names))
            .compactMap { $0 as? SourceModuleTarget }
        let tactus = try context.tool(named: "tactus").path
        var failed = false
        for target in targets {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tactus.string)
            process.arguments = ["batch", target.directory.string, "-o", target.directory.appending(subpath: "Haptics").string]
                + extractor.remainingArguments
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                Diagnostics.error("tactus batch failed for target \(target.name) (exit \(process.terminationStatus))")
                failed = true
            }
        }
        if failed { throw CommandError("some sounds could not be converted; see the lines above") }
    }
}

struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
