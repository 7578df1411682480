// Unit tests of the page's pure functions (Tune/Sources/TactusTune/Page/Assets/tune-values.js),
// run by node: `node scripts/check-tune/page_tests.js` (TunePageAssetsTests runs it when node is
// on PATH; node is a check-time tool only, never part of the product). Exits 1 on a failure.
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");
const { fmt, parseTyped, changedKeys } = require(path.join(__dirname, "../../Tune/Sources/TactusTune/Page/Assets/tune-values.js"));

const gamma = { kind: "number", min: 0.2, max: 4, unit: "" };
const lowHz = { kind: "number", min: 20, max: 5000, unit: "Hz" };
const bands = { kind: "integer", min: 1, max: 64, unit: "" };
let failed = 0;
function test(name, body) {
  try { body(); console.log("ok   " + name); } catch (e) { failed += 1; console.log("FAIL " + name + ": " + e.message); }
}

test("a number in range is taken", () => {
  assert.deepEqual(parseTyped("0.7", gamma), { value: 0.7 });
  assert.deepEqual(parseTyped(" 4 ", gamma), { value: 4 });
  assert.deepEqual(parseTyped("2e3", lowHz), { value: 2000 });
  assert.deepEqual(parseTyped("12", bands), { value: 12 });
});
test("text that is not a number is refused in words", () => {
  assert.equal(parseTyped("abc", gamma).error, "\u201cabc\u201d is not a number; type one in 0.2 … 4");
  assert.match(parseTyped("", gamma).error, /^type a number in 0.2 … 4$/);
  assert.match(parseTyped("1.5", bands).error, /is not a whole number/);
  assert.match(parseTyped("0x10", lowHz).error, /is not a number/);
  assert.match(parseTyped("Infinity", lowHz).error, /is not a number/);
});
test("a value outside the range is refused, never snapped", () => {
  assert.equal(parseTyped("99999", lowHz).error, "99999 is outside 20 … 5000 Hz");
  assert.equal(parseTyped("0.1", gamma).error, "0.1 is outside 0.2 … 4");
  assert.match(parseTyped("1e400", lowHz).error, /too large/);
});
test("a value finer than a knob keeps is refused, with what it would keep", () => {
  const minIntensity = { kind: "number", min: 0, max: 1, unit: "" };
  assert.equal(parseTyped("1e-300", minIntensity).error, "1e-300 is finer than this knob keeps (6 decimals); type 0");
  assert.equal(parseTyped("0.1234567", minIntensity).error, "0.1234567 is finer than this knob keeps (6 decimals); type 0.123457");
  assert.deepEqual(parseTyped("0.123456", minIntensity), { value: 0.123456 });
});
test("the knobs a refused request changed", () => {
  assert.deepEqual(changedKeys({ "a.x": 1, "b.y": 2 }, { "a.x": 1 }), ["b.y"]);
  assert.deepEqual(changedKeys({ "a.x": 2 }, { "a.x": 1, "c.z": true }), ["a.x", "c.z"]);
  assert.deepEqual(changedKeys({}, {}), []);
});
test("numbers are shown with at most 6 decimals", () => {
  assert.equal(fmt(0.1 + 0.2), "0.3");
  assert.equal(fmt("centroid"), "centroid");
});
if (failed) { console.log(failed + " failed"); process.exit(1); }
console.log("page tests: all passed");
