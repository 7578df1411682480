import TactusCore

/// The knobs the page shows first, under "Feel": at most `maxCount` parameters a designer
/// reads as what they will feel, each with a title and help in plain words (the parameter's
/// own help, with its formula, stays behind a disclosure). Every other parameter is under
/// "Advanced". The `feel` controls come first; the rest are the mapping's most audible curves.
enum TuneDesignerKnobs {
    /// One knob: a parameter key (`section.name`), what the page calls it, what you will feel.
    struct Knob {
        /// `section.name`, as `--set` takes it.
        let key: String
        /// The knob's label, a few words.
        let title: String
        /// What turning it does to what you feel, in one or two plain sentences.
        let feel: String
    }

    /// The most knobs the page shows before "Advanced".
    static let maxCount = 12

    /// The designer knobs, in page order.
    static let all: [Knob] = [
        Knob(key: "feel.strengthDb", title: "Strength",
             feel: "How hard everything plays. Up: every click and rumble stronger; down: gentler haptics. 0 leaves the preset as it is."),
        Knob(key: "feel.transientsDb", title: "Clicks",
             feel: "How hard the clicks (the short taps at each hit) play, on top of Strength. Up for punchier hits."),
        Knob(key: "feel.bodyDb", title: "Body",
             feel: "How much rumble (the vibration that lasts under a sound) plays against the clicks. Up for heavier explosions."),
        Knob(key: "feel.crispness", title: "Round ↔ crisp",
             feel: "Left: round and dull, a thud. Right: crisp and sharp, a snap. Clicks and rumble move together."),
        Knob(key: "feel.density", title: "How many clicks",
             feel: "Right: more, softer clicks in busy sounds (rattles, footsteps). Left: only the clear hits click. Listens to the sounds again."),
        Knob(key: "mapping.intensity.gamma", title: "Body fullness",
             feel: "Left: the quiet parts of a sound rumble too, a full, heavy body. Right: only the loud peaks rumble."),
        Knob(key: "mapping.sharpness.brightenOctaves", title: "Body brightness",
             feel: "Left: the rumble feels rounder and duller, a deep thud. Right: it feels sharper and buzzier. Clicks are left as they are."),
        Knob(key: "mapping.intensity.releaseMs", title: "Body tail",
             feel: "How long the rumble lingers after the sound drops, in milliseconds. Longer tails feel heavier and rounder."),
        Knob(key: "mapping.transients.gamma", title: "Click contrast",
             feel: "Left: soft hits click almost as hard as loud ones. Right: only the loudest hits click hard."),
        Knob(key: "mapping.transients.minIntensity", title: "Softest click",
             feel: "How hard the softest click plays, from 0 (barely felt) to 1 (as hard as the loudest)."),
        Knob(key: "mapping.transients.enabled", title: "Clicks on",
             feel: "Whether the clicks play at all."),
        Knob(key: "mapping.intensity.enabled", title: "Body on",
             feel: "Whether the rumble under the sounds plays at all."),
    ]

    /// The knobs as the page reads them: `[{key, title, feel}]`.
    static var json: JSONValue {
        .array(all.map { .object([("key", .string($0.key)), ("title", .string($0.title)), ("feel", .string($0.feel))]) })
    }
}
