"use strict";
(() => {
const { fmt, parseTyped, changedKeys } = window.TuneValues;
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const clone = (o) => JSON.parse(JSON.stringify(o));
const state = {
  base: "", params: [], byKey: new Map(), designer: [], baseValues: new Map(),
  // set: the knobs' values sent (key → value); valid: the last set the server accepted;
  // start: what "reset" goes back to (the --set overrides, or every value of a chosen preset).
  set: {}, valid: {}, start: {}, errors: new Map(),
  sounds: [], tracks: new Map(), findings: new Map(), current: 0, inForce: null,
  a: null, view: "B", overlay: false, pending: null, inflight: false, dirty: false, target: "track",
};
window.tuneLatencies = [];
window.tuneRenders = 0;
window.tuneBusy = () => state.inflight || state.dirty || state.pending !== null;

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") node.className = v; else if (k in node) node[k] = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}
function status(text, error) { const s = $("status"); s.textContent = text; s.classList.toggle("error", !!error); }
// A request; an answer other than 2xx throws an Error whose message is the server's one line
// and whose `status` is the HTTP status (422: settings refused).
async function api(path, body, raw) {
  const init = { method: body === undefined ? "GET" : "POST", headers: { "X-Tactus-Token": token } };
  if (body !== undefined) {
    if (raw) { init.body = body.data; init.headers["X-Tactus-Name"] = encodeURIComponent(body.name); }
    else { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    let message = response.status + " " + response.statusText;
    try { message = (await response.json()).error || message; } catch (e) { /* not JSON */ }
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return response;
}
const settings = (set) => ({ name: $("name").value || "tuned", set: set || state.set });

// ---- knobs: "Feel" first (the designer knobs), every other parameter under "Advanced" ------
function niceStep(p) {
  if (p.kind === "integer") return 1;
  const span = p.max - p.min;
  return Math.pow(10, Math.floor(Math.log10(span / 200)));
}
function buildKnobs(sections) {
  state.params = []; state.byKey.clear();
  for (const section of sections) for (const p of section.parameters) { state.params.push(p); state.byKey.set(p.key, p); }
  const designerKeys = new Set(state.designer.map((d) => d.key));
  $("designer").replaceChildren(...state.designer.filter((d) => state.byKey.has(d.key)).map((d) => knob(state.byKey.get(d.key), d)));
  const root = $("knobs");
  root.replaceChildren();
  let advanced = 0;
  for (const section of sections) {
    const parameters = section.parameters.filter((p) => !designerKeys.has(p.key));
    if (!parameters.length) continue;
    advanced += parameters.length;
    const reset = el("button", { class: "reset-section", title: "Every knob of " + section.path + " back to the starting preset" }, "Reset section");
    reset.addEventListener("click", (e) => { e.preventDefault(); resetKeys(parameters.map((p) => p.key)); });
    const body = el("details", { class: "section" },
      el("summary", {}, section.path, " ", reset, el("span", { class: "summary" }, section.summary)));
    body.dataset.section = section.path;
    for (const p of parameters) body.append(knob(p));
    root.append(body);
  }
  $("advanced-title").textContent = "Advanced — " + advanced + " more parameters, by section";
  refreshKnobs();
}
function knob(p, designer) {
  const row = el("div", { class: "knob" + (p.analysis ? " analysis" : "") + (designer ? " designer" : "") });
  row.dataset.key = p.key;
  const label = el("label", { title: "Double-click: back to the starting value" }, el("span", { class: "name" }, designer ? designer.title : p.name));
  if (p.unit) label.append(el("span", { class: "unit" }, p.unit));
  if (p.kind === "number" || p.kind === "integer") label.append(el("span", { class: "range" }, fmt(p.min) + " … " + fmt(p.max)));
  label.addEventListener("dblclick", () => resetKeys([p.key]));
  const reset = el("button", { class: "reset", title: "Back to the starting value", "aria-label": "reset " + p.key }, "↺");
  reset.addEventListener("click", () => resetKeys([p.key]));
  row.append(label);
  let control;
  if (p.kind === "number" || p.kind === "integer") {
    const range = el("input", { type: "range", min: p.min, max: p.max, step: niceStep(p), "aria-label": p.key });
    const number = el("input", { type: "text", inputMode: "decimal", class: "typed", "aria-label": p.key + " value" });
    range.addEventListener("input", () => { number.value = range.value; change(p, Number(range.value)); });
    number.addEventListener("change", () => {
      const typed = parseTyped(number.value, p);
      if ("error" in typed) { state.errors.set(p.key, typed.error); refreshKnobs(true); } else change(p, typed.value);
    });
    control = el("span", { class: "controls" }, range, number, reset);
  } else if (p.kind === "flag") {
    const box = el("input", { type: "checkbox", "aria-label": p.key });
    box.addEventListener("change", () => change(p, box.checked));
    control = el("span", { class: "controls" }, box, reset);
  } else if (p.kind === "choice") {
    const select = el("select", { "aria-label": p.key });
    for (const o of p.options) select.append(el("option", { value: o }, o));
    select.addEventListener("change", () => change(p, select.value));
    control = el("span", { class: "controls" }, select, reset);
  } else {
    const text = el("input", { type: "text", "aria-label": p.key, pattern: p.pattern });
    text.addEventListener("change", () => change(p, text.value));
    control = el("span", { class: "controls" }, text, reset);
  }
  row.append(control, el("div", { class: "error", role: "alert" }));
  if (designer) {
    row.append(el("div", { class: "help" }, designer.feel),
      el("details", { class: "formula" }, el("summary", {}, "How it is computed"), el("div", {}, p.key + ": " + p.help)));
  } else {
    row.append(el("div", { class: "help" }, p.help));
  }
  return row;
}
// The settings the knobs show: A's while A is shown (read-only), else those being tuned.
const shownSet = () => (state.view === "A" && state.a ? state.a.set : state.set);
function valueIn(set, p) {
  if (p.key in set) return set[p.key];
  return state.baseValues.has(p.key) ? state.baseValues.get(p.key) : p.value;
}
const startValue = (p) => (p.key in state.start ? state.start[p.key] : (state.baseValues.has(p.key) ? state.baseValues.get(p.key) : p.value));
// `keepTyped`: leave what was typed in the box that was refused, so it can be corrected.
function refreshKnobs(keepTyped) {
  const set = shownSet(), readOnly = state.view === "A" && !!state.a;
  for (const row of document.querySelectorAll(".knob")) {
    const p = state.byKey.get(row.dataset.key);
    const v = valueIn(set, p), error = state.errors.get(p.key) || "";
    row.classList.toggle("changed", v !== startValue(p));
    row.classList.toggle("refused", error !== "");
    row.querySelector(".error").textContent = error;
    for (const input of row.querySelectorAll("input, select, button.reset")) {
      input.disabled = readOnly;
      if (input.tagName === "BUTTON") continue;
      if (input.type === "checkbox") input.checked = !!v;
      else if (!(keepTyped && error && input.classList.contains("typed")) && document.activeElement !== input) input.value = typeof v === "number" ? fmt(v) : v;
    }
  }
  $("showing-a").hidden = !readOnly;
  $("start-preset").disabled = readOnly; $("reset-all").disabled = readOnly;
}
// Every value touched is sent; the server drops those equal to the starting preset's.
function change(p, value) {
  if (state.pending === null) state.pending = performance.now();
  state.errors.delete(p.key);
  state.set[p.key] = value;
  refreshKnobs();
  if (p.key === "onset.method") {
    for (const k of Object.keys(state.set)) if (k.startsWith("onset.") && k !== "onset.method") delete state.set[k];
    reloadKnobs();
    return;
  }
  requestRender();
}
function resetKeys(keys) {
  let method = false;
  for (const k of keys) {
    state.errors.delete(k);
    if (k === "onset.method") method = true;
    if (k in state.start) state.set[k] = state.start[k]; else delete state.set[k];
  }
  refreshKnobs();
  if (method) reloadKnobs(); else requestRender();
}
// The knobs for the settings in force (another onset method has other onset parameters).
async function reloadKnobs() {
  try { buildKnobs(await (await api("/api/parameters", settings())).json()); } catch (e) { status(e.message, true); }
  requestRender();
}
$("reset-all").addEventListener("click", () => {
  const method = state.set["onset.method"] !== state.start["onset.method"];
  state.set = clone(state.start); state.errors.clear();
  if (method) reloadKnobs(); else { refreshKnobs(); requestRender(); }
});
$("start-preset").addEventListener("change", async () => {
  try {
    const body = await (await api("/api/preset", { name: $("start-preset").value })).json();
    state.start = body.set; state.set = clone(body.set); state.errors.clear();
    status("starting from " + $("start-preset").value);
    reloadKnobs();
  } catch (e) { status(e.message, true); }
});

// ---- rendering: one request in flight, the latest settings next --------------------------
function requestRender() {
  if (state.inflight) { state.dirty = true; return; }
  render();
}
function showInForce() {
  const a = state.view === "A" && state.a;
  const body = a ? state.a.inForce : state.inForce;
  $("in-force-title").textContent = a ? "Settings in force — A (pinned)" : (state.a ? "Settings in force — B" : "Settings in force");
  if (!body) return;
  $("set-lines").textContent = body.setLines.length ? body.setLines.map((l) => "--set " + l).join("\n")
    : "(the starting preset, " + state.base + ", unchanged)";
  $("preset-json").textContent = body.preset;
}
function tracksRequest(set) {
  return Object.assign(settings(set), { sounds: state.sounds.map((s) => s.index), target: state.target });
}
async function render() {
  state.inflight = true; state.dirty = false;
  const since = state.pending; state.pending = null;
  const sent = clone(state.set);
  const analysing = Object.keys(sent).some((k) => state.byKey.get(k) && state.byKey.get(k).analysis);
  if (analysing) status("analysing " + state.sounds.length + " sound(s)…");
  try {
    const body = await (await api("/api/render", tracksRequest(sent))).json();
    state.valid = sent;
    for (const t of body.tracks) { state.tracks.set(t.index, t.track); state.findings.set(t.index, t.findings); }
    state.inForce = { setLines: body.setLines, preset: body.preset };
    showInForce(); drawAll(); showFindings();
    window.tuneRenders += 1;
    if (since !== null) window.tuneLatencies.push(performance.now() - since);
    status(body.analysed ? "analysed " + body.analysed + " sound(s) again" : "mapped from the cached analysis");
    refreshKnobs();
    refreshHaptics();
  } catch (e) {
    if (e.status === 422) refused(sent, e.message); else status(e.message, true);
  }
  state.inflight = false;
  if (state.dirty) render();
}
// Settings the server refused: the message goes beside the knobs that made them (those named
// in it, else every knob changed since the last valid settings), those knobs go back to their
// last valid values, and the last valid settings stay in force: every other knob goes on working.
function refused(sent, message) {
  const changed = changedKeys(sent, state.valid);
  if (!changed.length) { status(message, true); return; }  // not the settings' fault (a sound that cannot be read)
  const named = changed.filter((k) => message.includes(k));
  for (const k of named.length ? named : changed) state.errors.set(k, message);
  for (const k of changed) {
    if (state.set[k] !== sent[k]) continue;  // changed again since: the next request judges it
    if (k in state.valid) state.set[k] = state.valid[k]; else delete state.set[k];
  }
  refreshKnobs();
  status("refused, beside its knob; the last valid settings stay in force");
}

// ---- plots --------------------------------------------------------------------------------
const colors = () => { const s = getComputedStyle(document.documentElement); const c = {};
  for (const n of ["fg", "muted", "wave", "intensity", "sharpness", "ghost", "playhead", "region", "line"]) c[n] = s.getPropertyValue("--" + n).trim();
  return c; };
function addSound(sound) {
  const canvas = el("canvas", { "aria-label": "plot of " + sound.name });
  const card = el("div", { class: "sound" },
    el("div", { class: "title" }, el("span", { class: "name" }, sound.name),
      el("span", { class: "facts" }, sound.duration.toFixed(3) + " s · " + sound.sampleRate + " Hz · " + sound.channels + " ch")),
    canvas,
    el("div", { class: "legend" }, el("span", {}, el("i", { style: "background: var(--intensity)" }), "intensity"),
      el("span", {}, el("i", { style: "background: var(--sharpness)" }), "sharpness"),
      el("span", {}, "│ transient: height = intensity, label = intensity/sharpness, colour = sharpness")),
    el("ul", { class: "findings" }));
  card.addEventListener("click", () => select(sound.index));
  sound.card = card; sound.canvas = canvas; sound.view = { start: 0, end: Math.max(sound.duration, 0.01) };
  attachGestures(sound);
  $("list").append(card);
  state.sounds.push(sound);
  if (state.sounds.length === 1) select(sound.index);
}
function select(index) {
  if (state.current === index && state.sounds[index].card.classList.contains("current")) return;
  state.current = index;
  for (const s of state.sounds) s.card.classList.toggle("current", s.index === index);
  if (transport.playing) stop();
  refreshHaptics();
}
function drawAll() { for (const s of state.sounds) draw(s); }
// The target format's findings about each sound's file (A's while A is shown), beside its plot.
function showFindings() {
  const findings = state.view === "A" && state.a ? state.a.findings : state.findings;
  for (const s of state.sounds) {
    const list = findings.get(s.index) || [];
    s.card.querySelector(".findings").replaceChildren(...list.map((f) => el("li", {}, $("target").selectedOptions[0].textContent + ": " + f)));
  }
}
function draw(sound) {
  const canvas = sound.canvas, dpr = window.devicePixelRatio || 1;
  const w = Math.max(100, canvas.clientWidth), h = canvas.clientHeight || 190;
  if (canvas.width !== Math.round(w * dpr)) { canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr); }
  const g = canvas.getContext("2d"), c = colors();
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  const { start, end } = sound.view, top = 16, bottom = h - 14, plotH = bottom - top;
  const x = (t) => (t - start) / (end - start) * w, y = (v) => bottom - v * plotH;
  // waveform outline
  const wf = sound.waveform, cols = wf.length / 2;
  g.fillStyle = c.wave;
  const mid = top + plotH / 2;
  for (let px = 0; px < w; px++) {
    const t0 = start + (end - start) * px / w, t1 = start + (end - start) * (px + 1) / w;
    const i0 = Math.max(0, Math.floor(t0 / sound.duration * cols)), i1 = Math.min(cols, Math.max(i0 + 1, Math.ceil(t1 / sound.duration * cols)));
    if (i0 >= cols) break;
    let lo = 0, hi = 0;
    for (let i = i0; i < i1; i++) { lo = Math.min(lo, wf[2 * i]); hi = Math.max(hi, wf[2 * i + 1]); }
    g.fillRect(px, mid - hi * plotH / 2, 1, Math.max(1, (hi - lo) * plotH / 2));
  }
  // time axis
  g.fillStyle = c.muted; g.font = "11px system-ui, sans-serif";
  const step = niceTime((end - start) / 8);
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) { g.fillRect(x(t), bottom, 1, 4); g.fillText(fmt(Math.round(t * 1000) / 1000) + " s", x(t) + 2, h - 2); }
  if (transport.region && transport.region.sound === sound.index) {
    g.fillStyle = c.region; g.fillRect(x(transport.region.start), top, x(transport.region.end) - x(transport.region.start), plotH);
  }
  const b = state.tracks.get(sound.index);
  const a = state.a && state.a.tracks.get(sound.index);
  const shown = state.view === "A" ? a : b;
  if (state.overlay && state.view === "B" && a) drawTrack(g, a, x, y, c, true, w);
  if (shown) drawTrack(g, shown, x, y, c, false, w);
  g.fillStyle = c.fg; g.font = "600 11px system-ui, sans-serif";
  const what = state.target === "track" ? "" : "as " + $("target").selectedOptions[0].textContent + " plays it";
  g.fillText([state.view === "A" ? "A (pinned)" : (state.a ? "B" : ""), what].filter(Boolean).join(" · "), 4, 11);
  if (transport.playing && transport.sound === sound.index) {
    g.fillStyle = c.playhead; g.fillRect(x(transport.position()), top - 4, 2, plotH + 8);
  }
}
function niceTime(span) { const p = Math.pow(10, Math.floor(Math.log10(span))); return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= span) || p; }
function drawTrack(g, track, x, y, c, ghost, w) {
  g.save();
  if (ghost) { g.globalAlpha = 0.55; g.setLineDash([4, 3]); }
  for (const r of track.regions) {
    for (const [curve, color] of [[r.intensity, ghost ? c.ghost : c.intensity], [r.sharpness, ghost ? c.ghost : c.sharpness]]) {
      g.strokeStyle = color; g.lineWidth = ghost ? 1.5 : 2; g.beginPath();
      for (let i = 0; i < curve.length; i += 2) { const px = x(curve[i]), py = y(curve[i + 1]); if (i === 0) g.moveTo(px, py); else g.lineTo(px, py); }
      g.stroke();
    }
  }
  g.setLineDash([]);
  const tr = track.transients;
  let lastLabel = -1e9;
  for (let i = 0; i < tr.length; i += 3) {
    const px = x(tr[i]);
    if (px < -2 || px > w + 2) continue;
    const hue = 220 - 180 * tr[i + 2];
    g.strokeStyle = ghost ? c.ghost : "hsl(" + hue + ", 80%, 50%)"; g.fillStyle = g.strokeStyle; g.lineWidth = 2;
    g.beginPath(); g.moveTo(px, y(0)); g.lineTo(px, y(tr[i + 1])); g.stroke();
    g.beginPath(); g.arc(px, y(tr[i + 1]), ghost ? 3 : 4, 0, 2 * Math.PI); if (ghost) g.stroke(); else g.fill();
    if (!ghost && px - lastLabel > 62) {
      g.fillStyle = c.fg; g.font = "10px system-ui, sans-serif";
      g.fillText(tr[i + 1].toFixed(2) + "/" + tr[i + 2].toFixed(2), px + 4, Math.max(24, y(tr[i + 1]) - 4));
      lastLabel = px;
    }
  }
  g.restore();
}
function attachGestures(sound) {
  const c = sound.canvas;
  let drag = null;
  const timeAt = (e) => { const r = c.getBoundingClientRect(); return sound.view.start + (e.clientX - r.left) / r.width * (sound.view.end - sound.view.start); };
  c.addEventListener("wheel", (e) => {
    e.preventDefault();
    const t = timeAt(e), f = Math.exp(e.deltaY * 0.002), v = sound.view;
    const span = Math.min(sound.duration, Math.max(0.01, (v.end - v.start) * f));
    let s = t - (t - v.start) * span / (v.end - v.start);
    s = Math.max(0, Math.min(sound.duration - span, s));
    sound.view = { start: s, end: s + span }; draw(sound);
  }, { passive: false });
  c.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, t: timeAt(e), view: Object.assign({}, sound.view), region: e.shiftKey }; c.setPointerCapture(e.pointerId); });
  c.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (drag.region) {
      const t = timeAt(e);
      transport.region = { sound: sound.index, start: Math.max(0, Math.min(drag.t, t)), end: Math.min(sound.duration, Math.max(drag.t, t)) };
    } else {
      const span = drag.view.end - drag.view.start, dt = (drag.x - e.clientX) / c.clientWidth * span;
      const s = Math.max(0, Math.min(sound.duration - span, drag.view.start + dt));
      sound.view = { start: s, end: s + span };
    }
    draw(sound);
  });
  c.addEventListener("pointerup", () => { drag = null; });
  c.addEventListener("dblclick", () => { sound.view = { start: 0, end: Math.max(sound.duration, 0.01) }; draw(sound); });
}
window.addEventListener("resize", drawAll);

