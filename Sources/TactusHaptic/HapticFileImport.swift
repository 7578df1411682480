import TactusCore

/// What a `.haptic` file plays, as the format-free `HapticTrack` (the inverse of
/// `HapticFileFormat`'s mapping, with the same √ law):
/// - each `emphasis` becomes a transient at its breakpoint's time, intensity
///   √`emphasis.amplitude`, sharpness `emphasis.frequency`;
/// - each stretch where the amplitude envelope is above 0 becomes a continuous region from the
///   breakpoint where it leaves 0 to the one where it returns (or the envelope ends), intensity
///   √amplitude (with points added where the √ law bends a segment, `SquareLaw`), sharpness the
///   frequency envelope interpolated over the region (0.5 where the file has none);
/// - the duration is the last amplitude breakpoint's time, as Meta's reader defines it.
/// What is lost: nothing a player plays; `.haptic` has no audio, and metadata keys other than
/// strings and tags are ignored.
enum HapticFileImport {
    /// Sharpness of a file without a frequency envelope.
    static let defaultSharpness = 0.5

    static func track(from document: HapticFileReader.Document) -> HapticTrack {
        let amplitude = document.amplitude
        let transients = amplitude.compactMap { breakpoint in
            breakpoint.emphasis.map {
                HapticTrack.Transient(time: breakpoint.time, intensity: $0.amplitude.squareRoot(), sharpness: $0.frequency)
            }
        }
        let frequency = (document.frequency ?? []).map { HapticTrack.Point(time: $0.time, value: $0.frequency) }
        var regions: [HapticTrack.ContinuousRegion] = []
        // Runs of segments with some amplitude above 0; a segment between two 0s ends a run.
        var run: [HapticFileReader.AmplitudeBreakpoint] = []
        func closeRun() {
            defer { run = [] }
            guard run.count >= 2, let start = run.first?.time, let end = run.last?.time, end > start else { return }
            let points = SquareLaw.intensities(fromAmplitudes: run.map { ($0.time, $0.amplitude) })
            regions.append(HapticTrack.ContinuousRegion(
                start: start, end: end,
                intensity: points.map { HapticTrack.Point(time: $0.time, value: $0.value) },
                sharpness: sharpness(frequency, from: start, to: end)))
        }
        for (previous, next) in zip(amplitude, amplitude.dropFirst()) {
            if previous.amplitude > 0 || next.amplitude > 0 {
                if run.isEmpty { run.append(previous) }
                run.append(next)
            } else {
                closeRun()
            }
        }
        closeRun()
        return HapticTrack(duration: amplitude.last?.time ?? 0, transients: transients, regions: regions)
    }

    /// The frequency envelope over `start…end`: its value at both ends and its breakpoints between.
    private static func sharpness(_ envelope: [HapticTrack.Point], from start: Double, to end: Double) -> [HapticTrack.Point] {
        guard !envelope.isEmpty else {
            return [HapticTrack.Point(time: start, value: defaultSharpness), HapticTrack.Point(time: end, value: defaultSharpness)]
        }
        let inside = envelope.filter { $0.time > start && $0.time < end }
        return [HapticTrack.Point(time: start, value: Polyline.value(of: envelope, at: start))] + inside
            + [HapticTrack.Point(time: end, value: Polyline.value(of: envelope, at: end))]
    }
}
