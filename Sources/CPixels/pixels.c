#include "CPixels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define VERTICAL_SHIFT (SC_PIXELS_WEIGHT_BITS - SC_PIXELS_MIDDLE_BITS)
#define HORIZONTAL_SHIFT (SC_PIXELS_WEIGHT_BITS + SC_PIXELS_MIDDLE_BITS)

static inline int16_t middle_value(int32_t sum) {
    int32_t v = (sum + (1 << (VERTICAL_SHIFT - 1))) >> VERTICAL_SHIFT;
    return (int16_t)(v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v));
}

// Lanczos overshoots a little at hard edges, hence the clamp.
static inline uint8_t byte_value(int32_t sum) {
    int32_t v = (sum + (1 << (HORIZONTAL_SHIFT - 1))) >> HORIZONTAL_SHIFT;
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

static void vertical_span(const uint8_t *const *rows, const int16_t *weights, int nrows, int16_t *middle, size_t from,
                          size_t to) {
    for (size_t i = from; i < to; i++) {
        int32_t sum = 0;
        for (int k = 0; k < nrows; k++) sum += rows[k][i] * weights[k];
        middle[i] = middle_value(sum);
    }
}

void sc_pixels_vertical_reference(const uint8_t *const *rows, const int16_t *weights, int nrows, int16_t *middle,
                                  size_t count) {
    vertical_span(rows, weights, nrows, middle, 0, count);
}

void sc_pixels_horizontal_reference(const int16_t *middle, uint8_t *out, ptrdiff_t step, const int32_t *first,
                                    const int32_t *count, const int16_t *weights, int width, int pixels) {
    for (int x = 0; x < pixels; x++) {
        const int16_t *p = middle + (size_t)first[x] * 4;
        const int16_t *w = weights + (size_t)x * width;
        for (int c = 0; c < 4; c++) {
            int32_t sum = 0;
            for (int k = 0; k < count[x]; k++) sum += p[k * 4 + c] * w[k];
            out[x * step + c] = byte_value(sum);
        }
    }
}

#if defined(__x86_64__)
// No lane-crossing shuffles: CPUs that split 256-bit operations in two (AMD before Zen 2) make them
// slow.

static inline __m128i tap_pair(const int16_t *weights) {
    int32_t pair;
    __builtin_memcpy(&pair, weights, sizeof pair);
    return _mm_set1_epi32(pair);
}

// Two rows at a time: their bytes interleaved and widened to (a, b) pairs, which `pmaddwd` multiplies
// by (w_k, w_k+1) and adds in one step. 32 channels a round, their sums in four registers.
__attribute__((target("avx2"))) static void vertical_avx2(const uint8_t *const *rows, const int16_t *weights,
                                                          int nrows, int16_t *middle, size_t count) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi32(1 << (VERTICAL_SHIFT - 1));
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i sum0 = zero, sum1 = zero, sum2 = zero, sum3 = zero;
        for (int k = 0; k < nrows; k += 2) {
            const int pair = k + 1 < nrows;
            __m256i a = _mm256_loadu_si256((const __m256i *)(rows[k] + i));
            __m256i b = pair ? _mm256_loadu_si256((const __m256i *)(rows[k + 1] + i)) : zero;
            __m256i w = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)(pair ? weights[k + 1] : 0) << 16) |
                                                    (uint16_t)weights[k]));
            __m256i low = _mm256_unpacklo_epi8(a, b), high = _mm256_unpackhi_epi8(a, b);
            sum0 = _mm256_add_epi32(sum0, _mm256_madd_epi16(_mm256_unpacklo_epi8(low, zero), w));
            sum1 = _mm256_add_epi32(sum1, _mm256_madd_epi16(_mm256_unpackhi_epi8(low, zero), w));
            sum2 = _mm256_add_epi32(sum2, _mm256_madd_epi16(_mm256_unpacklo_epi8(high, zero), w));
            sum3 = _mm256_add_epi32(sum3, _mm256_madd_epi16(_mm256_unpackhi_epi8(high, zero), w));
        }
        sum0 = _mm256_srai_epi32(_mm256_add_epi32(sum0, half), VERTICAL_SHIFT);
        sum1 = _mm256_srai_epi32(_mm256_add_epi32(sum1, half), VERTICAL_SHIFT);
        sum2 = _mm256_srai_epi32(_mm256_add_epi32(sum2, half), VERTICAL_SHIFT);
        sum3 = _mm256_srai_epi32(_mm256_add_epi32(sum3, half), VERTICAL_SHIFT);
        // Each 128-bit lane holds 16 channels in order: channels 0-7 of it in `first`, 8-15 in `second`.
        __m256i first = _mm256_packs_epi32(sum0, sum1), second = _mm256_packs_epi32(sum2, sum3);
        _mm_storeu_si128((__m128i *)(middle + i), _mm256_castsi256_si128(first));
        _mm_storeu_si128((__m128i *)(middle + i + 8), _mm256_castsi256_si128(second));
        _mm_storeu_si128((__m128i *)(middle + i + 16), _mm256_extracti128_si256(first, 1));
        _mm_storeu_si128((__m128i *)(middle + i + 24), _mm256_extracti128_si256(second, 1));
    }
    vertical_span(rows, weights, nrows, middle, i, count);
}

