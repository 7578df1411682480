#if canImport(CoreHaptics) && canImport(AVFoundation)
import AVFoundation
import CoreHaptics
import TactusPresets

/// Haptics for whatever an `AVAudioEngine` node plays, as it plays: a tap on the node feeds
/// `LiveHaptics`, whose transients play as transient events and whose body drives one looping
/// continuous event of a `CHHapticAdvancedPatternPlayer` through its dynamic parameters.
///
/// Compiled only where Core Haptics exists (`#if canImport(CoreHaptics)`); this package is
/// built and tested on Linux, so this player has not been run. The article "Live haptics with
/// Core Haptics" walks through it.
///
/// The tap's block runs on a thread of AVAudioEngine's own, not the render thread;
/// `LiveHaptics` would be safe on either. Core Haptics is called on `queue`.
public final class LiveHapticPlayer {
    private let node: AVAudioNode
    private let bus: AVAudioNodeBus
    private let live: LiveHaptics
    private let haptics: CHHapticEngine
    private let body: CHHapticAdvancedPatternPlayer
    private let queue = DispatchQueue(label: "tactus.live.haptics")
    /// The tap's events, reused block after block.
    private var pending: [LiveEvent] = []

    /// Sets up the haptic engine and the stream for `node`'s output format.
    /// - Parameters:
    ///   - node: the node whose output is felt (a player, a mixer, the input).
    ///   - bus: its output bus.
    ///   - preset: the preset, as `tactus convert` takes it (`PresetLibrary.compiledIn.resolve`).
    /// - Throws: `LiveRefusal` for a preset that cannot run live, or Core Haptics' error.
    public init(node: AVAudioNode, bus: AVAudioNodeBus = 0, preset: ResolvedPreset) throws {
        self.node = node
        self.bus = bus
        let format = node.outputFormat(forBus: bus)
        live = try LiveHaptics(preset: preset, sampleRate: format.sampleRate, channels: Int(format.channelCount))
        haptics = try CHHapticEngine()
        // The body: a continuous event at full intensity and middle sharpness, looped, which
        // the dynamic parameters scale (intensity × control) and shift (sharpness + control).
        let continuous = CHHapticEvent(eventType: .hapticContinuous, parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.5),
        ], relativeTime: 0, duration: 30)
        body = try haptics.makeAdvancedPlayer(with: CHHapticPattern(events: [continuous], parameters: []))
        body.loopEnabled = true
        pending.reserveCapacity(256)
    }

    /// Starts the haptics and the tap; start the audio engine as usual.
    /// - Throws: Core Haptics' error when its engine or the body's player cannot start.
    public func start() throws {
        try haptics.start()
        try body.sendParameters([CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0, relativeTime: 0)],
                                atTime: CHHapticTimeImmediate)
        try body.start(atTime: CHHapticTimeImmediate)
        node.installTap(onBus: bus, bufferSize: 512, format: node.outputFormat(forBus: bus)) { [weak self] buffer, _ in
            self?.push(buffer)
        }
    }

    /// Removes the tap and stops the haptics.
    public func stop() {
        node.removeTap(onBus: bus)
        try? body.stop(atTime: CHHapticTimeImmediate)
        haptics.stop()
    }

    private func push(_ buffer: AVAudioPCMBuffer) {
        // The engine's standard format: Float32, one buffer per channel.
        guard let channels = buffer.floatChannelData else { return }
        pending.removeAll(keepingCapacity: true)
        live.push(planar: channels, frames: Int(buffer.frameLength)) { pending.append($0) }
        guard !pending.isEmpty else { return }
        let events = pending
        queue.async { [weak self] in self?.play(events) }
    }

    private func play(_ events: [LiveEvent]) {
        for event in events {
            switch event.kind {
            case .transient:
                let tap = CHHapticEvent(eventType: .hapticTransient, parameters: [
                    CHHapticEventParameter(parameterID: .hapticIntensity, value: Float(event.intensity)),
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: Float(event.sharpness)),
                ], relativeTime: 0)
                try? haptics.makePlayer(with: CHHapticPattern(events: [tap], parameters: [])).start(atTime: CHHapticTimeImmediate)
            case .continuous:
                try? body.sendParameters([
                    CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: Float(event.intensity), relativeTime: 0),
                    CHHapticDynamicParameter(parameterID: .hapticSharpnessControl, value: Float(event.sharpness - 0.5), relativeTime: 0),
                ], atTime: CHHapticTimeImmediate)
            }
        }
    }
}
#endif
