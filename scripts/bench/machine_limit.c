/*
 * The machine's limit for Tactus's work: the least a converter must do on every file.
 *
 * Decodes each file with libsndfile in 4096-frame blocks, as Tactus does: 16-bit PCM as
 * integers (libsndfile then only copies), everything else as floats; mixes it down to mono
 * and, unless --decode-only, runs the same short-time Fourier transform as
 * Tactus's analysis: periodic Hann window of round(windowMs * rate / 1000) samples, hop of
 * round(hopMs * rate / 1000), FFT size the next power of two (at least 16), frames centred
 * like librosa's center=True (zeros outside the signal, one frame per hop while the centre
 * lies inside), FFTW single-precision r2c planned with FFTW_ESTIMATE, plus the magnitude of
 * every bin. No onsets, curves, mapping or writing: a converter cannot go faster than this
 * on this machine without a faster decoder or FFT.
 *
 * Prints one line of JSON: files, samples (mono), frames, CPU seconds (getrusage of the
 * process, user+sys) and a checksum that keeps the compiler from dropping the work.
 *
 * Build: gcc -O2 machine_limit.c $(pkg-config --cflags --libs sndfile fftw3f) -lm
 * Usage: machine_limit (--decode-only | --window-ms 20 --hop-ms 10) FILE...
 */
#include <fftw3.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { BLOCK_FRAMES = 4096 };

typedef struct {
    int window, hop, fft_size;
    float *hann, *history, *in;
    fftwf_complex *out;
    fftwf_plan plan;
    long filled;     /* samples held in history (starts with window/2 leading zeros) */
    long seen;       /* signal samples pushed */
    long next_frame; /* index of the next frame to emit */
    long start;      /* history offset of the next frame's first sample */
} Stft;

static double checksum;
static long frames_done;

static Stft stft_make(double rate, double window_ms, double hop_ms) {
    Stft s = {0};
    s.window = (int)lround(window_ms * rate / 1000);
    if (s.window < 16) s.window = 16;
    s.hop = (int)lround(hop_ms * rate / 1000);
    if (s.hop < 1) s.hop = 1;
    for (s.fft_size = 16; s.fft_size < s.window; s.fft_size *= 2) {}
    s.hann = malloc(sizeof(float) * s.window);
    for (int i = 0; i < s.window; i++) s.hann[i] = (float)(0.5 - 0.5 * cos(2 * M_PI * i / s.window));
    /* Room for the window, a decoded block and the trailing zero padding. */
    s.history = calloc(4 * s.window + BLOCK_FRAMES, sizeof(float));
    s.in = fftwf_alloc_real(s.fft_size);
    s.out = fftwf_alloc_complex(s.fft_size / 2 + 1);
    memset(s.in, 0, sizeof(float) * s.fft_size);
    s.plan = fftwf_plan_dft_r2c_1d(s.fft_size, s.in, s.out, FFTW_ESTIMATE | FFTW_DESTROY_INPUT);
    s.filled = s.window / 2;
    return s;
}

static void stft_free(Stft *s) {
    fftwf_destroy_plan(s->plan);
    fftwf_free(s->in);
    fftwf_free(s->out);
    free(s->hann);
    free(s->history);
}

static void stft_frame(Stft *s, const float *x) {
    for (int i = 0; i < s->window; i++) s->in[i] = x[i] * s->hann[i];
    for (int i = s->window; i < s->fft_size; i++) s->in[i] = 0;
    fftwf_execute(s->plan);
    float sum = 0;
    for (int k = 0; k <= s->fft_size / 2; k++) sum += sqrtf(s->out[k][0] * s->out[k][0] + s->out[k][1] * s->out[k][1]);
    checksum += sum;
    frames_done++;
}

/* Emits every frame whose window is complete, then drops the samples no frame needs. */
static void stft_drain(Stft *s) {
    while (s->filled - s->start >= s->window && s->next_frame * s->hop < s->seen) {
        stft_frame(s, s->history + s->start);
        s->start += s->hop;
        s->next_frame++;
    }
    memmove(s->history, s->history + s->start, sizeof(float) * (s->filled - s->start));
    s->filled -= s->start;
    s->start = 0;
}

