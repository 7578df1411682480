#!/usr/bin/env python3
"""`tactus tune` in a real headless Chromium (Debian's chromium + chromium-driver, Selenium).

Default (make check-tune): the designer's story. `tactus tune Sounds` from a project folder (a few
Corpus sounds and one unreadable file): a handful of knobs with plain help first, every other
parameter once under a closed "Advanced"; the skipped file listed with its reason; typed values
that are not numbers, too fine or out of range refused beside the knob, lowHz above highHz said
beside lowHz while every other knob goes on working; heavier, rounder body and crisper clicks; A
and B each showing their own settings; every target auditioned; save `punchy` into ./Presets,
export, then `tactus batch Sounds -o Out --preset punchy` writes the exported bytes, and a second
batch with fewer formats keeps the first one's files; reset all. Also checks that a bad token,
Host or Origin is refused, that the page logged no console error, and that Ctrl-C exits 0 and
removes the run's temporary folder.

--bench: the knob `input` event -> plot updated latency (median, p95; a 60 Hz drag, each event
timed in the page) for one 1 s, 5 s and 60 s sound and for 10 sounds of 5 s, the haptics' sound
update time, and the server's peak RSS with 100 sounds of 5 s; prints a Markdown table.

--screenshots DIR: writes DIR/tune-light.png and DIR/tune-dark.png.
"""
import argparse
import atexit
import glob
import http.client
import json
import math
import os
import random
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import wave

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = ["clean/bell.wav", "clean/coin_pickup.wav", "clean/body_hits.ogg"]


