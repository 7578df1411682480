#!/usr/bin/env python3
"""Where Tactus's CPU time goes, by pipeline stage, from a sampling profile.

Method: `perf record` samples the command at 250 Hz with DWARF call stacks (so C libraries
built without frame pointers — libsndfile, its codecs, FFTW — still unwind). Each sample is
walked from the leaf towards main and charged to the stage of the first frame that belongs
to one (a runtime call such as swift_retain or a read() in the kernel is charged to the
Tactus code that made it):

    decode + mixdown     TactusAudio.AudioFileReader / Mixdown, sf_read*, sf_open
    STFT                 TactusAnalysis.STFT, TactusSpectrum.RealFFT, fftwf_*
    analyzers            any other TactusAnalysis code (onset methods, peak picking,
                         attack locator, level, centroid, the analysis session)
    mapping              TactusMapping code except preset loading
    write AHAP           TactusAHAP (writer, encoder), TactusAudio.StagedFile (staging and
                         renaming the outputs)
    paired audio         TactusAudio.WAVWriter / FileCopy, sf_write*
    batch bookkeeping    anything called from batch's source discovery (which probes every
                         file), content hashing, manifest and report
    other                the rest: process start-up, runtime, presets, argument parsing,
                         file-system checks, scheduling

Samples whose stack did not unwind into Tactus code are charged by the library they stopped
in (FFTW → STFT, libsndfile and codecs → decode). The rules go by type name: when "other"
grows past a few per cent, a type was probably renamed or added; map it here. The profile adds overhead, so its shares
are applied to CPU times measured without it.

Usage: profile_stages.py [--data FILE] -- COMMAND...   (prints the stage table and hot spots)
"""
from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

# Work done for the batch as a whole, whatever it calls (discovery opens every file to probe it).
BATCH = "batch bookkeeping"
BATCH_CONTEXT = re.compile(r"Tactus\.(SourceDiscovery|ContentHash|BatchManifest|BatchReport|FolderPreset)")
# Per-file stages, matched against the frames from the leaf up; STFT before analyzers.
STAGES = [
    ("decode + mixdown", re.compile(r"TactusAudio\.(AudioFileReader|Mixdown)|^sf_(read|open)")),
    ("STFT", re.compile(r"TactusAnalysis\.STFT\b|TactusSpectrum\.RealFFT\b|^fftwf_")),
    ("analyzers", re.compile(r"TactusAnalysis\.")),
    ("mapping", re.compile(r"TactusMapping\.(?!Preset|ResolvedPreset|JSON)")),
    ("write AHAP", re.compile(r"TactusAHAP\.|TactusAudio\.StagedFile")),
    ("paired audio", re.compile(r"TactusAudio\.(WAVWriter|FileCopy)|^sf_write")),
]
OTHER = "other"
STAGE_NAMES = [name for name, _ in STAGES] + [BATCH, OTHER]
LIBRARY_STAGES = [
    ("STFT", re.compile(r"libfftw3f")),
    ("decode + mixdown", re.compile(r"libsndfile|libFLAC|libvorbis|libogg|libmpg123|libopus|libmp3lame")),
]
SPECIALIZATION = re.compile(r"^(generic |function signature )?specialization <[^>]*> of |^merged |^outlined ")


def record(command: list[str], data: Path, frequency: int = 250) -> None:
    data.unlink(missing_ok=True)  # else perf keeps the previous profile as <data>.old
    subprocess.run(["perf", "record", "-q", "-F", str(frequency), "--call-graph", "dwarf,8192",
                    "-o", str(data), "--", *command], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def samples(data: Path) -> list[list[tuple[str, str]]]:
    """Each sample's stack, leaf first, as (symbol, library) pairs."""
    text = subprocess.run(["perf", "script", "-i", str(data), "-F", "comm,tid,ip,sym,dso"],
                          capture_output=True, text=True, check=True).stdout
    stacks = []
    for block in text.split("\n\n"):
        frames = []
        for line in block.splitlines()[1:]:
            match = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line)
            if match:
                frames.append((match.group(1), Path(match.group(2)).name))
        if frames:
            stacks.append(frames)
    return stacks


def demangler(symbols: set[str], simplified: bool) -> dict[str, str]:
    """Swift symbol → readable name, through one `swift demangle` call."""
    mangled = sorted(s for s in symbols if s.startswith("$s"))
    flags = ["--simplified"] if simplified else []
    output = subprocess.run(["swift", "demangle", *flags], input="\n".join(mangled) + "\n",
                            capture_output=True, text=True, check=True).stdout.splitlines()
    names = dict(zip(mangled, output))
    return {s: names.get(s, s) for s in symbols}


def stage_of(stack: list[tuple[str, str]], full: dict[str, str]) -> str:
    names = [SPECIALIZATION.sub("", full[symbol]) for symbol, _ in stack]
    if any(BATCH_CONTEXT.search(name) for name in names):
        return BATCH
    for name in names:
        for stage, pattern in STAGES:
            if pattern.search(name):
                return stage
    for stage, pattern in LIBRARY_STAGES:
        if pattern.search(stack[0][1]):
            return stage
    return OTHER


def hot_spot(stack: list[tuple[str, str]], short: dict[str, str], program: str) -> str:
    """The leaf function, and for a library leaf the program's function that called it."""
    leaf, library = stack[0]
    name = f"[{library}]" if leaf == "[unknown]" else short[leaf]
    if library != program:
        caller = next((short[s] for s, lib in stack[1:] if lib == program and not s.startswith("[")), None)
        if caller and caller != "tactus_main":
            name += f"  ← {caller}"
    return name


def analyse(data: Path, program: str = "tactus") -> dict:
    """Stage shares and the hottest leaf functions of one recorded profile."""
    stacks = samples(data)
    symbols = {s for stack in stacks for s, _ in stack}
    full, short = demangler(symbols, simplified=False), demangler(symbols, simplified=True)
    stages = collections.Counter(stage_of(stack, full) for stack in stacks)
    spots = collections.Counter(hot_spot(stack, short, program) for stack in stacks)
    total = max(1, len(stacks))
    return {"samples": len(stacks),
            "stages": {name: stages[name] / total for name in STAGE_NAMES},
            "hot_spots": [(name, count / total) for name, count in spots.most_common(12)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("bench-out/perf.data"))
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    record(args.command, args.data)
    result = analyse(args.data, Path(args.command[0]).name)
    print(f"{result['samples']} samples")
    for name in STAGE_NAMES:
        print(f"  {name:<18} {100 * result['stages'][name]:5.1f} %")
    print("hot spots (self time):")
    for name, share in result["hot_spots"]:
        print(f"  {100 * share:5.1f} %  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