static void stft_push(Stft *s, const float *mono, long n) {
    memcpy(s->history + s->filled, mono, sizeof(float) * n);
    s->filled += n;
    s->seen += n;
    stft_drain(s);
}

static void stft_finish(Stft *s) {
    memset(s->history + s->filled, 0, sizeof(float) * s->window);
    s->filled += s->window;
    stft_drain(s);
}

/* Mono mix with the common channel counts as their own loops, so they vectorise. */
static void mix_shorts(const short *in, sf_count_t frames, int channels, float *mono) {
    const float unit = 1.0f / 32768;
    if (channels == 1) { for (sf_count_t i = 0; i < frames; i++) mono[i] = in[i] * unit; return; }
    if (channels == 2) { for (sf_count_t i = 0; i < frames; i++) mono[i] = (in[2 * i] + in[2 * i + 1]) * (unit * 0.5f); return; }
    for (sf_count_t i = 0; i < frames; i++) {
        int total = 0;
        for (int c = 0; c < channels; c++) total += in[i * channels + c];
        mono[i] = total * unit / channels;
    }
}

static void mix_floats(const float *in, sf_count_t frames, int channels, float *mono) {
    if (channels == 1) { memcpy(mono, in, sizeof(float) * frames); return; }
    if (channels == 2) { for (sf_count_t i = 0; i < frames; i++) mono[i] = (in[2 * i] + in[2 * i + 1]) * 0.5f; return; }
    for (sf_count_t i = 0; i < frames; i++) {
        float sum = 0;
        for (int c = 0; c < channels; c++) sum += in[i * channels + c];
        mono[i] = sum / channels;
    }
}

int main(int argc, char **argv) {
    int decode_only = 0;
    double window_ms = 0, hop_ms = 0;
    long files = 0, samples = 0;
    int first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
        if (strcmp(argv[first], "--decode-only") == 0) decode_only = 1;
        else if (strcmp(argv[first], "--window-ms") == 0 && first + 1 < argc) window_ms = atof(argv[++first]);
        else if (strcmp(argv[first], "--hop-ms") == 0 && first + 1 < argc) hop_ms = atof(argv[++first]);
        else { fprintf(stderr, "machine_limit: unknown option %s\n", argv[first]); return 64; }
    }
    if (!decode_only && (window_ms <= 0 || hop_ms <= 0)) {
        fprintf(stderr, "machine_limit: give --window-ms and --hop-ms (Tactus's frames) or --decode-only\n");
        return 64;
    }
    for (int f = first; f < argc; f++) {
        SF_INFO info = {0};
        SNDFILE *file = sf_open(argv[f], SFM_READ, &info);
        if (!file) { fprintf(stderr, "machine_limit: %s: %s\n", argv[f], sf_strerror(NULL)); return 1; }
        float *block = malloc(sizeof(float) * BLOCK_FRAMES * info.channels), mono[BLOCK_FRAMES];
        short *shorts = malloc(sizeof(short) * BLOCK_FRAMES * info.channels);
        int sixteen_bit = (info.format & SF_FORMAT_SUBMASK) == SF_FORMAT_PCM_16;
        Stft s = stft_make(info.samplerate, window_ms, hop_ms);
        sf_count_t got;
        while ((got = sixteen_bit ? sf_readf_short(file, shorts, BLOCK_FRAMES)
                                  : sf_readf_float(file, block, BLOCK_FRAMES)) > 0) {
            if (sixteen_bit) mix_shorts(shorts, got, info.channels, mono);
            else mix_floats(block, got, info.channels, mono);
            samples += got;
            if (decode_only) checksum += mono[0];
            else stft_push(&s, mono, got);
        }
        if (!decode_only) stft_finish(&s);
        stft_free(&s);
        free(block);
        free(shorts);
        sf_close(file);
        files++;
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    printf("{\"files\": %ld, \"samples\": %ld, \"frames\": %ld, \"cpu_seconds\": %.4f, \"checksum\": %.6g}\n",
           files, samples, frames_done, cpu, checksum);
    return 0;
}
