#include "CJPEG.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// MARK: errors

// Bytes before the end marker that count as padding rather than damage (see on_emit_message).
#define SC_PADDING_TOLERANCE 32

// Error manager whose error_exit jumps back to the entry point that called libjpeg, instead of
// calling exit(). Each entry point arms it with its own setjmp and disarms it before returning, so
// the jmp_buf never names a frame that has returned.
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int armed;
    int salvage;            // corrupt-data warnings are counted, not fatal
    int maxScans;
    // Set before jumping when the failure is ours rather than libjpeg's.
    sc_status failure;
    int failureValue;
    char failureText[SC_JPEG_ERROR_LENGTH];
    // What was salvaged.
    int corruptWarnings;
    int truncated;
    int malformedICC;
    // Reading the header: junk between header segments damages no pixel.
    int inHeader;
    // The data ended; whether pixels were missing is known only later (see on_emit_message).
    int sawEOF;
    int missingEnd;
    char firstWarning[SC_JPEG_ERROR_LENGTH];
} error_manager;

static void on_error_exit(j_common_ptr cinfo) {
    error_manager *manager = (error_manager *)cinfo->err;
    if (!manager->armed) {
        // A libjpeg call outside a guarded entry point: a bug here, never a property of the input.
        // Jumping would land in a frame that has returned; stopping is the only safe thing left.
        fputs("CJPEG: libjpeg failed outside a guarded call\n", stderr);
        abort();
    }
    longjmp(manager->jump, 1);
}

/// Fails the current call with our own status and words.
static void fail(j_common_ptr cinfo, sc_status status, int value, const char *text) {
    error_manager *manager = (error_manager *)cinfo->err;
    manager->failure = status;
    manager->failureValue = value;
    snprintf(manager->failureText, sizeof manager->failureText, "%s", text);
    cinfo->err->error_exit(cinfo);
}

static void format_message(j_common_ptr cinfo, char *target, size_t size) {
    char buffer[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, buffer);
    snprintf(target, size, "%s", buffer);
}

// Warnings are where libjpeg reports damaged data: it substitutes grey or zeros and carries on.
// Without salvage the first one that means damaged pixels ends the call.
static void on_emit_message(j_common_ptr cinfo, int level) {
    error_manager *manager = (error_manager *)cinfo->err;
    if (level >= 0) return;  // trace messages
    manager->base.num_warnings++;
    int truncated = 0;
    switch (manager->base.msg_code) {
    case JWRN_JPEG_EOF:
        // The data ran out. When pixels were still wanted, the entropy decoder reports it next
        // (JWRN_HIT_MARKER); a file that lacks only its end marker has every pixel, and
        // sc_decoder_decode checks a progressive one's scans were all there.
        manager->sawEOF = 1;
        return;
    case JWRN_EXTRANEOUS_DATA:
        // A few bytes between the last scan and the end marker are padding some encoders write
        // (UVC webcams especially); every pixel has been decoded by then. More is data the entropy
        // decoder never read: it lost step on damaged data, which libjpeg-turbo's fast Huffman
        // path does not report otherwise.
        if (manager->base.msg_parm.i[1] == (JPEG_EOI & 0xFF) && manager->base.msg_parm.i[0] <= SC_PADDING_TOLERANCE) return;
        if (manager->inHeader) return;  // junk between header segments, before any pixel data
        break;
    case JWRN_HIT_MARKER:
        if (manager->truncated) return;  // the data ran out: already counted as truncation
        if (manager->sawEOF) truncated = 1;  // the marker is the one inserted at the end of the data
        break;
    case JWRN_NOT_SEQUENTIAL:
        // Odd scan parameters in a sequential file: libjpeg ignores them and decodes every pixel.
        return;
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_BOGUS_PROGRESSION:
        break;
    case JWRN_BOGUS_ICC:
        manager->malformedICC = 1;  // the profile is dropped; the pixels are fine
        return;
    default:
        return;  // an unknown JFIF revision or Adobe transform: nothing wrong with the pixels
    }
    if (!manager->salvage) {
        manager->failure = truncated ? SC_TRUNCATED : SC_CORRUPT_DATA;
        manager->failureValue = 0;
        format_message(cinfo, manager->failureText, sizeof manager->failureText);
        cinfo->err->error_exit(cinfo);
    }
    if (truncated) {
        manager->truncated = 1;
    } else if (manager->corruptWarnings++ == 0) {
        format_message(cinfo, manager->firstWarning, sizeof manager->firstWarning);
    }
}

static void install_error_manager(error_manager *manager, j_common_ptr cinfo) {
    cinfo->err = jpeg_std_error(&manager->base);
    manager->base.error_exit = on_error_exit;
    manager->base.emit_message = on_emit_message;
}

/// Fills `outcome` after a jump back to an entry point, and resets the manager for the next call.
static void take_failure(error_manager *manager, j_common_ptr cinfo, sc_outcome *outcome) {
    manager->armed = 0;
    outcome->value = 0;
    if (manager->failure != SC_OK) {
        outcome->status = manager->failure;
        outcome->value = manager->failureValue;
        snprintf(outcome->message, sizeof outcome->message, "%s", manager->failureText);
    } else {
        switch (manager->base.msg_code) {
        case JERR_NO_SOI: outcome->status = SC_NOT_JPEG; break;
        case JERR_INPUT_EMPTY:
        case JERR_INPUT_EOF:
        case JERR_NO_IMAGE: outcome->status = SC_TRUNCATED; break;
        case JERR_BAD_PRECISION:
            outcome->status = SC_BAD_PRECISION;
            outcome->value = manager->base.msg_parm.i[0];
            break;
        case JERR_OUT_OF_MEMORY:
        case JERR_NO_BACKING_STORE: outcome->status = SC_OUT_OF_MEMORY; break;
        case JERR_EMPTY_IMAGE:
            // A height of 0 is no damage: the standard lets a DNL marker after the first scan give it.
            outcome->status = cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->image_height == 0
                && ((j_decompress_ptr)cinfo)->image_width > 0 ? SC_DNL : SC_FAILED;
            break;
        default: outcome->status = SC_FAILED; break;
        }
        format_message(cinfo, outcome->message, sizeof outcome->message);
    }
    manager->failure = SC_OK;
    manager->failureText[0] = 0;
}

