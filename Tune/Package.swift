// swift-tools-version:6.1
// 6.1: Hummingbird is taken without its default traits (full Foundation, swift-configuration),
// which a dependency's traits can only be chosen from. The code stays in Swift 5 mode.
import PackageDescription

// `tactus tune`'s server (`tactus-tune`) and its web stack, a package of their own so that an app
// that depends on Tactus (`TactusLive`, the build plugin, the formats) resolves none of them.
// Build it into the main package's build folder (`swift build --package-path Tune --scratch-path
// .build`, as `make build` does): `tactus tune` runs the `tactus-tune` beside `tactus`, and the
// Tactus modules compiled for one serve the other.

/// The main package's library products of these names.
func tactus(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "Tactus") }
}

let package = Package(
    name: "TactusTune",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tactus-tune", targets: ["tactus-tune"]),
    ],
    dependencies: [
        .package(name: "Tactus", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The local server (HTTP/1.1 on SwiftNIO), FoundationEssentials only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Hummingbird's own: its header and byte-buffer types, named in `TactusTune`.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // Hummingbird's logger type, which `TactusTune` hands it (a no-op one).
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        // The sounds with cached analyses, the page (compiled in) and its local server.
        .target(name: "TactusTune", dependencies: tactus(
            "Tactus", "TactusPlatform", "TactusCore", "TactusFiles", "TactusAudio", "TactusAnalysis", "TactusMapping",
            "TactusPresets", "TactusPreview", "TactusRender") + [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "tactus-tune", dependencies: ["TactusTune"]
            + tactus("TactusCommandLine", "TactusPlatform", "TactusCore", "TactusPresets")
            + [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "TactusTuneTests", dependencies: ["TactusTune"]
            + tactus("TactusCore", "TactusFiles", "TactusMapping", "Tactus", "TactusPresets", "TactusTestSupport")),
    ],
    swiftLanguageModes: [.v5]
)
