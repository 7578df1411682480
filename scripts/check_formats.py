#!/usr/bin/env python3
"""Measures the rendered output formats (pcm with each profile, dualsense, rumble, split AHAP)
against the single AHAP and the `.haptic` written from the same analysis, on folders of sounds
(the Corpus, realcorpus/dev, realcorpus/heldout). `make check-formats` runs it.

For each folder, `tactus batch` (no paired audio) writes ahap, haptic, pcm (voiceCoil),
dualsense and rumble, then haptic, pcm (lra) and split AHAP; each twice, with --jobs 1 and
--jobs 2. Then per format:
  - transients: the share of the AHAP's transients whose pulse starts within 2 ms of the
    AHAP's transient time in the format's own file. A pulse starts where the file's envelope
    first stands 0.05 × the transient's intensity above the body the track plays there,
    searched from 3 ms before to 5 ms after the transient. The body is the `.haptic`'s
    continuous envelope (√amplitude, emphasis breakpoints left out, so the transients' own
    breakpoints do not lower it), faded in and out at the ends of each region (the AHAP's
    continuous events) over one period of the profile's resonance as the renderer does (pcm,
    dualsense); for rumble, the two motors' body speeds (intensity split by the `.haptic`'s
    frequency = sharpness) summed. The file's
    envelope at an instant: the actuator channel's |sample| (pcm, dualsense: causal, and never
    above the carrier's amplitude, so it cannot find a pulse early, but it finds it late by as
    much as the carrier's phase keeps the sample small: up to a quarter period), the sum of the
    motors' speeds per step, each step at its start (rumble). (The Hilbert envelope is not
    causal: around a pulse shorter than about one carrier period, 12 ms at 80 Hz, it rises up
    to 3 ms before the pulse starts.) The share within 2 ms and the median are reported; a
    transient with no pulse by 5 ms fails the check;
  - envelope: Pearson r and RMS of the rendered envelope (pcm/dualsense: the Hilbert envelope
    averaged over 5 ms; rumble: the faster motor's speed per step) against the body intensity,
    on the instants no transient's pulse covers (5 ms before to 50 ms after each transient left
    out) where either is above 0, pooled over the folder;
  - band: the actuator signal's energy above the band's upper edge plus the pulse's main lobe
    (highHz + 2/pulse: 667 Hz voiceCoil, 290 Hz lra) relative to the energy below it (Welch
    PSD), in dB, median and worst file, and the files over LIMIT_DB;
  - split AHAP, read by the product (`tactus compare single other --format json`, each file as
    it plays: AHAP event values × or + controls): the transients file plays the single file's
    transients (each paired, times within 1 ns, intensities as played within 0.002,
    sharpnesses within SHARPNESS_SLACK: the single file's transient absorbs half of a sharpness
    control it leaves un-notched) and no continuous region; the continuous file plays no
    transient and the single file's body: its played intensity and sharpness match on the
    compare grid (every 1 ms) within BODY_TOLERANCE, leaving out LIFT_REACH around each
    transient (there the single file lifts its intensity control, notches its sharpness control
    and splits its events) and SPAN_END_REACH around each region's start and end (where either
    file's events may start or end by a rounding), and its sharpness is compared on every
    instant either file plays (so both play the same spans). Reported beside the verdict: the
    worst continuous-intensity error, anywhere, of the continuous file against the `.haptic`
    (and of the single file, which lifts its body around transients);
  - deterministic: every file byte-identical between --jobs 1 and --jobs 2 (two runs, one
    and two threads).
The transients the rendered files' pulses are measured against are the AHAP's as it plays
(`tactus playback`: event intensity × intensity control); the body their envelopes are measured
against is the `.haptic`'s envelope without its emphasis breakpoints (`Body`): the track's body,
which a player of the `.haptic` dips under each emphasis for an instant and the AHAP lifts around
each transient, over the spans the AHAP's continuous events play (`tactus playback`).
Prints markdown tables; exits 1 when a format has no pulse for a transient, breaks the band
limit, when the split pair does not play the single file's events, or when bytes differ between
runs.

Usage: check_formats.py --tactus .build/release/tactus [--work DIR] FOLDER...
"""
from __future__ import annotations

import argparse
import filecmp
import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.signal import hilbert, welch