static void succeed(sc_outcome *outcome) {
    outcome->status = SC_OK;
    outcome->value = 0;
    outcome->message[0] = 0;
}

// MARK: decoding

struct sc_decoder {
    struct jpeg_decompress_struct cinfo;
    error_manager errors;
    struct jpeg_progress_mgr progress;
    unsigned char *cmykRow;
    int started;            // jpeg_start_decompress has run
    const char *unusable;   // why no further call can succeed, or NULL
};

// Called by libjpeg once per row of blocks while it takes in the scans: a file that keeps adding
// scans is stopped before it costs more (libjpeg-turbo's advice on progressive JPEG abuse).
static void on_progress(j_common_ptr cinfo) {
    error_manager *manager = (error_manager *)cinfo->err;
    if (!cinfo->is_decompressor || manager->maxScans <= 0) return;
    if (((j_decompress_ptr)cinfo)->input_scan_number > manager->maxScans) {
        char text[SC_JPEG_ERROR_LENGTH];
        snprintf(text, sizeof text, "more than %d scans", manager->maxScans);
        fail(cinfo, SC_TOO_MANY_SCANS, manager->maxScans, text);
    }
}

static int usable(const sc_decoder *decoder, sc_outcome *outcome) {
    if (!decoder->unusable) return 1;
    outcome->status = SC_UNUSABLE;
    outcome->value = 0;
    snprintf(outcome->message, sizeof outcome->message, "%s", decoder->unusable);
    return 0;
}

/// After a failed call: stops whatever libjpeg was doing and refuses further calls.
static void fail_call(sc_decoder *decoder, sc_outcome *outcome) {
    take_failure(&decoder->errors, (j_common_ptr)&decoder->cinfo, outcome);
    jpeg_abort_decompress(&decoder->cinfo);
    free(decoder->cmykRow);
    decoder->cmykRow = NULL;
    decoder->unusable = "the decoder stopped at an earlier error";
}

static size_t round_up(size_t value, size_t multiple) {
    return multiple ? (value + multiple - 1) / multiple * multiple : value;
}

// What jdcoefct.c allocates for a multi-scan file: one block array a component, padded to whole
// MCUs. A single-scan file decodes one row of blocks at a time and needs none of it.
static size_t coefficient_bytes(const struct jpeg_decompress_struct *c, int always) {
    if (!always && !c->progressive_mode && c->comps_in_scan >= c->num_components) return 0;
    size_t total = 0;
    for (int i = 0; i < c->num_components; i++) {
        const jpeg_component_info *component = &c->comp_info[i];
        size_t columns = round_up(component->width_in_blocks, (size_t)component->h_samp_factor);
        size_t rows = round_up(component->height_in_blocks, (size_t)component->v_samp_factor);
        total += columns * rows * sizeof(JBLOCK);
    }
    return total;
}

sc_decoder *sc_decoder_create(const unsigned char *data, size_t length, sc_decode_limits limits, sc_outcome *outcome) {
    sc_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) {
        outcome->status = SC_OUT_OF_MEMORY;
        snprintf(outcome->message, sizeof outcome->message, "out of memory");
        return NULL;
    }
    install_error_manager(&decoder->errors, (j_common_ptr)&decoder->cinfo);
    decoder->errors.salvage = limits.salvage;
    decoder->errors.maxScans = limits.maxScans;
    if (setjmp(decoder->errors.jump)) {
        take_failure(&decoder->errors, (j_common_ptr)&decoder->cinfo, outcome);
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    decoder->errors.armed = 1;
    jpeg_create_decompress(&decoder->cinfo);
    decoder->progress.progress_monitor = on_progress;
    decoder->cinfo.progress = &decoder->progress;
    if (limits.maxMemory > 0) decoder->cinfo.mem->max_memory_to_use = limits.maxMemory;
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)length);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    decoder->errors.inHeader = 1;
    jpeg_read_header(&decoder->cinfo, TRUE);
    decoder->errors.inHeader = 0;
    decoder->errors.armed = 0;
    succeed(outcome);
    return decoder;
}

void sc_decoder_destroy(sc_decoder *decoder) {
    if (!decoder) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->cmykRow);
    free(decoder);
}

sc_jpeg_header sc_decoder_header(const sc_decoder *decoder) {
    const struct jpeg_decompress_struct *c = &decoder->cinfo;
    sc_jpeg_header header = {
        .width = (int)c->image_width,
        .height = (int)c->image_height,
        .components = c->num_components,
        .precision = c->data_precision,
        .isCMYK = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK,
        .progressive = c->progressive_mode,
        .arithmetic = c->arith_code,
        .coefficientBytes = coefficient_bytes(c, 0),
        .allCoefficientBytes = coefficient_bytes(c, 1),
    };
    return header;
}

const unsigned char *sc_decoder_exif(const sc_decoder *decoder, size_t *length) {
    for (jpeg_saved_marker_ptr m = decoder->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            *length = m->data_length;
            return m->data;
        }
    }
    *length = 0;
    return NULL;
}

