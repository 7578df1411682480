/// The page `tactus tune` serves, compiled into the tool (it works with no network): one
/// HTML document, its style sheet and its script. The page builds every knob from the
/// parameter list the server sends (`TuneParameters`) and writes names and metadata only as
/// text (`textContent`), never as markup.
enum TunePage {
    /// The document, its assets addressed with `token` (64 hex digits, checked by the caller).
    static func html(token: String) -> String {
        precondition(token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, "a hex token")
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Tactus tune</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/tune.css?token=\(token)">
        <script defer src="/tune.js?token=\(token)"></script>
        </head>
        <body>
        <header>
          <h1>Tactus tune</h1>
          <span id="base"></span>
          <span id="status" role="status">loading…</span>
          <span class="spacer"></span>
          <span class="group" id="ab">
            <button id="pin" title="Keep the settings in force as A; the knobs go on tuning B">Pin as A</button>
            <button id="switch" disabled title="Show and hear A or B">Showing B</button>
            <label><input type="checkbox" id="overlay" disabled> overlay A</label>
          </span>
        </header>
        <main>
          <section id="sounds" aria-label="Sounds">
            <div id="transport" class="group">
              <button id="play-original" data-mode="original">▶ Original</button>
              <button id="play-haptics" data-mode="haptics">▶ Haptics</button>
              <button id="play-mix" data-mode="mix">▶ Mix</button>
              <button id="stop">■ Stop</button>
              <label><input type="checkbox" id="loop"> loop region</label>
              <span class="hint">Wheel: zoom · drag: scroll · shift-drag: region · double-click: whole sound</span>
            </div>
            <div id="list"></div>
            <label id="drop" class="drop">Drop sounds here, or <input type="file" id="add" multiple accept="audio/*"></label>
          </section>
          <aside id="side">
            <section id="save" class="panel">
              <h2>Save and export</h2>
              <label>Preset name <input id="name" pattern="[A-Za-z0-9_\\-]{1,64}" maxlength="64"></label>
              <div class="group">
                <button id="save-preset">Save as new preset</button>
                <select id="folder" aria-label="Folder"></select>
                <button id="save-folder">Save into tactus.json</button>
                <button id="save-base" hidden>Save over the preset file</button>
              </div>
              <div class="group" id="formats"></div>
              <button id="export">Export current sound</button>
              <p id="saved" class="note"></p>
            </section>
            <section id="in-force" class="panel">
              <h2>Settings in force</h2>
              <pre id="set-lines"></pre>
              <details><summary>As a preset file</summary><pre id="preset-json"></pre></details>
            </section>
            <section id="knobs" class="panel" aria-label="Parameters"></section>
          </aside>
        </main>
        </body>
        </html>

        """
    }
}