// One pixel, four taps a round: the channels shuffled to (p_k.c, p_k+1.c) pairs for `pmaddwd` with
// (w_k, w_k+1). Tap counts are padded to whole groups with zero weights.
__attribute__((target("avx2"))) static inline void horizontal_one(const int16_t *p, const int16_t *w, int count,
                                                                  uint8_t *out) {
    const __m128i pairs = _mm_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    __m128i even = _mm_setzero_si128(), odd = _mm_setzero_si128();
    for (int k = 0; k < count; k += SC_PIXELS_TAP_GROUP) {
        __m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + k * 4)), pairs);
        __m128i u = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + k * 4 + 8)), pairs);
        even = _mm_add_epi32(even, _mm_madd_epi16(v, tap_pair(w + k)));
        odd = _mm_add_epi32(odd, _mm_madd_epi16(u, tap_pair(w + k + 2)));
    }
    __m128i total = _mm_srai_epi32(_mm_add_epi32(_mm_add_epi32(even, odd), _mm_set1_epi32(1 << (HORIZONTAL_SHIFT - 1))),
                                   HORIZONTAL_SHIFT);
    total = _mm_packus_epi16(_mm_packs_epi32(total, total), total);
    int32_t bytes = _mm_cvtsi128_si32(total);
    __builtin_memcpy(out, &bytes, 4);
}

__attribute__((target("avx2"))) static void horizontal_avx2(const int16_t *middle, uint8_t *out, ptrdiff_t step,
                                                            const int32_t *first, const int32_t *count,
                                                            const int16_t *weights, int width, int pixels) {
    for (int x = 0; x < pixels; x++) {
        horizontal_one(middle + (size_t)first[x] * 4, weights + (size_t)x * width, count[x], out + x * step);
    }
}

// Two rows at a time, one in each 128-bit lane (the shuffles stay inside their lane): the rows share
// their taps, so each weight is loaded once for both.
__attribute__((target("avx2"))) static void horizontal_rows_avx2(const int16_t *middle, const int16_t *next, uint8_t *out,
                                                                 ptrdiff_t step, ptrdiff_t rowStep, const int32_t *first,
                                                                 const int32_t *count, const int16_t *weights, int width,
                                                                 int pixels) {
    const __m256i pairs = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                           0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    const __m256i half = _mm256_set1_epi32(1 << (HORIZONTAL_SHIFT - 1));
    for (int x = 0; x < pixels; x++) {
        const int16_t *p = middle + (size_t)first[x] * 4, *q = next + (size_t)first[x] * 4;
        const int16_t *w = weights + (size_t)x * width;
        __m256i even = _mm256_setzero_si256(), odd = _mm256_setzero_si256();
        for (int k = 0; k < count[x]; k += SC_PIXELS_TAP_GROUP) {
            __m256i v = _mm256_shuffle_epi8(_mm256_loadu2_m128i((const __m128i *)(q + k * 4), (const __m128i *)(p + k * 4)),
                                            pairs);
            __m256i u = _mm256_shuffle_epi8(
                _mm256_loadu2_m128i((const __m128i *)(q + k * 4 + 8), (const __m128i *)(p + k * 4 + 8)), pairs);
            int32_t pair, pair2;
            __builtin_memcpy(&pair, w + k, sizeof pair);
            __builtin_memcpy(&pair2, w + k + 2, sizeof pair2);
            even = _mm256_add_epi32(even, _mm256_madd_epi16(v, _mm256_set1_epi32(pair)));
            odd = _mm256_add_epi32(odd, _mm256_madd_epi16(u, _mm256_set1_epi32(pair2)));
        }
        __m256i total = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(even, odd), half), HORIZONTAL_SHIFT);
        // The first row's four sums in the low lane, the second's in the high one: eight bytes.
        __m128i both = _mm256_castsi256_si128(total), second = _mm256_extracti128_si256(total, 1);
        both = _mm_packus_epi16(_mm_packs_epi32(both, second), both);
        int32_t bytes = _mm_cvtsi128_si32(both), below = _mm_extract_epi32(both, 1);
        __builtin_memcpy(out + x * step, &bytes, 4);
        __builtin_memcpy(out + rowStep + x * step, &below, 4);
    }
}
#endif

void sc_pixels_vertical(const uint8_t *const *rows, const int16_t *weights, int nrows, int16_t *middle, size_t count) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        vertical_avx2(rows, weights, nrows, middle, count);
        return;
    }
#endif
    sc_pixels_vertical_reference(rows, weights, nrows, middle, count);
}

void sc_pixels_horizontal(const int16_t *middle, uint8_t *out, ptrdiff_t step, const int32_t *first,
                          const int32_t *count, const int16_t *weights, int width, int pixels) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        horizontal_avx2(middle, out, step, first, count, weights, width, pixels);
        return;
    }
#endif
    sc_pixels_horizontal_reference(middle, out, step, first, count, weights, width, pixels);
}

void sc_pixels_horizontal_rows(const int16_t *middle, const int16_t *next, uint8_t *out, ptrdiff_t step,
                               ptrdiff_t rowStep, const int32_t *first, const int32_t *count, const int16_t *weights,
                               int width, int pixels) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        horizontal_rows_avx2(middle, next, out, step, rowStep, first, count, weights, width, pixels);
        return;
    }
#endif
    sc_pixels_horizontal_reference(middle, out, step, first, count, weights, width, pixels);
    sc_pixels_horizontal_reference(next, out + rowStep, step, first, count, weights, width, pixels);
}
