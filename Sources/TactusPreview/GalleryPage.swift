import TactusCore
import TactusFiles
import TactusPlatform

/// One file of a batch, as the gallery lists it.
public struct GalleryRow: Equatable, Sendable {
    /// Whether the file converted.
    public enum Status: Equatable, Sendable {
        /// The file converted.
        case ok
        /// The file failed; the one-line reason.
        case failed(String)
    }

    /// What the row is called, e.g. the source's path relative to the batch's input folder.
    public var name: String
    /// Converted, or failed with its reason.
    public var status: Status
    /// The batch's warnings about this file (e.g. the preview's and the validator's findings).
    public var warnings: [String]
    /// The file's preview, nil when none was made (e.g. it failed).
    public var preview: PreviewSummary?

    /// - Parameters:
    ///   - name: what the row is called.
    ///   - status: converted, or failed with its reason.
    ///   - warnings: the batch's warnings about the file.
    ///   - preview: the file's preview, or nil.
    public init(name: String, status: Status, warnings: [String] = [], preview: PreviewSummary? = nil) {
        self.name = name
        self.status = status
        self.warnings = warnings
        self.preview = preview
    }
}

/// `index.html` for a whole output tree: one row per file with its name (linking to its
/// page), its plot as a thumbnail, buttons that play its sound, haptics or both, its status
/// and its warnings; sortable by name and by warning count. Self-contained like the pages.
public enum GalleryPage {
    /// Writes the gallery to `url` (`index.html` in the previews' folder, for `batch --preview`); links are relative to it.
    /// The committed page is recorded in `log`.
    /// - Parameters:
    ///   - rows: the files, in any order.
    ///   - url: the page's path, staged and renamed into place.
    ///   - log: records the committed page.
    /// - Throws: a `FileError` when the page cannot be written.
    public static func write(rows: [GalleryRow], to url: URL, log: CommittedFiles) throws {
        let file = StagedFile(url)
        defer { file.discard() }
        try file.write(html(rows: rows, folder: url.deletingLastPathComponent()))
        try file.commit(recordingIn: log)
    }

    /// The page, rows sorted by name (the order the batch ran in does not matter).
    static func html(rows: [GalleryRow], folder: URL) -> String {
        let sorted = rows.enumerated().sorted { a, b in
            (a.element.name.lowercased(), a.element.name, a.offset) < (b.element.name.lowercased(), b.element.name, b.offset)
        }.map(\.element)
        let failed = rows.filter { $0.status != .ok }.count
        let warned = rows.filter { !$0.warnings.isEmpty }.count
        return PageStyle.head(title: "Tactus haptics previews", extraCSS: css) + """

        <body>
        <main>
        <header><p class="eyebrow">Tactus haptics previews</p><h1>\(rows.count) file\(rows.count == 1 ? "" : "s")</h1>\
        <p class="muted">\(rows.count - failed) converted, \(failed) failed, \(warned) with warnings. \
        Sort by <button type="button" data-sort="name">name</button> \
        <button type="button" data-sort="warnings">warnings</button></p></header>
        <table class="card">
        <thead><tr><th>File</th><th>Plot</th><th>Listen</th><th>Status</th><th>Warnings</th></tr></thead>
        <tbody>
        \(sorted.enumerated().map { row(folder: folder, $0.element, order: $0.offset) }.joined(separator: "\n"))
        </tbody>
        </table>
        </main>
        \(PageStyle.script(script))
        </body>
        </html>

        """
    }

