#include "CPixels.h"

#if defined(__x86_64__)
#define SC_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SC_CLONES
#endif

typedef float sc_float4 __attribute__((vector_size(16)));

// Sums of 32 channels at a time are kept in registers across all the rows, so each output float is
// written once; the rows stay bytes (a quarter of the memory traffic of floats).
SC_CLONES void sc_pixels_blend(const uint8_t *const *rows, const float *weights, int nrows, float *restrict out,
                               size_t count) {
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        float sum[32] = {0};
        for (int k = 0; k < nrows; k++) {
            const uint8_t *restrict row = rows[k] + i;
            const float w = weights[k];
            for (int j = 0; j < 32; j++) sum[j] += (float)row[j] * w;
        }
        for (int j = 0; j < 32; j++) out[i + j] = sum[j];
    }
    for (; i < count; i++) {
        float sum = 0;
        for (int k = 0; k < nrows; k++) sum += (float)rows[k][i] * weights[k];
        out[i] = sum;
    }
}

// A pixel's four channels are one vector; two sums take alternate taps so the additions do not
// wait on one another.
SC_CLONES void sc_pixels_filter_row(const float *restrict in, float *restrict out, const int32_t *first,
                                    const int32_t *count, const float *weights, int width, int pixels) {
    for (int x = 0; x < pixels; x++) {
        const float *restrict p = in + (size_t)first[x] * 4;
        const float *restrict w = weights + (size_t)x * width;
        sc_float4 even = {0, 0, 0, 0}, odd = {0, 0, 0, 0}, a, b;
        int n = count[x], k = 0;
        for (; k + 1 < n; k += 2) {
            __builtin_memcpy(&a, p + k * 4, sizeof a);
            __builtin_memcpy(&b, p + k * 4 + 4, sizeof b);
            even += a * w[k];
            odd += b * w[k + 1];
        }
        if (k < n) {
            __builtin_memcpy(&a, p + k * 4, sizeof a);
            even += a * w[k];
        }
        even += odd;
        __builtin_memcpy(out + (size_t)x * 4, &even, sizeof even);
    }
}

// Lanczos overshoots a little at hard edges, hence the clamp.
SC_CLONES void sc_pixels_narrow(const float *restrict in, uint8_t *restrict out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        float v = in[i] + 0.5f;
        v = v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
        out[i] = (uint8_t)v;
    }
}