// ---- playback: original, haptics or both, one playhead ----------------------------------
const transport = {
  context: null, sources: [], playing: false, sound: 0, mode: "original", startedAt: 0, offset: 0, region: null,
  original: new Map(), haptics: null, hapticsFor: "",
  position() {
    if (!this.playing) return this.offset;
    let t = this.offset + this.context.currentTime - this.startedAt;
    const r = this.loopRegion();
    if (r && t > r.end) t = r.start + (t - r.start) % (r.end - r.start);
    return t;
  },
  loopRegion() { return $("loop").checked && this.region && this.region.sound === this.sound && this.region.end - this.region.start > 0.01 ? this.region : null; },
};
async function originalBuffer(index) {
  if (!transport.original.has(index)) {
    const data = await (await api("/api/sounds/" + index + "/audio")).arrayBuffer();
    transport.original.set(index, await transport.context.decodeAudioData(data));
  }
  return transport.original.get(index);
}
function hapticSettings() { return state.view === "A" && state.a ? state.a.set : state.valid; }
// What the haptics sound like, as the target format plays them.
async function hapticsBuffer(index) {
  const key = index + " " + state.target + " " + JSON.stringify(hapticSettings());
  if (transport.hapticsFor !== key) {
    const data = await (await api("/api/haptics-audio", Object.assign(settings(hapticSettings()), { sound: index, target: state.target }))).arrayBuffer();
    transport.haptics = await transport.context.decodeAudioData(data);
    transport.hapticsFor = key;
  }
  return transport.haptics;
}
async function play(mode, at) {
  transport.context = transport.context || new AudioContext();
  const index = state.current, sound = state.sounds[index];
  const position = at !== undefined ? at : (transport.region && transport.region.sound === index && $("loop").checked ? transport.region.start : 0);
  try {
    const buffers = [];
    if (mode !== "haptics") buffers.push(await originalBuffer(index));
    if (mode !== "original") buffers.push(await hapticsBuffer(index));
    stopSources();
    const r = (transport.region && transport.region.sound === index && $("loop").checked) ? transport.region : null;
    for (const buffer of buffers) {
      const source = transport.context.createBufferSource();
      source.buffer = buffer;
      if (r) { source.loop = true; source.loopStart = r.start; source.loopEnd = r.end; }
      source.connect(transport.context.destination);
      source.start(0, Math.min(position, sound.duration));
      source.onended = () => { if (transport.sources.includes(source) && !r) stop(); };
      transport.sources.push(source);
    }
    Object.assign(transport, { playing: true, sound: index, mode, startedAt: transport.context.currentTime, offset: position });
    for (const b of document.querySelectorAll("#transport [data-mode]")) b.classList.toggle("on", b.dataset.mode === mode);
    tick();
  } catch (e) { status(e.message, true); }
}
function stopSources() { for (const s of transport.sources) { try { s.stop(); } catch (e) { /* not started */ } } transport.sources = []; }
function stop() {
  stopSources(); transport.playing = false; transport.offset = 0;
  for (const b of document.querySelectorAll("#transport [data-mode]")) b.classList.remove("on");
  drawAll();
}
function tick() {
  if (!transport.playing) return;
  const sound = state.sounds[transport.sound];
  if (transport.position() > sound.duration + 0.1 && !transport.loopRegion()) { stop(); return; }
  draw(sound);
  requestAnimationFrame(tick);
}
// The haptics follow the knobs while they play: the new sound takes over at the same moment.
let hapticsTimer = null;
function refreshHaptics() {
  if (!transport.playing || transport.mode === "original") return;
  clearTimeout(hapticsTimer);
  hapticsTimer = setTimeout(() => play(transport.mode, transport.position()), 60);
}
// The haptics' sound for the settings in force, made again (timed by `make bench`).
window.tuneHapticsAudio = async (index) => {
  transport.context = transport.context || new AudioContext();
  transport.hapticsFor = "";
  await hapticsBuffer(index);
};
for (const b of document.querySelectorAll("#transport [data-mode]")) {
  b.addEventListener("click", () => (transport.playing && transport.mode === b.dataset.mode) ? stop() : play(b.dataset.mode, transport.playing ? transport.position() : undefined));
}
$("stop").addEventListener("click", stop);
$("loop").addEventListener("change", () => { if (transport.playing) play(transport.mode, transport.position()); });