WINDOW = 0.002      # a pulse must start this close to its transient
RISE = 0.05         # … standing this share of its intensity above the body
PULSE_MASK = (0.005, 0.05)  # seconds before / after a transient left out of the envelope comparison
GRID = 0.005        # envelope grid, seconds
LIMIT_DB = -30.0    # the band limit: energy above the edge relative to in-band
# The actuator profiles: (highest carrier Hz, resonance Hz, pulse s), as ActuatorDrive declares them.
PROFILES = {"voiceCoil": (500.0, 160.0, 0.012), "lra": (190.0, 170.0, 0.020)}
# The two batches per folder: formats and settings.
BATCHES = {
    "main": ("ahap,haptic,pcm,dualsense,rumble", []),
    "lra-split": ("ahap,haptic,pcm", ["--set", "format.pcm.profile=lra", "--set", "format.ahap.split=true"]),
}
# (row name, batch, file ending, kind, profile)
ROWS = [("pcm voiceCoil", "main", "pcm.wav", "wav", "voiceCoil"),
        ("pcm lra", "lra-split", "pcm.wav", "wav", "lra"),
        ("dualsense", "main", "dualsense.wav", "wav", "voiceCoil"),
        ("rumble", "main", "rumble.json", "rumble", None)]


def tactus_json(tactus: str, *arguments: str) -> dict:
    """The JSON a `tactus` command prints, parsed. `compare` exits 1 when a limit is exceeded and
    prints its numbers all the same; a command that prints nothing failed."""
    done = subprocess.run([tactus, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not done.stdout:
        raise RuntimeError(f"tactus {' '.join(arguments)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


@functools.cache
def playback(tactus: str, path: Path) -> dict:
    """What `tactus playback` prints for a haptic file: its transients as they play (for an AHAP,
    event intensity × intensity control, at most 1) and the spans its continuous regions play;
    the grid at its coarsest step, since only those two are read here. Once per file: every
    rendered format of a sound is measured against the same AHAP."""
    return tactus_json(tactus, "playback", str(path), "--step-ms", "1e9")


class Body:
    """The continuous body a track plays: intensity (√ of the `.haptic`'s amplitude, without the
    transients' emphasis breakpoints), sharpness (its frequency), and its regions (the spans the
    AHAP's continuous events play, `played["continuous"]["spans"]`, those within 0.1 ms joined:
    a region split at a transient resumes 10 µs later)."""

    def __init__(self, haptic: Path, played: dict):
        envelopes = json.loads(haptic.read_text())["signals"]["continuous"]["envelopes"]
        amplitude = [p for p in envelopes["amplitude"] if "emphasis" not in p]
        self.t = np.array([p["time"] for p in amplitude])
        self.a = np.array([p["amplitude"] for p in amplitude])
        frequency = envelopes.get("frequency", [])
        self.ft = np.array([p["time"] for p in frequency])
        self.f = np.array([p["frequency"] for p in frequency])
        self.regions: list[list[float]] = []
        for start, end in played["continuous"]["spans"]:
            if self.regions and start - self.regions[-1][1] < 1e-4:
                self.regions[-1][1] = max(self.regions[-1][1], end)
            else:
                self.regions.append([start, end])

    def intensity(self, times: np.ndarray, edge: float = 0.0) -> np.ndarray:
        """Body intensity at `times`; with `edge`, faded over `edge` seconds at region ends."""
        value = np.sqrt(np.interp(times, self.t, self.a, left=0, right=0)) if len(self.t) else np.zeros(len(times))
        if edge > 0:
            fade = np.zeros(len(times))
            for start, end in self.regions:
                inside = (times >= start) & (times < end)
                fade[inside] = np.minimum(1, np.minimum(times[inside] - start, end - times[inside]) / edge)
            value = value * fade
        return value

    def sharpness(self, times: np.ndarray) -> np.ndarray:
        return np.interp(times, self.ft, self.f) if len(self.ft) else np.full(len(times), 0.5)


def onset_errors(envelope: np.ndarray, body: np.ndarray, transients: list[tuple[float, float]],
                 step: float) -> list[float]:
    """For each transient, how far from its time the envelope (one value per `step` seconds,
    each at the start of its step) first stands RISE × its intensity above `body` (inf when it
    does not between 3 ms before and 5 ms after)."""
    errors = []
    for time, intensity in transients:
        start = max(0, int(round((time - 0.003) / step)))
        stop = int(round((time + 0.005) / step)) + 1
        above = np.nonzero(envelope[start:stop] - body[start:stop] > RISE * intensity)[0]
        errors.append((start + above[0]) * step - time if len(above) else float("inf"))
    return errors


def measure_file(tactus: str, ahap: Path, haptic: Path, rendered: Path, kind: str, profile: str | None):
    """(onset errors, rendered envelope, body, band dB or None) of one rendered file."""
    played = playback(tactus, ahap)
    transients = [(t["time"], t["intensity"]) for t in played["transients"]]
    body = Body(haptic, played)
    band = None
    if kind == "rumble":
        doc = json.loads(rendered.read_text())
        step = doc["stepMs"] / 1000
        low, high = np.array(doc["lowFrequency"]), np.array(doc["highFrequency"])
        middles = (np.arange(len(low)) + 0.5) * step
        level, sharp = body.intensity(middles), body.sharpness(middles)
        body_sum = level * (np.minimum(1, 2 * (1 - sharp)) + np.minimum(1, 2 * sharp))
        errors = onset_errors(low + high, body_sum, transients, step)
        envelope, times, reference = np.maximum(low, high), middles, level
    else:
        highest, resonance, pulse = PROFILES[profile]
        samples, rate = sf.read(rendered, always_2d=True)
        drive = samples[:, 2] if rendered.name.endswith("dualsense.wav") else samples[:, 0]
        full = np.abs(hilbert(drive)) if len(drive) else drive
        instants = np.arange(len(full)) / rate
        errors = onset_errors(np.abs(drive), body.intensity(instants, edge=1 / resonance), transients, 1 / rate)
        per = int(rate * GRID)
        bins = len(full) // per
        envelope = full[:bins * per].reshape(bins, per).mean(axis=1)
        times = (np.arange(bins) + 0.5) * GRID
        reference = body.intensity(times, edge=1 / resonance)
        if np.sum(drive ** 2) > 0 and len(drive) >= 1024:
            f, p = welch(drive, fs=rate, nperseg=min(4096, len(drive)))
            edge = highest + 2 / pulse
            band = 10 * np.log10(max(p[f > edge].sum() / max(p[f <= edge].sum(), 1e-30), 1e-12))
    keep = np.ones(len(times), dtype=bool)
    for time, _ in transients:
        keep &= ~((times >= time - PULSE_MASK[0]) & (times < time + PULSE_MASK[1]))
    return errors, envelope[keep], reference[keep], band


# Half of AHAPWriter.Options.sharpnessSlack (0.008), and the 4th decimal's rounding.
SHARPNESS_SLACK = 0.004 + 1e-4
# The AHAP's control ramps (5 ms) and the 10 µs step after a split, with a margin.
LIFT_REACH = 0.0055
# Two roundings to 4 decimals of event values and control points, multiplied.
BODY_TOLERANCE = 5e-4
# Left out around each continuous span's start and end, where either file's events may start or
# end by a rounding.
SPAN_END_REACH = 2e-5


def compare(tactus: str, reference: Path, candidate: Path, *options: str) -> dict:
    """What `tactus compare reference candidate --format json` reports: the two files read as
    they play, compared (exit status 1 only means a limit was exceeded; the numbers are read)."""
    return tactus_json(tactus, "compare", str(reference), str(candidate), "--format", "json", *options)


def split_row(tactus: str, single_dir: Path, split_dir: Path) -> dict:
    """The split AHAP pair against the single AHAP of the same analysis, as the product reads
    them (`tactus compare`)."""
    files, same, worst_body, worst_single, count = 0, 0, 0.0, 0.0, 0
    for single in sorted(single_dir.rglob("*.ahap")):
        stem = single.name[:-len(".ahap")]
        if stem.endswith((".continuous", ".transients")):
            continue
        folder = split_dir / single.parent.relative_to(single_dir)
        continuous, transients = folder / f"{stem}.continuous.ahap", folder / f"{stem}.transients.ahap"
        files += 1
        # The transients file: the single file's transients (times exactly, intensities as
        # played, sharpnesses), and no continuous region.
        hits = compare(tactus, single, transients)
        t = hits["transients"]
        plays_transients = (t["paired"] == t["reference"] == t["candidate"] and t["worstTimeMs"] < 1e-6
                            and t["worstIntensity"] <= 0.002 and t["worstSharpness"] <= SHARPNESS_SLACK
                            and hits["regions"]["candidate"] == 0)
        # The continuous file: no transient, and the single file's body (intensity and
        # sharpness) farther than LIFT_REACH from its transients, on the same spans (the
        # sharpness, compared where both play, is compared on every instant either plays).
        body = compare(tactus, single, continuous, "--transient-mask-ms", str(LIFT_REACH * 1000),
                       "--edge-mask-ms", str(SPAN_END_REACH * 1000))
        plays_body = (body["transients"]["candidate"] == 0
                      and body["sharpness"]["samples"] == body["envelope"]["samples"]
                      and body["envelope"]["worst"] <= BODY_TOLERANCE and body["sharpness"]["worst"] <= BODY_TOLERANCE)
        same += plays_transients and plays_body
        count += t["reference"]
        haptic = single.with_name(f"{stem}.haptic")
        worst_body = max(worst_body, compare(tactus, haptic, continuous)["envelope"]["worst"])
        worst_single = max(worst_single, compare(tactus, haptic, single)["envelope"]["worst"])
    return {"files": files, "same": same, "transients": count, "worst_body": worst_body, "worst_single": worst_single}


def batch(tactus: str, folder: Path, out: Path, formats: str, settings: list[str], jobs: int) -> None:
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([tactus, "batch", str(folder), "-o", str(out), "--format", formats, "--jobs", str(jobs),
                    "--set", "output.pairAudio=false", "--quiet", *settings],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def identical(one: Path, two: Path) -> bool:
    files = sorted(p for p in one.rglob("*") if p.is_file())
    return (len(files) == sum(1 for p in two.rglob("*") if p.is_file())
            and all(filecmp.cmp(f, two / f.relative_to(one), shallow=False) for f in files))


def folder_rows(tactus: str, folder: Path, work: Path) -> tuple[dict[str, dict], dict]:
    outputs, deterministic = {}, {}
    for name, (formats, settings) in BATCHES.items():
        for jobs in (1, 2):
            batch(tactus, folder, work / f"{name}-jobs{jobs}", formats, settings, jobs)
        outputs[name] = work / f"{name}-jobs1"
        deterministic[name] = identical(outputs[name], work / f"{name}-jobs2")
    rows = {}
    for row, source, ending, kind, profile in ROWS:
        errors, rendered, reference, bands = [], [], [], []
        files = sorted(outputs[source].rglob(f"*.{ending}"))
        for f in files:
            stem = f.name[: -len(ending) - 1]
            ahap = outputs["main"] / f.relative_to(outputs[source]).parent / f"{stem}.ahap"
            e, env, ref, band = measure_file(tactus, ahap, f.with_name(stem + ".haptic"), f, kind, profile)
            errors += e
            rendered.append(env)
            reference.append(ref)
            if band is not None:
                bands.append(band)
        rendered_all, reference_all = np.concatenate(rendered), np.concatenate(reference)
        playing = (rendered_all > 0) | (reference_all > 0)
        finite = [abs(e) for e in errors if np.isfinite(e)]
        rows[row] = {
            "files": len(files), "transients": len(errors),
            "within": sum(1 for e in errors if abs(e) <= WINDOW + 1e-9),
            "worst_ms": 1000 * max(finite) if finite else float("nan"),
            "median_ms": 1000 * float(np.median(finite)) if finite else float("nan"),
            "missing": sum(1 for e in errors if not np.isfinite(e)),
            "r": float(np.corrcoef(rendered_all[playing], reference_all[playing])[0, 1]) if playing.sum() > 2 else float("nan"),
            "rms": float(np.sqrt(np.mean((rendered_all[playing] - reference_all[playing]) ** 2))) if playing.any() else 0.0,
            "band_median": float(np.median(bands)) if bands else None,
            "band_worst": float(np.max(bands)) if bands else None,
            "band_over": sum(1 for b in bands if b > LIMIT_DB),
            "deterministic": deterministic[source],
        }
    split = split_row(tactus, outputs["main"], outputs["lra-split"])
    split["deterministic"] = deterministic["lra-split"]
    return rows, split


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tactus", required=True)
    parser.add_argument("--work", type=Path, default=Path("check-formats-out"))
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args()
    failed = False
    print("| folder | format | files | transients within 2 ms | median / worst ms | envelope r | envelope RMS "
          f"| energy above the band, dB: median / worst (files over {LIMIT_DB:.0f}) | deterministic |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    splits = {}
    for folder in args.folders:
        rows, splits[folder] = folder_rows(args.tactus, folder, args.work / folder.name)
        for kind, row in rows.items():
            band = ("—" if row["band_median"] is None
                    else f"{row['band_median']:.1f} / {row['band_worst']:.1f} ({row['band_over']})")
            print(f"| {folder} | {kind} | {row['files']} | {row['within']}/{row['transients']} | {row['median_ms']:.2f} / {row['worst_ms']:.2f} "
                  f"| {row['r']:.3f} | {row['rms']:.3f} | {band} | {'yes' if row['deterministic'] else 'NO'} |", flush=True)
            failed |= (row["missing"] > 0 or not row["deterministic"]
                       or row.get("band_over", 0) > 0)
    print("\n| folder | split AHAP pairs | playing as the single file | transients | worst continuous-intensity "
          "error against the .haptic: continuous file (single file) | deterministic |")
    print("|---|---:|---:|---:|---:|---|")
    for folder, split in splits.items():
        print(f"| {folder} | {split['files']} | {split['same']}/{split['files']} | {split['transients']} "
              f"| {split['worst_body']:.4f} ({split['worst_single']:.4f}) | {'yes' if split['deterministic'] else 'NO'} |")
        failed |= split["same"] < split["files"] or not split["deterministic"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
