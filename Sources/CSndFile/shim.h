#ifndef TACTUS_CSNDFILE_SHIM_H
#define TACTUS_CSNDFILE_SHIM_H
#include <math.h>
#include <sndfile.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Normalised floats to integer PCM exactly as libsndfile's clipping writers convert them
 * (f2les_clip_array and its siblings for 16, 24 and 32 bits), but several samples at a time:
 * x * 2^31, at or beyond +1 or -1 clipped to INT32_MAX or INT32_MIN, else rounded by lrintf
 * (to nearest, ties to even; a NaN becomes what lrintf gives on this CPU); a 16- or 24-bit
 * sample is the top bits of that 32-bit value. */

static inline int32_t tactus_full_scale(float x) {
    float scaled = x * 2147483648.0f;
    return scaled >= 2147483647.0 ? INT32_MAX : scaled <= -2147483648.0 ? INT32_MIN : (int32_t)lrintf(scaled);
}

#if defined(__SSE2__)
/* Four samples with SSE2's conversion, which is lrintf's on x86-64, NaN included. */
static inline __m128i tactus_full_scale4(const float *x) {
    const __m128 top = _mm_set1_ps(2147483648.0f);
    __m128 scaled = _mm_mul_ps(_mm_loadu_ps(x), top);
    /* INT32_MIN at or below -2^31, for a NaN and at or above 2^31 ... */
    __m128i value = _mm_cvtps_epi32(scaled);
    /* ... where the last turns into INT32_MAX (INT32_MIN with every bit flipped). */
    return _mm_xor_si128(value, _mm_castps_si128(_mm_cmpge_ps(scaled, top)));
}
#endif

/* The 32-bit values, for 24- and 32-bit PCM (libsndfile keeps their top bits). */
static inline void tactus_full_scale_integers(const float *x, int32_t *out, long count) {
    long i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= count; i += 4) _mm_storeu_si128((__m128i *)(out + i), tactus_full_scale4(x + i));
#endif
    for (; i < count; i++) out[i] = tactus_full_scale(x[i]);
}

/* 16-bit PCM: the top 16 bits. */
static inline void tactus_full_scale_shorts(const float *x, int16_t *out, long count) {
    long i = 0;
#if defined(__SSE2__)
    for (; i + 8 <= count; i += 8) {
        __m128i low = _mm_srai_epi32(tactus_full_scale4(x + i), 16);
        __m128i high = _mm_srai_epi32(tactus_full_scale4(x + i + 4), 16);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packs_epi32(low, high));
    }
#endif
    for (; i < count; i++) out[i] = (int16_t)(tactus_full_scale(x[i]) >> 16);
}
#endif
