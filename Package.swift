// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Tactus",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Tactus", targets: ["Tactus"]),
        .library(name: "TactusAHAP", targets: ["TactusAHAP"]),
        .executable(name: "tactus", targets: ["tactus"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f",
                       providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),

        // Foundation-only: AHAP model, encoder, decoder, validator, evaluator. Apps can embed it.
        .target(name: "TactusAHAP", exclude: ["LICENSE"]),
        // Decoding and writing audio through libsndfile.
        .target(name: "TactusAudio", dependencies: ["CSndFile"]),
        // STFT on FFTW, analyzers, peak picking.
        .target(name: "TactusAnalysis", dependencies: ["CFFTW"]),
        // Presets and the mapping from features to a HapticTrack.
        .target(name: "TactusMapping", dependencies: ["TactusAnalysis", "TactusAHAP"]),
        // Pipeline, registry, batch: the library users import.
        .target(name: "Tactus", dependencies: ["TactusAHAP", "TactusAudio", "TactusAnalysis", "TactusMapping"]),
        // Previews without a device: sonification, SVG plot, HTML pages (drawing apart from evaluation).
        .target(name: "TactusPreview", dependencies: ["TactusAHAP", "TactusAudio"]),
        .executableTarget(name: "tactus", dependencies: [
            "Tactus", "TactusAudio", "TactusPreview",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .target(name: "TactusTestSupport", dependencies: ["CSndFile"], path: "Tests/TactusTestSupport"),
        .testTarget(name: "TactusAHAPTests", dependencies: ["TactusAHAP"]),
        .testTarget(name: "TactusAudioTests", dependencies: ["TactusAudio", "TactusTestSupport"]),
        .testTarget(name: "TactusAnalysisTests", dependencies: ["TactusAnalysis", "TactusTestSupport"]),
        .testTarget(name: "TactusTests", dependencies: ["Tactus", "TactusTestSupport"]),
        .testTarget(name: "TactusPreviewTests", dependencies: ["TactusPreview", "Tactus", "TactusTestSupport"]),
    ]
)