const unsigned char *sc_decoder_xmp(const sc_decoder *decoder, size_t *length) {
    static const char header[] = "http://ns.adobe.com/xap/1.0/";  // with its NUL: 29 bytes
    for (jpeg_saved_marker_ptr m = decoder->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > sizeof header && memcmp(m->data, header, sizeof header) == 0) {
            *length = m->data_length - sizeof header;
            return m->data + sizeof header;
        }
    }
    *length = 0;
    return NULL;
}

unsigned char *sc_decoder_icc(sc_decoder *decoder, size_t *length, int *malformed, sc_outcome *outcome) {
    *length = 0;
    *malformed = 0;
    if (!usable(decoder, outcome)) return NULL;
    JOCTET *profile = NULL;
    unsigned int profileLength = 0;
    if (setjmp(decoder->errors.jump)) {
        fail_call(decoder, outcome);
        return NULL;
    }
    decoder->errors.armed = 1;
    decoder->errors.malformedICC = 0;
    boolean found = jpeg_read_icc_profile(&decoder->cinfo, &profile, &profileLength);
    decoder->errors.armed = 0;
    succeed(outcome);
    *malformed = decoder->errors.malformedICC;
    if (!found) return NULL;
    *length = profileLength;
    return profile;
}

int sc_decoder_scaled_size(sc_decoder *decoder, int eighths, int *width, int *height, sc_outcome *outcome) {
    *width = 0;
    *height = 0;
    if (!usable(decoder, outcome)) return -1;
    if (setjmp(decoder->errors.jump)) {
        fail_call(decoder, outcome);
        return -1;
    }
    decoder->errors.armed = 1;
    decoder->cinfo.scale_num = (unsigned int)eighths;
    decoder->cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&decoder->cinfo);
    decoder->errors.armed = 0;
    *width = (int)decoder->cinfo.output_width;
    *height = (int)decoder->cinfo.output_height;
    succeed(outcome);
    return 0;
}

// Whether every coefficient of a progressive image has been refined to full precision (libjpeg keeps
// the last successive-approximation bit of each, -1 for one never coded).
static int all_coefficients_complete(const struct jpeg_decompress_struct *c) {
    if (!c->coef_bits) return 0;
    for (int component = 0; component < c->num_components; component++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if (c->coef_bits[component][k] != 0) return 0;
        }
    }
    return 1;
}

// Adobe writes CMYK inverted (0 = full ink); without the Adobe marker values are plain.
static void cmyk_row_to_bgrx(const unsigned char *cmyk, unsigned char *bgrx, int width, int inverted) {
    for (int x = 0; x < width; x++) {
        int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        bgrx[0] = (unsigned char)((y * k + 127) / 255);
        bgrx[1] = (unsigned char)((m * k + 127) / 255);
        bgrx[2] = (unsigned char)((c * k + 127) / 255);
        bgrx[3] = 255;
        cmyk += 4;
        bgrx += 4;
    }
}

// The three steps of a decode, for an entry point that has armed the error manager.
static void start_locked(sc_decoder *decoder, int eighths) {
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    int isCMYK = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK;
    c->out_color_space = isCMYK ? JCS_CMYK : JCS_EXT_BGRX;
    c->scale_num = (unsigned int)eighths;
    c->scale_denom = 8;
    jpeg_start_decompress(c);
    if (isCMYK) {
        decoder->cmykRow = malloc((size_t)c->output_width * 4);
        if (!decoder->cmykRow) fail((j_common_ptr)c, SC_OUT_OF_MEMORY, 0, "out of memory for a CMYK row");
    }
    decoder->started = 1;
}

static void read_row_locked(sc_decoder *decoder, unsigned char *row) {
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    if (c->output_scanline >= c->output_height) fail((j_common_ptr)c, SC_FAILED, 0, "read past the last row");
    JSAMPROW target = decoder->cmykRow ? decoder->cmykRow : row;
    jpeg_read_scanlines(c, &target, 1);
    if (decoder->cmykRow) cmyk_row_to_bgrx(decoder->cmykRow, row, (int)c->output_width, c->saw_Adobe_marker);
}

static void finish_locked(sc_decoder *decoder, sc_salvage_report *report) {
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    if (c->output_scanline < c->output_height) fail((j_common_ptr)c, SC_FAILED, 0, "finished before the last row");
    // The end marker was missing: complete only if no scan was cut and, in a progressive file, every
    // coefficient of every component reached full precision (a cut between scans leaves some coarse).
    if (decoder->errors.sawEOF && !decoder->errors.truncated && c->progressive_mode && !all_coefficients_complete(c)) {
        decoder->errors.truncated = 1;
        if (!decoder->errors.salvage) fail((j_common_ptr)c, SC_TRUNCATED, 0, "Premature end of JPEG file");
    }
    decoder->errors.missingEnd = decoder->errors.sawEOF && !decoder->errors.truncated;
    jpeg_finish_decompress(c);
    free(decoder->cmykRow);
    decoder->cmykRow = NULL;
    // finish_decompress released the image: a second decode would need the header again.
    decoder->unusable = "the image has been decoded already";
    report->corruptWarnings = decoder->errors.corruptWarnings;
    report->truncated = decoder->errors.truncated;
    report->missingEnd = decoder->errors.missingEnd;
    snprintf(report->firstWarning, sizeof report->firstWarning, "%s", decoder->errors.firstWarning);
}