class Tune:
    """A running `tactus tune`; its URL is the first line of its standard output."""

    def __init__(self, tactus, paths, work, cwd=None, presets="presets"):
        self.work = work
        # Its own temporary folder (TMPDIR), so that what it leaves there is its own and not
        # another run's on the same machine.
        self.tmp = tempfile.mkdtemp(prefix="tmp-", dir=work)
        # presets None: the default --presets-dir, ./Presets of `cwd`.
        folder = [] if presets is None else ["--presets-dir", os.path.join(work, presets)]
        self.process = subprocess.Popen(
            [tactus, "tune", *paths, *folder, "-o", os.path.join(work, "export")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env={**os.environ, "TMPDIR": self.tmp})
        atexit.register(self.kill)  # nothing left running if a check fails half-way
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            raise SystemExit("tactus tune printed no URL first: %r %s" % (self.url, self.process.stderr.read()))
        parts = urllib.parse.urlsplit(self.url)
        self.port = parts.port
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]

    def request(self, path, host=None, origin=None, token=True, method="GET", body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": host or "127.0.0.1:%d" % self.port}
        if origin:
            headers["Origin"] = origin
        if token:
            headers["X-Tactus-Token"] = self.token if token is True else token
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def peak_rss_mb(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self, sig=signal.SIGINT):
        self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise SystemExit("tactus tune did not stop on %s" % signal.Signals(sig).name)
        left = set(glob.glob(os.path.join(self.tmp, "tactus-tune-*")))
        return code, left


def browser(dark=False, height=1000):
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1440,%d" % height, "--autoplay-policy=no-user-gesture-required",
                     "--no-first-run", "--disable-extensions"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(600)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    return driver


def load(driver, url):
    driver.get(url)
    for _ in range(600):
        if driver.execute_script("return document.body.dataset.ready === '1'"):
            return
        time.sleep(0.05)
    raise SystemExit("the page did not get ready: " + driver.find_element("id", "status").text)


# Sets a knob as a drag does (value, then an `input` event) and resolves when the plots show it.
MOVE = """
const [key, value, done] = arguments;
const range = document.querySelector('input[type=range][aria-label="' + key + '"]');
const renders = window.tuneRenders;
range.value = value;
range.dispatchEvent(new Event('input', {bubbles: true}));
(function wait() { if (window.tuneRenders > renders && !window.tuneBusy()) done(true); else setTimeout(wait, 2); })();
"""

# A 60 Hz drag over `count` events; resolves with every event's latency once all are drawn.
DRAG = """
const [key, low, high, count, done] = arguments;
const range = document.querySelector('input[type=range][aria-label="' + key + '"]');
window.tuneLatencies = [];
let i = 0;
const timer = setInterval(() => {
  range.value = low + (high - low) * (0.5 + 0.5 * Math.sin(i / 6));
  range.dispatchEvent(new Event('input', {bubbles: true}));
  if (++i >= count) {
    clearInterval(timer);
    (function wait() { if (!window.tuneBusy()) done(window.tuneLatencies); else setTimeout(wait, 5); })();
  }
}, 1000 / 60);
"""

HAPTICS_AUDIO = """
const done = arguments[0];
const t0 = performance.now();
window.tuneHapticsAudio(0).then(() => done(performance.now() - t0), (e) => done(-1));
"""


# Types `text` into a knob's value box (as a designer does: the text, then Enter) and resolves
# with the knob's error line once the page has judged it (and drawn, when it was sent).
TYPE = """
const [key, text, done] = arguments;
const row = document.querySelector('.knob[data-key="' + key + '"]');
const box = row.querySelector('input.typed');
box.value = text;
box.dispatchEvent(new Event('change', {bubbles: true}));
setTimeout(function wait() { if (!window.tuneBusy()) done(row.querySelector('.error').textContent); else setTimeout(wait, 5); }, 5);
"""

# The knobs a designer sees without opening anything.
VISIBLE_KNOBS = "return [...document.querySelectorAll('.knob')].filter(k => k.checkVisibility()).map(k => k.dataset.key)"

# Chooses a target format and resolves once the plots are drawn for it.
TARGET = """
const [id, done] = arguments;
const select = document.getElementById('target');
const renders = window.tuneRenders;
select.value = id;
select.dispatchEvent(new Event('change', {bubbles: true}));
(function wait() { if (window.tuneRenders > renders && !window.tuneBusy()) done(true); else setTimeout(wait, 5); })();
"""


def check(args):
    """The designer's story: `tactus tune Sounds/` from their project folder, a handful of knobs
    they understand, explosions heavier and rounder and clicks crisper, nothing they type locks
    the page, save `punchy`, and `tactus batch Sounds -o Out --preset punchy` gives exactly that;
    a second batch with fewer formats keeps the first one's files."""
    work = tempfile.mkdtemp(prefix="check-tune-")
    try:
        sounds = os.path.join(work, "Sounds")
        os.makedirs(sounds)
        for name in CORPUS:
            shutil.copy(os.path.join(ROOT, "Corpus", name), sounds)
        with open(os.path.join(sounds, "broken.wav"), "wb") as f:
            f.write(b"RIFF\x10\x00\x00\x00WAVEfmt not a sound")
        tune = Tune(args.tactus, ["Sounds"], work, cwd=work, presets=None)
        failures = []

        def expect(condition, what):
            print(("ok   " if condition else "FAIL ") + what)
            if not condition:
                failures.append(what)

        # Who may talk to the server.
        good = "http://127.0.0.1:%d" % tune.port
        expect(tune.request("/api/state")[0] == 200, "the page's own request is served")
        expect(tune.request("/api/state", token="0" * 64)[0] == 403, "a bad token is refused")
        expect(tune.request("/api/state", token=False)[0] == 403, "a request without the token is refused")
        expect(tune.request("/api/state", host="rebind.example:%d" % tune.port)[0] == 403, "a bad Host (DNS rebinding) is refused")
        expect(tune.request("/api/state", host="localhost:%d" % tune.port)[0] == 403, "Host localhost is refused")
        expect(tune.request("/api/state", origin="http://evil.example")[0] == 403, "a bad Origin is refused")
        expect(tune.request("/api/state", origin=good)[0] == 200, "the page's Origin is served")
        expect(tune.request("/../../etc/passwd")[0] == 404, "a path outside the API is not served")
        state = json.loads(tune.request("/api/state")[1])
        parameters = [p["key"] for section in state["parameters"] for p in section["parameters"]]

        driver = browser()
        try:
            load(driver, tune.url)
            knobs = driver.execute_script("return [...document.querySelectorAll('.knob')].map(k => k.dataset.key)")
            expect(sorted(knobs) == sorted(parameters) and len(knobs) > 30, "a knob for every parameter, each once (%d)" % len(knobs))
            visible = driver.execute_script(VISIBLE_KNOBS)
            feel = [k for k in parameters if k.startswith("feel.")]
            expect(len(visible) <= 12 and set(feel) <= set(visible),
                   "on load a handful of knobs, the feel ones among them: %s" % ", ".join(visible))
            help_text = driver.execute_script("return document.querySelector('.knob[data-key=\"feel.bodyDb\"] .help').textContent")
            expect("×" not in help_text and "10^" not in help_text, "plain-language help: " + help_text)
            expect(not driver.execute_script("return document.getElementById('advanced').open"), "the other parameters wait under Advanced, closed")
            skipped = driver.find_element("id", "skipped")
            skipped.click()
            expect(skipped.is_displayed() and "broken.wav" in skipped.text, "the skipped sound is listed with its reason: " + skipped.text.replace("\n", " "))
            plots = driver.execute_script("return document.querySelectorAll('canvas').length")
            expect(plots == len(CORPUS), "a plot per sound (%d)" % plots)

            # Nothing the designer types locks the page.
            driver.find_element("id", "advanced").click()
            for text, says in [("abc", "is not a number"), ("1e-300", "finer than"), ("99999", "outside")]:
                error = driver.execute_async_script(TYPE, "mapping.transients.minIntensity", text)
                expect(says in error, "typing %s is refused beside the knob: %s" % (text, error))
            driver.execute_async_script(TYPE, "mapping.sharpness.highHz", "300")
            error = driver.execute_async_script(TYPE, "mapping.sharpness.lowHz", "400")
            header = driver.find_element("id", "status")
            expect("must be below mapping.sharpness.highHz" in error and "error" not in header.get_attribute("class"),
                   "lowHz above highHz: said beside lowHz, the header stays calm: " + error)
            renders = driver.execute_script("return window.tuneRenders")
            driver.execute_async_script(MOVE, "feel.bodyDb", 6)
            lines = driver.find_element("id", "set-lines").text
            expect(driver.execute_script("return window.tuneRenders") > renders and "--set feel.bodyDb=6" in lines
                   and "lowHz" not in lines and "highHz=300" in lines, "every other knob goes on working, the refused value is not in force: " + lines.replace("\n", " "))

            driver.execute_script("document.querySelector('.knob[data-key=\"mapping.sharpness.highHz\"] button.reset').click()")
            # Explosions heavier and rounder, clicks crisper.
            driver.execute_async_script(MOVE, "mapping.sharpness.brightenOctaves", -1.5)
            driver.find_element("id", "pin").click()
            driver.execute_async_script(MOVE, "feel.crispness", 0.5)
            driver.find_element("id", "switch").click()
            a_lines = driver.find_element("id", "set-lines").text
            a_value = driver.execute_script("return document.querySelector('.knob[data-key=\"feel.crispness\"] input.typed').value")
            a_locked = driver.execute_script("return document.getElementById('reset-all').disabled && "
                                             "document.querySelector('.knob[data-key=\"feel.crispness\"] input.typed').disabled")
            expect(driver.find_element("id", "switch").text == "Showing A" and "crispness" not in a_lines and a_value == "0" and a_locked,
                   "A shows its own settings and knobs: " + a_lines.replace("\n", " "))
            driver.find_element("id", "switch").click()
            b_lines = driver.find_element("id", "set-lines").text
            expect("--set feel.crispness=0.5" in b_lines, "B shows its own: " + b_lines.replace("\n", " "))
            driver.find_element("id", "overlay").click()

            # Audition the targets: what each format plays, with its warnings beside it.
            for target in ["android", "rumble", "pcm", "haptic", "ahap", "track"]:
                driver.execute_async_script(TARGET, target)
                findings = driver.execute_script("return [...document.querySelectorAll('.findings li')].map(l => l.textContent)")
                expect("error" not in driver.find_element("id", "status").get_attribute("class"),
                       "audition %s: drawn (%d findings)" % (target, len(findings)))
            click = lambda element: driver.execute_script("arguments[0].click()", driver.find_element("id", element))
            click("play-mix")
            time.sleep(1.0)
            playing = "on" in driver.find_element("id", "play-mix").get_attribute("class")
            click("stop")
            expect(playing, "the original and the haptics play mixed")

            name = driver.find_element("id", "name")
            name.clear()
            name.send_keys("punchy")
            driver.find_element("id", "save-preset").click()
            time.sleep(0.5)
            saved = driver.find_element("id", "saved").text
            preset = os.path.join(work, "Presets", "punchy.json")
            expect(saved == "Saved " + preset, "save punchy into ./Presets: " + saved)
            formats = []
            for box in driver.find_elements("css selector", "#formats input"):
                formats.append(box.get_attribute("value"))
                if not box.is_selected():
                    box.click()
            driver.find_element("id", "export").click()
            for _ in range(100):
                exported = driver.find_element("id", "saved").text
                if exported.startswith("Exported"):
                    break
                time.sleep(0.1)
            expect(exported.startswith("Exported "), "export: " + exported)
            with open(preset) as f:
                text = f.read()
            expect('"extends": "default"' in text and '"windowMs"' not in text, "the saved preset extends default, differences only")
            files = exported[len("Exported "):].split(", ")
            current = driver.execute_script("return document.querySelector('.sound.current .name').textContent")
            batch = [args.tactus, "batch", "Sounds", "-o", "Out", "--preset", "punchy", "--exclude", "broken.wav", "--quiet"]
            subprocess.run(batch + ["--format", ",".join(formats)], check=True, cwd=work)
            out = os.path.join(work, "Out")
            same = all(open(f, "rb").read() == open(os.path.join(out, os.path.basename(f)), "rb").read() for f in files)
            # One file per format, plus the paired audio the AHAP plays.
            expect(same and len(files) >= len(formats) + 1,
                   "tactus batch Sounds -o Out --preset punchy writes the exported bytes of %s (%d files)" % (current, len(files)))
            before = sorted(os.listdir(out))
            subprocess.run(batch + ["--format", "ahap"], check=True, cwd=work)
            expect(sorted(os.listdir(out)) == before, "a second batch with fewer formats keeps the first one's files (%d)" % len(before))

            settled = "const done = arguments[0]; setTimeout(function w() { if (!window.tuneBusy()) done(); else setTimeout(w, 5); }, 300);"
            click("reset-all")
            driver.execute_async_script(settled)
            lines = driver.find_element("id", "set-lines").text
            expect("unchanged" in lines, "reset all: " + lines.replace("\n", " "))
            driver.execute_script("const s = document.getElementById('start-preset'); s.value = 'impacts'; s.dispatchEvent(new Event('change'));")
            driver.execute_async_script(settled)
            lines = driver.find_element("id", "set-lines").text
            impacts = json.loads(tune.request("/api/preset", method="POST", origin=good, body=json.dumps({"name": "impacts"}))[1])["set"]
            shown = {k: driver.execute_script("return document.querySelector('.knob[data-key=\"%s\"] input.typed, .knob[data-key=\"%s\"] select').value" % (k, k))
                     for k in ["peaks.delta", "mapping.intensity.gamma"]}
            expect("--set" in lines and all(float(shown[k]) == impacts[k] for k in shown),
                   "start from impacts: its values on the knobs %s, in force: %s" % (shown, lines.replace("\n", " ")))
            errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                      and "422" not in entry["message"]]  # a refused request is an answer, not a fault
            expect(not errors, "no console errors %s" % errors)
        finally:
            driver.quit()
        expect(glob.glob(os.path.join(tune.tmp, "tactus-tune-*")), "the run keeps its files in its own TMPDIR")
        code, left = tune.stop(signal.SIGINT)
        expect(code == 0, "Ctrl-C exits 0 (%s)" % code)
        expect(not left, "the run's temporary folder is removed")
        if failures:
            raise SystemExit("check-tune: %d failed" % len(failures))
        print("check-tune: all passed")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_sound(path, seconds, seed, rate=44100):
    """Hits over a slowly swelling tone: transients and continuous haptics both."""
    rng = random.Random(seed)
    count = int(seconds * rate)
    samples = [0.25 * math.sin(2 * math.pi * 110 * n / rate) * (0.6 + 0.4 * math.sin(2 * math.pi * 0.5 * n / rate))
               for n in range(count)]
    for _ in range(max(1, int(seconds * 3))):
        start = int(rng.uniform(0, max(0.05, seconds - 0.3)) * rate)
        for k in range(min(int(0.08 * rate), count - start)):
            samples[start + k] += 0.7 * math.exp(-k / rate * 60) * rng.uniform(-1, 1)
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack("<%dh" % count, *(int(max(-1, min(1, v)) * 32767) for v in samples)))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(p / 100 * len(ordered))) - 1)]


