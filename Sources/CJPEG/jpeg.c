#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// Error manager whose error_exit jumps back to the entry point instead of calling exit().
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int sawEOF;
} error_manager;

static void on_error_exit(j_common_ptr cinfo) {
    error_manager *manager = (error_manager *)cinfo->err;
    longjmp(manager->jump, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    error_manager *manager = (error_manager *)cinfo->err;
    if (level < 0) {
        manager->base.num_warnings++;
        if (manager->base.msg_code == JWRN_JPEG_EOF) manager->sawEOF = 1;
    }
}

static void copy_message(j_common_ptr cinfo, char error[SC_JPEG_ERROR_LENGTH]) {
    char buffer[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, buffer);
    snprintf(error, SC_JPEG_ERROR_LENGTH, "%s", buffer);
}

static void install_error_manager(error_manager *manager, j_common_ptr cinfo) {
    cinfo->err = jpeg_std_error(&manager->base);
    manager->base.error_exit = on_error_exit;
    manager->base.emit_message = on_emit_message;
    manager->sawEOF = 0;
}

struct sc_decoder {
    struct jpeg_decompress_struct cinfo;
    error_manager errors;
};

sc_decoder *sc_decoder_create(const unsigned char *data, size_t length, char error[SC_JPEG_ERROR_LENGTH]) {
    sc_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) { snprintf(error, SC_JPEG_ERROR_LENGTH, "out of memory"); return NULL; }
    install_error_manager(&decoder->errors, (j_common_ptr)&decoder->cinfo);
    if (setjmp(decoder->errors.jump)) {
        copy_message((j_common_ptr)&decoder->cinfo, error);
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)length);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&decoder->cinfo, TRUE);
    return decoder;
}

void sc_decoder_destroy(sc_decoder *decoder) {
    if (!decoder) return;
    jpeg_destroy_decompress(&decoder->cinfo);
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

unsigned char *sc_decoder_icc(sc_decoder *decoder, size_t *length) {
    JOCTET *profile = NULL;
    unsigned int profileLength = 0;
    *length = 0;
    if (setjmp(decoder->errors.jump)) return NULL;  // a malformed profile is dropped, not fatal
    if (!jpeg_read_icc_profile(&decoder->cinfo, &profile, &profileLength)) return NULL;
    *length = profileLength;
    return profile;
}

void sc_decoder_scaled_size(sc_decoder *decoder, int denominator, int *width, int *height) {
    decoder->cinfo.scale_num = 1;
    decoder->cinfo.scale_denom = (unsigned int)denominator;
    jpeg_calc_output_dimensions(&decoder->cinfo);
    *width = (int)decoder->cinfo.output_width;
    *height = (int)decoder->cinfo.output_height;
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

int sc_decoder_decode(sc_decoder *decoder, int denominator, unsigned char *pixels, size_t stride,
                      int *truncated, char error[SC_JPEG_ERROR_LENGTH]) {
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    unsigned char *volatile cmykRow = NULL;
    if (setjmp(decoder->errors.jump)) {
        copy_message((j_common_ptr)c, error);
        free(cmykRow);
        jpeg_abort_decompress(c);
        return -1;
    }
    int isCMYK = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK;
    c->out_color_space = isCMYK ? JCS_CMYK : JCS_EXT_BGRX;
    c->scale_num = 1;
    c->scale_denom = (unsigned int)denominator;
    jpeg_start_decompress(c);
    if (isCMYK) {
        cmykRow = malloc((size_t)c->output_width * 4);
        if (!cmykRow) { snprintf(error, SC_JPEG_ERROR_LENGTH, "out of memory"); jpeg_abort_decompress(c); return -1; }
    }
    while (c->output_scanline < c->output_height) {
        unsigned char *row = pixels + (size_t)c->output_scanline * stride;
        JSAMPROW target = isCMYK ? cmykRow : row;
        jpeg_read_scanlines(c, &target, 1);
        if (isCMYK) cmyk_row_to_bgrx(cmykRow, row, (int)c->output_width, c->saw_Adobe_marker);
    }
    jpeg_finish_decompress(c);
    free(cmykRow);
    *truncated = decoder->errors.sawEOF;
    return 0;
}

int sc_encode(const unsigned char *pixels, int width, int height, size_t stride, sc_encode_options options,
              unsigned char **output, size_t *outputLength, char error[SC_JPEG_ERROR_LENGTH]) {
    struct jpeg_compress_struct cinfo;
    error_manager errors;
    unsigned char *buffer = NULL;
    unsigned long bufferLength = 0;
    install_error_manager(&errors, (j_common_ptr)&cinfo);
    if (setjmp(errors.jump)) {
        copy_message((j_common_ptr)&cinfo, error);
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &bufferLength);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, options.quality, TRUE);
    cinfo.optimize_coding = options.optimize ? TRUE : FALSE;
    int h = options.subsampling == 444 ? 1 : 2;
    int v = options.subsampling == 420 ? 2 : 1;
    cinfo.comp_info[0].h_samp_factor = h;
    cinfo.comp_info[0].v_samp_factor = v;
    // EXIF readers expect APP1 right after SOI; a JFIF APP0 in front of it is redundant.
    if (options.exif) cinfo.write_JFIF_header = FALSE;
    jpeg_start_compress(&cinfo, TRUE);
    if (options.exif) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, options.exif, (unsigned int)options.exifLength);
    if (options.icc) jpeg_write_icc_profile(&cinfo, options.icc, (unsigned int)options.iccLength);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *output = buffer;
    *outputLength = bufferLength;
    return 0;
}

void sc_free(void *pointer) { free(pointer); }
