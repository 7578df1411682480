import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a track plays at increasing instants, read with cursors (no search per instant), for
/// formats that render the track on a time grid: the drive signal of `pcm` and `dualsense`
/// and the motor speeds of `rumble`.
///
/// At each instant: the continuous intensity and sharpness of the region playing then (0 and
/// 0.5 outside every region), each region faded in and out over `edge` seconds at its ends so
/// a step from silence does not click, and the strongest transient pulse playing then, a pulse
/// lasting `pulse` seconds from its transient's time with the envelope `shape`.
struct TrackSampler {
    /// A transient pulse's envelope over its length, 0…1 of its intensity.
    enum PulseShape: String, CaseIterable {
        /// sin²(πx): smooth at both ends, the narrowest spectrum.
        case hann
        /// sin(πx): rises faster (half its peak after a sixth of its length), wider spectrum.
        case sine
        /// 1 throughout: what a motor given a speed for a while plays.
        case rectangle

        func value(at x: Double) -> Double {
            switch self {
            case .hann: let s = sin(Double.pi * x); return s * s
            case .sine: return sin(Double.pi * x)
            case .rectangle: return 1
            }
        }
    }

    /// What plays at one instant.
    struct Instant: Equatable {
        var continuousIntensity = 0.0
        var continuousSharpness = 0.5
        /// The strongest pulse's envelope value (its intensity × its shape there); 0 without one.
        var pulse = 0.0
        /// That pulse's designed intensity and sharpness.
        var pulseIntensity = 0.0, pulseSharpness = 0.5
    }

    let track: HapticTrack
    let pulse: Double, edge: Double, shape: PulseShape
    private var region = 0
    /// The current region's intensity and sharpness curves, read forwards.
    private var intensity: Polyline.Cursor, sharpness: Polyline.Cursor
    private var firstPulse = 0
    private var last = -Double.infinity

    /// - Parameters:
    ///   - pulse: length of a transient's pulse, seconds (> 0).
    ///   - edge: fade at each end of a continuous region, seconds (0: none).
    init(_ track: HapticTrack, pulse: Double, edge: Double, shape: PulseShape) {
        self.track = track
        self.pulse = pulse
        self.edge = edge
        self.shape = shape
        intensity = Polyline.Cursor(track.regions.first?.intensity ?? [])
        sharpness = Polyline.Cursor(track.regions.first?.sharpness ?? [])
    }

    /// What plays at `time`, seconds; times must not decrease from one call to the next.
    mutating func sample(at time: Double) -> Instant {
        precondition(time >= last, "TrackSampler reads forwards")
        last = time
        var instant = Instant()
        let regions = track.regions
        while region < regions.count, regions[region].end <= time {
            region += 1
            if region < regions.count {
                intensity = Polyline.Cursor(regions[region].intensity)
                sharpness = Polyline.Cursor(regions[region].sharpness)
            }
        }
        if region < regions.count, regions[region].start <= time {
            let current = regions[region]
            let fade = edge > 0 ? min(1, (time - current.start) / edge, (current.end - time) / edge) : 1
            instant.continuousIntensity = intensity.value(at: time) * fade
            instant.continuousSharpness = current.sharpness.isEmpty ? 0.5 : sharpness.value(at: time)
        }
        let transients = track.transients
        while firstPulse < transients.count, transients[firstPulse].time + pulse <= time { firstPulse += 1 }
        var index = firstPulse
        while index < transients.count, transients[index].time <= time {
            let transient = transients[index]
            let envelope = transient.intensity * shape.value(at: (time - transient.time) / pulse)
            if transient.time + pulse > time, envelope > instant.pulse {
                instant.pulse = envelope
                (instant.pulseIntensity, instant.pulseSharpness) = (transient.intensity, transient.sharpness)
            }
            index += 1
        }
        return instant
    }
}
