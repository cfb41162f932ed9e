// A thin C layer over libjpeg(-turbo). libjpeg reports fatal errors by longjmp, which Swift cannot
// survive, so every entry point here that calls libjpeg sets its own setjmp, in its own frame, and
// returns a status instead. A longjmp with no entry point waiting for it aborts the process rather
// than jumping into a frame that has returned.
#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>

#define SC_JPEG_ERROR_LENGTH 200

/// How a call ended.
typedef enum {
    SC_OK = 0,
    SC_FAILED,              // libjpeg gave up: `message` says why
    SC_NOT_JPEG,            // no SOI marker
    SC_TRUNCATED,           // the data ends before the image does
    SC_CORRUPT_DATA,        // libjpeg warned of corrupt data and salvage was off: `message` has its words
    SC_BAD_PRECISION,       // not 8 bits per sample: `value` has the bits
    SC_TOO_MANY_SCANS,      // more scans than the limit: `value` has the limit
    SC_OUT_OF_MEMORY,       // an allocation failed or libjpeg's memory limit was reached
    SC_UNUSABLE,            // the decoder stopped at an earlier error and was not called again
    SC_DNL,                 // a frame header of 0 lines: a DNL marker gives the height, which libjpeg does not support
    SC_NOT_IN_PLACE,        // a valid JPEG of a kind stamping in place does not write: `message` says which
} sc_status;

/// The outcome of a call: a status, libjpeg's words and what was salvaged.
typedef struct {
    sc_status status;
    int value;
    char message[SC_JPEG_ERROR_LENGTH];
} sc_outcome;

/// What the header says, read before any pixel memory is allocated.
typedef struct {
    int width;
    int height;
    int components;
    int precision;          // bits per sample (8 is all we decode)
    int isCMYK;             // CMYK or YCCK: converted to RGB by us, libjpeg cannot
    int progressive;
    int arithmetic;
    /// Bytes of the whole-image DCT coefficient buffer libjpeg allocates for a file of several
    /// scans (progressive, or one scan per component); 0 for a single-scan file. Each component
    /// counts with its own size in 8x8 blocks (rounded up to its sampling factors), 128 bytes a block.
    size_t coefficientBytes;
    /// The same for every file: what holding all of its coefficients at once takes.
    size_t allCoefficientBytes;
} sc_jpeg_header;

/// Limits a decoder works within.
typedef struct {
    int salvage;            // 0: the first corrupt-data warning is an error; 1: decode what can be decoded
    int maxScans;           // more scans than this is an error (0: no limit)
    long maxMemory;         // libjpeg's own allocations, a backstop for the caller's estimate (0: no limit)
} sc_decode_limits;

/// What libjpeg complained about while decoding with salvage on.
typedef struct {
    int corruptWarnings;    // corrupt-data warnings (0: the data was clean)
    int truncated;          // the data ended early; the rest is grey
    int missingEnd;         // the file lacks only its end marker: every pixel was there
    char firstWarning[SC_JPEG_ERROR_LENGTH];
} sc_salvage_report;

typedef struct sc_decoder sc_decoder;

/// Reads the header of an in-memory JPEG. Returns NULL with `outcome` filled on failure.
/// `data` must stay alive and unchanged until sc_decoder_destroy.
sc_decoder *sc_decoder_create(const unsigned char *data, size_t length, sc_decode_limits limits, sc_outcome *outcome);
void sc_decoder_destroy(sc_decoder *decoder);
sc_jpeg_header sc_decoder_header(const sc_decoder *decoder);

/// The APP1 "Exif\0\0" payload (pointer into the decoder, valid until the next call), or length 0.
const unsigned char *sc_decoder_exif(const sc_decoder *decoder, size_t *length);
/// The APP1 XMP payload after its "http://ns.adobe.com/xap/1.0/\0" header (pointer into the
/// decoder, valid until the next call), or length 0.
const unsigned char *sc_decoder_xmp(const sc_decoder *decoder, size_t *length);
/// The ICC profile reassembled from APP2 markers; malloc'd, caller frees with sc_free. NULL when
/// absent, or when its markers are malformed (then `malformed` is 1; the decoder stays usable).
unsigned char *sc_decoder_icc(sc_decoder *decoder, size_t *length, int *malformed, sc_outcome *outcome);

/// Output size when decoding with DCT scaling at eighths/8 (1...8; libjpeg-turbo scales in the DCT
/// domain by any M/8). Returns 0 on success.
int sc_decoder_scaled_size(sc_decoder *decoder, int eighths, int *width, int *height, sc_outcome *outcome);