// ---- A/B and the target ------------------------------------------------------------------
$("pin").addEventListener("click", () => {
  state.a = { set: clone(state.valid), tracks: new Map(state.tracks), findings: new Map(state.findings), inForce: state.inForce };
  state.view = "B";
  $("switch").disabled = false; $("overlay").disabled = false;
  $("switch").textContent = "Showing B";
  status("A pinned; the knobs tune B");
  showInForce(); drawAll();
});
$("switch").addEventListener("click", () => {
  state.view = state.view === "A" ? "B" : "A";
  $("switch").textContent = "Showing " + state.view;
  $("switch").classList.toggle("on", state.view === "A");
  refreshKnobs(); showInForce(); drawAll(); showFindings(); refreshHaptics();
});
$("overlay").addEventListener("change", () => { state.overlay = $("overlay").checked; drawAll(); });
// Another target: B's tracks and A's (when pinned) as that format plays them.
$("target").addEventListener("change", async () => {
  state.target = $("target").value;
  transport.hapticsFor = "";
  if (state.a) {
    try {
      const body = await (await api("/api/render", tracksRequest(state.a.set))).json();
      for (const t of body.tracks) { state.a.tracks.set(t.index, t.track); state.a.findings.set(t.index, t.findings); }
    } catch (e) { status(e.message, true); }
  }
  requestRender();
});

