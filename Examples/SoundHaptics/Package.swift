// swift-tools-version:5.10
import PackageDescription

// A small app target whose sounds get their haptics at build time: TactusPlugin writes an AHAP
// (and the audio it plays) for every sound under Sources/SoundHaptics/Sounds into the build's
// plugin folder and bundles them as resources; the executable lists and validates them.
let package = Package(
    name: "SoundHaptics",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Tactus", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "SoundHaptics",
            dependencies: [.product(name: "TactusAHAP", package: "Tactus")],
            plugins: [.plugin(name: "TactusPlugin", package: "Tactus")]),
    ]
)
