import Foundation
import TactusCore

/// Core Haptics' AHAP as an output format: `AHAPWriter` lays the track out, `AHAPEncoder`
/// writes the text. The paired audio becomes the `AudioCustom` event.
public struct AHAPFormat: HapticFormat {
    public static let id = "ahap"
    public static let fileExtension = "ahap"
    public static let summary = "Apple Haptic and Audio Pattern for Core Haptics (iOS, iPadOS, macOS, visionOS)."
    public static let rampMs = ParameterDescriptor.number("rampMs", 1...1000, default: 10, unit: "ms",
                help: "Length of the control ramps around a transient and of the return to neutral after a continuous region.")
    public static let parameters: [ParameterDescriptor] = [rampMs]

    /// Length of the control ramps, in seconds.
    public let rampDuration: Double

    public init(parameters: ParameterSet) {
        rampDuration = parameters.number(Self.rampMs) / 1000
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        let options = AHAPWriter.Options(audioFileName: context.pairedAudio?.fileName,
                                         audioVolume: context.pairedAudio?.volume ?? 1,
                                         useVolumeEnvelope: context.pairedAudio?.useVolumeEnvelope ?? false,
                                         metadata: context.metadata, rampDuration: rampDuration)
        try AHAPEncoder().write(try AHAPWriter(options: options).document(for: track), to: emit)
    }
}