int sc_decoder_start(sc_decoder *decoder, int eighths, int *width, int *height, sc_outcome *outcome) {
    *width = 0;
    *height = 0;
    if (!usable(decoder, outcome)) return -1;
    if (setjmp(decoder->errors.jump)) {
        fail_call(decoder, outcome);
        return -1;
    }
    decoder->errors.armed = 1;
    if (decoder->started) fail((j_common_ptr)&decoder->cinfo, SC_FAILED, 0, "the decode has started already");
    start_locked(decoder, eighths);
    decoder->errors.armed = 0;
    *width = (int)decoder->cinfo.output_width;
    *height = (int)decoder->cinfo.output_height;
    succeed(outcome);
    return 0;
}

int sc_decoder_read_rows(sc_decoder *decoder, unsigned char *const *rows, int count, sc_outcome *outcome) {
    if (!usable(decoder, outcome)) return -1;
    if (setjmp(decoder->errors.jump)) {
        fail_call(decoder, outcome);
        return -1;
    }
    decoder->errors.armed = 1;
    if (!decoder->started) fail((j_common_ptr)&decoder->cinfo, SC_FAILED, 0, "rows read before the decode started");
    for (int i = 0; i < count; i++) read_row_locked(decoder, rows[i]);
    decoder->errors.armed = 0;
    succeed(outcome);
    return 0;
}

int sc_decoder_finish(sc_decoder *decoder, sc_salvage_report *report, sc_outcome *outcome) {
    memset(report, 0, sizeof *report);
    if (!usable(decoder, outcome)) return -1;
    if (setjmp(decoder->errors.jump)) {
        fail_call(decoder, outcome);
        return -1;
    }
    decoder->errors.armed = 1;
    if (!decoder->started) fail((j_common_ptr)&decoder->cinfo, SC_FAILED, 0, "finished before the decode started");
    finish_locked(decoder, report);
    decoder->errors.armed = 0;
    succeed(outcome);
    return 0;
}

int sc_decoder_decode(sc_decoder *decoder, int eighths, unsigned char *pixels, size_t stride, size_t capacity,
                      sc_salvage_report *report, sc_outcome *outcome) {
    memset(report, 0, sizeof *report);
    if (!usable(decoder, outcome)) return -1;
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    if (setjmp(decoder->errors.jump)) {
        fail_call(decoder, outcome);
        return -1;
    }
    decoder->errors.armed = 1;
    if (decoder->started) fail((j_common_ptr)c, SC_FAILED, 0, "the decode has started already");
    // The caller sized the pixels from sc_decoder_scaled_size; check rather than trust it, before
    // libjpeg takes in the scans.
    c->scale_num = (unsigned int)eighths;
    c->scale_denom = 8;
    jpeg_calc_output_dimensions(c);
    if (stride == 0 || (size_t)c->output_width * 4 > stride || (size_t)c->output_height > capacity / stride) {
        fail((j_common_ptr)c, SC_FAILED, 0, "the pixel buffer is smaller than the decoded image");
    }
    start_locked(decoder, eighths);
    while (c->output_scanline < c->output_height) read_row_locked(decoder, pixels + (size_t)c->output_scanline * stride);
    finish_locked(decoder, report);
    decoder->errors.armed = 0;
    succeed(outcome);
    return 0;
}

// MARK: encoding

// A destination that grows one buffer with realloc. The buffer belongs to the encoder state, not to
// libjpeg: it is freed in exactly one place (sc_encode's cleanup) on success and failure alike.
typedef struct {
    struct jpeg_destination_mgr base;
    unsigned char *buffer;
    size_t capacity;
    size_t initialCapacity;
} growing_destination;

static void destination_init(j_compress_ptr cinfo) {
    growing_destination *destination = (growing_destination *)cinfo->dest;
    destination->buffer = malloc(destination->initialCapacity);
    if (!destination->buffer) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    destination->capacity = destination->initialCapacity;
    destination->base.next_output_byte = destination->buffer;
    destination->base.free_in_buffer = destination->capacity;
}

// libjpeg calls this when the buffer is full.
static boolean destination_grow(j_compress_ptr cinfo) {
    growing_destination *destination = (growing_destination *)cinfo->dest;
    size_t used = destination->capacity;
    if (destination->capacity > SIZE_MAX / 2) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    size_t capacity = destination->capacity * 2;
    unsigned char *grown = realloc(destination->buffer, capacity);
    // On failure the old buffer is still valid and still ours; the cleanup frees it.
    if (!grown) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    destination->buffer = grown;
    destination->capacity = capacity;
    destination->base.next_output_byte = grown + used;
    destination->base.free_in_buffer = capacity - used;
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    (void)cinfo;  // the length is capacity - free_in_buffer; the buffer stays for the caller
}

typedef struct {
    struct jpeg_compress_struct cinfo;
    error_manager errors;
    growing_destination destination;
} encode_state;

