// The resampler's pixel loops, in fixed point: weights are Q14 (each pixel's sum exactly 1 << 14),
// the row between the two passes is int16 in Q6 (overshoot kept, not clamped). Each loop has a
// plain C version, the reference, and an AVX2 one (`pmaddwd` on pairs of taps) that gives the
// same bytes; the AVX2 one runs where the CPU has it.
#ifndef CPIXELS_H
#define CPIXELS_H

#include <stddef.h>
#include <stdint.h>

#define SC_PIXELS_WEIGHT_BITS 14
#define SC_PIXELS_MIDDLE_BITS 6
/// Taps per pixel in the horizontal table are padded to a multiple of this (zero weights), and the
/// middle row needs this many pixels of padding past its end: the loop reads whole groups.
#define SC_PIXELS_TAP_GROUP 4

/// middle[i] = Σ rows[k][i] · weights[k] over `nrows` rows of `count` bytes, as Q6.
void sc_pixels_vertical(const uint8_t *const *rows, const int16_t *weights, int nrows, int16_t *middle, size_t count);
void sc_pixels_vertical_reference(const uint8_t *const *rows, const int16_t *weights, int nrows, int16_t *middle,
                                  size_t count);

/// One row of four-channel pixels through per-pixel taps: pixel x, written at out + x · step bytes
/// (a negative or row-sized step turns the picture as it is written), is the sum over k < count[x]
/// of middle[first[x] + k] · weights[x · width + k], rounded and clamped to a byte.
void sc_pixels_horizontal(const int16_t *middle, uint8_t *out, ptrdiff_t step, const int32_t *first,
                          const int32_t *count, const int16_t *weights, int width, int pixels);
/// `sc_pixels_horizontal` for two rows that share their taps, `middle` written at `out` and `next`
/// at `out + rowStep`: each weight is loaded once for both.
void sc_pixels_horizontal_rows(const int16_t *middle, const int16_t *next, uint8_t *out, ptrdiff_t step,
                               ptrdiff_t rowStep, const int32_t *first, const int32_t *count, const int16_t *weights,
                               int width, int pixels);
void sc_pixels_horizontal_reference(const int16_t *middle, uint8_t *out, ptrdiff_t step, const int32_t *first,
                                    const int32_t *count, const int16_t *weights, int width, int pixels);

#endif
