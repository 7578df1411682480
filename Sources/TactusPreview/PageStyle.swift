/// Shared look of the preview page and the gallery: system fonts, the same light and dark
/// palette as the plot (switched by `prefers-color-scheme`), nothing loaded from anywhere.
enum PageStyle {
    static let css = """
    :root{color-scheme:light dark;--bg:#f8fafc;--card:#ffffff;--text:#0f172a;--muted:#64748b;--line:#e2e8f0;\
    --accent:#e11d48;--warn:#b45309;--bad:#b91c1c;--good:#047857}
    @media (prefers-color-scheme:dark){:root{--bg:#020617;--card:#0f172a;--text:#e2e8f0;--muted:#94a3b8;\
    --line:#1e293b;--accent:#fb7185;--warn:#fbbf24;--bad:#f87171;--good:#34d399}}
    *{box-sizing:border-box}
    body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 \(PlotStyle.fontStack)}
    main{max-width:1248px;margin:0 auto;padding:24px}
    h1{font-size:24px;margin:0 0 4px}
    h2{font-size:15px;margin:0 0 8px}
    .eyebrow{margin:0;color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.06em}
    .card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:16px}
    .muted{color:var(--muted)}
    .warn{color:var(--warn)}
    audio{width:100%}
    button{font:inherit;color:inherit;background:var(--card);border:1px solid var(--line);border-radius:8px;\
    padding:4px 10px;cursor:pointer}
    button:hover{border-color:var(--muted)}
    a{color:inherit}
    """

    /// The document head every page shares; `extraCSS` adds the page's own rules.
    static func head(title: String, extraCSS: String) -> String {
        """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="color-scheme" content="light dark"/>
        <title>\(Markup.escape(title))</title>
        <style>
        \(css)
        \(extraCSS)
        </style>
        </head>
        """
    }

    /// A script element whose code is also well-formed XML (CDATA hidden in JS comments).
    static func script(_ code: String) -> String {
        "<script>//<![CDATA[\n\(code)\n//]]></script>"
    }
}