def bench(args):
    work = tempfile.mkdtemp(prefix="bench-tune-")
    try:
        os.makedirs(os.path.join(work, "presets"))
        template = os.path.join(work, "five.wav")
        write_sound(template, 5, 1)
        cases = []
        for label, seconds, count in [("one 1 s sound", 1, 1), ("one 5 s sound", 5, 1), ("one 60 s sound", 60, 1),
                                      ("10 sounds of 5 s", 5, 10)]:
            folder = os.path.join(work, label.replace(" ", "-"))
            os.makedirs(folder)
            for i in range(count):
                path = os.path.join(folder, "s%03d.wav" % i)
                if seconds == 5:
                    shutil.copy(template, path)
                else:
                    write_sound(path, seconds, i + 2)
            cases.append((label, folder, count))
        rows = []
        for label, folder, count in cases:
            tune = Tune(args.tactus, [folder], work)
            driver = browser(height=max(1000, 280 * count + 200))
            try:
                load(driver, tune.url)
                for _ in range(3):  # warm-up
                    driver.execute_async_script(MOVE, "mapping.intensity.gamma", 0.9)
                    driver.execute_async_script(MOVE, "mapping.intensity.gamma", 1.1)
                latencies = driver.execute_async_script(DRAG, "mapping.intensity.gamma", 0.5, 1.5, args.events)
                audio = [driver.execute_async_script(HAPTICS_AUDIO) for _ in range(5)]
                rows.append((label, len(latencies), statistics.median(latencies), percentile(latencies, 95),
                             statistics.median(audio)))
                print("measured %s: median %.1f ms, p95 %.1f ms" % (label, rows[-1][2], rows[-1][3]), flush=True)
            finally:
                driver.quit()
                tune.stop(signal.SIGTERM)
        big = os.path.join(work, "hundred")
        os.makedirs(big)
        for i in range(100):
            shutil.copy(template, os.path.join(big, "s%03d.wav" % i))
        tune = Tune(args.tactus, [big], work)
        try:
            driver = browser()
            try:
                load(driver, tune.url)
                driver.execute_async_script(MOVE, "mapping.intensity.gamma", 0.7)
                driver.execute_async_script(MOVE, "peaks.delta", 0.3)  # a second analysis of every sound, cached
            finally:
                driver.quit()
            rss = tune.peak_rss_mb()
        finally:
            tune.stop(signal.SIGTERM)
        print()
        print("| `tactus tune`: knob `input` → plot updated (60 Hz drag) | events | median ms | p95 ms | haptics sound ms |")
        print("|---|---:|---:|---:|---:|")
        for label, n, median, p95, audio in rows:
            print("| %s | %d | %.1f | %.1f | %.1f |" % (label, n, median, p95, audio))
        print()
        print("Server peak RSS with 100 sounds of 5 s (analysed with two settings, every track drawn): %.1f MB" % rss)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def screenshots(args):
    """The page as a designer leaves it: heavier, rounder body and crisper clicks (B) over the
    pinned A, auditioned as an Android phone plays it, with the file that was skipped listed."""
    work = tempfile.mkdtemp(prefix="shots-tune-")
    try:
        sounds = os.path.join(work, "Sounds")
        os.makedirs(sounds)
        for name in ["clean/body_hits.ogg", "clean/coin_pickup.wav", "clean/engine_loop.wav"]:
            shutil.copy(os.path.join(ROOT, "Corpus", name), sounds)
        with open(os.path.join(sounds, "notes.wav"), "wb") as f:
            f.write(b"not a sound")
        tune = Tune(args.tactus, ["Sounds"], work, cwd=work, presets=None)  # names as a designer sees them
        for dark in (False, True):
            driver = browser(dark=dark, height=900)
            try:
                load(driver, tune.url)
                driver.execute_async_script(MOVE, "feel.bodyDb", 6)
                driver.execute_async_script(MOVE, "mapping.sharpness.brightenOctaves", -1.5)
                driver.find_element("id", "pin").click()
                driver.execute_async_script(MOVE, "feel.crispness", 0.5)
                driver.find_element("id", "overlay").click()
                driver.execute_async_script(TARGET, "android")
                driver.save_screenshot(os.path.join(args.screenshots, "tune-%s.png" % ("dark" if dark else "light")))
            finally:
                driver.quit()
        tune.stop(signal.SIGTERM)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tactus", default=os.path.join(ROOT, ".build/debug/tactus"))
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--events", type=int, default=120, help="knob events per drag (--bench)")
    parser.add_argument("--screenshots", metavar="DIR")
    args = parser.parse_args()
    args.tactus = os.path.abspath(args.tactus)
    if args.screenshots:
        screenshots(args)
    elif args.bench:
        bench(args)
    else:
        check(args)


if __name__ == "__main__":
    main()
