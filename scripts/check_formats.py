#!/usr/bin/env python3
"""Measures the rendered output formats (pcm, dualsense, rumble) against the AHAP written from
the same analysis, on folders of sounds (the Corpus, realcorpus/dev, realcorpus/heldout).

For each folder, `tactus batch` writes ahap, haptic, pcm, dualsense and rumble (no paired
audio), once with --jobs 1 and once with --jobs 2, then per format:
  - transients: the share of the AHAP's transients whose pulse starts within 2 ms of the
    AHAP's transient time in the format's own file (pcm/dualsense: the first instant the
    drive's envelope rises 0.05 × the transient's intensity above its level just before;
    rumble: the first step whose faster motor rises so), and the worst such error;
  - envelope: Pearson r and RMS of the rendered envelope (pcm/dualsense: the Hilbert envelope
    of the actuator channel, averaged over 5 ms; rumble: the faster motor's speed per step)
    against the track's continuous intensity (read from the .haptic: √amplitude), on the
    instants no transient's pulse covers (50 ms after each transient left out), pooled over
    the folder;
  - band: the share of the actuator signal's energy above 1.25 × the profile's highest
    carrier frequency (Welch PSD), in dB, median and worst file (pcm, dualsense);
  - deterministic: every file byte-identical between --jobs 1 and --jobs 2;
  - cost (`--cost`): CPU seconds of `convert` writing each format alone, beside AHAP's.
Prints a markdown table.

Usage: check_formats.py --tactus .build/release/tactus [--cost] [--work DIR] FOLDER...
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.signal import hilbert, welch

FORMATS = "ahap,haptic,pcm,dualsense,rumble"
RENDERED = [("pcm", "pcm.wav"), ("dualsense", "dualsense.wav"), ("rumble", "rumble.json")]
HIGHEST_HZ = 500.0  # the voice-coil profile's carrier at sharpness 1 (the default for pcm and dualsense)
WINDOW = 0.002      # a pulse must start this close to its transient
PULSE_MASK = 0.05   # seconds after a transient left out of the envelope comparison
GRID = 0.005        # envelope grid, seconds


def run(command: list[str]) -> float:
    """Runs a command; returns the CPU seconds (user + sys) it and its children took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ahap_transients(path: Path) -> list[tuple[float, float]]:
    """(time, intensity) of each HapticTransient event of an AHAP."""
    out = []
    for item in json.loads(path.read_text())["Pattern"]:
        event = item.get("Event")
        if event and event["EventType"] == "HapticTransient":
            params = {p["ParameterID"]: p["ParameterValue"] for p in event.get("EventParameters", [])}
            out.append((float(event["Time"]), float(params.get("HapticIntensity", 1))))
    return sorted(out)


def continuous_intensity(path: Path, times: np.ndarray) -> np.ndarray:
    """The continuous intensity a .haptic plays at `times`: √ of its amplitude envelope."""
    envelope = json.loads(path.read_text())["signals"]["continuous"]["envelopes"]["amplitude"]
    t = np.array([p["time"] for p in envelope])
    a = np.array([p["amplitude"] for p in envelope])
    return np.sqrt(np.interp(times, t, a, left=0, right=0))


def onset_errors(envelope: np.ndarray, transients: list[tuple[float, float]], step: float) -> list[float]:
    """For each transient, how far from its time the envelope (one value per `step` seconds,
    each at the start of its step) first rises 0.05 × its intensity above its median level
    6…3 ms before (inf when it does not between 3 ms before and 5 ms after)."""
    errors = []
    for time, intensity in transients:
        start = int(round((time - 0.003) / step))
        before = envelope[max(0, int(round((time - 0.006) / step))):max(1, start)]
        base = float(np.median(before)) if len(before) else 0.0
        window = envelope[max(0, start):int(round((time + 0.005) / step)) + 1]
        above = np.nonzero(window > base + 0.05 * intensity)[0]
        errors.append((max(0, start) + above[0]) * step - time if len(above) else float("inf"))
    return errors