    private static func row(folder: URL, _ row: GalleryRow, order: Int) -> String {
        func link(_ file: URL) -> String { Markup.escape(RelativePath.reference(to: file, from: folder)) }
        let name: String, plot: String, listen: String
        if let preview = row.preview {
            name = "<a href=\"\(link(preview.page))\">\(Markup.escape(row.name))</a><br/><span class=\"muted\">"
                + "\(preview.transientCount) transient\(preview.transientCount == 1 ? "" : "s") · "
                + "\(Markup.seconds(preview.continuousSeconds)) continuous · "
                + "\(Markup.escape(preview.presetName ?? "unknown preset"))</span>"
            plot = "<a href=\"\(link(preview.page))\"><img src=\"\(link(preview.plot))\" alt=\"plot of "
                + "\(Markup.escape(row.name))\" width=\"300\" height=\"110\"/></a>"
            let sounds = [("sound", preview.originalAudio), ("haptics", preview.hapticsAudio),
                          ("both", preview.sideBySideAudio)]
            listen = sounds.compactMap { label, file in
                file.map { "<button type=\"button\" class=\"play\" data-src=\"\(link($0))\">▶ \(label)</button>" }
            }.joined(separator: " ")
        } else {
            name = Markup.escape(row.name)
            plot = "<span class=\"muted\">no preview</span>"
            listen = ""
        }
        let status: String
        switch row.status {
        case .ok: status = "<span class=\"ok\">ok</span>"
        case .failed(let reason): status = "<span class=\"failed\">failed</span><br/><span class=\"muted\">\(Markup.escape(reason))</span>"
        }
        let warnings = row.warnings.isEmpty ? "<span class=\"muted\">none</span>"
            : "<details><summary class=\"warn\">\(row.warnings.count)</summary><ul>"
                + row.warnings.map { "<li>\(Markup.escape($0))</li>" }.joined() + "</ul></details>"
        return "<tr data-name=\"\(Markup.escape(row.name.lowercased()))\" data-order=\"\(order)\" "
            + "data-warnings=\"\(row.warnings.count)\"><td>\(name)</td><td>\(plot)</td><td class=\"listen\">\(listen)</td>"
            + "<td>\(status)</td><td>\(warnings)</td></tr>"
    }

    static let css = """
    table{width:100%;border-collapse:collapse;padding:0;overflow:hidden}
    th,td{text-align:left;vertical-align:top;padding:10px 12px;border-bottom:1px solid var(--line)}
    th{font-size:13px;color:var(--muted);font-weight:600}
    td img{display:block;width:300px;height:auto;border-radius:6px}
    .listen{white-space:nowrap}
    .listen button{margin:0 4px 4px 0}
    .play.playing{border-color:var(--accent);color:var(--accent)}
    .ok{color:var(--good);font-weight:600}
    .failed{color:var(--bad);font-weight:600}
    details ul{margin:4px 0 0;padding-left:18px;font-size:13px}
    [data-sort].active{border-color:var(--accent)}
    """

    /// Sorting by name (A→Z, again Z→A) or by warnings (most first, again fewest first),
    /// and one shared player for every play button.
    static let script = """
    (function () {
      var body = document.querySelector('tbody');
      var rows = Array.prototype.slice.call(body.rows);
      var direction = {};
      function sortBy(key) {
        direction[key] = -(direction[key] || (key === 'name' ? -1 : 1));
        var d = direction[key];
        rows.sort(function (a, b) {
          var order = parseInt(a.getAttribute('data-order'), 10) - parseInt(b.getAttribute('data-order'), 10);
          if (key === 'warnings') {
            var w = parseInt(b.getAttribute('data-warnings'), 10) - parseInt(a.getAttribute('data-warnings'), 10);
            return w !== 0 ? d * w : order;
          }
          return d * order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
        Array.prototype.forEach.call(document.querySelectorAll('[data-sort]'), function (button) {
          button.classList.toggle('active', button.getAttribute('data-sort') === key);
        });
      }
      Array.prototype.forEach.call(document.querySelectorAll('[data-sort]'), function (button) {
        button.addEventListener('click', function () { sortBy(button.getAttribute('data-sort')); });
      });
      var audio = new Audio();
      var current = null;
      function stop() { audio.pause(); if (current) { current.classList.remove('playing'); } current = null; }
      audio.addEventListener('ended', stop);
      Array.prototype.forEach.call(document.querySelectorAll('button.play'), function (button) {
        button.addEventListener('click', function () {
          var again = current === button;
          stop();
          if (again) { return; }
          audio.src = button.getAttribute('data-src');
          audio.play();
          current = button;
          button.classList.add('playing');
        });
      });
    })();
    """
}
