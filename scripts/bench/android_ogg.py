#!/usr/bin/env python3
"""`--format android-ogg` on real sounds: how close its sound channels are to the source, and how
closely its haptic channel follows the AHAP of the same analysis.

For every `--every`-th sound under SOURCES (read in place), `tactus convert` writes
<stem>.ahap and <stem>.android.ogg at each `--quality` (format.android-ogg.quality), then:

- sound channels vs source (both decoded by libsndfile through soundfile; Vorbis decoding
  drops its own priming, so the frames line up): SNR in dB over the whole sound, and the
  log-spectral distance (RMS over frequency of the dB difference of 2048-point Hann spectra,
  over the bins below 16 kHz within 60 dB of the frame's strongest, averaged over the frames
  within 60 dB of the loudest), in dB;
- haptic channel vs AHAP: `tactus compare <stem>.ahap <stem>.android.ogg --format json
  --transient-mask-ms 30` (transients paired within 50 ms, their time error; the continuous
  intensity's RMS difference every millisecond), and the Pearson correlation of two 1 ms
  amplitude envelopes (largest |sample| over one 150 Hz period): the ogg's haptic channel, and
  the AHAP rendered without loss by the same drive (`--format pcm`, LRA profile, at the
  ogg's rate).

Usage: android_ogg.py --tactus .build/release/tactus SOURCES [--every 5] [--quality 0.6 ...]
       [--work bench-out/android-ogg]
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
from pathlib import Path

import numpy as np
import soundfile

AUDIO = {".wav", ".flac", ".ogg", ".mp3", ".aiff", ".aif"}


def envelope(x: np.ndarray, rate: int) -> np.ndarray:
    """Largest |x| over each 1 ms step's surrounding 150 Hz period."""
    step, half = rate // 1000, int(rate / 150 / 2)
    a = np.abs(x)
    return np.array([a[max(0, i - half):i + half + 1].max(initial=0) for i in range(0, len(a), step)])


def spectral_distance(ref: np.ndarray, test: np.ndarray, rate: int) -> float:
    n, hop = 2048, 1024
    window = np.hanning(n)
    top = int(min(16_000, rate / 2) * n / rate)
    frames = [(ref[i:i + n], test[i:i + n]) for i in range(0, len(ref) - n, hop)]
    if not frames:
        return float("nan")
    power = [np.sum(r ** 2) for r, _ in frames]
    floor = max(power) * 1e-6
    distances = []
    for (r, t), p in zip(frames, power):
        if p < floor:
            continue
        R = 10 * np.log10(np.abs(np.fft.rfft(r * window))[:top] ** 2 + 1e-12)
        T = 10 * np.log10(np.abs(np.fft.rfft(t * window))[:top] ** 2 + 1e-12)
        audible = R > R.max() - 60
        distances.append(np.sqrt(np.mean((R[audible] - T[audible]) ** 2)))
    return float(np.mean(distances)) if distances else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tactus", required=True)
    parser.add_argument("sources")
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--quality", type=float, nargs="+", default=[0.6])
    parser.add_argument("--work", default="bench-out/android-ogg")
    args = parser.parse_args()
    sounds = sorted(p for p in Path(args.sources).rglob("*") if p.suffix.lower() in AUDIO)[::args.every]
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    print(f"{len(sounds)} sounds (every {args.every}th of {args.sources})")
    for quality in args.quality:
        out = work / f"q{quality}"
        subprocess.run([args.tactus, "convert", *map(str, sounds), "-o", str(out), "--format", "ahap,android-ogg",
                        "--set", f"format.android-ogg.quality={quality}", "--quiet"], check=True)
        snr, lsd, size, seconds = [], [], 0, 0.0
        paired = ref_count = cand_count = 0
        times, rms, correlation = [], [], []
        for sound in sounds:
            ogg = next(p for p in (out / f"{sound.stem}.android.ogg", out / f"{sound.name}.android.ogg") if p.exists())
            stem = ogg.name[:-len(".android.ogg")]
            source, rate = soundfile.read(sound, always_2d=True, dtype="float64")
            decoded, ogg_rate = soundfile.read(ogg, always_2d=True, dtype="float64")
            assert ogg_rate == rate, (sound, rate, ogg_rate)
            channels = decoded.shape[1] - 1
            ref = source[:, :channels]
            test = decoded[:len(ref), :channels]
            noise = np.sum((ref - test) ** 2)
            snr.append(10 * np.log10(np.sum(ref ** 2) / noise) if noise > 0 else float("inf"))
            lsd.append(np.mean([spectral_distance(ref[:, c], test[:, c], rate) for c in range(channels)]))
            size += ogg.stat().st_size
            seconds += len(ref) / rate
            ahap = out / f"{stem}.ahap"
            report = json.loads(subprocess.run([args.tactus, "compare", str(ahap), str(ogg), "--format", "json",
                                                "--transient-mask-ms", "30"], capture_output=True, text=True).stdout)
            paired += report["transients"]["paired"]
            ref_count += report["transients"]["reference"]
            cand_count += report["transients"]["candidate"]
            if report["transients"]["paired"]:
                times.append(report["transients"]["worstTimeMs"])
            rms.append(report["envelope"]["rms"])
            pcm_dir = out / "pcm"
            subprocess.run([args.tactus, "convert", str(ahap), "-o", str(pcm_dir), "--format", "pcm", "--quiet",
                            "--set", "format.pcm.profile=lra", "--set", f"format.pcm.sampleRate={ogg_rate}"], check=True)
            drive, _ = soundfile.read(pcm_dir / f"{stem}.pcm.wav", dtype="float64")
            a, b = envelope(drive, ogg_rate), envelope(decoded[:, -1], ogg_rate)
            n = min(len(a), len(b))
            if n > 2 and np.std(a[:n]) > 0 and np.std(b[:n]) > 0:
                correlation.append(float(np.corrcoef(a[:n], b[:n])[0, 1]))
        def q(values, p):
            return float(np.percentile(values, p)) if values else float("nan")
        print(f"quality {quality}: {len(sounds)} sounds, {seconds:.0f} s, {8 * size / seconds / 1000:.0f} kbit/s")
        print(f"  sound vs source: SNR median {statistics.median(snr):.1f} dB (10th percentile {q(snr, 10):.1f}, worst {min(snr):.1f}); "
              f"log-spectral distance median {statistics.median(lsd):.2f} dB (90th percentile {q(lsd, 90):.2f})")
        print(f"  haptic vs AHAP: transients {paired} paired of {ref_count} (AHAP) and {cand_count} (ogg); "
              f"worst time error per sound median {q(times, 50):.2f} ms (90th percentile {q(times, 90):.2f}); "
              f"continuous intensity RMS median {q(rms, 50):.4f} (90th percentile {q(rms, 90):.4f}); "
              f"envelope correlation median {q(correlation, 50):.3f} (10th percentile {q(correlation, 10):.3f}, n={len(correlation)})")


if __name__ == "__main__":
    main()
