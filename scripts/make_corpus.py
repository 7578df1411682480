#!/usr/bin/env python3
"""Generate the Tactus onset/transient test corpus (``Corpus/``).

Every file is a short synthetic game-style sound effect built from layered,
filtered noise bursts, decaying resonant modes, pitch sweeps, convolution
reverb and (for one file) espeak-ng speech.  Each sound file gets a
ground-truth JSON beside it.

Ground-truth rule (see Corpus/README.md):
  Every *event* is synthesised as its own clean stem (before noise/ambience,
  before clipping, before container encoding).  Its onset is the first sample
  where |stem| rises strictly above -50 dB of that stem's own peak
  (|x| > peak * 10**(-50/20)).  Continuous components (ambience beds, whoosh
  swells, engine loops, creaks) are not events and have no onsets.

The generator is deterministic: all randomness comes from numpy Generators
seeded with CRC32 of fixed strings, WAVs are written with the stdlib ``wave``
module, and sox is run in repeatable mode (-R) without dither (-D).  Running
it twice gives byte-identical files (given the same numpy / sox / espeak-ng
versions).

Usage:  python3 scripts/make_corpus.py [--out Corpus]
Requires: python3 + numpy, sox (with FLAC / Ogg Vorbis support), espeak-ng.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import wave
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SR = 44100
THRESH_DB = -50.0
THRESH = 10.0 ** (THRESH_DB / 20.0)
MIN_GAP = 0.060          # minimum spacing between annotated events (non-roll)
ROLL_MIN_GAP = 0.075     # rolls are 80-120 ms apart (after jitter >= 75 ms)
MULTI_MIN_REL_DB = -30.0  # multi-attack rule: annotated attacks within 30 dB
SNR_WINDOW = 0.100       # signal power for SNR is measured over 100 ms/onset
CONDITIONS = ["clean", "rolls", "soft", "noise", "ambience", "reverb",
              "clipped", "leadin", "quiet", "multi"]
MANAGED_EXTS = {".wav", ".flac", ".ogg", ".aiff", ".json"}


# ----------------------------------------------------------------------------
# basic DSP helpers (numpy only)
# ----------------------------------------------------------------------------

def rng_for(*keys: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(keys).encode("utf-8")))


def ns(seconds: float, sr: int) -> int:
    return int(round(seconds * sr))


def tvec(n: int, sr: int) -> np.ndarray:
    return np.arange(n) / sr


def hp_mag(f, fc, order=2):
    f = np.maximum(f, 1e-3)
    return 1.0 / np.sqrt(1.0 + (fc / f) ** (2 * order))


def lp_mag(f, fc, order=2):
    return 1.0 / np.sqrt(1.0 + (np.asarray(f) / fc) ** (2 * order))


def reso_mag(f, fc, q):
    f = np.maximum(f, 1e-3)
    return 1.0 / np.sqrt(1.0 + (q * (f / fc - fc / f)) ** 2)


def shaped_noise(rng, n, sr, magfn):
    """Stationary Gaussian noise with magnitude response ``magfn(freqs)``.

    The filter is applied circularly in the FFT domain, so the result is a
    seamless loop; unit RMS.  Envelopes are always applied *after* this, so
    event stems stay strictly causal.
    """
    x = rng.standard_normal(n)
    f = np.fft.rfftfreq(n, 1.0 / sr)
    y = np.fft.irfft(np.fft.rfft(x) * magfn(f), n)
    return y / (np.sqrt(np.mean(y * y)) + 1e-20)


def band(rng, n, sr, lo=None, hi=None, order=2):
    def m(f):
        g = np.ones_like(f)
        if lo:
            g = g * hp_mag(f, lo, order)
        if hi:
            g = g * lp_mag(f, hi, order)
        return g
    return shaped_noise(rng, n, sr, m)


def pink(rng, n, sr, lo=20.0, hi=16000.0):
    return shaped_noise(rng, n, sr, lambda f: hp_mag(f, lo, 2) * lp_mag(f, hi, 2)
                        / np.sqrt(np.maximum(f, 1.0)))


def env(n, sr, attack=0.0005, tau=0.05, shape="cos", hold=0.0):
    """Attack ramp (0 -> 1 over ``attack`` s) then exponential decay."""
    t = tvec(n, sr)
    e = np.exp(-np.maximum(t - attack - hold, 0.0) / tau)
    if attack > 0:
        a = np.clip(t / attack, 0.0, 1.0)
        if shape == "lin":
            r = a
        elif shape == "quad":
            r = a * a
        else:  # raised cosine
            r = 0.5 - 0.5 * np.cos(np.pi * a)
        e = e * r
    return e


def modal(n, sr, freqs, amps, taus, attack=0.0003):
    t = tvec(n, sr)
    y = np.zeros(n)
    for f, a, tau in zip(freqs, amps, taus):
        if f < sr * 0.45:
            y += a * np.exp(-t / tau) * np.sin(2 * np.pi * f * t)
    if attack > 0:
        y *= env(n, sr, attack, 1e9)
    return y


def glide(n, sr, f_end, f_start, f_tau):
    """Sine whose frequency glides exponentially from f_start to f_end."""
    t = tvec(n, sr)
    f = f_end + (f_start - f_end) * np.exp(-t / f_tau)
    return np.sin(2 * np.pi * np.cumsum(f) / sr)


def fftconv(a, b):
    n = len(a) + len(b) - 1
    nfft = 1 << (n - 1).bit_length()
    return np.fft.irfft(np.fft.rfft(a, nfft) * np.fft.rfft(b, nfft), nfft)[:n]


def pad_to(x, n):
    if len(x) >= n:
        return x[:n]
    return np.concatenate([x, np.zeros(n - len(x))])


def normpeak(x, peak=1.0):
    m = np.max(np.abs(x))
    return x * (peak / m) if m > 0 else x


def fade_in_out(x, sr, fin=0.0, fout=0.0):
    y = x.copy()
    if fin > 0:
        k = ns(fin, sr)
        y[:k] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(k) / k)
    if fout > 0:
        k = ns(fout, sr)
        y[-k:] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(k) / k)
    return y


# ----------------------------------------------------------------------------
# sound designs (each returns one event stem, starting at its attack)
# ----------------------------------------------------------------------------

def punch(rng, sr, v=1.0, weight=1.0):
    n = ns(0.40, sr)
    thump = glide(n, sr, 52 * weight, 170 * weight, 0.03) * env(n, sr, 0.0012, 0.075)
    body = band(rng, n, sr, 150, 1800) * env(n, sr, 0.0006, 0.030) * 0.30
    slap = band(rng, n, sr, 1500, 9000) * env(n, sr, 0.0002, 0.005) * 0.28
    return v * (thump + body + slap)


def kick(rng, sr, v=1.0):
    n = ns(0.45, sr)
    tone = glide(n, sr, 48, 190, 0.025) * env(n, sr, 0.0008, 0.13)
    click = band(rng, n, sr, 2000, 6000) * env(n, sr, 0.0002, 0.002) * 0.25
    return v * (tone + click)


def wood_knock(rng, sr, v=1.0, scale=1.0):
    n = ns(0.25, sr)
    fr = np.array([410, 1030, 1710, 2650]) * scale * (1 + 0.02 * rng.standard_normal(4))
    y = modal(n, sr, fr, [1.0, 0.6, 0.35, 0.2], [0.045, 0.025, 0.015, 0.010])
    y += band(rng, n, sr, 1000, 6000) * env(n, sr, 0.0002, 0.0015) * 0.35
    return v * y


def metal_clang(rng, sr, v=1.0, base=520.0, length=1.6, decay=1.0):
    n = ns(length, sr)
    ratios = np.array([1.0, 2.32, 3.41, 4.67, 6.13, 7.85, 9.70])
    fr = base * ratios * (1 + 0.004 * rng.standard_normal(len(ratios)))
    taus = np.array([1.4, 1.0, 0.8, 0.6, 0.45, 0.3, 0.2]) * decay
    amps = [1.0, 0.7, 0.55, 0.45, 0.35, 0.25, 0.2]
    y = modal(n, sr, fr, amps, taus)
    y += modal(n, sr, fr[:4] + 1.7, [0.5, 0.35, 0.25, 0.2], taus[:4])  # beating pairs
    y += band(rng, n, sr, 2000, 10000) * env(n, sr, 0.0002, 0.003) * 0.6
    return v * y


def gunshot(rng, sr, v=1.0, tail=0.25, length=0.9):
    n = ns(length, sr)
    crack = band(rng, n, sr, 300, None, 1) * env(n, sr, 0.0001, 0.006)
    boom = band(rng, n, sr, None, 250) * env(n, sr, 0.001, 0.09) * 0.9
    boom += np.sin(2 * np.pi * 68 * tvec(n, sr)) * env(n, sr, 0.001, 0.07) * 0.5
    room = band(rng, n, sr, 150, 3000) * env(n, sr, 0.005, tail) * 0.22
    return v * (crack + boom + room)


def ui_click(rng, sr, length_ms=4.0, f=3000.0, v=1.0):
    n = ns(length_ms / 1000.0, sr)
    t = tvec(n, sr)
    e = env(n, sr, 0.0001, length_ms / 1000.0 / 4.0)
    e *= 0.5 + 0.5 * np.cos(np.pi * np.arange(n) / n)  # reaches 0 at the end
    y = 0.7 * np.sin(2 * np.pi * f * t) + 0.3 * band(rng, n, sr, 1500, 8000)
    return v * y * e


def ui_tap(rng, sr, v=1.0):
    n = ns(0.010, sr)
    t = tvec(n, sr)
    e = env(n, sr, 0.0003, 0.0025) * (0.5 + 0.5 * np.cos(np.pi * np.arange(n) / n))
    y = np.sin(2 * np.pi * 900 * t) + 0.5 * np.sin(2 * np.pi * 2200 * t)
    return v * y * e


def square_note(sr, f, sustain, release, v=1.0, attack=0.001):
    n = ns(sustain + release, sr)
    t = tvec(n, sr)
    y = np.zeros(n)
    k = 1
    while k * f < 12000:
        y += np.sin(2 * np.pi * k * f * t) / k
        k += 2
    e = env(n, sr, attack, 1e9)
    e *= np.where(t < sustain, 1.0, np.exp(-(t - sustain) / (release / 5)))
    return v * y * e


def chime_note(rng, sr, f, v=1.0, length=1.2):
    n = ns(length, sr)
    y = modal(n, sr, [f, 2.76 * f, 5.40 * f], [1.0, 0.4, 0.15], [0.5, 0.2, 0.08], 0.0005)
    y += band(rng, n, sr, 4000, None) * env(n, sr, 0.0001, 0.001) * 0.05
    return v * y


def grains(rng, sr, n, count, span, fmin, fmax, amp, tau_rng=(0.01, 0.06), start=0.0):
    """Sum of tiny high-pitched shard/gravel grains within [start, start+span]."""
    y = np.zeros(n)
    for _ in range(count):
        p = ns(start + rng.uniform(0, span), sr)
        fr = rng.uniform(fmin, fmax, 3)
        taus = rng.uniform(*tau_rng, 3)
        L = min(n - p, ns(7 * max(taus), sr))   # decays to < -60 dB before the end
        if L <= 0:
            continue
        g = modal(L, sr, fr, rng.uniform(0.3, 1.0, 3), taus, 0.0001)
        k = max(1, L // 5)
        g[-k:] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(k) / k)
        y[p:p + L] += amp * rng.uniform(0.3, 1.0) * g
    return y


def footstep(rng, sr, v=1.0):
    """Heel + toe (~45 ms later) + gravel crunch: one event (components < 60 ms)."""
    n = ns(0.35, sr)
    heel = glide(n, sr, 70, 110, 0.02) * env(n, sr, 0.001, 0.03)
    heel += band(rng, n, sr, 200, 2500) * env(n, sr, 0.0008, 0.022) * 0.5
    toe_at = ns(rng.uniform(0.038, 0.052), sr)
    toe = np.zeros(n)
    m = n - toe_at
    toe[toe_at:] = (band(rng, m, sr, 300, 3000) * env(m, sr, 0.002, 0.02) * 0.35
                    + glide(m, sr, 80, 120, 0.02) * env(m, sr, 0.002, 0.02) * 0.3)
    crunch = grains(rng, sr, n, 30, 0.09, 1500, 7000, 0.12, (0.002, 0.008))
    return v * (heel + toe + crunch)


def explosion(rng, sr, v=1.0, length=3.6):
    n = ns(length, sr)
    t = tvec(n, sr)
    crack = band(rng, n, sr, 200, None, 1) * env(n, sr, 0.0003, 0.02)
    boom = band(rng, n, sr, None, 120) * env(n, sr, 0.008, 0.9) * 1.1
    boom += glide(n, sr, 30, 60, 0.4) * env(n, sr, 0.006, 0.5) * 0.6
    am = 1.0 + 0.2 * band(rng, n, sr, None, 12, 1) / 3.0
    debris = band(rng, n, sr, 300, 3000) * env(n, sr, 0.002, 0.35) * 0.35 * am
    rumble = band(rng, n, sr, 25, 200) * env(n, sr, 0.05, 1.4) * 0.5
    return v * (crack + boom + debris + rumble) * np.where(t < length - 0.3, 1.0,
                                                             np.cos(np.pi / 2 * np.clip((t - length + 0.3) / 0.3, 0, 1)))


def whoosh(rng, sr, dur, rise, fall, fpath=(250.0, 2500.0, 700.0), amp=1.0):
    n = ns(dur, sr)
    t = tvec(n, sr)
    lc = np.interp(t, [0, rise, rise + fall], np.log(fpath))
    y = np.zeros(n)
    for fc in np.geomspace(120, 9000, 22):
        b = shaped_noise(rng, n, sr, lambda f, fc=fc: reso_mag(f, fc, 3.0))
        y += np.exp(-0.5 * ((np.log(fc) - lc) / 0.45) ** 2) * b
    e = np.where(t < rise, np.sin(np.pi / 2 * t / rise) ** 2,
                 np.cos(np.pi / 2 * np.clip((t - rise) / fall, 0, 1)) ** 2)
    return amp * normpeak(y * e)


def engine_loop(rng, sr, loop_len=1.25, f0=36.0, reps=2):
    n = ns(loop_len, sr)
    t = tvec(n, sr)
    y = np.zeros(n)
    k = 1
    while k * f0 < 4000:
        a = reso_mag(k * f0, 110, 1.2) + 0.4 * reso_mag(k * f0, 700, 2.0)
        y += a / np.sqrt(k) * np.sin(2 * np.pi * k * f0 * t + rng.uniform(0, 2 * np.pi))
        k += 1
    y = y / np.sqrt(np.mean(y ** 2))
    noise = shaped_noise(rng, n, sr, lambda f: lp_mag(f, 500, 2) * hp_mag(f, 30, 2))
    am = 1.0 + 0.25 * np.sin(2 * np.pi * f0 * t)
    loop = y + 0.5 * noise * am
    return np.tile(loop, reps)


def bell(rng, sr, f0=587.0, length=3.9):
    n = ns(length, sr)
    ratios = [0.5, 1.0, 1.19, 1.5, 2.0, 2.5, 2.67, 3.0, 4.17, 5.43]
    taus = [2.0, 1.8, 1.5, 1.4, 1.2, 0.9, 0.8, 0.6, 0.4, 0.3]
    amps = [0.5, 1.0, 0.6, 0.5, 0.7, 0.3, 0.3, 0.25, 0.2, 0.12]
    fr = np.array(ratios) * f0
    y = modal(n, sr, fr, amps, taus, 0.0004)
    y += modal(n, sr, fr[[1, 4]] + [0.9, 1.3], [0.4, 0.3], [1.8, 1.2], 0.0004)
    y += band(rng, n, sr, 2000, 9000) * env(n, sr, 0.0001, 0.004) * 0.4
    return y


def snare(rng, sr, v=1.0):
    n = ns(0.30, sr)
    y = modal(n, sr, [185, 330, 470], [1.0, 0.5, 0.3], [0.06, 0.04, 0.03])
    y += band(rng, n, sr, 1800, 9000) * env(n, sr, 0.0003, 0.07) * 0.8
    y += band(rng, n, sr, 3000, None) * env(n, sr, 0.0001, 0.0015) * 0.5
    return v * y


def tom(rng, sr, v=1.0, f=105.0):
    n = ns(0.7, sr)
    y = glide(n, sr, f, f * 1.45, 0.04) * env(n, sr, 0.0005, 0.18)
    y += band(rng, n, sr, 100, 1200) * env(n, sr, 0.0004, 0.025) * 0.3
    y += band(rng, n, sr, 3000, None) * env(n, sr, 0.0001, 0.0012) * 0.3
    return v * y


def clap(rng, sr, v=1.0):
    """3 quick noise bursts + body within ~20 ms: one event."""
    n = ns(0.35, sr)
    y = np.zeros(n)
    offs = [0.0, rng.uniform(0.005, 0.009), rng.uniform(0.012, 0.017)]
    for i, o in enumerate(offs):
        p = ns(o, sr)
        m = n - p
        y[p:] += band(rng, m, sr, 800, 3500) * env(m, sr, 0.0002, 0.003) * (0.6 + 0.2 * i)
    p = ns(offs[-1] + 0.004, sr)
    m = n - p
    y[p:] += band(rng, m, sr, 700, 4000) * env(m, sr, 0.0005, 0.04)
    return v * y


def metal_click(rng, sr, v=1.0, f=(2900, 4700, 6800), tau=0.008):
    n = ns(0.12, sr)
    y = modal(n, sr, np.array(f) * (1 + 0.02 * rng.standard_normal(3)), [1.0, 0.7, 0.5], [tau, tau * 0.7, tau * 0.5], 0.0001)
    y += band(rng, n, sr, 3000, None) * env(n, sr, 0.0001, 0.001) * 0.6
    return v * y


def clack(rng, sr, v=1.0, modes=(700, 1500, 2600), tau=0.02):
    n = ns(0.2, sr)
    y = modal(n, sr, modes, [1.0, 0.7, 0.4], [tau, tau * 0.7, tau * 0.5], 0.0002)
    y += band(rng, n, sr, 500, 6000) * env(n, sr, 0.0002, 0.004) * 0.7
    return v * y


def reverb_ir(rng, sr, rt60, predelay=0.012):
    n = ns(min(rt60 * 1.1, 3.5), sr)
    t = tvec(n, sr)
    ir = np.zeros(n)
    for lo, hi, s in ((None, 700, 1.0), (700, 3000, 0.75), (3000, 14000, 0.45)):
        ir += band(rng, n, sr, lo, hi) * np.exp(-6.9078 * t / (rt60 * s))
    ir *= 1.0 - np.exp(-t / 0.006)           # diffuse build-up, no discrete echo
    ir = np.concatenate([np.zeros(ns(predelay, sr)), ir])
    return ir / np.sqrt(np.sum(ir ** 2))


def reverberate(dry, ir, wet_db):
    wet = fftconv(dry, ir)
    wet *= np.sqrt(np.sum(dry ** 2) / np.sum(wet ** 2)) * 10 ** (wet_db / 20)
    return pad_to(dry, len(wet)) + wet


def speech_word(word, sr, voice="en-us", speed=150):
    with tempfile.TemporaryDirectory() as td:
        p = Path(td) / "w.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(p), word],
                       check=True, capture_output=True)
        with wave.open(str(p), "rb") as w:
            wsr = w.getframerate()
            x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64) / 32768
    nz = np.nonzero(np.abs(x) > 0)[0]
    x = x[nz[0]:nz[-1] + 1]
    if wsr != sr:
        if sr != 2 * wsr:
            raise RuntimeError("expected espeak-ng at %d Hz" % (sr // 2))
        # 2x upsampling: zero-stuff + Kaiser windowed-sinc, delay compensated
        up = np.zeros(2 * len(x))
        up[::2] = x * 2
        half = 48
        k = np.arange(-half, half + 1)
        h = 0.5 * 0.92 * np.sinc(0.92 * k / 2) * np.kaiser(2 * half + 1, 8.0)
        x = np.convolve(up, h)[half:half + len(up)]
    return x


# ----------------------------------------------------------------------------
# ambience loops (stationary textures; no annotated onsets by construction)
# ----------------------------------------------------------------------------

def circ_add(y, g, p):
    n = len(y)
    idx = (p + np.arange(len(g))) % n
    np.add.at(y, idx, g)


def rain_loop(rng, sr, loop_len=1.5):
    n = ns(loop_len, sr)
    bed = shaped_noise(rng, n, sr, lambda f: hp_mag(f, 400, 1) * lp_mag(f, 9000, 1)
                       / np.sqrt(np.maximum(f, 1)) ** 0.5)
    drops = np.zeros(n)
    for _ in range(int(900 * loop_len)):
        L = ns(0.006, sr)
        g = modal(L, sr, [rng.uniform(2000, 6000)], [1.0], [rng.uniform(0.0008, 0.0018)], 0.0002)
        circ_add(drops, g * rng.uniform(0.5, 1.0), int(rng.integers(0, n)))
    drops /= np.sqrt(np.mean(drops ** 2))
    return bed + 0.9 * drops


def fire_loop(rng, sr, loop_len=1.6):
    n = ns(loop_len, sr)
    t = tvec(n, sr)
    roar = shaped_noise(rng, n, sr, lambda f: lp_mag(f, 350, 2) * hp_mag(f, 40, 2))
    # slow periodic flicker: integer number of cycles per loop keeps it seamless
    am = 1.0 + sum(0.08 * np.sin(2 * np.pi * (k / loop_len) * t + rng.uniform(0, 6.28)) for k in (2, 3, 5))
    hiss = shaped_noise(rng, n, sr, lambda f: hp_mag(f, 2500, 2) * lp_mag(f, 9000, 2)) * 0.35
    crack = np.zeros(n)
    for _ in range(int(1800 * loop_len)):
        L = ns(0.004, sr)
        g = rng.standard_normal(L) * np.exp(-np.arange(L) / (sr * rng.uniform(0.0003, 0.0009)))
        circ_add(crack, g * rng.uniform(0.5, 1.0), int(rng.integers(0, n)))
    crack = np.fft.irfft(np.fft.rfft(crack) * hp_mag(np.fft.rfftfreq(n, 1 / sr), 1200, 2), n)
    crack /= np.sqrt(np.mean(crack ** 2))
    return roar * am + hiss + 0.6 * crack


# ----------------------------------------------------------------------------
# scene: events (annotated stems) + beds (continuous, unannotated)
# ----------------------------------------------------------------------------

class Scene:
    def __init__(self, dur, sr=SR):
        self.sr = sr
        self.n = ns(dur, sr)
        self.events = []
        self.beds = []

    def add(self, stem, t, label, **extra):
        pos = ns(t, self.sr)
        assert 0 <= pos < self.n, (label, t)
        stem = np.asarray(stem, float)
        # Stems end with a raised-cosine fade so a truncated decay never clicks:
        # 30 ms if the stem has already decayed below -40 dB, else its last 25 %.
        k = min(ns(0.03, self.sr), len(stem) // 4)
        if np.max(np.abs(stem[-k:])) > np.max(np.abs(stem)) * 0.01:
            k = len(stem) // 4
        stem = stem.copy()
        stem[-k:] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(k) / k)
        s = stem[:self.n - pos]
        a = np.abs(s)
        peak = float(a.max())
        idx = int(np.argmax(a > peak * THRESH))
        if "fadeMs" in extra:
            extra = dict(extra, fadeStartToOnsetMs=round(idx / self.sr * 1000, 3))
        self.events.append(dict(pos=pos, stem=s, onset=pos + idx, label=label,
                                peak=peak, peak_at=pos + int(np.argmax(a)), extra=extra))

    def bed(self, sig, t=0.0):
        pos = ns(t, self.sr)
        self.beds.append((pos, sig[:self.n - pos]))

    def mix(self):
        y = np.zeros(self.n)
        for e in self.events:
            y[e["pos"]:e["pos"] + len(e["stem"])] += e["stem"]
        for pos, s in self.beds:
            y[pos:pos + len(s)] += s
        return y


def jit(rng, t, ms=4.0):
    """Jitter a nominal time by up to +-ms so onsets avoid round frame positions."""
    return t + rng.uniform(-ms, ms) / 1000.0


# ----------------------------------------------------------------------------
# output
# ----------------------------------------------------------------------------

def to_int16(x):
    return np.clip(np.round(x * 32767.0), -32768, 32767).astype("<i2")


def write_wav16(path, x, sr):
    x = np.asarray(x)
    if x.ndim == 1:
        x = x[:, None]
    with wave.open(str(path), "wb") as w:
        w.setnchannels(x.shape[1])
        w.setsampwidth(2)
        w.setframerate(sr)
        w.writeframes(to_int16(x).tobytes())


def sox(*args):
    subprocess.run(["sox", "-R", "-D", "-V1", *map(str, args)], check=True)


def sox_decode(path, fmt="s16"):
    if fmt == "s16":
        out = subprocess.run(["sox", "-D", "-V1", str(path), "-t", "raw", "-e", "signed-integer",
                              "-b", "16", "-L", "-"], check=True, capture_output=True).stdout
        return np.frombuffer(out, "<i2")
    out = subprocess.run(["sox", "-D", "-V1", str(path), "-t", "raw", "-e", "floating-point",
                          "-b", "32", "-L", "-"], check=True, capture_output=True).stdout
    return np.frombuffer(out, "<f4")


class Corpus:
    def __init__(self, out: Path):
        self.out = out
        self.entries = []
        self.written = set()

    def emit(self, name, condition, kind, description, scene: Scene, notes="",
             fmt="wav", peak_db=-1.0, noise=None, snr_db=None, drive_db=None,
             fade_out=0.02, stereo_gains=None, extra_meta=None, roll=False):
        sr = scene.sr
        ev = sorted(scene.events, key=lambda e: e["onset"])
        onsets = [e["onset"] for e in ev]
        # ---- sanity checks on the annotation
        gap = ROLL_MIN_GAP if roll else MIN_GAP
        for a, b in zip(onsets, onsets[1:]):
            assert (b - a) / sr >= gap, (name, a / sr, b / sr)
        maxpeak = max((e["peak"] for e in ev), default=1.0)
        if condition == "multi":
            for e in ev:
                assert 20 * np.log10(e["peak"] / maxpeak) >= MULTI_MIN_REL_DB, (name, e["label"])
        y = scene.mix()
        # scale so that the clean mix peaks at 1.0 (ground truth is scale-free)
        gain = 1.0 / np.max(np.abs(y))
        y = y * gain
        meta = dict(extra_meta or {})
        if noise is not None:
            mask = np.zeros(scene.n, bool)
            for o in onsets:
                mask[o:o + ns(SNR_WINDOW, sr)] = True
            p_sig = np.mean(y[mask] ** 2)
            p_noise = np.mean(noise ** 2)
            g = np.sqrt(p_sig / p_noise / 10 ** (snr_db / 10))
            y = y + g * noise
            meta["snrDb"] = snr_db
        y = fade_in_out(y, sr, 0.0, fade_out) if fade_out else y
        if drive_db is not None:
            g2 = 10 ** (drive_db / 20) / np.max(np.abs(y))
            y = np.clip(y * g2, -1.0, 1.0)
            clipped = float(np.mean(np.abs(y) >= 1.0))
            meta["driveDb"] = drive_db
            meta["clippedSampleFraction"] = round(clipped, 4)
        else:
            g2 = 10 ** (peak_db / 20) / np.max(np.abs(y))
            y = y * g2
        gain *= g2  # stem units -> file units (before 16-bit quantisation)
        meta["peakDbfs"] = round(float(20 * np.log10(np.max(np.abs(y)))), 2)

        d = self.out / condition
        d.mkdir(parents=True, exist_ok=True)
        ext = {"wav": ".wav", "flac": ".flac", "ogg": ".ogg", "aiff": ".aiff",
               "wav24s": ".wav"}[fmt]
        fname = name + ext
        path = d / fname
        channels = 1
        encoding = "PCM 16-bit"
        with tempfile.TemporaryDirectory() as td:
            tmp = Path(td) / "src.wav"
            if fmt == "wav":
                write_wav16(path, y, sr)
            elif fmt in ("flac", "aiff"):
                write_wav16(tmp, y, sr)
                sox(tmp, path)
                dec = sox_decode(path)
                assert np.array_equal(dec, to_int16(y)), "%s: lossless round trip failed" % fname
                encoding = "FLAC 16-bit" if fmt == "flac" else "AIFF PCM 16-bit big-endian"
            elif fmt == "ogg":
                write_wav16(tmp, y, sr)
                sox(tmp, "-C", "5", path)
                dec = sox_decode(path).astype(np.float64) / 32768
                ref = to_int16(y).astype(np.float64) / 32768
                assert len(dec) == len(ref), "%s: ogg length %d != %d" % (fname, len(dec), len(ref))
                lags = np.arange(-256, 257)
                cc = [np.dot(ref[300:-300], dec[300 + l:len(dec) - 300 + l]) for l in lags]
                assert lags[int(np.argmax(cc))] == 0, "%s: ogg decode is shifted" % fname
                err = dec - ref
                meta["codecSnrDb"] = round(float(10 * np.log10(np.sum(ref ** 2) / np.sum(err ** 2))), 1)
                # pre-echo: how long before each onset the coding error already exceeds
                # that event's -50 dB threshold (searched up to 30 ms back)
                pre = []
                for e in ev:
                    thr = e["peak"] * gain * THRESH
                    lo = max(0, e["onset"] - ns(0.03, sr))
                    seg = np.abs(dec[lo:e["onset"] + 1] - ref[lo:e["onset"] + 1])
                    first = lo + int(np.argmax(seg > thr)) if np.any(seg > thr) else e["onset"]
                    pre.append(round((e["onset"] - first) / sr * 1000, 2))
                meta["oggPreEchoMsPerEvent"] = pre
                encoding = "Ogg Vorbis q5"
            elif fmt == "wav24s":
                gl, gr = stereo_gains
                st = np.stack([y * gl, y * gr], axis=1).astype("<f4")
                raw = Path(td) / "src.f32"
                raw.write_bytes(st.tobytes())
                sox("-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-c", "2", "-r", sr,
                    raw, "-b", "24", "-e", "signed-integer", path)
                dec = sox_decode(path, "f32").reshape(-1, 2)
                assert dec.shape == st.shape, fname
                assert np.max(np.abs(dec - st)) < 2.0 / 2 ** 23, fname
                channels = 2
                encoding = "WAV PCM 24-bit stereo (WAVE_FORMAT_EXTENSIBLE)"
        self.written.add(path)
        dur = scene.n / sr
        events = []
        for e in ev:
            item = {"time": round(e["onset"] / sr, 6), "sample": e["onset"], "label": e["label"],
                    "peakTime": round(e["peak_at"] / sr, 6),
                    "levelDb": round(float(20 * np.log10(e["peak"] / maxpeak)), 2)}
            item.update(e["extra"])
            events.append(item)
        doc = {
            "file": fname,
            "kind": kind,
            "condition": condition,
            "description": description,
            "sampleRate": sr,
            "durationSeconds": round(dur, 6),
            "onsets": [round(o / sr, 6) for o in onsets],
            "notes": notes,
            "channels": channels,
            "encoding": encoding,
            "frames": scene.n,
            "groundTruthRule": "first sample where |clean event stem| > -50 dB of that stem's peak",
            "events": events,
        }
        doc.update(meta)
        jpath = d / (name + ".json")
        jpath.write_text(json.dumps(doc, indent=2) + "\n")
        self.written.add(jpath)
        self.entries.append(dict(doc, _path=path))
        print("  %-10s %-30s %2d onsets %5.2fs" % (condition, fname, len(onsets), dur))


# ----------------------------------------------------------------------------
# corpus definition
# ----------------------------------------------------------------------------

def hits_sequence(rng, sr, scene, t0, count, spacing, kinds=("knock", "punch", "clang", "clap", "kick")):
    t = t0
    for i in range(count):
        k = kinds[i % len(kinds)]
        v = rng.uniform(0.6, 1.0)
        if k == "knock":
            stem = wood_knock(rng, sr, v, rng.uniform(0.8, 1.2))
        elif k == "punch":
            stem = punch(rng, sr, v)
        elif k == "clang":
            stem = metal_clang(rng, sr, v, rng.uniform(400, 800), 0.6, 0.25)
        elif k == "clap":
            stem = clap(rng, sr, v)
        elif k == "kick":
            stem = kick(rng, sr, v)
        elif k == "step":
            stem = footstep(rng, sr, v)
        elif k == "snare":
            stem = snare(rng, sr, v)
        else:
            raise ValueError(k)
        scene.add(stem, jit(rng, t, 6), k)
        t += spacing + rng.uniform(-0.04, 0.04)


def build(c: Corpus):
    sr = SR
    # ------------------------------------------------------------------ clean
    r = rng_for("clean/punch")
    sc = Scene(1.5)
    for i, (t, v, w) in enumerate([(0.06, 0.8, 1.0), (0.52, 0.85, 1.05), (0.97, 1.0, 0.85)]):
        sc.add(punch(r, sr, v, w), jit(r, t), ["jab", "jab", "hook"][i])
    c.emit("punch", "clean", "impact", "Three punches (jab, jab, hook): pitch-dropping low thump + mid noise body + short bright slap.",
           sc, "Each punch is one event; the slap and thump start together.")

    r = rng_for("clean/wood_knocks")
    sc = Scene(1.6)
    for t, v in [(0.07, 0.9), (0.33, 0.7), (0.47, 0.7), (0.61, 0.85), (0.98, 1.0)]:
        sc.add(wood_knock(r, sr, v, r.uniform(0.95, 1.05)), jit(r, t), "knock")
        # 'shave and a haircut' door knocks
    c.emit("wood_knocks", "clean", "impact", "Door knocks on wood (5 knocks): 4 decaying wood modes + click. Stored as FLAC via sox.",
           sc, "Container test (FLAC 16-bit). sox round-trip verified sample-exact (no delay/padding).", fmt="flac")

    r = rng_for("clean/metal_clang")
    sc = Scene(2.6)
    sc.add(metal_clang(r, sr, 1.0, 523.0), jit(r, 0.09), "clang")
    sc.add(metal_clang(r, sr, 0.8, 395.0, 1.3), jit(r, 1.27), "clang")
    c.emit("metal_clang", "clean", "impact", "Two metal clangs: 7 inharmonic modes with beating pairs (decays 0.2-1.4 s) + strike noise.",
           sc, "Second clang starts while the first still rings (~-8 dB).")

    r = rng_for("clean/anvil_hits")
    sc = Scene(2.2)
    for t, v in [(0.11, 1.0), (0.74, 0.85), (1.33, 0.95)]:
        sc.add(metal_clang(r, sr, v, r.uniform(880, 940), 0.85, 0.45), jit(r, t), "anvil")
    c.emit("anvil_hits", "clean", "impact", "Hammer on anvil, 3 hits: bright inharmonic modes, medium decay. Stored as AIFF via sox.",
           sc, "Container test (AIFF, big-endian 16-bit). sox round-trip verified sample-exact.", fmt="aiff")

    r = rng_for("clean/gunshot")
    sc = Scene(1.2)
    sc.add(gunshot(r, sr, 1.0, 0.25, 1.1), jit(r, 0.08), "shot")
    c.emit("gunshot", "clean", "impact", "Single gunshot: broadband crack (6 ms decay) + low boom + short room tail.", sc)

    r = rng_for("clean/gunshots_stereo48k")
    sc = Scene(2.0, 48000)
    for t, v in [(0.1, 1.0), (0.72, 0.9), (1.21, 0.95)]:
        sc.add(gunshot(r, 48000, v, 0.2, 0.75), jit(r, t), "shot")
    c.emit("gunshots_stereo48k", "clean", "impact", "Three gunshots synthesised at 48 kHz, stereo (L 1.0 / R 0.6 gain), 24-bit WAV written by sox.",
           sc, "Container test: 48 kHz, 2 channels, 24-bit WAVE_FORMAT_EXTENSIBLE. Same content in both channels (panned); sox round-trip verified.",
           fmt="wav24s", stereo_gains=(1.0, 0.6))

    r = rng_for("clean/ui_clicks")
    sc = Scene(1.6)
    t = 0.1
    for L, f in [(2, 4200), (3, 3500), (5, 3000), (8, 2500), (10, 2000)]:
        sc.add(ui_click(r, sr, L, f, r.uniform(0.8, 1.0)), jit(r, t, 7), "click_%dms" % L, clickMs=L)
        t += 0.29
    c.emit("ui_clicks", "clean", "ui", "Five UI clicks of 2, 3, 5, 8 and 10 ms: sine blip + noise, fast decay.", sc,
           "Very short events: a 2 ms click is ~88 samples long.")

    r = rng_for("clean/ui_taps")
    sc = Scene(1.3)
    for t in (0.05, 0.36, 0.64, 0.95):
        sc.add(ui_tap(r, sr, r.uniform(0.7, 1.0)), jit(r, t, 8), "tap")
    c.emit("ui_taps", "clean", "ui", "Four soft UI taps (10 ms, 900 + 2200 Hz blip).", sc)

    r = rng_for("clean/coin_pickup")
    sc = Scene(1.6)
    for t0 in (0.07, 0.81):
        t0 = jit(r, t0)
        sc.add(square_note(sr, 987.8, 0.075, 0.01, 0.8), t0, "coin_B5")
        sc.add(square_note(sr, 1318.5, 0.05, 0.45, 0.8), t0 + 0.083 + r.uniform(0, 0.004), "coin_E6")
    c.emit("coin_pickup", "clean", "pickup", "Two classic coin pickups: band-limited square B5 then E6 (~83 ms later), long release.", sc,
           "Each note is an event (new pitched attack). The first note is gated off as the second starts.")

    r = rng_for("clean/powerup_chime")
    sc = Scene(1.4)
    t = 0.06
    for f in (1046.5, 1318.5, 1568.0, 2093.0):
        sc.add(chime_note(r, sr, f, 0.9), jit(r, t, 3), "chime_%d" % round(f))
        t += r.uniform(0.072, 0.088)
    c.emit("powerup_chime", "clean", "pickup", "Power-up arpeggio C6-E6-G6-C7, bell-like partials (1, 2.76, 5.4), notes 70-90 ms apart.", sc)

    r = rng_for("clean/body_hits")
    sc = Scene(1.8)
    for t, k in [(0.08, "punch"), (0.5, "kick"), (0.86, "punch"), (1.3, "punch")]:
        sc.add(punch(r, sr, r.uniform(0.7, 1.0), r.uniform(0.8, 1.2)) if k == "punch" else kick(r, sr, 0.9), jit(r, t), k)
    c.emit("body_hits", "clean", "impact", "Melee combo: punches and a body kick. Stored as Ogg Vorbis (q5) via sox.", sc,
           "Container test (Ogg Vorbis, lossy). Ground truth is from the clean stems; decoded length verified equal and not shifted "
           "(cross-correlation peak at lag 0). Codec pre-echo may put energy slightly before an onset; see oggPreEchoMsPerEvent.",
           fmt="ogg")

    r = rng_for("clean/footsteps_gravel")
    sc = Scene(2.8)
    t = 0.12
    for i in range(5):
        sc.add(footstep(r, sr, r.uniform(0.75, 1.0)), jit(r, t, 10), "step")
        t += r.uniform(0.47, 0.56)
    c.emit("footsteps_gravel", "clean", "footsteps", "Five footsteps on gravel: heel thump, toe ~45 ms later, gravel crunch grains.", sc,
           "Heel, toe and crunch lie within 60 ms, so each step is one event whose onset is the heel.")

    r = rng_for("clean/explosion")
    sc = Scene(3.8)
    sc.add(explosion(r, sr, 1.0, 3.65), jit(r, 0.1), "explosion")
    c.emit("explosion", "clean", "explosion", "Explosion: broadband crack (sharp attack) + low boom + debris + 1.4 s-decay low rumble.", sc,
           "One event. Debris/rumble have slow amplitude modulation but no new attacks.")

    r = rng_for("clean/whoosh")
    sc = Scene(1.2)
    sc.bed(whoosh(r, sr, 1.15, 0.48, 0.55), 0.03)
    c.emit("whoosh", "clean", "whoosh", "Whoosh: 22 resonant noise bands, centre sweeping 250 -> 2500 -> 700 Hz, sin^2 swell 480 ms up / 550 ms down.",
           sc, "No onsets: the energy rises over ~480 ms with no attack faster than ~100 ms; a haptic designer renders this as continuous "
           "intensity/sharpness, not a transient. A detector firing here is a false positive.")

    r = rng_for("clean/sword_swing_hit")
    sc = Scene(1.2)
    sc.bed(whoosh(r, sr, 0.5, 0.32, 0.18, (400.0, 3500.0, 1500.0), 0.6), 0.05)
    sc.add(metal_clang(r, sr, 0.6, 610, 0.7, 0.35) + pad_to(punch(r, sr, 0.8), ns(0.7, sr)), jit(r, 0.37), "hit")
    c.emit("sword_swing_hit", "clean", "whoosh", "Sword swing whoosh (320 ms swell) ending in a metallic hit.", sc,
           "Only the hit is annotated; the swing is a slow swell (continuous, no transient).")

    r = rng_for("clean/engine_loop")
    sc = Scene(2.5)
    sc.bed(fade_in_out(engine_loop(r, sr), sr, 0.2, 0.2))
    c.emit("engine_loop", "clean", "loop", "Engine idle loop: 36 Hz firing harmonics through 110/700 Hz resonances + AM low noise; 200 ms fade in/out.",
           sc, "No onsets: steady periodic rumble (firing pulses are 28 ms apart and smooth, perceived as texture). "
           "The 200 ms fade-in avoids an ambiguous hard start at t=0.", fade_out=0)

    r = rng_for("clean/bell")
    sc = Scene(4.0)
    sc.add(bell(r, sr), jit(r, 0.05), "bell")
    c.emit("bell", "clean", "bell", "Hand bell: 10 bell partials (hum, prime, tierce, quint, nominal...) with 0.3-2 s decays + beating doublets.",
           sc, "One onset followed by a long tail with slow beating; beating must not create onsets.", fade_out=0.3)

    r = rng_for("clean/speech_words")
    words = ["go", "now", "aim", "run"]
    stems = [speech_word(w, sr) for w in words]
    t = 0.12
    placed = []
    for w, st in zip(words, stems):
        t = jit(r, t, 5)
        placed.append((w, st, t))
        t += len(st) / sr + r.uniform(0.18, 0.3)
    sc = Scene(min(4.0, t + 0.1))
    for w, st, t in placed:
        sc.add(st, t, w)
    ver = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.strip()
    c.emit("speech_words", "clean", "speech", "Speech: the one-syllable words 'go', 'now', 'aim', 'run' rendered separately with espeak-ng (en-us, 150 wpm), "
           "upsampled 22.05 -> 44.1 kHz, placed with 180-300 ms gaps.", sc,
           "Each word start is an onset (-50 dB rule on the word stem). Word-internal syllables are not annotated. "
           "Rendered with: %s; another espeak-ng version may change the audio but the JSON is regenerated consistently." % ver)

    # ------------------------------------------------------------------ rolls
    r = rng_for("rolls/snare_roll")
    sc = Scene(2.3)
    t = 0.08
    i = 0
    while t < 2.0:
        v = 0.35 + 0.65 * min(1.0, t / 1.8)
        sc.add(snare(r, sr, v * r.uniform(0.85, 1.0)), t, "snare")
        t += r.uniform(0.080, 0.120)
        i += 1
    c.emit("snare_roll", "rolls", "roll", "Snare roll crescendo: hits 80-120 ms apart, tails (70 ms wires) overlap the next hit.", sc,
           "Dense roll; every stroke is annotated.", roll=True)

    r = rng_for("rolls/tom_roll")
    sc = Scene(2.1)
    t = 0.06
    ioi = 0.120
    while t < 1.75:
        sc.add(tom(r, sr, r.uniform(0.7, 1.0), 105 + r.uniform(-4, 4)), t, "tom")
        t += ioi + r.uniform(-0.003, 0.003)
        ioi = max(0.080, ioi - 0.0035)
    c.emit("tom_roll", "rolls", "roll", "Accelerating tom roll: IOI 120 -> 80 ms, 180 ms body decay so each hit lands on the previous tail.", sc,
           "Dense roll with strongly overlapping low-frequency tails.", roll=True)

    r = rng_for("rolls/machine_gun")
    sc = Scene(1.9)
    t = 0.07
    for i in range(16):
        sc.add(gunshot(r, sr, r.uniform(0.85, 1.0), 0.06, 0.35), t, "shot")
        t += 0.09 + r.uniform(-0.006, 0.006)
    c.emit("machine_gun", "rolls", "roll", "Machine-gun burst: 16 short gunshots ~90 ms apart.", sc, roll=True)

    # ------------------------------------------------------------------ soft
    def soften(stem, fade_s, shape):
        k = ns(fade_s, sr)
        a = np.arange(k) / k
        w = {"lin": a, "cos": 0.5 - 0.5 * np.cos(np.pi * a), "quad": a * a}[shape]
        out = stem.copy()
        out[:k] *= w
        return out

    for name, desc, maker, fades, dur in [
        ("soft_thuds", "Padded thuds (punch body) with their attack faded in over 15-25 ms.",
         lambda r: punch(r, sr, r.uniform(0.7, 1.0), 0.8), [15, 20, 25, 18], 2.0),
        ("soft_mallets", "Soft-mallet marimba-like notes (modes f, 3.9f, 9.2f) faded in over 25-40 ms.",
         lambda r: modal(ns(0.8, sr), sr, np.array([1, 3.9, 9.2]) * r.uniform(300, 600), [1, 0.4, 0.15], [0.35, 0.12, 0.04]),
         [25, 40, 30, 35], 2.2),
        ("soft_steps", "Footsteps on carpet: footstep stems with the attack faded in over 15-40 ms.",
         lambda r: footstep(r, sr, r.uniform(0.7, 1.0)), [15, 40, 25, 30, 20], 2.6),
    ]:
        r = rng_for("soft/" + name)
        sc = Scene(dur)
        t = 0.1
        shapes = ["cos", "lin", "quad"]
        for i, fm in enumerate(fades):
            shp = shapes[i % 3]
            sc.add(soften(maker(r), fm / 1000, shp), jit(r, t, 6), "soft", fadeMs=fm, fadeShape=shp)
            t += (dur - 0.35) / len(fades)
        c.emit(name, "soft", "impact", desc + " Fade shapes cycle raised-cosine / linear / quadratic.", sc,
               "Onset follows the -50 dB rule, i.e. the very beginning of the fade-in (see fadeStartToOnsetMs), not the peak; "
               "peakTime per event gives the end of the slow attack.")

    # ------------------------------------------------------------------ noise
    for snr in (30, 20, 10):
        r = rng_for("noise/hits")          # same hits for every SNR
        sc = Scene(2.6)
        hits_sequence(r, sr, sc, 0.38, 6, 0.36)
        nz = fade_in_out(pink(rng_for("noise/pink", str(snr)), sc.n, sr), sr, 0.25, 0)
        c.emit("hits_pink_snr%d" % snr, "noise", "impact", "Six mixed hits (knock, punch, clang, clap, kick) over pink noise at %d dB SNR." % snr,
               sc, "Identical hits in all three SNR files. SNR = mean power of the clean mix in the first 100 ms after each onset vs. mean "
               "noise power over the file. Noise fades in over 250 ms; first hit after 0.3 s.", noise=nz, snr_db=snr)
    r = rng_for("noise/footsteps")
    sc = Scene(2.8)
    hits_sequence(r, sr, sc, 0.4, 5, 0.5, ("step",))
    nz = fade_in_out(pink(rng_for("noise/pink_steps"), sc.n, sr), sr, 0.25, 0)
    c.emit("footsteps_pink_snr20", "noise", "footsteps", "Five gravel footsteps over pink noise at 20 dB SNR.", sc,
           "SNR defined as for hits_pink_*.", noise=nz, snr_db=20)

    # ------------------------------------------------------------------ ambience
    rain = rain_loop(rng_for("ambience/rain_loop"), sr)
    fire = fire_loop(rng_for("ambience/fire_loop"), sr)
    amb_note = ("Ambience is a seamless loop (1.5 s rain / 1.6 s fire, circularly filtered noise + dense Poisson grains) tiled to "
                "the file length with a 300 ms fade-in; by construction it has no annotated onsets.")
    for nm, loop, desc in [("rain_only", rain, "Rain ambience alone: pink-ish bed + ~900 tiny drop pings/s."),
                           ("fire_only", fire, "Fire ambience alone: low roar with slow flicker + hiss + ~1800 tiny crackles/s (dense sizzle, no pops).")]:
        sc = Scene(3.0)
        sc.bed(fade_in_out(np.resize(loop, sc.n), sr, 0.3, 0.3))
        c.emit(nm, "ambience", "ambience", desc, sc, "Zero onsets: a stationary texture; no grain stands out from the bed. " + amb_note
               + " Any detection here is a false positive.", fade_out=0)
    for nm, loop, snr, kinds in [("hits_rain_snr30", rain, 30, ("knock", "punch", "clang", "kick")),
                                 ("hits_rain_snr20", rain, 20, ("knock", "punch", "clang", "kick")),
                                 ("hits_rain_snr10", rain, 10, ("knock", "punch", "clang", "kick")),
                                 ("hits_fire_snr20", fire, 20, ("clap", "knock", "punch", "kick"))]:
        r = rng_for("ambience/hits", "fire" if "fire" in nm else "rain")
        sc = Scene(2.7)
        hits_sequence(r, sr, sc, 0.45, 6, 0.36, kinds)
        amb = fade_in_out(np.resize(loop, sc.n), sr, 0.3, 0)
        c.emit(nm, "ambience", "impact", "Six hits over %s ambience at %d dB SNR." % ("fire" if "fire" in nm else "rain", snr), sc,
               "SNR defined as for noise/. " + amb_note, noise=amb, snr_db=snr)

    # ------------------------------------------------------------------ reverb
    r = rng_for("reverb/claps_hall")
    ir = reverb_ir(r, sr, 1.8, 0.018)
    sc = Scene(3.4)
    t = 0.1
    for i in range(4):
        sc.add(reverberate(clap(r, sr, r.uniform(0.8, 1.0)), ir, -2.0), jit(r, t, 8), "clap")
        t += r.uniform(0.48, 0.6)
    c.emit("claps_hall", "reverb", "impact", "Four hand claps in a hall: diffuse exponential-noise IR, RT60 1.8 s, 18 ms pre-delay, wet -2 dB re dry energy.",
           sc, "Each clap stem includes its own reverb tail; tails overlap later claps. IR has a smooth 6 ms build-up (no discrete echo).")

    r = rng_for("reverb/knocks_room")
    ir = reverb_ir(r, sr, 0.9, 0.008)
    sc = Scene(2.6)
    for t in (0.09, 0.52, 0.77, 1.4, 1.66):
        sc.add(reverberate(wood_knock(r, sr, r.uniform(0.75, 1.0)), ir, 0.0), jit(r, t, 6), "knock")
    c.emit("knocks_room", "reverb", "impact", "Wood knocks in a live room: RT60 0.9 s, wet 0 dB re dry energy.", sc)

    r = rng_for("reverb/gunshot_canyon")
    ir = reverb_ir(r, sr, 3.2, 0.025)
    sc = Scene(4.0)
    sc.add(reverberate(gunshot(r, sr, 1.0, 0.15, 0.5), ir, 3.0), jit(r, 0.07), "shot")
    sc.add(reverberate(gunshot(r, sr, 0.9, 0.15, 0.5), ir, 3.0), jit(r, 1.35), "shot")
    c.emit("gunshot_canyon", "reverb", "impact", "Two gunshots with a 3.2 s RT60 diffuse tail (wet +3 dB re dry energy).", sc,
           "Long reverberant tails; the second shot lands on the first tail. Diffuse only, no discrete echoes (which would be onsets).",
           fade_out=0.3)

    # ------------------------------------------------------------------ clipped
    r = rng_for("clipped/punches")
    sc = Scene(2.0)
    for t in (0.07, 0.55, 0.93, 1.4):
        sc.add(punch(r, sr, r.uniform(0.75, 1.0), r.uniform(0.85, 1.15)), jit(r, t), "punch")
    c.emit("punches_clipped", "clipped", "impact", "Four punches driven +15 dB into hard clipping at full scale.", sc,
           "Ground truth from the stems before gain/clipping.", drive_db=15)
    r = rng_for("clipped/kicks")
    sc = Scene(2.0)
    for i in range(6):
        sc.add(kick(r, sr, r.uniform(0.8, 1.0)), jit(r, 0.06 + i * 0.32, 5), "kick")
    c.emit("kicks_clipped", "clipped", "impact", "Six kicks driven +18 dB into hard clipping (square-ish low-frequency bursts).", sc,
           "Ground truth from the stems before gain/clipping.", drive_db=18)
    r = rng_for("clipped/explosion")
    sc = Scene(3.2)
    sc.add(explosion(r, sr, 1.0, 3.0), jit(r, 0.09), "explosion")
    c.emit("explosion_clipped", "clipped", "explosion", "Explosion driven +12 dB into hard clipping: the boom and rumble are flattened.", sc,
           "One event; clipping flattens the envelope for ~0.5 s after the attack.", drive_db=12)

    # ------------------------------------------------------------------ leadin
    r = rng_for("leadin/clang_after_2s")
    sc = Scene(3.5)
    sc.add(metal_clang(r, sr, 1.0, 470, 1.4, 0.8), 2.0 + r.uniform(0.005, 0.02), "clang")
    c.emit("clang_after_2s", "leadin", "impact", "2 s of digital silence, then a metal clang.", sc, "Tests start-of-file handling and long lead-in.",
           fade_out=0.1)
    r = rng_for("leadin/click_after_3s")
    sc = Scene(3.3)
    sc.add(ui_click(r, sr, 3, 3300), 3.0 + r.uniform(0.005, 0.02), "click")
    c.emit("click_after_3s", "leadin", "ui", "3 s of digital silence, then a single 3 ms UI click.", sc)
    r = rng_for("leadin/knock_after_roomtone")
    sc = Scene(3.2)
    sc.add(wood_knock(r, sr), 2.2 + r.uniform(0.005, 0.02), "knock")
    sc.add(wood_knock(r, sr, 0.8), 2.6 + r.uniform(0.005, 0.02), "knock")
    tone = fade_in_out(pink(rng_for("leadin/roomtone"), sc.n, sr), sr, 0.1, 0)
    tone *= 10 ** (-66 / 20) / np.max(np.abs(tone))
    sc.bed(tone)
    c.emit("knocks_after_roomtone", "leadin", "impact", "2.2 s of very quiet pink room tone (peak ~-66 dB re hits), then two knocks.", sc,
           "Room tone is continuous (fades in over 100 ms), not an event.")

    # ------------------------------------------------------------------ quiet
    for name, desc, kinds, n_hits, spacing, dur in [
        ("quiet_knocks", "Five wood knocks with peak at -40 dBFS.", ("knock",), 5, 0.33, 2.0),
        ("quiet_clicks", "Six UI clicks (2-10 ms) with peak at -40 dBFS.", None, 6, 0.27, 2.0),
        ("quiet_mixed_hits", "Punch, clang, clap, kick, knock at peak -40 dBFS.", ("punch", "clang", "clap", "kick", "knock"), 5, 0.38, 2.2),
    ]:
        r = rng_for("quiet/" + name)
        sc = Scene(dur)
        if kinds is None:
            for i in range(n_hits):
                L = [2, 4, 10, 3, 6, 8][i]
                sc.add(ui_click(r, sr, L, r.uniform(2000, 4000), r.uniform(0.6, 1.0)), jit(r, 0.1 + i * spacing, 8), "click_%dms" % L)
        else:
            hits_sequence(r, sr, sc, 0.1, n_hits, spacing, kinds)
        c.emit(name, "quiet", "impact" if kinds else "ui", desc, sc,
               "Whole file scaled so its peak is -40 dBFS (~328 LSB at 16 bit); no dither. The -50 dB threshold then sits near 1 LSB.",
               peak_db=-40.0)

    # ------------------------------------------------------------------ multi
    multi_rule = ("Multi-attack rule: every component with its own fast attack (< 10 ms) that peaks within 30 dB of the loudest event "
                  "and starts >= 60 ms after the previous annotated attack is an event; components within 60 ms of an attack are "
                  "summed into that event's stem (one transient); slow-attack components (creak, scrape swells) are continuous and "
                  "not annotated.")
    r = rng_for("multi/door_open_close")
    sc = Scene(2.4)
    t_handle = jit(r, 0.08)
    h = metal_click(r, sr, 0.35) + pad_to(np.concatenate([np.zeros(ns(0.012, sr)), grains(r, sr, ns(0.1, sr), 6, 0.02, 1500, 4000, 0.1, (0.003, 0.01))]), ns(0.12, sr))
    sc.add(h, t_handle, "handle_press")
    sc.add(metal_click(r, sr, 0.3, (1900, 3100, 5200), 0.012) + pad_to(clack(r, sr, 0.35, (300, 900, 1700), 0.02), ns(0.12, sr)),
           t_handle + r.uniform(0.17, 0.2), "latch_release")
    # creak: slow swell, harmonic stack with wandering pitch -> continuous bed
    n = ns(0.7, sr)
    tt = tvec(n, sr)
    fpitch = 170 + 25 * np.sin(2 * np.pi * 1.3 * tt) + 10 * np.sin(2 * np.pi * 3.7 * tt)
    ph = 2 * np.pi * np.cumsum(fpitch) / sr
    creak = sum(np.sin(k * ph) / k for k in range(1, 14))
    creak = np.fft.irfft(np.fft.rfft(creak) * reso_mag(np.fft.rfftfreq(n, 1 / sr), 1200, 1.5), n)
    creak = normpeak(creak) * 0.12 * np.sin(np.pi * tt / tt[-1]) ** 2
    sc.bed(creak, 0.42)
    t_close = jit(r, 1.32)
    n = ns(0.6, sr)
    slam = pad_to(metal_click(r, sr, 0.45), n)
    o = ns(r.uniform(0.012, 0.018), sr)
    slab = modal(n - o, sr, [88, 157, 236, 410], [1, 0.6, 0.4, 0.2], [0.09, 0.07, 0.05, 0.03]) + \
        band(r, n - o, sr, 100, 1500) * env(n - o, sr, 0.001, 0.05) * 0.5
    slam[o:] += slab
    sc.add(slam, t_close, "door_slam(bolt+slab)")
    sc.add(metal_click(r, sr, 0.4, (2500, 4100, 6300), 0.01), t_close + r.uniform(0.09, 0.11), "latch_snap")
    c.emit("door_open_close", "multi", "multi", "Door: handle press click, latch release, slow creak swell, slam (bolt click + slab thud 12-18 ms later), latch snap.",
           sc, multi_rule + " Here: 4 events; the creak is continuous; bolt click + slab thud are one event (onset = bolt click).")

    r = rng_for("multi/glass_break")
    sc = Scene(2.0)
    t0 = jit(r, 0.09)
    n = ns(0.6, sr)
    imp = band(r, n, sr, 1000, None, 1) * env(n, sr, 0.0001, 0.004)
    imp += grains(r, sr, n, 45, 0.045, 2500, 11000, 0.5, (0.01, 0.06))
    sc.add(imp, t0, "impact+shatter")
    t = t0
    for gap, v in [(0.19, 0.6), (0.13, 0.5), (0.12, 0.45), (0.19, 0.4), (0.16, 0.3), (0.27, 0.25)]:
        t += gap + r.uniform(-0.01, 0.01)
        m = ns(0.45, sr)
        g = grains(r, sr, m, int(r.integers(3, 8)), 0.025, 2500, 9000, v, (0.01, 0.05))
        first = grains(r, sr, m, 1, 0.0, 3000, 8000, v, (0.01, 0.04))
        sc.add(g + first, t, "shard_landing")
    c.emit("glass_break", "multi", "multi", "Glass break: impact crack + 45 overlapping shards within 45 ms, then 6 shard clusters landing 120-270 ms apart.",
           sc, multi_rule + " Here: the initial shatter is one event; each landing cluster (3-8 grains within 25 ms) is one event.")

    r = rng_for("multi/gun_reload")
    sc = Scene(1.9)
    sc.add(metal_click(r, sr, 0.5, (2200, 3900, 6100), 0.01), jit(r, 0.08), "mag_release")
    n = ns(0.34, sr)
    scrape = band(r, n, sr, 800, 5000) * np.sin(np.pi * tvec(n, sr) / (n / sr)) ** 2 * 0.06
    sc.bed(scrape, 0.22)
    sc.add(clack(r, sr, 0.9), jit(r, 0.72), "mag_insert")
    sc.add(metal_click(r, sr, 0.55, (1800, 3300, 5600), 0.015), jit(r, 1.12), "slide_back")
    sc.add(clack(r, sr, 1.0, (900, 1900, 3400), 0.025) + pad_to(metal_click(r, sr, 0.3), ns(0.2, sr)), jit(r, 1.31), "slide_forward")
    c.emit("gun_reload", "multi", "multi", "Pistol reload: magazine release click, magazine slide-out scrape (340 ms swell), magazine insert clack, slide back, slide forward.",
           sc, multi_rule + " Here: 4 events; the magazine scrape is a slow swell and is not annotated.")


# ----------------------------------------------------------------------------
# README
# ----------------------------------------------------------------------------

README_HEAD = """# Tactus onset test corpus

