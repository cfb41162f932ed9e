// A thin C layer over libpng. libpng reports fatal errors by longjmp, which Swift cannot survive,
// so each entry point here that calls libpng sets its own setjmp, in its own frame, and returns a
// status with libpng's words instead.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

#define SC_PNG_ERROR_LENGTH 200

/// How a call ended.
typedef enum {
    SC_PNG_OK = 0,
    SC_PNG_FAILED,          // libpng gave up: `message` has its words
    SC_PNG_TRUNCATED,       // the data ends early: `bytes` says after how many
    SC_PNG_OUT_OF_MEMORY,
} sc_png_status;

/// The outcome of a call.
typedef struct {
    sc_png_status status;
    size_t bytes;           // SC_PNG_TRUNCATED: the length of the data
    char message[SC_PNG_ERROR_LENGTH];
} sc_png_outcome;

typedef struct sc_png sc_png;

/// Reads the signature, the header and every chunk before the image data. NULL with `outcome`
/// filled on failure. `data` must stay alive and unchanged until sc_png_destroy.
sc_png *sc_png_create(const unsigned char *data, size_t length, sc_png_outcome *outcome);
void sc_png_destroy(sc_png *png);
void sc_png_size(const sc_png *png, uint32_t *width, uint32_t *height);

/// Decodes every pixel into `pixels` (`height` rows of `stride` bytes) as Cairo's ARGB32: one
/// native-endian 32-bit word a pixel, alpha in the high byte, colour premultiplied by it. Then
/// reads the chunks after the image data up to the end chunk; when they are damaged or missing,
/// the pixels are all there: `ended` is 0 and `ending` says what is wrong. Returns 0 on success.
int sc_png_decode(sc_png *png, unsigned char *pixels, size_t stride, int *ended, sc_png_outcome *ending, sc_png_outcome *outcome);

/// How many warnings libpng gave (damage in a chunk it could do without, which it left out), and
/// the first one's words (valid until sc_png_destroy).
int sc_png_warnings(const sc_png *png, const char **first);

/// The eXIf chunk's payload (a TIFF header and its IFDs, no "Exif\0\0"), or length 0. Valid until
/// sc_png_destroy; chunks after the image data count once sc_png_decode has read them.
const unsigned char *sc_png_exif(const sc_png *png, size_t *length);
/// The ICC profile of the iCCP chunk, decompressed, or length 0; valid until sc_png_destroy.
const unsigned char *sc_png_icc(const sc_png *png, size_t *length);

#endif