// The libjpeg calls, under one setjmp. `state` lives in the caller's frame, so what the calls
// changed in it is still there after a jump.
static int encode_guarded(encode_state *state, const unsigned char *pixels, int width, int height, size_t stride,
                          sc_encode_options options, sc_outcome *outcome) {
    struct jpeg_compress_struct *cinfo = &state->cinfo;
    if (setjmp(state->errors.jump)) {
        take_failure(&state->errors, (j_common_ptr)cinfo, outcome);
        return -1;
    }
    state->errors.armed = 1;
    jpeg_create_compress(cinfo);
    // A first guess that holds most photos at quality 90 without growing, plus the metadata.
    size_t guess = (size_t)width * (size_t)height / 4 + options.exifLength + options.xmpLength + options.iccLength + 4096;
    state->destination.initialCapacity = guess < 16384 ? 16384 : guess > (64u << 20) ? (64u << 20) : guess;
    state->destination.base.init_destination = destination_init;
    state->destination.base.empty_output_buffer = destination_grow;
    state->destination.base.term_destination = destination_term;
    cinfo->dest = &state->destination.base;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, options.quality, TRUE);
    cinfo->optimize_coding = options.optimize ? TRUE : FALSE;
    int h = options.subsampling == 444 ? 1 : 2;
    int v = options.subsampling == 420 ? 2 : 1;
    cinfo->comp_info[0].h_samp_factor = h;
    cinfo->comp_info[0].v_samp_factor = v;
    if (options.progressive) jpeg_simple_progression(cinfo);
    // EXIF readers expect APP1 right after SOI; a JFIF APP0 in front of it is redundant.
    if (options.exif) cinfo->write_JFIF_header = FALSE;
    jpeg_start_compress(cinfo, TRUE);
    if (options.exif) jpeg_write_marker(cinfo, JPEG_APP0 + 1, options.exif, (unsigned int)options.exifLength);
    // XMP readers look for it in an APP1 of its own, after the EXIF one.
    if (options.xmp) jpeg_write_marker(cinfo, JPEG_APP0 + 1, options.xmp, (unsigned int)options.xmpLength);
    if (options.icc && options.iccLength > 0) {
        // jpeg_write_icc_profile numbers its markers in one byte: at most 255 of 65519 bytes.
        if (options.iccLength > (size_t)255 * 65519) fail((j_common_ptr)cinfo, SC_FAILED, 0, "the ICC profile is larger than 16 MB");
        jpeg_write_icc_profile(cinfo, options.icc, (unsigned int)options.iccLength);
    }
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
        if (options.failAfterRows > 0 && cinfo->next_scanline == (JDIMENSION)options.failAfterRows) {
            fail((j_common_ptr)cinfo, SC_FAILED, 0, "failure injected by a test");
        }
    }
    jpeg_finish_compress(cinfo);
    state->errors.armed = 0;
    return 0;
}

int sc_encode(const unsigned char *pixels, int width, int height, size_t stride, sc_encode_options options,
              unsigned char **output, size_t *outputLength, sc_outcome *outcome) {
    *output = NULL;
    *outputLength = 0;
    encode_state *state = calloc(1, sizeof *state);
    if (!state) {
        outcome->status = SC_OUT_OF_MEMORY;
        snprintf(outcome->message, sizeof outcome->message, "out of memory");
        return -1;
    }
    install_error_manager(&state->errors, (j_common_ptr)&state->cinfo);
    int status = encode_guarded(state, pixels, width, height, stride, options, outcome);
    // The one cleanup path. jpeg_destroy_compress is safe on a struct jpeg_create_compress never filled.
    jpeg_destroy_compress(&state->cinfo);
    if (status == 0) {
        *output = state->destination.buffer;
        *outputLength = state->destination.capacity - state->destination.base.free_in_buffer;
        succeed(outcome);
    } else {
        free(state->destination.buffer);
    }
    free(state);
    return status;
}

void sc_free(void *pointer) { free(pointer); }

// MARK: stamping in place

// One error manager serves every libjpeg struct of a transcoder, so each entry point's setjmp
// catches a failure in any of them; the struct an entry point creates for itself is destroyed by
// that entry point on success and failure alike.
struct sc_transcoder {
    struct jpeg_decompress_struct source;
    error_manager errors;
    struct jpeg_progress_mgr progress;
    jvirt_barray_ptr *coefficients;
    const unsigned char *data;
    size_t length;
    long maxMemory;
    const char *unusable;
};

static int transcoder_usable(const sc_transcoder *t, sc_outcome *outcome) {
    if (!t->unusable) return 1;
    outcome->status = SC_UNUSABLE;
    outcome->value = 0;
    snprintf(outcome->message, sizeof outcome->message, "%s", t->unusable);
    return 0;
}

// A libjpeg struct of the transcoder's own: same error manager, same memory limit.
static void adopt(sc_transcoder *t, j_common_ptr cinfo) {
    cinfo->err = &t->errors.base;
}

sc_transcoder *sc_transcoder_create(const unsigned char *data, size_t length, sc_decode_limits limits, sc_outcome *outcome) {
    sc_transcoder *t = calloc(1, sizeof *t);
    if (!t) {
        outcome->status = SC_OUT_OF_MEMORY;
        snprintf(outcome->message, sizeof outcome->message, "out of memory");
        return NULL;
    }
    install_error_manager(&t->errors, (j_common_ptr)&t->source);
    t->errors.maxScans = limits.maxScans;  // never salvage: a damaged photo takes the decoding path
    t->data = data;
    t->length = length;
    t->maxMemory = limits.maxMemory;
    if (setjmp(t->errors.jump)) {
        take_failure(&t->errors, (j_common_ptr)&t->source, outcome);
        jpeg_destroy_decompress(&t->source);
        free(t);
        return NULL;
    }
    t->errors.armed = 1;
    jpeg_create_decompress(&t->source);
    t->progress.progress_monitor = on_progress;
    t->source.progress = &t->progress;
    if (limits.maxMemory > 0) t->source.mem->max_memory_to_use = limits.maxMemory;
    jpeg_mem_src(&t->source, data, (unsigned long)length);
    t->errors.inHeader = 1;
    jpeg_read_header(&t->source, TRUE);
    t->errors.inHeader = 0;
    if (t->source.data_precision != 8) ERREXIT1(&t->source, JERR_BAD_PRECISION, t->source.data_precision);
    if (t->source.arith_code) fail((j_common_ptr)&t->source, SC_NOT_IN_PLACE, 0, "arithmetic-coded");
    if (t->source.jpeg_color_space == JCS_CMYK || t->source.jpeg_color_space == JCS_YCCK) {
        fail((j_common_ptr)&t->source, SC_NOT_IN_PLACE, 0, "CMYK (the stamp is drawn in place on YCbCr and greyscale photos)");
    }
    if (t->source.jpeg_color_space != JCS_YCbCr && t->source.jpeg_color_space != JCS_GRAYSCALE) {
        fail((j_common_ptr)&t->source, SC_NOT_IN_PLACE, 0, "neither YCbCr nor greyscale (RGB or another colour space)");
    }
    t->coefficients = jpeg_read_coefficients(&t->source);
    if (t->errors.sawEOF && t->source.progressive_mode && !all_coefficients_complete(&t->source)) {
        fail((j_common_ptr)&t->source, SC_TRUNCATED, 0, "Premature end of JPEG file");
    }
    // The stamped rows are compressed with these tables, and libjpeg's compressor divides by them.
    for (int ci = 0; ci < t->source.num_components; ci++) {
        const JQUANT_TBL *table = t->source.comp_info[ci].quant_table;
        for (int k = 0; table && k < DCTSIZE2; k++) {
            if (table->quantval[k] == 0) fail((j_common_ptr)&t->source, SC_FAILED, 0, "a quantisation table holds 0");
        }
        if (!table) fail((j_common_ptr)&t->source, SC_FAILED, 0, "a component has no quantisation table");
    }
    t->errors.armed = 0;
    succeed(outcome);
    return t;
}

