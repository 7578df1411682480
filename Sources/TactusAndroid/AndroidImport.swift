import TactusCore

/// What an Android file plays, as a track: its `waveform`, the form devices with amplitude
/// control play. Each run of segments with amplitude above 0 becomes a continuous region whose
/// intensity steps with the segments (intensity = √(amplitude / 255), the writer's law read
/// back); transients are already pulses inside the waveform, and sharpness, which Android
/// amplitudes do not carry, is `defaultSharpness` throughout (a warning says both).
enum AndroidImport {
    /// Sharpness of every region read from a waveform.
    static let defaultSharpness = 0.5

    static func imported(from document: AndroidFileReader.Document) -> ImportedHaptics {
        var regions: [HapticTrack.ContinuousRegion] = []
        var points: [HapticTrack.Point] = []
        var time = 0
        func closeRegion() {
            guard let first = points.first, let last = points.last else { return }
            regions.append(HapticTrack.ContinuousRegion(
                start: first.time, end: last.time, intensity: points,
                sharpness: [.init(time: first.time, value: defaultSharpness), .init(time: last.time, value: defaultSharpness)]))
            points = []
        }
        for segment in document.waveform where segment.ms > 0 {
            let start = Double(time) / 1000
            time += segment.ms
            guard segment.amplitude > 0 else {
                closeRegion()
                continue
            }
            let intensity = (Double(segment.amplitude) / 255).squareRoot()
            points += [.init(time: start, value: intensity), .init(time: Double(time) / 1000, value: intensity)]
        }
        closeRegion()
        let duration = Double(max(time, document.durationMs)) / 1000
        let warning = FormatDiagnostic(
            severity: .warning, kind: "readFromWaveform", location: "waveform",
            message: "read from the waveform (what devices with amplitude control play): transients are pulses of the continuous intensity, sharpness is \(JSONText.shortest(defaultSharpness)) throughout")
        return ImportedHaptics(track: HapticTrack(duration: duration, regions: regions), metadata: document.metadata,
                               warnings: [warning])
    }
}
