#!/usr/bin/env python3
"""Generate the benchmark corpus: 500 short sound effects in mixed formats plus one hour-long file.

The clips are synthetic but shaped like game sound effects (impacts, tonal hits, sweeps,
clicks over a quiet bed), so onset detection, mapping and writing do the work they do on
real material, and the encoders see realistic signals rather than silence or pure noise.

    corpus/mixed/sfx-NNN-<format>-<rate>-<ch>ch.<ext>   500 files, 0.5–10 s each,
        formats WAV 16-bit / 24-bit / float, FLAC, OGG Vorbis, MP3 at 22.05–96 kHz
    corpus/long/ambience-60min.wav                      60 min, 44.1 kHz, 16-bit, stereo
    corpus/manifest.json                                one entry per file (format, rate, seconds)

Deterministic: every clip comes from a numpy Generator seeded with its index, WAVs are
written with the stdlib `wave` module and sox runs in repeatable mode (-R) without dither,
so the same numpy and sox versions give the same bytes. A stamp of this script, numpy and
sox makes a second run a no-op.

Usage: make_corpus.py [--out bench-out/corpus]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

CLIPS = 500
LONG_SECONDS = 3600
LONG_RATE = 44100
LONG_SEGMENT_SECONDS = 10
# (name, extension, sox output options); None means written directly with `wave`.
FORMATS = [
    ("wav16", "wav", None),
    ("wav24", "wav", None),
    ("wavf32", "wav", ["-e", "floating-point", "-b", "32"]),
    ("flac", "flac", ["-C", "5"]),
    ("ogg", "ogg", ["-C", "5"]),
    ("mp3", "mp3", ["-C", "192"]),
]
RATES = [22050, 44100, 48000, 96000]
# MPEG audio has no 96 kHz mode.
MP3_RATES = [22050, 44100, 48000]


def synthesize(rng: np.random.Generator, seconds: float, rate: int, channels: int) -> np.ndarray:
    """A sound effect: a few events over a quiet bed, peak at most -1 dBFS, shape (frames, channels)."""
    n = int(round(seconds * rate))
    mono = rng.standard_normal(n) * 10 ** (-66 / 20)
    if rng.random() < 0.35:
        mono += _swelling_bed(rng, n, rate)
    for _ in range(int(rng.integers(1, max(2, int(seconds * 1.5)) + 1))):
        start = int(rng.integers(0, max(1, n - rate // 50)))
        event = EVENTS[int(rng.integers(len(EVENTS)))](rng, rate, min(n - start, int(rng.uniform(0.04, 1.5) * rate)))
        mono[start:start + event.size] += event * 10 ** (rng.uniform(-30, 0) / 20)
    left = mono
    right = np.roll(mono, int(rng.integers(0, rate // 1000 + 1))) * rng.uniform(0.6, 1.0) if channels == 2 else None
    signal = np.stack([left, right], axis=1) if right is not None else left[:, None]
    peak = np.max(np.abs(signal))
    return signal * (10 ** (-1 / 20) / peak) if peak > 10 ** (-1 / 20) else signal


def _smooth(x: np.ndarray, width: int) -> np.ndarray:
    """Moving average (a cheap low-pass) of `width` samples."""
    if width <= 1:
        return x
    c = np.cumsum(np.concatenate([np.zeros(width), x]))
    return (c[width:] - c[:-width]) / width


def _decay(rate: int, length: int, seconds: float) -> np.ndarray:
    return np.exp(-np.arange(length) / (seconds * rate))


def _impact(rng, rate, length):
    noise = _smooth(rng.standard_normal(length), int(rng.integers(1, 12)))
    return noise / (np.max(np.abs(noise)) + 1e-12) * _decay(rate, length, rng.uniform(0.01, 0.3))


def _tone(rng, rate, length):
    t = np.arange(length) / rate
    f0 = rng.uniform(60, 1500)
    partials = sum(np.sin(2 * np.pi * f0 * k * (1 + 0.01 * k) * t) / k for k in (1, 2, 3))
    return partials / 1.8 * _decay(rate, length, rng.uniform(0.05, 0.6))


def _sweep(rng, rate, length):
    t = np.arange(length) / rate
    f1, f2 = rng.uniform(100, 4000, size=2)
    phase = 2 * np.pi * (f1 * t + (f2 - f1) * t * t / (2 * max(t[-1], 1e-3)))
    envelope = np.minimum(1, t / 0.03) * _decay(rate, length, rng.uniform(0.1, 0.8))
    return np.sin(phase) * envelope


def _click(rng, rate, length):
    burst = np.zeros(length)
    width = min(length, max(1, rate // 500))
    burst[:width] = rng.uniform(-1, 1, width)
    return burst


EVENTS = [_impact, _tone, _sweep, _click]


def _swelling_bed(rng, n, rate):
    """Low rumble whose level rises and falls slowly (a continuous texture, no onsets)."""
    t = np.arange(n) / rate
    swell = 0.5 - 0.5 * np.cos(2 * np.pi * t / max(t[-1] if n else 1, 1e-3) * rng.uniform(0.5, 2))
    return _smooth(rng.standard_normal(n), 40) * swell * 10 ** (rng.uniform(-30, -18) / 20)


def pcm_bytes(signal: np.ndarray, bits: int) -> bytes:
    """Interleaved little-endian PCM of a float signal in -1…1."""
    scale = 2 ** (bits - 1) - 1
    ints = np.clip(np.round(signal * scale), -scale - 1, scale).astype("<i4")
    if bits == 16:
        return ints.astype("<i2").tobytes()
    return ints.view(np.uint8).reshape(-1, 4)[:, :3].tobytes()


def write_wav(path: Path, signal: np.ndarray, rate: int, bits: int) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(signal.shape[1])
        w.setsampwidth(bits // 8)
        w.setframerate(rate)
        w.writeframes(pcm_bytes(signal, bits))


def clip_plan(index: int) -> dict:
    """Format, rate, channels and length of clip `index` (formats rotate so each gets a sixth)."""
    rng = np.random.default_rng([7, index])
    name, ext, _ = FORMATS[index % len(FORMATS)]
    rate = int(rng.choice(MP3_RATES if name == "mp3" else RATES))
    channels = int(rng.choice([1, 2]))
    seconds = round(float(rng.uniform(0.5, 10.0)), 3)
    return {"file": f"mixed/sfx-{index:03d}-{name}-{rate}-{channels}ch.{ext}", "format": name,
            "rate": rate, "channels": channels, "seconds": seconds}


def make_clip(out: Path, index: int) -> dict:
    plan = clip_plan(index)
    signal = synthesize(np.random.default_rng([11, index]), plan["seconds"], plan["rate"], plan["channels"])
    target = out / plan["file"]
    options = dict((f[0], f[2]) for f in FORMATS)[plan["format"]]
    if options is None:
        write_wav(target, signal, plan["rate"], 16 if plan["format"] == "wav16" else 24)
    else:
        with tempfile.TemporaryDirectory(prefix="tactus-bench-") as tmp:
            source = Path(tmp) / "source.wav"
            write_wav(source, signal, plan["rate"], 24)
            subprocess.run(["sox", "-R", "-D", "-V1", str(source), *options, str(target)], check=True)
    return plan


def make_long(out: Path) -> dict:
    """60 minutes built from 10-second scenes, streamed to disk so memory stays small."""
    target = out / "long" / "ambience-60min.wav"
    with wave.open(str(target), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(LONG_RATE)
        for segment in range(LONG_SECONDS // LONG_SEGMENT_SECONDS):
            scene = synthesize(np.random.default_rng([13, segment]), LONG_SEGMENT_SECONDS, LONG_RATE, 2)
            w.writeframes(pcm_bytes(scene * 0.8, 16))
    return {"file": "long/ambience-60min.wav", "format": "wav16", "rate": LONG_RATE, "channels": 2,
            "seconds": float(LONG_SECONDS)}


def stamp() -> str:
    """Changes whenever the bytes this script writes could change."""
    sox = subprocess.run(["sox", "--version"], capture_output=True, text=True).stdout.strip()
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(f"{np.__version__}|{sox}".encode())
    return digest.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("bench-out/corpus"))
    args = parser.parse_args()
    out: Path = args.out
    stamp_file, manifest_file = out / "STAMP", out / "manifest.json"
    expected = stamp()
    if stamp_file.exists() and stamp_file.read_text() == expected and manifest_file.exists():
        print(f"corpus: {out} is up to date")
        return 0
    if shutil.which("sox") is None:
        sys.exit("make_corpus.py: sox is missing (run scripts/bench/ensure-tools.sh)")
    shutil.rmtree(out, ignore_errors=True)
    (out / "mixed").mkdir(parents=True)
    (out / "long").mkdir()
    print(f"corpus: writing {CLIPS} clips and a {LONG_SECONDS // 60}-minute file into {out} …", flush=True)
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        long_job = pool.submit(make_long, out)
        clips = list(pool.map(make_clip, [out] * CLIPS, range(CLIPS), chunksize=8))
    manifest = {"clips": clips, "long": long_job.result()}
    manifest_file.write_text(json.dumps(manifest, indent=1) + "\n")
    stamp_file.write_text(expected)
    total = sum(c["seconds"] for c in clips)
    print(f"corpus: {len(clips)} clips, {total:.0f} s of audio, plus {LONG_SECONDS} s in one file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