// ---- save and export ------------------------------------------------------------------------
function saved(text, error) { const n = $("saved"); n.textContent = text; n.classList.toggle("error", !!error); }
async function save(target, extra) {
  try {
    const body = await (await api("/api/save", Object.assign(settings(), { target }, extra || {}))).json();
    saved("Saved " + body.path);
  } catch (e) { saved(e.message, true); }
}
$("save-preset").addEventListener("click", () => save("preset"));
$("save-folder").addEventListener("click", () => {
  if (confirm("Write tactus.json into " + $("folder").selectedOptions[0].textContent + "? A tactus.json there is replaced.")) save("folder", { folder: Number($("folder").value) });
});
$("save-base").addEventListener("click", () => { if (confirm("Save over the preset file " + state.base + "?")) save("base"); });
$("export").addEventListener("click", async () => {
  const formats = [...document.querySelectorAll("#formats input:checked")].map((i) => i.value);
  try {
    const body = await (await api("/api/export", Object.assign(settings(), { sound: state.current, formats }))).json();
    saved("Exported " + body.files.join(", "));
  } catch (e) { saved(e.message, true); }
});

// ---- sounds dropped on the page -------------------------------------------------------------
const maxDropBytes = 64 * 1024 * 1024;
async function addFiles(files) {
  for (const file of files) {
    if (file.size > maxDropBytes) { status(file.name + ": larger than 64 MB, not added", true); continue; }
    try {
      status("adding " + file.name + "…");
      const sound = await (await api("/api/sounds", { data: file, name: file.name }, true)).json();
      addSound(sound);
      requestRender();
    } catch (e) { status(e.message, true); }
  }
}
document.addEventListener("dragover", (e) => { e.preventDefault(); $("drop").classList.add("over"); });
document.addEventListener("dragleave", () => $("drop").classList.remove("over"));
document.addEventListener("drop", (e) => { e.preventDefault(); $("drop").classList.remove("over"); addFiles(e.dataTransfer.files); });
$("add").addEventListener("change", () => addFiles($("add").files));

