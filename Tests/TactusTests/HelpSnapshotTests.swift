import Foundation
import TactusTestSupport
import XCTest

/// The full `--help` of `tactus` and of every subcommand, compared with the committed text in
/// `HelpSnapshots/` (swift-argument-parser tests its own help the same way): an option or a
/// wording change shows in review as a change to these files.
///
/// After a deliberate change, regenerate them with
/// `TACTUS_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests`.
final class HelpSnapshotTests: XCTestCase {
    static let commands = [
        [], ["convert"], ["batch"], ["preview"], ["tune"], ["validate"], ["compare"], ["playback"], ["analyze"], ["evaluate"],
        ["live"], ["presets"], ["presets", "list"], ["presets", "show"], ["presets", "validate"], ["presets", "init"], ["presets", "schema"],
    ]
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HelpSnapshots")

    func testEveryCommandsHelpMatchesItsSnapshot() throws {
        let update = ProcessInfo.processInfo.environment["TACTUS_UPDATE_SNAPSHOTS"] == "1"
        for command in Self.commands {
            let name = (["tactus"] + command).joined(separator: "-") + ".txt"
            let outcome = try CLIRunner.run(command + ["--help"], timeout: CLIRunner.hangLimit)
            XCTAssertEqual(outcome.status, 0, "\(command): \(outcome)")
            let snapshot = Self.folder.appendingPathComponent(name)
            if update {
                try Data(outcome.stdout.utf8).write(to: snapshot)
                continue
            }
            let expected = try String(contentsOf: snapshot, encoding: .utf8)
            XCTAssertEqual(outcome.stdout, expected,
                           "\(name) changed; if on purpose: TACTUS_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests")
        }
    }

    /// The subcommands the top-level help lists are exactly the ones snapshotted here, so
    /// none is left undocumented or unchecked.
    func testTopLevelHelpListsEverySubcommand() throws {
        let help = try CLIRunner.run(["--help"], timeout: CLIRunner.hangLimit).stdout
        let section = try XCTUnwrap(help.components(separatedBy: "SUBCOMMANDS:\n").last?.components(separatedBy: "\n\n").first)
        let listed = section.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertEqual(Set(listed), Set(Self.commands.compactMap(\.first)), help)
    }
}