void sc_transcoder_destroy(sc_transcoder *t) {
    if (!t) return;
    jpeg_destroy_decompress(&t->source);
    free(t);
}

sc_transcoder_info sc_transcoder_get_info(const sc_transcoder *t) {
    const struct jpeg_decompress_struct *c = &t->source;
    sc_transcoder_info info = {
        .width = (int)c->image_width,
        .height = (int)c->image_height,
        .mcuHeight = c->max_v_samp_factor * DCTSIZE,
        .mcuWidth = c->max_h_samp_factor * DCTSIZE,
        .components = c->num_components,
        .progressive = c->progressive_mode,
        .restartInterval = (int)c->restart_interval,
        .coefficientBytes = coefficient_bytes(c, 1),
    };
    return info;
}

// Checks a region: whole MCU rows and columns (or up to the image's edge), inside the image, the
// pixels big enough.
static void check_region(sc_transcoder *t, sc_region r, size_t stride, size_t capacity) {
    j_common_ptr c = (j_common_ptr)&t->source;
    int mcuHeight = t->source.max_v_samp_factor * DCTSIZE, mcuWidth = t->source.max_h_samp_factor * DCTSIZE;
    int height = (int)t->source.image_height, width = (int)t->source.image_width;
    if (r.top < 0 || r.height <= 0 || r.top % mcuHeight != 0 || r.top >= height || r.height > height - r.top
        || (r.height % mcuHeight != 0 && r.top + r.height != height)
        || r.left < 0 || r.width <= 0 || r.left % mcuWidth != 0 || r.left >= width || r.width > width - r.left
        || (r.width % mcuWidth != 0 && r.left + r.width != width)) {
        fail(c, SC_FAILED, 0, "the region is not whole MCUs of the image");
    }
    if (stride < (size_t)r.width * 4 || (size_t)r.height > capacity / stride) {
        fail(c, SC_FAILED, 0, "the pixel buffer is smaller than the region");
    }
}

// The coefficients of the MCUs in rows `first.top` up to `last.top` and columns `first.left` up
// to `last.left` (MCU indices, exclusive ends) written as a JPEG of their own into `buffer`: a
// region decodes from its blocks alone, without walking the photo's compressed data again.
static void write_blocks(sc_transcoder *t, struct jpeg_compress_struct *w, sc_region first, sc_region last,
                         unsigned char **buffer, unsigned long *length) {
    struct jpeg_decompress_struct *c = &t->source;
    int mcuHeight = c->max_v_samp_factor * DCTSIZE, mcuWidth = c->max_h_samp_factor * DCTSIZE;
    int bottom = last.top * mcuHeight < (int)c->image_height ? last.top * mcuHeight : (int)c->image_height;
    int right = last.left * mcuWidth < (int)c->image_width ? last.left * mcuWidth : (int)c->image_width;
    adopt(t, (j_common_ptr)w);
    jpeg_create_compress(w);
    if (t->maxMemory > 0) w->mem->max_memory_to_use = t->maxMemory;
    jpeg_copy_critical_parameters(c, w);
    w->image_width = (JDIMENSION)(right - first.left * mcuWidth);
    w->image_height = (JDIMENSION)(bottom - first.top * mcuHeight);
    w->write_JFIF_header = FALSE;
    w->write_Adobe_marker = FALSE;
    jvirt_barray_ptr arrays[MAX_COMPONENTS];
    for (int ci = 0; ci < c->num_components; ci++) {
        const jpeg_component_info *component = &c->comp_info[ci];
        arrays[ci] = (*w->mem->request_virt_barray)((j_common_ptr)w, JPOOL_IMAGE, FALSE,
                                                    (JDIMENSION)((last.left - first.left) * component->h_samp_factor),
                                                    (JDIMENSION)((last.top - first.top) * component->v_samp_factor),
                                                    (JDIMENSION)component->v_samp_factor);
    }
    (*w->mem->realize_virt_arrays)((j_common_ptr)w);
    for (int ci = 0; ci < c->num_components; ci++) {
        const jpeg_component_info *component = &c->comp_info[ci];
        JDIMENSION columns = (JDIMENSION)((last.left - first.left) * component->h_samp_factor);
        JDIMENSION rows = (JDIMENSION)((last.top - first.top) * component->v_samp_factor);
        JDIMENSION top = (JDIMENSION)(first.top * component->v_samp_factor);
        JDIMENSION left = (JDIMENSION)(first.left * component->h_samp_factor);
        for (JDIMENSION row = 0; row < rows; row++) {
            JBLOCKARRAY from = (*c->mem->access_virt_barray)((j_common_ptr)c, t->coefficients[ci], top + row, 1, FALSE);
            JBLOCKARRAY into = (*w->mem->access_virt_barray)((j_common_ptr)w, arrays[ci], row, 1, TRUE);
            memcpy(into[0], from[0] + left, (size_t)columns * sizeof(JBLOCK));
        }
    }
    jpeg_mem_dest(w, buffer, length);
    jpeg_write_coefficients(w, arrays);
    jpeg_finish_compress(w);
}

