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

let package = Package(
    name: "TactusFuzz",
    dependencies: [
        .package(name: "Tactus", path: ".."),
    ],
    targets: [
        // Starts libFuzzer's driver from the entry point SwiftPM gives executables.
        .target(name: "FuzzDriver", swiftSettings: fuzzing),
        .executableTarget(name: "FuzzAHAP",
                          dependencies: ["FuzzDriver", .product(name: "TactusAHAP", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzPreview",
                          dependencies: ["FuzzDriver", .product(name: "Tactus", package: "Tactus"),
                                         .product(name: "TactusPreview", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzConfig",
                          dependencies: ["FuzzDriver", .product(name: "Tactus", package: "Tactus"),
                                         .product(name: "TactusCore", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzHaptic",
                          dependencies: ["FuzzDriver", .product(name: "Tactus", package: "Tactus"),
                                         .product(name: "TactusAHAP", package: "Tactus"),
                                         .product(name: "TactusAndroid", package: "Tactus"),
                                         .product(name: "TactusCore", package: "Tactus"),
                                         .product(name: "TactusHaptic", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzRumble",
                          dependencies: ["FuzzDriver", .product(name: "TactusCore", package: "Tactus"),
                                         .product(name: "TactusRender", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzRendered",
                          dependencies: ["FuzzDriver", .product(name: "TactusAudio", package: "Tactus"),
                                         .product(name: "TactusCore", package: "Tactus"),
                                         .product(name: "TactusRender", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzSamples",
                          dependencies: ["FuzzDriver", .product(name: "TactusAnalysis", package: "Tactus"),
                                         .product(name: "TactusCore", package: "Tactus"),
                                         .product(name: "TactusLive", package: "Tactus"),
                                         .product(name: "TactusMapping", package: "Tactus"),
                                         .product(name: "TactusPresets", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
        .executableTarget(name: "FuzzPreset",
                          dependencies: ["FuzzDriver", .product(name: "Tactus", package: "Tactus")],
                          swiftSettings: fuzzing, linkerSettings: linking),
    ]
)
