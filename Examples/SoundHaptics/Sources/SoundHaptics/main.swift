import Foundation
import TactusAHAP

// Lists the AHAPs TactusPlugin bundled with this target and validates each (its paired audio
// must be bundled beside it); exits 1 if any is missing or invalid.
let resources = Bundle.module.resourceURL ?? Bundle.module.bundleURL
let ahaps = ((try? FileManager.default.contentsOfDirectory(at: resources, includingPropertiesForKeys: nil)) ?? [])
    .filter { $0.pathExtension == "ahap" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
guard !ahaps.isEmpty else {
    print("no AHAP bundled")
    exit(1)
}
var invalid = 0
for ahap in ahaps {
    let report = AHAPValidator(baseDirectory: ahap.deletingLastPathComponent()).validate(contentsOf: ahap)
    print("\(ahap.lastPathComponent): \(report.errorCount) error(s), \(report.warningCount) warning(s)")
    for finding in report.diagnostics { print("  \(finding)") }
    if !report.isValid { invalid += 1 }
}
exit(invalid == 0 ? 0 : 1)
