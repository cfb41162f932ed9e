#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct sc_png {
    png_structp png;
    png_infop info;
    png_infop end;
    const unsigned char *data;
    size_t length;
    size_t offset;
    // Set before jumping: the data ended, or libpng's words.
    int ranOut;
    char message[SC_PNG_ERROR_LENGTH];
    // libpng names what is wrong in a header in a warning just before its error.
    char warning[SC_PNG_ERROR_LENGTH];
    // What libpng let pass: the first warning, and how many there were.
    char firstWarning[SC_PNG_ERROR_LENGTH];
    int warnings;
};

static void on_error(png_structp png, png_const_charp message) {
    sc_png *reader = png_get_error_ptr(png);
    if (reader->ranOut) {
        // on_read's own words stand: the data ended
    } else if (strcmp(message, "Invalid IHDR data") == 0 && reader->warning[0]) {
        snprintf(reader->message, sizeof reader->message, "%s: %s", message, reader->warning);
    } else {
        snprintf(reader->message, sizeof reader->message, "%s", message);
    }
    png_longjmp(png, 1);
}

// Damage in an ancillary chunk (a bad CRC, a profile libpng will not use): the chunk is dropped
// and the image stays readable, as libpng decides. The words are kept for a header error.
static void on_warning(png_structp png, png_const_charp message) {
    sc_png *reader = png_get_error_ptr(png);
    snprintf(reader->warning, sizeof reader->warning, "%s", message);
    if (reader->warnings++ == 0) snprintf(reader->firstWarning, sizeof reader->firstWarning, "%s", message);
}

static void on_read(png_structp png, png_bytep destination, size_t count) {
    sc_png *reader = png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        reader->ranOut = 1;
        png_error(png, "the data ends early");
    }
    memcpy(destination, reader->data + reader->offset, count);
    reader->offset += count;
}

static void fill(const sc_png *reader, sc_png_outcome *outcome) {
    if (reader->ranOut) {
        outcome->status = SC_PNG_TRUNCATED;
        outcome->bytes = reader->length;
        snprintf(outcome->message, sizeof outcome->message, "the data ends early");
    } else {
        // Only an allocation that failed; "insufficient memory to read chunk" is a chunk length gone wrong.
        outcome->status = strcasecmp(reader->message, "out of memory") == 0 ? SC_PNG_OUT_OF_MEMORY : SC_PNG_FAILED;
        outcome->bytes = 0;
        snprintf(outcome->message, sizeof outcome->message, "%s", reader->message);
    }
}

sc_png *sc_png_create(const unsigned char *data, size_t length, sc_png_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    sc_png *reader = calloc(1, sizeof *reader);
    if (!reader) {
        outcome->status = SC_PNG_OUT_OF_MEMORY;
        return NULL;
    }
    reader->data = data;
    reader->length = length;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (reader->info) reader->end = png_create_info_struct(reader->png);
    if (!reader->end) {
        outcome->status = SC_PNG_OUT_OF_MEMORY;
        sc_png_destroy(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, on_read);
    // The pixel limit is the caller's, checked from the header before any pixel memory is taken.
    png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
    // The profile is carried, not applied: libpng's check against the known flawed versions of the
    // common sRGB profile would only warn about a profile that goes out as it came.
    png_set_option(reader->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    if (setjmp(png_jmpbuf(reader->png))) {
        fill(reader, outcome);
        sc_png_destroy(reader);
        return NULL;
    }
    png_read_info(reader->png, reader->info);
    // Eight bits a channel, RGB with alpha whatever the file stores; Adam7 passes merged.
    png_set_expand(reader->png);
    png_set_scale_16(reader->png);
    png_set_gray_to_rgb(reader->png);
    png_set_filler(reader->png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    return reader;
}

void sc_png_destroy(sc_png *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, reader->end ? &reader->end : NULL);
    free(reader);
}

void sc_png_size(const sc_png *reader, uint32_t *width, uint32_t *height) {
    *width = png_get_image_width(reader->png, reader->info);
    *height = png_get_image_height(reader->png, reader->info);
}

// The end chunk and what comes before it, after the pixels: its own jump target, so damage
// there keeps the pixels.
static void read_ending(sc_png *reader, int *ended, sc_png_outcome *ending) {
    if (setjmp(png_jmpbuf(reader->png))) {
        *ended = 0;
        fill(reader, ending);
        return;
    }
    png_read_end(reader->png, reader->end);
    *ended = 1;
}

int sc_png_decode(sc_png *reader, unsigned char *pixels, size_t stride, int *ended, sc_png_outcome *ending, sc_png_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    memset(ending, 0, sizeof *ending);
    *ended = 0;
    uint32_t width, height;
    sc_png_size(reader, &width, &height);
    png_bytep *rows = malloc(sizeof(png_bytep) * height);
    if (!rows) {
        outcome->status = SC_PNG_OUT_OF_MEMORY;
        return -1;
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = pixels + y * stride;
    if (setjmp(png_jmpbuf(reader->png))) {
        free(rows);
        fill(reader, outcome);
        return -1;
    }
    png_read_image(reader->png, rows);
    free(rows);
    // RGBA bytes to premultiplied native-endian ARGB words, in place, as Cairo's own loader does.
    for (uint32_t y = 0; y < height; y++) {
        unsigned char *row = pixels + y * stride;
        for (uint32_t x = 0; x < width; x++) {
            unsigned char *p = row + 4 * x;
            uint32_t alpha = p[3], red = p[0], green = p[1], blue = p[2];
            if (alpha != 255) {
                red = (red * alpha + 127) / 255;
                green = (green * alpha + 127) / 255;
                blue = (blue * alpha + 127) / 255;
            }
            uint32_t word = alpha << 24 | red << 16 | green << 8 | blue;
            memcpy(p, &word, 4);
        }
    }
    read_ending(reader, ended, ending);
    return 0;
}

int sc_png_warnings(const sc_png *reader, const char **first) {
    *first = reader->firstWarning;
    return reader->warnings;
}

const unsigned char *sc_png_exif(const sc_png *reader, size_t *length) {
    png_bytep exif = NULL;
    png_uint_32 size = 0;
    if (!png_get_eXIf_1(reader->png, reader->info, &size, &exif) || !exif)
        png_get_eXIf_1(reader->png, reader->end, &size, &exif);
    *length = exif ? size : 0;
    return exif;
}

const unsigned char *sc_png_icc(const sc_png *reader, size_t *length) {
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 size = 0;
    if (!png_get_iCCP(reader->png, reader->info, &name, &compression, &profile, &size) || !profile) {
        *length = 0;
        return NULL;
    }
    *length = size;
    return profile;
}