int sc_transcoder_decode_region(sc_transcoder *t, sc_region region, unsigned char *pixels, size_t stride, size_t capacity,
                                sc_outcome *outcome) {
    if (!transcoder_usable(t, outcome)) return -1;
    struct {
        struct jpeg_compress_struct writer;
        struct jpeg_decompress_struct reader;
        unsigned char *buffer;
        unsigned long length;
        unsigned char *row;
    } *s = calloc(1, sizeof *s);
    if (!s) {
        outcome->status = SC_OUT_OF_MEMORY;
        snprintf(outcome->message, sizeof outcome->message, "out of memory");
        return -1;
    }
    if (setjmp(t->errors.jump)) {
        take_failure(&t->errors, (j_common_ptr)&t->source, outcome);
        jpeg_destroy_compress(&s->writer);
        jpeg_destroy_decompress(&s->reader);
        free(s->buffer);
        free(s->row);
        free(s);
        return -1;
    }
    t->errors.armed = 1;
    check_region(t, region, stride, capacity);
    // With an MCU of context on every side: chroma is upsampled from its neighbours, so the
    // region's edge pixels come out as the whole photo's decode shows them.
    int mcuHeight = t->source.max_v_samp_factor * DCTSIZE, mcuWidth = t->source.max_h_samp_factor * DCTSIZE;
    int mcuRows = ((int)t->source.image_height + mcuHeight - 1) / mcuHeight;
    int mcuColumns = ((int)t->source.image_width + mcuWidth - 1) / mcuWidth;
    sc_region first = { .left = region.left / mcuWidth, .top = region.top / mcuHeight };
    sc_region last = { .left = (region.left + region.width + mcuWidth - 1) / mcuWidth + 1,
                       .top = (region.top + region.height + mcuHeight - 1) / mcuHeight + 1 };
    if (first.left > 0) first.left--;
    if (first.top > 0) first.top--;
    if (last.left > mcuColumns) last.left = mcuColumns;
    if (last.top > mcuRows) last.top = mcuRows;
    write_blocks(t, &s->writer, first, last, &s->buffer, &s->length);
    jpeg_destroy_compress(&s->writer);
    struct jpeg_decompress_struct *d = &s->reader;
    adopt(t, (j_common_ptr)d);
    jpeg_create_decompress(d);
    if (t->maxMemory > 0) d->mem->max_memory_to_use = t->maxMemory;
    jpeg_mem_src(d, s->buffer, s->length);
    jpeg_read_header(d, TRUE);
    d->out_color_space = JCS_EXT_BGRX;
    jpeg_start_decompress(d);
    s->row = malloc((size_t)d->output_width * 4);
    if (!s->row) ERREXIT1(d, JERR_OUT_OF_MEMORY, 3);
    size_t skipped = (size_t)(region.left - first.left * mcuWidth) * 4;
    for (int y = first.top * mcuHeight; y < region.top + region.height; y++) {
        jpeg_read_scanlines(d, &s->row, 1);
        if (y >= region.top) memcpy(pixels + (size_t)(y - region.top) * stride, s->row + skipped, (size_t)region.width * 4);
    }
    jpeg_abort_decompress(d);
    jpeg_destroy_decompress(d);
    free(s->buffer);
    free(s->row);
    free(s);
    t->errors.armed = 0;
    succeed(outcome);
    return 0;
}

// The region compressed with the photo's own tables and sampling, and read back as coefficients
// into `reader`; returns its block arrays.
static jvirt_barray_ptr *strip_coefficients(sc_transcoder *t, struct jpeg_compress_struct *w, struct jpeg_decompress_struct *r,
                                            sc_region region, const unsigned char *pixels, size_t stride,
                                            unsigned char **buffer, unsigned long *length) {
    adopt(t, (j_common_ptr)w);
    jpeg_create_compress(w);
    jpeg_copy_critical_parameters(&t->source, w);
    w->image_width = (JDIMENSION)region.width;
    w->image_height = (JDIMENSION)region.height;
    w->in_color_space = JCS_EXT_BGRX;
    w->input_components = 4;
    w->write_JFIF_header = FALSE;
    w->write_Adobe_marker = FALSE;
    jpeg_mem_dest(w, buffer, length);
    jpeg_start_compress(w, TRUE);
    while (w->next_scanline < w->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)w->next_scanline * stride);
        jpeg_write_scanlines(w, &row, 1);
    }
    jpeg_finish_compress(w);
    adopt(t, (j_common_ptr)r);
    jpeg_create_decompress(r);
    jpeg_mem_src(r, *buffer, *length);
    jpeg_read_header(r, TRUE);
    return jpeg_read_coefficients(r);
}