/// Decodes at eighths/8 into 32-bit BGRX pixels (Cairo's RGB24 on little-endian), `stride`
/// bytes a row, `capacity` bytes in all. Returns 0 on success, with `report` saying what was
/// salvaged. After a failure the decoder refuses further calls.
int sc_decoder_decode(sc_decoder *decoder, int eighths, unsigned char *pixels, size_t stride, size_t capacity,
                      sc_salvage_report *report, sc_outcome *outcome);

/// The same decode a few rows at a time, for a caller that consumes rows as they come (the
/// resampler keeps only the window it needs): start, then read every row in order, then finish.
/// Each returns 0 on success; after a failure the decoder refuses further calls.
int sc_decoder_start(sc_decoder *decoder, int eighths, int *width, int *height, sc_outcome *outcome);
/// The next `count` rows, 32-bit BGRX, one into each of `rows` (each output-width × 4 bytes).
int sc_decoder_read_rows(sc_decoder *decoder, unsigned char *const *rows, int count, sc_outcome *outcome);
/// After the last row: what was salvaged.
int sc_decoder_finish(sc_decoder *decoder, sc_salvage_report *report, sc_outcome *outcome);

typedef struct {
    int quality;            // 1...100
    int subsampling;        // 420, 422 or 444
    int optimize;           // optimized Huffman tables
    int progressive;        // libjpeg's standard progression (10 scans for colour)
    const unsigned char *exif;  // APP1 payload starting "Exif\0\0", or NULL
    size_t exifLength;
    const unsigned char *xmp;   // APP1 payload starting "http://ns.adobe.com/xap/1.0/\0", or NULL
    size_t xmpLength;
    const unsigned char *icc;   // ICC profile, or NULL
    size_t iccLength;
    int failAfterRows;      // tests only: fail as libjpeg does, after this many rows (0: never)
} sc_encode_options;

/// Encodes BGRX pixels. On success returns 0 and a malloc'd buffer (free with sc_free); on failure
/// nothing is left to free.
int sc_encode(const unsigned char *pixels, int width, int height, size_t stride, sc_encode_options options,
              unsigned char **output, size_t *outputLength, sc_outcome *outcome);

/// A JPEG's DCT coefficients, read whole, to be stamped in place: decode a region of whole MCUs,
/// draw on them, put them back with the photo's own quantisation tables and sampling, and write
/// every coefficient. Every block outside the rows put back stays bit for bit. Baseline or
/// progressive, 8-bit, Huffman-coded, YCbCr or greyscale; anything else fails at creation.
typedef struct sc_transcoder sc_transcoder;

typedef struct {
    int width;
    int height;
    int mcuHeight;          // pixel rows in one MCU row: regions start and end on these
    int mcuWidth;           // pixel columns in one MCU column: likewise
    int components;
    int progressive;
    int restartInterval;
    size_t coefficientBytes;  // the block arrays held for the whole image
} sc_transcoder_info;

/// Reads the coefficients of an in-memory JPEG (`data` must outlive the transcoder). Returns NULL
/// with `outcome` filled on failure; a damaged photo fails (no salvage here).
sc_transcoder *sc_transcoder_create(const unsigned char *data, size_t length, sc_decode_limits limits, sc_outcome *outcome);
void sc_transcoder_destroy(sc_transcoder *transcoder);
sc_transcoder_info sc_transcoder_get_info(const sc_transcoder *transcoder);
/// A rectangle of pixels: whole MCUs, or up to the image's right or bottom edge.
typedef struct {
    int left;
    int top;
    int width;
    int height;
} sc_region;

/// Decodes a region into 32-bit BGRX.
int sc_transcoder_decode_region(sc_transcoder *transcoder, sc_region region, unsigned char *pixels, size_t stride,
                                size_t capacity, sc_outcome *outcome);
/// Replaces the blocks of a region with `pixels` (BGRX, the region's size) compressed with the
/// photo's tables. After a failure the transcoder refuses further calls.
int sc_transcoder_replace_region(sc_transcoder *transcoder, sc_region region, const unsigned char *pixels, size_t stride,
                                 size_t capacity, sc_outcome *outcome);
/// Writes every coefficient with `options`' EXIF, XMP and ICC (its quality and subsampling are not
/// used: the photo's own are). Output as sc_encode's.
int sc_transcoder_write(sc_transcoder *transcoder, sc_encode_options options, unsigned char **output, size_t *outputLength,
                        sc_outcome *outcome);

void sc_free(void *pointer);

#endif
