import TactusCore

/// An Ogg file with haptic channels (`<stem>.android.ogg`, from Tactus or any tool) read from
/// untrusted bytes as Android's Ogg extractor reads it, every problem found, and what its haptic
/// channel plays as a track (`DriveDemodulator`).
///
/// Android (frameworks/av, `OggExtractor.cpp` and `MetaDataUtils.cpp`'s `parseVorbisComment`)
/// takes the comment `ANDROID_HAPTIC=<n>` (key case-insensitive, n decimal) from a Vorbis or
/// Opus comment header as the number of haptic channels, the last n of each frame; it accepts
/// n of 1 or 2 (`HAPTIC_A`, `HAPTIC_A|HAPTIC_B`) with 1…8 sound channels before them, and
/// otherwise plays the file as sound only.
///
/// Errors (the file does not read, or Android plays no haptics from it): a page cut short, not
/// `OggS` version 0 or failing its CRC; more than one logical stream; neither Vorbis nor Opus;
/// no `ANDROID_HAPTIC`, or a count other than 1 or 2, or one leaving no sound channel or more
/// than 8; a rate at or below twice the band's top; audio libsndfile cannot decode; more than
/// `AndroidOggFormat.maxFrames` frames. Warnings: page sequence numbers that skip (a page
/// lost), a haptic channel that is silent throughout.
enum AndroidOggFile {
    /// What the file plays, or the first error `inspect` finds.
    /// - Throws: `FormatReadError` with that error's place and message.
    static func imported(_ bytes: [UInt8], drive: ActuatorDrive) throws -> ImportedHaptics {
        let (track, metadata, diagnostics) = inspect(bytes, drive: drive)
        guard let track else {
            let error = diagnostics.first { $0.severity == .error }
            throw FormatReadError(location: error?.location ?? "", message: error?.message ?? "cannot be read")
        }
        return ImportedHaptics(track: track, metadata: metadata)
    }

    /// The file's findings, its metadata (the comments other than `ANDROID_HAPTIC`), and what
    /// it plays when none is an error.
    static func inspect(_ bytes: [UInt8], drive: ActuatorDrive) -> (track: HapticTrack?, metadata: [MetadataEntry], diagnostics: [FormatDiagnostic]) {
        var findings = FormatFindings()
        let headers: OggAudioHeaders
        do {
            let pages = try OggPages.pages(of: bytes)
            if let other = pages.first(where: { $0.serial != pages[0].serial }) {
                findings.error("multipleStreams", "byte \(other.start)", "a second logical stream (serial \(other.serial)); Android plays one")
                return (nil, [], findings.all)
            }
            if let gap = pages.indices.dropFirst().first(where: { pages[$0].sequence != pages[$0 - 1].sequence &+ 1 }) {
                findings.warning("pageSequence", "page \(gap)", "sequence number \(pages[gap].sequence) after \(pages[gap - 1].sequence) (a page missing)")
            }
            let packets = try OggPages.firstPackets(2, of: pages, in: bytes).packets
            headers = try OggAudioHeaders(identification: packets[0], comment: packets[1])
        } catch let error as FormatReadError {
            findings.error("notOgg", error.location, error.message)
            return (nil, [], findings.all)
        } catch {
            findings.error("notOgg", "", "\(error)")
            return (nil, [], findings.all)
        }
        guard let text = headers.value(of: "ANDROID_HAPTIC") else {
            findings.error("noHapticChannels", "comment header", "no ANDROID_HAPTIC comment: Android plays the file as sound only")
            return (nil, [], findings.all)
        }
        let haptic = Int(text) ?? 0
        let sound = headers.channels - haptic
        if !(1...2).contains(haptic) {
            findings.error("hapticCount", "comment header", "ANDROID_HAPTIC=\(text); Android plays 1 or 2 haptic channels")
        } else if !(1...8).contains(sound) {
            findings.error("soundChannels", "identification header", "\(headers.channels) channels leave \(sound) for the sound; Android needs 1 to 8")
        }
        if Double(headers.sampleRate) <= 2 * drive.highHz {
            findings.error("rateBelowBand", "identification header", "a \(headers.sampleRate) Hz file cannot hold the band's \(drive.highHz) Hz carrier")
        }
        guard !findings.hasErrors else { return (nil, [], findings.all) }
        var samples: [Float] = []
        let decoded: (channels: Int, sampleRate: Int)
        do {
            let channel = sound
            decoded = try OggVorbis.codec().decode(bytes, maxFrames: AndroidOggFormat.maxFrames) { block in
                var f = channel
                while f < block.count {
                    samples.append(block[f])
                    f += headers.channels
                }
            }
        } catch {
            findings.error("undecodable", (error as? FormatReadError)?.location ?? "", (error as? FormatReadError)?.message ?? "\(error)")
            return (nil, [], findings.all)
        }
        guard decoded.channels == headers.channels else {
            findings.error("undecodable", "", "libsndfile decodes \(decoded.channels) channels where the header says \(headers.channels)")
            return (nil, [], findings.all)
        }
        if !samples.contains(where: { $0 != 0 }) {
            findings.warning("silentHaptics", "channel \(sound + 1)", "the haptic channel is silent")
        }
        let metadata = headers.comments.compactMap { entry -> MetadataEntry? in
            guard let equals = entry.firstIndex(of: "="), entry[..<equals].lowercased() != "android_haptic" else { return nil }
            return MetadataEntry(key: String(entry[..<equals]), value: String(entry[entry.index(after: equals)...]))
        }
        let track = DriveDemodulator(drive: drive).track(count: samples.count, sampleRate: Double(decoded.sampleRate)) { samples[$0] }
        return (track, metadata, findings.all)
    }
}