Short synthetic game-style sound effects with exact ground-truth onset times, used to
test and benchmark Tactus transient detection (haptic transients at onsets) and to
exercise audio decoding (WAV 16/24-bit, 48 kHz stereo, FLAC, Ogg Vorbis, AIFF).

Everything here is generated by `scripts/make_corpus.py`; do not edit files by hand.

## Regenerate

```sh
python3 scripts/make_corpus.py          # writes Corpus/ (needs numpy, sox, espeak-ng)
```

The generator is deterministic (numpy Generators seeded from CRC32 of fixed names,
WAV written with the stdlib `wave` module, sox run with `-R -D`): running it twice
gives byte-identical files with the same numpy / sox / libvorbis / espeak-ng versions.
Score detectors against it with `python3 scripts/eval_onsets.py` (see that script's
`--help`; optional baselines need `pip install -r scripts/requirements-eval.txt`).

## Ground-truth rule

* Every **event** is synthesised as its own clean stem, before mixing with noise or
  ambience, before clipping gain, and before any lossy encoding.
* Its **onset** is the first sample where the stem's absolute amplitude rises strictly
  above -50 dB of that stem's own peak: `|x[n]| > peak * 10**(-50/20)`.
* Times are in seconds (6 decimals) in `<name>.json` -> `"onsets"`, sorted; the exact
  sample index is in `"events"[i].sample`. `peakTime` is where the stem peaks and
  `levelDb` is the event peak relative to the loudest event in the file.
