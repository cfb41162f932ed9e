// A thin C layer over libjpeg(-turbo). libjpeg reports fatal errors by longjmp, which Swift cannot
// survive, so every entry point here sets its own setjmp and returns a status instead.
#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>

#define SC_JPEG_ERROR_LENGTH 200

/// What the header says, read before any pixel memory is allocated.
typedef struct {
    int width;
    int height;
    int components;
    int precision;          // bits per sample (8 is all we decode)
    int isCMYK;             // CMYK or YCCK: converted to RGB by us, libjpeg cannot
    int progressive;
    int arithmetic;
} sc_jpeg_header;

typedef struct sc_decoder sc_decoder;

/// Reads the header of an in-memory JPEG. Returns NULL with `error` filled on failure.
/// `data` must stay alive until sc_decoder_destroy.
sc_decoder *sc_decoder_create(const unsigned char *data, size_t length, char error[SC_JPEG_ERROR_LENGTH]);
void sc_decoder_destroy(sc_decoder *decoder);
sc_jpeg_header sc_decoder_header(const sc_decoder *decoder);

/// The APP1 "Exif\0\0" payload (pointer into the decoder, valid until destroy), or length 0.
const unsigned char *sc_decoder_exif(const sc_decoder *decoder, size_t *length);
/// The ICC profile reassembled from APP2 markers; malloc'd, caller frees with sc_free. NULL when absent.
unsigned char *sc_decoder_icc(sc_decoder *decoder, size_t *length);

/// Output size when decoding with DCT scaling at 1/denominator (1, 2, 4 or 8).
void sc_decoder_scaled_size(sc_decoder *decoder, int denominator, int *width, int *height);

/// Decodes at 1/denominator into 32-bit BGRX pixels (Cairo's RGB24 on little-endian).
/// Returns 0 on success. `truncated` is set when the data ended early (libjpeg pads with grey).
int sc_decoder_decode(sc_decoder *decoder, int denominator, unsigned char *pixels, size_t stride,
                      int *truncated, char error[SC_JPEG_ERROR_LENGTH]);

typedef struct {
    int quality;            // 1...100
    int subsampling;        // 420, 422 or 444
    int optimize;           // optimized Huffman tables
    const unsigned char *exif;  // APP1 payload starting "Exif\0\0", or NULL
    size_t exifLength;
    const unsigned char *icc;   // ICC profile, or NULL
    size_t iccLength;
} sc_encode_options;

/// Encodes BGRX pixels. On success returns 0 and a malloc'd buffer (free with sc_free).
int sc_encode(const unsigned char *pixels, int width, int height, size_t stride, sc_encode_options options,
              unsigned char **output, size_t *outputLength, char error[SC_JPEG_ERROR_LENGTH]);

void sc_free(void *pointer);

#endif
