#!/usr/bin/env python3
"""The Python baseline: what a user would otherwise write with librosa to get Tactus's features.

For each file: `librosa.load` (mono), `onset_detect`, `rms` and `spectral_centroid`, each
called the plain way (every call computes its own frames, as a user's script would). The
process is warm: librosa is imported and the pipeline run once on the warm-up file (numba's
JIT, caches) before the clock starts, so only the per-file work is counted.

--geometry tactus   native sample rate, Tactus's frames: --window-ms and --hop-ms as in the
                    preset, FFT size the next power of two (the same work Tactus does; the
                    ratio baseline).
--geometry default  librosa's defaults: resample to 22,050 Hz, 2048-point FFT, 512 hop.

Prints one line of JSON: files, cpu_seconds (getrusage of this process, user+sys, all
threads), wall_seconds, warmup_cpu_seconds (import + first run) and onsets found.

Usage: librosa_baseline.py [--geometry tactus --window-ms 20 --hop-ms 10 | --geometry default]
                           [--warmup FILE] FILE...
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def tactus_frames(rate: float, window_ms: float, hop_ms: float) -> dict:
    """Window, hop and FFT size exactly as Tactus's FrameGeometry derives them."""
    window = max(16, int(round(window_ms * rate / 1000)))
    hop = max(1, int(round(hop_ms * rate / 1000)))
    n_fft = 16
    while n_fft < window:
        n_fft *= 2
    return {"window": window, "hop": hop, "n_fft": n_fft}


def features(librosa, path: str, geometry: str, window_ms: float, hop_ms: float) -> int:
    """Runs the user's pipeline on one file; returns the number of onsets."""
    if geometry == "default":
        y, sr = librosa.load(path)
        onsets = librosa.onset.onset_detect(y=y, sr=sr)
        librosa.feature.rms(y=y)
        librosa.feature.spectral_centroid(y=y, sr=sr)
        return len(onsets)
    y, sr = librosa.load(path, sr=None)
    f = tactus_frames(sr, window_ms, hop_ms)
    novelty = librosa.onset.onset_strength(y=y, sr=sr, hop_length=f["hop"], n_fft=f["n_fft"], win_length=f["window"])
    onsets = librosa.onset.onset_detect(onset_envelope=novelty, sr=sr, hop_length=f["hop"])
    librosa.feature.rms(y=y, frame_length=f["window"], hop_length=f["hop"])
    librosa.feature.spectral_centroid(y=y, sr=sr, n_fft=f["n_fft"], hop_length=f["hop"], win_length=f["window"])
    return len(onsets)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--geometry", choices=["tactus", "default"], default="tactus")
    parser.add_argument("--window-ms", type=float, help="Tactus's analysis window (with --geometry tactus)")
    parser.add_argument("--hop-ms", type=float, help="Tactus's hop (with --geometry tactus)")
    parser.add_argument("--warmup", help="file to run once before timing (default: the first input)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.geometry == "tactus" and not (args.window_ms and args.hop_ms):
        parser.error("--geometry tactus needs --window-ms and --hop-ms")

    import librosa

    def run(path: str) -> int:
        return features(librosa, path, args.geometry, args.window_ms, args.hop_ms)

    run(args.warmup or args.files[0])
    warmup = cpu_seconds()
    wall_start = time.perf_counter()
    onsets = sum(run(path) for path in args.files)
    wall = time.perf_counter() - wall_start
    print(json.dumps({"files": len(args.files), "cpu_seconds": round(cpu_seconds() - warmup, 4),
                      "wall_seconds": round(wall, 4), "warmup_cpu_seconds": round(warmup, 4),
                      "onsets": onsets}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