* Events are >= 60 ms apart, except in `rolls/` (80-120 ms, >= 75 ms after jitter).
  Components closer than 60 ms (heel + toe of a footstep, clap bursts, door bolt +
  slab, glass shards) are summed into one event stem; the onset is that stem's start.
* **Continuous** components are not events and have no onsets: whoosh swells, the
  engine loop, ambience beds, room tone, creaks and scrape swells. Files `whoosh`,
  `engine_loop`, `rain_only` and `fire_only` therefore have zero onsets, and any
  detection there is a false positive.
* `multi/` rule: every component with its own fast attack (< 10 ms) that peaks within
  30 dB of the loudest event and starts >= 60 ms after the previous annotated attack is
  an event (a haptic designer would want a transient there); see each file's notes.
* SNR (`noise/`, `ambience/`): mean power of the clean mix in the first 100 ms after
  each onset vs. mean power of the noise/ambience over the whole file. Noise and
  ambience fade in over 250-300 ms and the first hit comes after that.
* Soft attacks (`soft/`): the rule places the onset at the very start of the 15-40 ms
  fade-in (about 0.2-2 ms into it), not at the peak; `peakTime` gives the end of the rise.
* Encoded files: FLAC, AIFF and the 24-bit stereo WAV are verified sample-exact against
  the generated signal (no delay or padding added by sox). The Ogg Vorbis file is
  verified to decode to exactly the same length with zero lag; codec pre-echo is
  recorded per event in its JSON (`oggPreEchoMsPerEvent`).