// ---- start ----------------------------------------------------------------------------------
function showSkipped(skipped) {
  $("skipped").hidden = skipped.length === 0;
  $("skipped").querySelector("summary").textContent = skipped.length + (skipped.length === 1 ? " file" : " files") + " skipped, not in this run";
  $("skipped-list").replaceChildren(...skipped.map((s) => el("li", {}, s.line)));
}
(async () => {
  try {
    const s = await (await api("/api/state")).json();
    state.base = s.base;
    $("base").textContent = "starting from " + s.base + (s.baseDescription ? " — " + s.baseDescription : "");
    $("name").value = s.base.replace(/[^A-Za-z0-9_-]/g, "-") + "-tuned";
    $("save-base").hidden = !s.overwritable;
    for (const [i, f] of s.folders.entries()) $("folder").append(el("option", { value: i }, f));
    if (!s.folders.length) { $("folder").disabled = true; $("save-folder").disabled = true; }
    for (const f of s.formats) $("formats").append(el("label", {}, el("input", { type: "checkbox", value: f, checked: s.chosenFormats.includes(f) }), f));
    for (const name of s.presets) $("start-preset").append(el("option", { value: name, selected: name === s.base }, name));
    if (!s.presets.includes(s.base)) $("start-preset").prepend(el("option", { value: "", selected: true, disabled: true }, s.base));
    showSkipped(s.skipped);
    state.designer = s.designer;
    for (const section of s.parameters) for (const p of section.parameters) state.baseValues.set(p.key, p.value);
    state.start = Object.assign({}, s.start);
    state.set = clone(state.start);
    buildKnobs(s.parameters);
    for (const sound of s.sounds) addSound(sound);
    await render();
    document.body.dataset.ready = "1";
  } catch (e) { status(e.message, true); }
})();
})();
