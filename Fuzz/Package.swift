// swift-tools-version:5.9
import PackageDescription

// libFuzzer targets for the parsers that read files people hand us: AHAP (reader,
// validator, evaluator), Meta/Lofelt .haptic and Android JSON (readers, validators, and what
// they read through every writer), gamepad rumble timelines (reader, validator, written again),
// rendered drive signals and Android's haptic Ogg (readers, validators, libsndfile's decoder),
// what validate --audio and preview do with a pattern (harmony
// check, preview evaluation and drawing), presets (JSON and --set), and arbitrary samples through
// the analysis and mapping, offline and live. A separate package so the fuzzer's
// unsafe flags never reach the main package's builds. See README.md.
let fuzzing: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])]
let linking: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

/// A fuzz target: `Sources/<name>`, libFuzzer's driver, and the Tactus products it reads through.
func fuzzer(_ name: String, _ products: String...) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzDriver"] + products.map { .product(name: $0, package: "Tactus") },
                      swiftSettings: fuzzing, linkerSettings: linking)
}

let package = Package(
    name: "TactusFuzz",
    dependencies: [
        .package(name: "Tactus", path: ".."),
    ],
    targets: [
        // Starts libFuzzer's driver from the entry point SwiftPM gives executables.
        .target(name: "FuzzDriver", swiftSettings: fuzzing),
        fuzzer("FuzzAHAP", "TactusAHAP"),
        fuzzer("FuzzPreview", "Tactus", "TactusPreview"),
        fuzzer("FuzzConfig", "Tactus", "TactusCore"),
        fuzzer("FuzzHaptic", "Tactus", "TactusAHAP", "TactusAndroid", "TactusCore", "TactusHaptic"),
        fuzzer("FuzzRumble", "TactusCore", "TactusRender"),
        fuzzer("FuzzRendered", "TactusAudio", "TactusCore", "TactusRender"),
        fuzzer("FuzzSamples", "TactusAnalysis", "TactusCore", "TactusLive", "TactusMapping", "TactusPresets"),
        fuzzer("FuzzPreset", "Tactus"),
    ]
)