int sc_transcoder_replace_region(sc_transcoder *t, sc_region region, const unsigned char *pixels, size_t stride, size_t capacity,
                                 sc_outcome *outcome) {
    if (!transcoder_usable(t, outcome)) return -1;
    struct {
        struct jpeg_compress_struct writer;
        struct jpeg_decompress_struct reader;
        unsigned char *buffer;
        unsigned long length;
    } *s = calloc(1, sizeof *s);
    if (!s) {
        outcome->status = SC_OUT_OF_MEMORY;
        snprintf(outcome->message, sizeof outcome->message, "out of memory");
        return -1;
    }
    if (setjmp(t->errors.jump)) {
        take_failure(&t->errors, (j_common_ptr)&t->source, outcome);
        jpeg_destroy_compress(&s->writer);
        jpeg_destroy_decompress(&s->reader);
        free(s->buffer);
        free(s);
        // Some blocks may have been replaced already: the photo is no longer the original.
        t->unusable = "the stamp could not be put into the photo";
        return -1;
    }
    t->errors.armed = 1;
    check_region(t, region, stride, capacity);
    jvirt_barray_ptr *strip = strip_coefficients(t, &s->writer, &s->reader, region, pixels, stride, &s->buffer, &s->length);
    int mcuRow = region.top / (t->source.max_v_samp_factor * DCTSIZE);
    int mcuColumn = region.left / (t->source.max_h_samp_factor * DCTSIZE);
    for (int ci = 0; ci < t->source.num_components; ci++) {
        jpeg_component_info *into = &t->source.comp_info[ci];
        jpeg_component_info *from = &s->reader.comp_info[ci];
        JDIMENSION columns = (JDIMENSION)round_up(from->width_in_blocks, (size_t)from->h_samp_factor);
        JDIMENSION rows = (JDIMENSION)round_up(from->height_in_blocks, (size_t)from->v_samp_factor);
        JDIMENSION top = (JDIMENSION)(mcuRow * into->v_samp_factor);
        JDIMENSION left = (JDIMENSION)(mcuColumn * into->h_samp_factor);
        JDIMENSION rowsAvailable = (JDIMENSION)round_up(into->height_in_blocks, (size_t)into->v_samp_factor) - top;
        JDIMENSION columnsAvailable = (JDIMENSION)round_up(into->width_in_blocks, (size_t)into->h_samp_factor) - left;
        if (rows > rowsAvailable) rows = rowsAvailable;
        if (columns > columnsAvailable) columns = columnsAvailable;
        for (JDIMENSION row = 0; row < rows; row++) {
            JBLOCKARRAY source = (*s->reader.mem->access_virt_barray)((j_common_ptr)&s->reader, strip[ci], row, 1, FALSE);
            JBLOCKARRAY target = (*t->source.mem->access_virt_barray)((j_common_ptr)&t->source, t->coefficients[ci], top + row, 1, TRUE);
            memcpy(target[0] + left, source[0], (size_t)columns * sizeof(JBLOCK));
        }
    }
    jpeg_finish_decompress(&s->reader);
    jpeg_destroy_decompress(&s->reader);
    jpeg_destroy_compress(&s->writer);
    free(s->buffer);
    free(s);
    t->errors.armed = 0;
    succeed(outcome);
    return 0;
}

int sc_transcoder_write(sc_transcoder *t, sc_encode_options options, unsigned char **output, size_t *outputLength,
                        sc_outcome *outcome) {
    *output = NULL;
    *outputLength = 0;
    if (!transcoder_usable(t, outcome)) return -1;
    encode_state *state = calloc(1, sizeof *state);
    if (!state) {
        outcome->status = SC_OUT_OF_MEMORY;
        snprintf(outcome->message, sizeof outcome->message, "out of memory");
        return -1;
    }
    struct jpeg_compress_struct *w = &state->cinfo;
    if (setjmp(t->errors.jump)) {
        take_failure(&t->errors, (j_common_ptr)&t->source, outcome);
        jpeg_destroy_compress(w);
        free(state->destination.buffer);
        free(state);
        return -1;
    }
    t->errors.armed = 1;
    adopt(t, (j_common_ptr)w);
    jpeg_create_compress(w);
    size_t guess = t->length + options.exifLength + options.xmpLength + options.iccLength + 4096;
    state->destination.initialCapacity = guess;
    state->destination.base.init_destination = destination_init;
    state->destination.base.empty_output_buffer = destination_grow;
    state->destination.base.term_destination = destination_term;
    w->dest = &state->destination.base;
    jpeg_copy_critical_parameters(&t->source, w);
    // The same kind of file as the photo: progressive stays progressive, restart markers stay.
    if (t->source.progressive_mode) jpeg_simple_progression(w);
    else w->optimize_coding = options.optimize ? TRUE : FALSE;
    w->restart_interval = t->source.restart_interval;
    if (options.exif) w->write_JFIF_header = FALSE;
    jpeg_write_coefficients(w, t->coefficients);
    if (options.exif) jpeg_write_marker(w, JPEG_APP0 + 1, options.exif, (unsigned int)options.exifLength);
    if (options.xmp) jpeg_write_marker(w, JPEG_APP0 + 1, options.xmp, (unsigned int)options.xmpLength);
    if (options.icc && options.iccLength > 0) {
        if (options.iccLength > (size_t)255 * 65519) fail((j_common_ptr)w, SC_FAILED, 0, "the ICC profile is larger than 16 MB");
        jpeg_write_icc_profile(w, options.icc, (unsigned int)options.iccLength);
    }
    jpeg_finish_compress(w);
    jpeg_destroy_compress(w);
    *output = state->destination.buffer;
    *outputLength = state->destination.capacity - state->destination.base.free_in_buffer;
    free(state);
    t->errors.armed = 0;
    succeed(outcome);
    return 0;
}
