// Pixel loops that must run at vector speed: Swift's generic SIMD types lower some of these to
// scalar code (clamping and narrowing especially), plain C loops vectorise reliably. Each function
// is built twice, for x86-64-v3 (AVX2, FMA) and the baseline, and the loader picks one at start.
#ifndef CPIXELS_H
#define CPIXELS_H

#include <stddef.h>
#include <stdint.h>

/// out = Σ rows[k] · weights[k] over `nrows` rows of `count` bytes, as floats.
void sc_pixels_blend(const uint8_t *const *rows, const float *weights, int nrows, float *out, size_t count);

/// One row of four-float pixels through per-pixel taps: target pixel x is the sum over k < count[x]
/// of in[first[x] + k] · weights[x · width + k].
void sc_pixels_filter_row(const float *in, float *out, const int32_t *first, const int32_t *count,
                          const float *weights, int width, int pixels);

/// `count` floats to bytes, rounded and clamped to 0...255.
void sc_pixels_narrow(const float *in, uint8_t *out, size_t count);

#endif
