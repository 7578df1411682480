import TactusCore
import TactusPlatform

/// The one-file HTML page of a preview: key numbers, the plot inline, players for the
/// sound, the haptics and both side by side, and a playhead that follows whichever plays.
///
/// Self-contained: styles and script are inline and the sounds are referenced by paths
/// relative to the page, so the folder works offline, zipped, or served as is.
struct PreviewPage {
    let summary: PreviewSummary
    let svg: String

    private var folder: URL { summary.page.deletingLastPathComponent() }

    func html() -> String {
        let title = summary.file.lastPathComponent
        return PageStyle.head(title: "\(title) — Tactus haptics preview", extraCSS: Self.css) + """

        <body>
        <main>
        <header><p class="eyebrow">Tactus haptics preview</p><h1>\(Markup.escape(title))</h1></header>
        \(numbers())
        <figure class="plot card">
        \(svg)<figcaption class="muted">Click the plot to jump there. Dots are transients (higher and bigger = \
        stronger; blue = dull, amber = sharp); the solid line is continuous intensity, the dashed line its sharpness.</figcaption>
        </figure>
        <section class="players">
        \(players())
        </section>
        \(warnings())
        <footer class="muted">How the haptics sound: each transient is a tick (its loudness is its intensity; \
        low and soft = dull, high and crisp = sharp); continuous haptics are a hum between 80 and 300 Hz that \
        swells with intensity and rises in pitch and edge with sharpness. Made by Tactus.</footer>
        </main>
        \(PageStyle.script(Self.playheadScript))
        </body>
        </html>

        """
    }

    private func numbers() -> String {
        let items: [(String, String)] = [
            (String(summary.transientCount), summary.transientCount == 1 ? "transient" : "transients"),
            (Markup.seconds(summary.continuousSeconds), "continuous haptics"),
            (String(summary.curvePointCount), summary.curvePointCount == 1 ? "curve point" : "curve points"),
            (Markup.seconds(summary.length), summary.originalAudio == nil ? "length of the haptics" : "length of the sound"),
            (summary.presetName ?? "unknown", "preset"),
        ]
        let cells = items.map { value, label in
            "<li><span class=\"value\">\(Markup.escape(value))</span><span class=\"label\">\(label)</span></li>"
        }
        return "<ul class=\"numbers\">\n" + cells.joined(separator: "\n") + "\n</ul>"
    }

    private func players() -> String {
        var cards: [String] = []
        if let original = summary.originalAudio {
            cards.append(player("Sound", "the file's own audio", original))
        }
        cards.append(player("Haptics, as sound", "what the Taptic Engine would play", summary.hapticsAudio))
        if let mix = summary.sideBySideAudio {
            cards.append(player("Side by side", "sound in the left ear, haptics in the right", mix))
        }
        return cards.joined(separator: "\n")
    }

    private func player(_ title: String, _ note: String, _ file: URL) -> String {
        let source = RelativePath.reference(to: file, from: folder)
        return """
        <div class="card"><h2>\(title)</h2><p class="muted">\(note)</p>\
        <audio controls="controls" preload="metadata" src="\(Markup.escape(source))"></audio></div>
        """
    }

    private func warnings() -> String {
        guard !summary.warnings.isEmpty else {
            return "<section class=\"card notes\"><h2>Checks</h2><p>No problems found by tactus validate.</p></section>"
        }
        let items = summary.warnings.map { "<li>\(Markup.escape($0))</li>" }.joined(separator: "\n")
        return "<section class=\"card notes\"><h2 class=\"warn\">Checks: \(summary.warnings.count) finding"
            + "\(summary.warnings.count == 1 ? "" : "s")</h2>\n<ul>\n\(items)\n</ul></section>"
    }

    static let css = """
    header{margin-bottom:16px}
    .numbers{list-style:none;padding:0;margin:0 0 16px;display:flex;flex-wrap:wrap;gap:12px}
    .numbers li{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:10px 16px;min-width:140px}
    .numbers .value{display:block;font-size:22px;font-weight:600}
    .numbers .label{color:var(--muted);font-size:13px}
    figure{margin:0 0 16px;padding:8px}
    figure svg{display:block;width:100%;height:auto;cursor:crosshair}
    figcaption{font-size:13px;padding:4px 8px 0}
    .players{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px;margin-bottom:16px}
    .players p{margin:0 0 8px;font-size:13px}
    .notes{margin-bottom:16px}
    .notes ul{margin:0;padding-left:20px;font-size:13px}
    footer{font-size:13px}
    """

    /// Moves the plot's playhead with the player that is playing (one at a time) and
    /// seeks the current player when the plot is clicked.
    static let playheadScript = """
    (function () {
      var svg = document.querySelector('svg.tp-plot');
      var head = document.getElementById('tp-playhead');
      var players = Array.prototype.slice.call(document.querySelectorAll('audio'));
      if (!svg || !head || players.length === 0) { return; }
      var left = parseFloat(svg.getAttribute('data-plot-left'));
      var width = parseFloat(svg.getAttribute('data-plot-width'));
      var duration = parseFloat(svg.getAttribute('data-duration'));
      var active = null;
      function place() {
        if (!active) { return; }
        var t = active.currentTime;
        var x = left + Math.max(0, Math.min(1, t / duration)) * width;
        head.setAttribute('x1', x);
        head.setAttribute('x2', x);
        head.setAttribute('visibility', 'visible');
        if (!active.paused) { window.requestAnimationFrame(place); }
      }
      players.forEach(function (player) {
        player.addEventListener('play', function () {
          players.forEach(function (other) { if (other !== player) { other.pause(); } });
          active = player;
          window.requestAnimationFrame(place);
        });
        player.addEventListener('seeked', function () { if (player === active) { place(); } });
      });
      svg.addEventListener('click', function (event) {
        var target = active || players[players.length - 1];
        var box = svg.getBoundingClientRect();
        var x = (event.clientX - box.left) * svg.viewBox.baseVal.width / box.width;
        var t = (x - left) / width * duration;
        target.currentTime = Math.max(0, t);
        active = target;
        place();
      });
    })();
    """
}