def measure_file(ahap: Path, haptic: Path, rendered: Path, kind: str):
    transients = ahap_transients(ahap)
    if kind == "rumble":
        doc = json.loads(rendered.read_text())
        step = doc["stepMs"] / 1000
        low, high = np.array(doc["lowFrequency"]), np.array(doc["highFrequency"])
        envelope = np.maximum(low, high)
        times = (np.arange(len(envelope)) + 0.5) * step
        # Both motors: a dull pulse under a sharp body raises the heavy motor alone.
        onset_envelope, onset_step, band = low + high, step, None
    else:
        samples, rate = sf.read(rendered, always_2d=True)
        drive = samples[:, 2] if kind == "dualsense" else samples[:, 0]
        full = np.abs(hilbert(drive)) if len(drive) else drive
        per = int(rate * GRID)
        bins = len(full) // per
        envelope = full[:bins * per].reshape(bins, per).mean(axis=1)
        times = (np.arange(bins) + 0.5) * GRID
        onset_envelope, onset_step = full, 1 / rate
        band = None
        if np.sum(drive ** 2) > 0 and len(drive) >= 1024:
            f, p = welch(drive, fs=rate, nperseg=4096 if len(drive) >= 4096 else len(drive))
            above = p[f > 1.25 * HIGHEST_HZ].sum() / p.sum()
            band = 10 * np.log10(max(above, 1e-12))
    errors = onset_errors(onset_envelope, transients, onset_step)
    keep = np.ones(len(times), dtype=bool)
    for time, _ in transients:
        keep &= ~((times >= time - GRID) & (times < time + PULSE_MASK))
    reference = continuous_intensity(haptic, times)
    return errors, envelope[keep], reference[keep], band


def folder_rows(tactus: str, folder: Path, work: Path) -> dict[str, dict]:
    outputs = {}
    for jobs in (1, 2):
        out = work / f"jobs{jobs}"
        shutil.rmtree(out, ignore_errors=True)
        run([tactus, "batch", str(folder), "-o", str(out), "--format", FORMATS, "--jobs", str(jobs),
             "--set", "output.pairAudio=false", "--quiet"])
        outputs[jobs] = out
    rows = {}
    for kind, ending in RENDERED:
        files = sorted(outputs[1].rglob(f"*.{ending}"))
        identical = all(filecmp.cmp(f, outputs[2] / f.relative_to(outputs[1]), shallow=False) for f in files)
        errors, rendered, reference, bands = [], [], [], []
        for f in files:
            stem = f.name[: -len(ending) - 1]
            e, env, ref, band = measure_file(f.with_name(stem + ".ahap"), f.with_name(stem + ".haptic"), f, kind)
            errors += e
            rendered.append(env)
            reference.append(ref)
            if band is not None:
                bands.append(band)
        rendered_all, reference_all = np.concatenate(rendered), np.concatenate(reference)
        playing = (rendered_all > 0) | (reference_all > 0)
        r = float(np.corrcoef(rendered_all[playing], reference_all[playing])[0, 1]) if playing.sum() > 2 else float("nan")
        rms = float(np.sqrt(np.mean((rendered_all[playing] - reference_all[playing]) ** 2))) if playing.any() else 0.0
        finite = [abs(e) for e in errors if np.isfinite(e)]
        rows[kind] = {
            "files": len(files), "transients": len(errors),
            "within": sum(1 for e in errors if abs(e) <= WINDOW + 1e-9),
            "worst_ms": 1000 * max(finite) if finite else float("nan"),
            "r": r, "rms": rms,
            "band_median": float(np.median(bands)) if bands else None,
            "band_worst": float(np.max(bands)) if bands else None,
            "deterministic": identical,
        }
    return rows


def cost(tactus: str, folder: Path, work: Path) -> dict[str, float]:
    sources = sorted(p for p in folder.rglob("*") if p.suffix.lower() in {".wav", ".aiff", ".flac", ".ogg", ".mp3"})
    seconds = {}
    for kind in ["ahap", "haptic", "android", "rumble", "pcm", "dualsense"]:
        out = work / f"cost-{kind}"
        shutil.rmtree(out, ignore_errors=True)
        seconds[kind] = min(run([tactus, "convert", "--quiet", *map(str, sources), "-o", str(out), "--format", kind,
                                 "--set", "output.pairAudio=false"]) for _ in range(2))
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tactus", required=True)
    parser.add_argument("--work", type=Path, default=Path("check-formats-out"))
    parser.add_argument("--cost", action="store_true", help="also time writing each format alone")
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args()
    print("| folder | format | files | transients within 2 ms | worst ms | envelope r | envelope RMS "
          "| energy above 1.25×band, dB (median / worst) | deterministic |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for folder in args.folders:
        rows = folder_rows(args.tactus, folder, args.work / folder.name)
        for kind, row in rows.items():
            band = "—" if row["band_median"] is None else f"{row['band_median']:.1f} / {row['band_worst']:.1f}"
            print(f"| {folder} | {kind} | {row['files']} | {row['within']}/{row['transients']} | {row['worst_ms']:.2f} "
                  f"| {row['r']:.3f} | {row['rms']:.3f} | {band} | {'yes' if row['deterministic'] else 'NO'} |", flush=True)
    if args.cost:
        folder = args.folders[0]
        seconds = cost(args.tactus, folder, args.work / "cost")
        print(f"\nCPU seconds writing {folder} in one format (`convert`, no paired audio, best of 2):\n")
        print("| format | CPU s | over AHAP |")
        print("|---|---:|---:|")
        for kind, value in seconds.items():
            print(f"| {kind} | {value:.2f} | {value - seconds['ahap']:+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
