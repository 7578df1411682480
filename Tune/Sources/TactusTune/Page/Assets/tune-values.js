"use strict";
// What a value typed into a knob means, and which knobs a refused answer is about: pure
// functions, loaded by the page before tune.js and tested under node (scripts/check-tune-page).
(() => {
  // A number as the page shows it: at most 6 decimals, no exponent for ordinary values.
  const fmt = (v) => typeof v === "number" ? String(Math.round(v * 1e6) / 1e6) : String(v);

  const integerText = /^[-+]?\d+$/;
  const numberText = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

  // The value `text` sets on the numeric knob `p` ({kind, min, max, unit}), or why it is
  // refused, in words: not a number, outside the knob's range, or finer than the 6 decimals a
  // knob keeps (so "1e-300" is refused rather than shown as 0).
  function parseTyped(text, p) {
    const typed = String(text).trim();
    const range = fmt(p.min) + " … " + fmt(p.max) + (p.unit ? " " + p.unit : "");
    if (typed === "") return { error: "type a number in " + range };
    if (p.kind === "integer" ? !integerText.test(typed) : !numberText.test(typed)) {
      return { error: "\u201c" + typed + "\u201d is not " + (p.kind === "integer" ? "a whole number" : "a number") + "; type one in " + range };
    }
    const value = Number(typed);
    if (!Number.isFinite(value)) return { error: "\u201c" + typed + "\u201d is too large; type a number in " + range };
    if (value < p.min || value > p.max) return { error: typed + " is outside " + range };
    const kept = Math.round(value * 1e6) / 1e6;
    if (kept !== value) return { error: typed + " is finer than this knob keeps (6 decimals); type " + fmt(kept) };
    return { value };
  }

  // The keys whose values differ between two settings objects (key → value), sorted: the
  // knobs a refused request changed since the last settings that were valid.
  function changedKeys(sent, valid) {
    const keys = new Set([...Object.keys(sent), ...Object.keys(valid)]);
    return [...keys].filter((k) => sent[k] !== valid[k]).sort();
  }

  const TuneValues = { fmt, parseTyped, changedKeys };
  if (typeof module === "object" && module.exports) module.exports = TuneValues;
  else window.TuneValues = TuneValues;
})();
