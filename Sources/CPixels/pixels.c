#include "CPixels.h"

#if defined(__x86_64__)
#define SC_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SC_CLONES
#endif

typedef float sc_float4 __attribute__((vector_size(16)));

SC_CLONES void sc_pixels_widen(const uint8_t *restrict in, float *restrict out, size_t count) {
    for (size_t i = 0; i < count; i++) out[i] = (float)in[i];
}

// Row by row into `out`: each pass streams two rows through the cache in wide vectors.
SC_CLONES void sc_pixels_blend(const float *const *rows, const float *weights, int nrows, float *restrict out,
                               size_t count) {
    const float *restrict first = rows[0];
    const float w0 = weights[0];
    for (size_t i = 0; i < count; i++) out[i] = first[i] * w0;
    for (int k = 1; k < nrows; k++) {
        const float *restrict row = rows[k];
        const float w = weights[k];
        for (size_t i = 0; i < count; i++) out[i] += row[i] * w;
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
