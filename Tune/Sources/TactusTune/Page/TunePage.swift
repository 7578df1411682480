/// The page `tactus tune` serves, compiled in (it works with no network): the files of
/// `Page/Assets` (`TunePageAssets`, written at build time by `TunePagePlugin`). The page builds
/// every knob from the parameter list the server sends (`TuneParameters`, `TuneDesignerKnobs`)
/// and writes names and metadata only as text (`textContent`), never as markup.
enum TunePage {
    /// The document, its assets addressed with `token` (64 hex digits, checked by the caller).
    static func html(token: String) -> String {
        precondition(token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, "a hex token")
        return TunePageAssets.html.replacing("{{token}}", with: token) + "\n"
    }
}
