extension TunePage {
    /// Light and dark (`prefers-color-scheme`); the plot reads its colours from these variables.
    static let style = #"""
    :root {
      --bg: #f7f7f5; --fg: #1d1d1f; --muted: #6b6b70; --panel: #ffffff; --line: #d9d9de;
      --accent: #0a66d8; --wave: #b9bcc6; --intensity: #d9480f; --sharpness: #1c7ed6;
      --ghost: #8a8a8f; --playhead: #e03131; --region: rgba(10, 102, 216, 0.13); --error: #c92a2a;
      color-scheme: light dark;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #151518; --fg: #ececf1; --muted: #9a9aa3; --panel: #1f1f24; --line: #34343c;
        --accent: #5ea8ff; --wave: #4a4d57; --intensity: #ff8a4c; --sharpness: #66b3ff;
        --ghost: #9d9da6; --playhead: #ff6b6b; --region: rgba(94, 168, 255, 0.16); --error: #ff8787;
      }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    header { display: flex; gap: 12px; align-items: center; padding: 10px 16px; border-bottom: 1px solid var(--line);
             background: var(--panel); position: sticky; top: 0; z-index: 2; flex-wrap: wrap; }
    h1 { font-size: 17px; margin: 0; }
    h2 { font-size: 14px; margin: 0 0 8px; }
    #base { color: var(--muted); max-width: 45vw; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    #status { color: var(--muted); font-variant-numeric: tabular-nums; }
    #status.error { color: var(--error); }
    .spacer { flex: 1; }
    .group { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 4px 0; }
    main { display: grid; grid-template-columns: minmax(0, 1fr) 400px; gap: 16px; padding: 16px; }
    button, select, input { font: inherit; color: inherit; }
    button { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
    button:hover:not(:disabled) { border-color: var(--accent); }
    button.on { background: var(--accent); border-color: var(--accent); color: #fff; }
    button:disabled { opacity: 0.5; cursor: default; }
    select, input[type=number], input[type=text], input:not([type]) { background: var(--panel); border: 1px solid var(--line);
             border-radius: 5px; padding: 2px 6px; }
    .hint, .note { color: var(--muted); font-size: 12px; }
    .note.error { color: var(--error); }
    .sound { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; margin: 10px 0; }
    .sound.current { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
    .sound .title { display: flex; gap: 10px; align-items: baseline; }
    .sound .name { font-weight: 600; overflow-wrap: anywhere; }
    .sound .facts { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
    .sound canvas { width: 100%; height: 190px; display: block; margin-top: 6px; cursor: grab; touch-action: none; }
    .legend { display: flex; gap: 14px; font-size: 12px; color: var(--muted); margin-top: 4px; flex-wrap: wrap; }
    .legend i { display: inline-block; width: 14px; height: 3px; vertical-align: middle; margin-right: 4px; }
    .drop { display: block; border: 2px dashed var(--line); border-radius: 8px; padding: 18px; text-align: center; color: var(--muted); }
    .drop.over { border-color: var(--accent); color: var(--fg); }
    .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin-bottom: 12px; }
    aside { position: sticky; top: 64px; align-self: start; max-height: calc(100vh - 80px); overflow: auto; }
    pre { margin: 0; font: 12px/1.35 ui-monospace, "SF Mono", Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
    details.section { border-top: 1px solid var(--line); padding: 6px 0; }
    details.section > summary { cursor: pointer; font-weight: 600; }
    details.section > summary .summary { font-weight: normal; color: var(--muted); font-size: 12px; display: block; }
    .knob { display: grid; grid-template-columns: 1fr 86px; gap: 2px 8px; margin: 8px 0 2px; }
    .knob label { font-size: 13px; grid-column: 1 / 3; }
    .knob label .unit, .knob label .range { color: var(--muted); font-size: 12px; margin-left: 6px; }
    .knob.changed label .name { color: var(--accent); font-weight: 600; }
    .knob input[type=range] { width: 100%; accent-color: var(--accent); }
    .knob input[type=number] { width: 86px; }
    .knob .help { grid-column: 1 / 3; color: var(--muted); font-size: 12px; }
    .knob.analysis label .name::after { content: " ⟳"; color: var(--muted); font-weight: normal; }
    @media (max-width: 1000px) { main { grid-template-columns: 1fr; } aside { position: static; max-height: none; } }
    """#
}
