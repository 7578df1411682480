#!/usr/bin/env python3
"""`tactus tune` in a real headless Chromium (Debian's chromium + chromium-driver, Selenium).

Default (make check-tune): serves a few Corpus sounds, loads the page, checks that every preset
parameter has a knob, moves knobs, pins A and tunes B, switches and overlays, saves a preset and
exports, then runs `tactus convert --preset <saved>` and compares the bytes with the export; checks
that a bad token, Host or Origin is refused, that the page logged no console error, and that
Ctrl-C exits 0 and removes the run's temporary folder.

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

    def __init__(self, tactus, paths, work, cwd=None):
        self.work = work
        # Its own temporary folder (TMPDIR), so that what it leaves there is its own and not
        # another run's on the same machine.
        self.tmp = tempfile.mkdtemp(prefix="tmp-", dir=work)
        self.process = subprocess.Popen(
            [tactus, "tune", *paths, "--presets-dir", os.path.join(work, "presets"), "-o", os.path.join(work, "export")],
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


def check(args):
    work = tempfile.mkdtemp(prefix="check-tune-")
    try:
        sounds = os.path.join(work, "sounds")
        os.makedirs(sounds)
        os.makedirs(os.path.join(work, "presets"))
        for name in CORPUS:
            shutil.copy(os.path.join(ROOT, "Corpus", name), sounds)
        tune = Tune(args.tactus, [sounds], work)
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
            expect(sorted(knobs) == sorted(parameters) and len(knobs) > 30, "a knob for every parameter (%d)" % len(knobs))
            plots = driver.execute_script("return document.querySelectorAll('canvas').length")
            expect(plots == len(CORPUS), "a plot per sound (%d)" % plots)
            driver.execute_async_script(MOVE, "mapping.intensity.gamma", 0.6)
            lines = driver.find_element("id", "set-lines").text
            expect("--set mapping.intensity.gamma=0.6" in lines, "the settings in force follow the knob: " + lines.replace("\n", " "))
            driver.find_element("id", "pin").click()
            driver.execute_async_script(MOVE, "mapping.transients.maxIntensity", 0.8)
            driver.execute_async_script(MOVE, "peaks.delta", 0.2)
            expect("analysed" in driver.find_element("id", "status").text, "an analysis knob analyses again")
            driver.find_element("id", "switch").click()
            expect(driver.find_element("id", "switch").text == "Showing A", "switch to A")
            driver.find_element("id", "switch").click()
            driver.find_element("id", "overlay").click()
            expect(driver.find_element("id", "switch").text == "Showing B", "back to B, A overlaid")
            driver.find_element("id", "play-mix").click()
            time.sleep(1.0)
            playing = "on" in driver.find_element("id", "play-mix").get_attribute("class")
            driver.find_element("id", "stop").click()
            expect(playing, "the original and the haptics play mixed")
            name = driver.find_element("id", "name")
            name.clear()
            name.send_keys("check-tuned")
            driver.find_element("id", "save-preset").click()
            time.sleep(0.5)
            saved = driver.find_element("id", "saved").text
            expect(saved.startswith("Saved "), "save as new preset: " + saved)
            # Every format the page offers, so each one's export is checked against convert.
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
            preset = os.path.join(work, "presets", "check-tuned.json")
            with open(preset) as f:
                text = f.read()
            expect('"extends": "default"' in text and '"windowMs"' not in text, "the saved preset extends default, differences only")
            built = os.path.join(work, "built")
            current = driver.execute_script("return document.querySelector('.sound.current .name').textContent")
            source = os.path.join(sounds, os.path.basename(current))
            subprocess.run([args.tactus, "convert", source, "-o", built, "--preset", preset, "--format", ",".join(formats),
                            "--quiet"], check=True)
            files = exported[len("Exported "):].split(", ")
            same = all(open(f, "rb").read() == open(os.path.join(built, os.path.basename(f)), "rb").read() for f in files)
            # One file per format, plus the paired audio the AHAP plays.
            expect(same and len(files) >= len(formats) + 1,
                   "tactus convert --preset <saved> writes the exported bytes (%d files)" % len(files))
            errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
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
    work = tempfile.mkdtemp(prefix="shots-tune-")
    try:
        os.makedirs(os.path.join(work, "presets"))
        sounds = os.path.join(work, "Sounds")
        os.makedirs(sounds)
        for name in ["clean/body_hits.ogg", "clean/coin_pickup.wav", "clean/engine_loop.wav"]:
            shutil.copy(os.path.join(ROOT, "Corpus", name), sounds)
        tune = Tune(args.tactus, ["Sounds"], work, cwd=work)  # names as a designer sees them
        for dark in (False, True):
            driver = browser(dark=dark, height=900)
            try:
                load(driver, tune.url)
                driver.execute_async_script(MOVE, "mapping.intensity.gamma", 0.7)
                driver.find_element("id", "pin").click()
                driver.execute_async_script(MOVE, "mapping.sharpness.lowHz", 400)
                driver.find_element("id", "overlay").click()
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
