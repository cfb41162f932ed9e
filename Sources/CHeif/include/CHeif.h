// libheif, opened when a HEIC is first read rather than at start: it is heavy (it pulls in the
// codecs libde265, x265, aom, dav1d …), and a machine without it still reads JPEG and PNG.
// The table holds each function stampcam calls, typed from libheif's own header.
#ifndef CHEIF_H
#define CHEIF_H

#include <libheif/heif.h>

#define SC_HEIF_FUNCTIONS(F) \
    F(heif_context_alloc) F(heif_context_free) F(heif_context_read_from_memory_without_copy) \
    F(heif_context_get_primary_image_handle) F(heif_image_handle_release) \
    F(heif_image_handle_get_width) F(heif_image_handle_get_height) \
    F(heif_image_handle_get_list_of_metadata_block_IDs) F(heif_image_handle_get_metadata_size) \
    F(heif_image_handle_get_metadata) F(heif_image_handle_get_raw_color_profile_size) \
    F(heif_image_handle_get_raw_color_profile) F(heif_decode_image) F(heif_image_release) \
    F(heif_image_get_width) F(heif_image_get_height) F(heif_image_get_plane_readonly) \
    F(heif_image_get_plane) F(heif_image_create) F(heif_image_add_plane) \
    F(heif_context_get_encoder_for_format) F(heif_encoder_release) F(heif_encoder_set_lossy_quality) \
    F(heif_encoding_options_alloc) F(heif_encoding_options_free) F(heif_context_encode_image) \
    F(heif_context_add_exif_metadata) F(heif_context_write)

struct sc_heif {
#define SC_HEIF_POINTER(name) __typeof__(name) * _Nonnull name;
    SC_HEIF_FUNCTIONS(SC_HEIF_POINTER)
#undef SC_HEIF_POINTER
};

/// libheif's functions, loaded once (later calls return the same table); NULL when libheif cannot
/// be opened or lacks one of them, with dlerror's words in `reason`.
const struct sc_heif * _Nullable sc_heif_load(const char * _Nullable * _Nonnull reason);

#endif
