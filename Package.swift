// swift-tools-version:6.1
// The code stays in Swift 5 mode.
import PackageDescription
import Foundation

let package = Package(
    name: "Tactus",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Tactus", targets: ["Tactus"]),
        .library(name: "TactusCore", targets: ["TactusCore"]),
        .library(name: "TactusFiles", targets: ["TactusFiles"]),
        .library(name: "TactusAHAP", targets: ["TactusAHAP"]),
        .library(name: "TactusHaptic", targets: ["TactusHaptic"]),
        .library(name: "TactusAndroid", targets: ["TactusAndroid"]),
        .library(name: "TactusRender", targets: ["TactusRender"]),
        .library(name: "TactusPreview", targets: ["TactusPreview"]),
        // What `tactus-tune` (the `Tune/` package: the tuning server and its web stack) builds on.
        .library(name: "TactusPlatform", targets: ["TactusPlatform"]),
        .library(name: "TactusAudio", targets: ["TactusAudio"]),
        .library(name: "TactusAnalysis", targets: ["TactusAnalysis"]),
        .library(name: "TactusMapping", targets: ["TactusMapping"]),
        .library(name: "TactusPresets", targets: ["TactusPresets"]),
        .library(name: "TactusCommandLine", targets: ["TactusCommandLine"]),
        // The tests' fixtures (the Corpus, the CLI runner, signals), for the `Tune/` package's tests.
        .library(name: "TactusTestSupport", targets: ["TactusTestSupport"]),
        // Live haptics inside an app: no system library, nothing GPL or LGPL.
        .library(name: "TactusLive", targets: ["TactusLive"]),
        .executable(name: "tactus", targets: ["tactus"]),
        // Build-tool plugin: an AHAP and its audio for every sound of a target, at build time.
        .plugin(name: "TactusPlugin", targets: ["TactusPlugin"]),
        // Command plugin: `swift package tactus-convert` converts a package's sounds into its sources.
        .plugin(name: "TactusConvertCommand", targets: ["TactusConvertCommand"]),
    ],
    // An app that depends on Tactus resolves these alone: the tuning server's web stack lives in
    // the `Tune/` package, and the DocC plugin is added only for `make docs` (TACTUS_DOCS=1).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f",
                       providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),

        // The platform's Foundation under one name: FoundationEssentials on Linux (no ICU in the
        // binary), Foundation on Apple platforms. Modules import the C library and Dispatch themselves.
        .target(name: "TactusPlatform", exclude: ["LICENSE"]),
        // Format-free core: HapticTrack, the output-format seam, the parameter system, the JSON
        // reader and writer, stable hashes, locks and threads. No file I/O.
        .target(name: "TactusCore", dependencies: ["TactusPlatform"], exclude: ["LICENSE"]),
        // POSIX file plumbing: untrusted input files, staged (atomic) outputs, the commit log,
        // file copies, plain relative paths and one-line file errors.
        .target(name: "TactusFiles", dependencies: ["TactusCore", "TactusPlatform"], exclude: ["LICENSE"]),
        // Foundation-only: AHAP model, encoder, decoder, validator, evaluator. Apps can embed it.
        .target(name: "TactusAHAP", dependencies: ["TactusPlatform", "TactusCore", "TactusFiles"], exclude: ["LICENSE"]),
        // Foundation-only: Meta/Lofelt .haptic, written, read and checked.
        .target(name: "TactusHaptic", dependencies: ["TactusPlatform", "TactusCore"], exclude: ["LICENSE"]),
        // Foundation-only: Android's VibrationEffect forms in one JSON file.
        .target(name: "TactusAndroid", dependencies: ["TactusPlatform", "TactusCore"], exclude: ["LICENSE"]),
        // Formats rendered on a time grid: actuator drive signals (pcm, dualsense) and gamepad
        // rumble; a rendered file's band check takes its spectrum from TactusFFT (pure Swift), and
        // Android's haptic Ogg is encoded and decoded by the `OggVorbisCodec` its caller installs.
        .target(name: "TactusRender", dependencies: ["TactusPlatform", "TactusCore", "TactusFFT"], exclude: ["LICENSE"]),
        // Decoding and writing audio through libsndfile.
        .target(name: "TactusAudio", dependencies: ["CSndFile", "TactusPlatform", "TactusCore", "TactusFiles"]),
        // The FFT seam: the `RealTransform` protocol and its permissively licensed transforms
        // (pure Swift; vDSP on Apple platforms). No dependency at all.
        .target(name: "TactusFFT", exclude: ["LICENSE"]),
        // FFTW's transform (GPL), which only the command line hands the analysis.
        .target(name: "TactusSpectrum", dependencies: ["CFFTW", "TactusCore", "TactusFFT"]),
        // STFT, analyzers, peak picking; BS.1770 loudness (high-pass on the samples, shelf from the STFT).
        .target(name: "TactusAnalysis", dependencies: ["TactusCore", "TactusFFT"], exclude: ["LICENSE"]),
        // The mapping from features to a HapticTrack.
        .target(name: "TactusMapping", dependencies: ["TactusCore", "TactusAnalysis"], exclude: ["LICENSE"]),
        // Presets (files, library, resolution, schema, printer) and the built-in format list whose
        // parameters they tune: above the mapping and the writers.
        .target(name: "TactusPresets", dependencies: ["TactusPlatform", "TactusCore", "TactusFiles", "TactusAnalysis", "TactusMapping", "TactusAHAP", "TactusHaptic", "TactusAndroid", "TactusRender"], exclude: ["LICENSE"]),
        // Haptics from audio as it plays (`LiveHaptics`): the analysis and mapping run live,
        // with the presets; on TactusFFT's transforms, so nothing links FFTW or libsndfile.
        .target(name: "TactusLive", dependencies: ["TactusCore", "TactusFFT", "TactusAnalysis", "TactusMapping", "TactusPresets"], exclude: ["LICENSE"]),
        // Pipeline, registry, batch: the library users import.
        .target(name: "Tactus", dependencies: ["TactusPlatform", "TactusCore", "TactusFiles", "TactusAHAP", "TactusHaptic", "TactusAndroid", "TactusAudio", "TactusAnalysis", "TactusMapping", "TactusPresets", "TactusSpectrum"]),
        // Previews without a device: sonification, SVG plot, HTML pages (drawing apart from evaluation).
        .target(name: "TactusPreview", dependencies: ["TactusPlatform", "TactusCore", "TactusFiles", "TactusAudio"]),
        // What `tactus` and `tactus-tune` share: one-line problem reports, the preset options, the version.
        .target(name: "TactusCommandLine", dependencies: [
            "Tactus", "TactusPlatform", "TactusCore", "TactusFiles", "TactusPresets",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The CLI; `tactus tune` runs `tactus-tune`, so this does not link Hummingbird or SwiftNIO.
        .executableTarget(name: "tactus", dependencies: [
            "Tactus", "TactusPlatform", "TactusCore", "TactusFiles", "TactusAHAP", "TactusAudio", "TactusPresets", "TactusPreview", "TactusCommandLine", "TactusLive",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .plugin(name: "TactusPlugin", capability: .buildTool(), dependencies: ["tactus"]),
        .plugin(name: "TactusConvertCommand",
                capability: .command(intent: .custom(verb: "tactus-convert",
                                                     description: "Convert the package's sounds into haptics beside its sources"),
                                     permissions: [.writeToPackageDirectory(reason: "writes <target>/Haptics")]),
                dependencies: ["tactus"]),

        .target(name: "TactusTestSupport", dependencies: ["CSndFile"], path: "Tests/TactusTestSupport"),
        // Tests only: runs a command and reports that process's own peak memory (CLIRunner's
        // `measuresPeakMemory`); built beside `tactus` by `swift build --build-tests`.
        .executableTarget(name: "tactus-peak-memory", path: "Tests/PeakMemory"),
        // Tests only: counts the allocations, locks and reads or writes of the calling thread
        // (its malloc, pthread_mutex_lock, read and write take the place of libc's in the
        // test executable).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(name: "TactusCoreTests", dependencies: ["TactusCore", "TactusTestSupport"]),
        .testTarget(name: "TactusFilesTests", dependencies: ["TactusFiles"]),
        .testTarget(name: "TactusAHAPTests", dependencies: ["TactusCore", "TactusAHAP", "TactusTestSupport"]),
        .testTarget(name: "TactusAndroidTests", dependencies: ["TactusCore", "TactusAndroid", "TactusTestSupport"]),
        .testTarget(name: "TactusHapticTests", dependencies: ["TactusCore", "TactusHaptic", "TactusTestSupport"]),
        .testTarget(name: "TactusAudioTests", dependencies: ["TactusCore", "TactusFiles", "TactusAudio", "TactusTestSupport"]),
        .testTarget(name: "TactusAnalysisTests", dependencies: ["TactusCore", "TactusFFT", "TactusAnalysis", "TactusTestSupport"]),
        .testTarget(name: "TactusMappingTests", dependencies: ["TactusCore", "TactusMapping", "TactusTestSupport"]),
        .testTarget(name: "TactusPresetsTests", dependencies: ["TactusCore", "TactusAnalysis", "TactusMapping", "TactusPresets", "TactusTestSupport"]),
        .testTarget(name: "TactusTests", dependencies: ["Tactus", "TactusCore", "TactusFiles", "TactusAHAP", "TactusAnalysis", "TactusAudio", "TactusMapping", "TactusPresets", "TactusHaptic", "TactusAndroid", "TactusRender", "TactusTestSupport"], exclude: ["HelpSnapshots"]),
        .testTarget(name: "TactusPreviewTests", dependencies: ["TactusPreview", "TactusCore", "TactusFiles", "TactusAudio", "TactusMapping", "Tactus", "TactusAHAP", "TactusPresets", "TactusHaptic", "TactusTestSupport"]),
        .testTarget(name: "TactusLiveTests", dependencies: ["TactusLive", "TactusFFT", "TactusSpectrum", "TactusAnalysis", "TactusMapping", "TactusPresets", "TactusCore", "TactusFiles", "Tactus", "TactusAudio", "TactusTestSupport", "AllocationCounter"]),
    ],
    swiftLanguageModes: [.v5]
)

// `make docs`: the DocC catalogues as a static site, through swift-docc-plugin.
if ProcessInfo.processInfo.environment["TACTUS_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