* Onset positions are jittered so they do not fall on round frame boundaries.

JSON fields: `file, kind, condition, description, sampleRate, durationSeconds, onsets,
notes` plus `channels, encoding, frames, events[], peakDbfs` and, where relevant,
`snrDb, driveDb, clippedSampleFraction, codecSnrDb, oggPreEchoMsPerEvent`.

## Files

"""

README_TAIL = """
## Licence

All audio and JSON in this folder are generated by `scripts/make_corpus.py` in this
repository and are dedicated to the public domain under **CC0-1.0**
(https://creativecommons.org/publicdomain/zero/1.0/). `clean/speech_words.wav` contains
speech synthesised with espeak-ng; espeak-ng is GPL-3.0 software, but audio it
produces is the user's output and is free to use and redistribute, so it is also
released here under CC0-1.0.
"""


def write_readme(c: Corpus):
    rows = ["| File | Condition | Kind | Onsets | Duration (s) | Format | How it was made |",
            "|---|---|---|---:|---:|---|---|"]
    total = 0
    for e in c.entries:
        p = e["_path"]
        total += p.stat().st_size
        rel = p.relative_to(c.out).as_posix()
        fmt = "%d Hz %s%s" % (e["sampleRate"], e["encoding"], "" if e["channels"] == 1 else "")
        how = e["description"].replace("|", "/")
        rows.append("| `%s` | %s | %s | %d | %.2f | %s | %s |" % (
            rel, e["condition"], e["kind"], len(e["onsets"]), e["durationSeconds"], fmt, how))
    n_on = sum(len(e["onsets"]) for e in c.entries)
    summary = "\n%d sound files, %d annotated onsets, %.1f MB of audio.\n" % (len(c.entries), n_on, total / 1e6)
    (c.out / "README.md").write_text(README_HEAD + "\n".join(rows) + "\n" + summary + README_TAIL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "Corpus")
    args = ap.parse_args()
    for tool in ("sox", "espeak-ng"):
        if shutil.which(tool) is None:
            sys.exit("make_corpus: '%s' not found (apt-get install %s)" % (tool, tool))
    c = Corpus(args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    print("Generating corpus in %s" % args.out)
    build(c)
    # remove stale generated files from earlier versions of this script
    for cond in CONDITIONS:
        d = args.out / cond
        if d.is_dir():
            for p in d.iterdir():
                if p.suffix in MANAGED_EXTS and p not in c.written:
                    p.unlink()
    write_readme(c)
    n_on = sum(len(e["onsets"]) for e in c.entries)
    print("%d files, %d onsets" % (len(c.entries), n_on))


if __name__ == "__main__":
    main()
