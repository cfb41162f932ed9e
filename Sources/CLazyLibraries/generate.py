#!/usr/bin/env python3
"""Writes the lazy wrappers in this folder: python3 generate.py (needs gcc and the -dev packages).

stampcam calls the functions listed below under their own names; the executable does not link
their libraries. Each wrapper opens its library with dlopen on the first call and jumps to the real
function. All of a library's functions are looked up as it is opened, so no later first call waits
for the loader's lock (or glibc's, held by any dlopen) while another thread opens a library.
A command that never draws (`--version`, `log`, `export`) never maps Cairo, Pango, fontconfig,
libmicrohttpd with GnuTLS, libqrencode, libgps, libxml2 or libcrypto (and their ~40 dependencies),
one that reads no photo never maps libexif, and one without a catalog never maps SQLite.
Add a name here when Swift code starts calling a new function of these libraries; the test
"libraries stampcam does not need at start are not loaded" fails until you do.
"""
import os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))

# file -> (headers, pkg-config names, [(soname, [functions])])
GROUPS = {
    "drawing": (["cairo.h", "cairo-pdf.h", "pango/pangocairo.h", "pango/pangofc-fontmap.h", "fontconfig/fontconfig.h"],
                ["cairo", "pangocairo", "pangoft2", "fontconfig"], [
        ("libcairo.so.2", """cairo_arc cairo_clip cairo_close_path cairo_create cairo_destroy cairo_fill
            cairo_font_options_create cairo_font_options_destroy cairo_font_options_set_antialias
            cairo_font_options_set_hint_metrics cairo_font_options_set_hint_style cairo_get_source cairo_get_target
            cairo_image_surface_create cairo_image_surface_create_for_data cairo_image_surface_create_from_png
            cairo_image_surface_create_from_png_stream cairo_image_surface_get_data cairo_image_surface_get_height
            cairo_image_surface_get_stride cairo_image_surface_get_width cairo_line_to cairo_move_to cairo_new_sub_path
            cairo_paint cairo_pattern_add_color_stop_rgb cairo_pattern_create_linear cairo_pattern_destroy
            cairo_pattern_set_extend cairo_pattern_set_filter cairo_pdf_surface_create_for_stream
            cairo_pdf_surface_set_metadata cairo_rectangle cairo_restore cairo_save cairo_scale cairo_set_line_join
            cairo_set_line_width cairo_set_operator cairo_set_source cairo_set_source_rgb cairo_set_source_rgba
            cairo_set_source_surface cairo_show_page cairo_status cairo_status_to_string cairo_stroke
            cairo_surface_destroy cairo_surface_finish cairo_surface_flush cairo_surface_get_type
            cairo_surface_mark_dirty cairo_surface_set_mime_data cairo_surface_status cairo_surface_write_to_png
            cairo_translate"""),
        ("libpango-1.0.so.0", """pango_attr_iterator_destroy pango_attr_iterator_get_font pango_attr_iterator_next
            pango_attr_list_copy pango_attr_list_filter pango_attr_list_get_attributes pango_attr_list_get_iterator
            pango_attr_list_ref pango_attr_list_unref pango_attribute_destroy pango_font_description_free
            pango_font_description_get_set_fields pango_font_description_get_size pango_font_description_new
            pango_font_description_set_absolute_size pango_font_description_set_family pango_font_description_set_weight
            pango_font_description_to_string pango_font_map_create_context pango_layout_get_attributes
            pango_layout_get_extents pango_layout_get_iter pango_layout_get_pixel_extents pango_layout_get_text
            pango_layout_get_unknown_glyphs_count pango_layout_index_to_pos pango_layout_iter_free
            pango_layout_iter_get_run_readonly pango_layout_iter_next_run pango_layout_new pango_layout_set_alignment
            pango_layout_set_attributes pango_layout_set_auto_dir pango_layout_set_ellipsize
            pango_layout_set_font_description pango_layout_set_height pango_layout_set_indent pango_layout_set_tabs
            pango_layout_set_text pango_layout_set_width pango_layout_set_wrap pango_parse_markup pango_tab_array_free
            pango_tab_array_new pango_tab_array_set_tab"""),
        ("libpangocairo-1.0.so.0", """pango_cairo_context_set_font_options pango_cairo_font_map_new_for_font_type
            pango_cairo_layout_path pango_cairo_show_layout pango_cairo_update_context"""),
        ("libpangoft2-1.0.so.0", "pango_fc_font_map_set_config"),
        ("libfontconfig.so.1", "FcConfigBuildFonts FcConfigCreate FcConfigDestroy FcConfigParseAndLoad FcConfigSetCurrent"),
    ]),
    "web": (["stdint.h", "sys/types.h", "sys/socket.h", "microhttpd.h", "qrencode.h"], ["libmicrohttpd", "libqrencode"], [
        ("libmicrohttpd.so.12", """MHD_add_response_header MHD_create_response_from_buffer MHD_create_response_from_callback
            MHD_create_response_from_fd MHD_destroy_response MHD_get_connection_info MHD_get_connection_values
            MHD_get_daemon_info MHD_lookup_connection_value MHD_queue_response MHD_resume_connection MHD_start_daemon
            MHD_stop_daemon MHD_suspend_connection"""),
        ("libqrencode.so.4", "QRcode_encodeString QRcode_free"),
    ]),
    # libxml2 (and the ICU it is built with, ~1.4 ms to load) for the XMP of a photo being stamped
    # or read, and KML exports.
    "xml": (["libxml/parser.h", "libxml/tree.h", "libxml/xmlsave.h", "libxml/xmlerror.h"], ["libxml-2.0"], [
        ("libxml2.so.2", """xmlAddNextSibling xmlAddPrevSibling xmlBufferContent xmlBufferCreate xmlBufferFree
            xmlBufferLength xmlDocGetRootElement xmlDocSetRootElement xmlFreeDoc xmlGetLastError xmlInitParser
            xmlNewChild xmlNewDoc xmlNewDocNode xmlNewDocPI xmlNewNs xmlNewNsProp xmlNewProp xmlNewTextChild
            xmlNodeSetLang xmlReadMemory xmlSaveClose xmlSaveDoc xmlSaveToBuffer xmlSetNs"""),
    ]),
    # OpenSSL's SHA-256 for the fingerprints of photos and originals.
    "crypto": (["openssl/evp.h"], ["libcrypto"], [
        ("libcrypto.so.3", "EVP_Digest EVP_sha256"),
    ]),
    "gps": (["gps.h"], ["libgps"], [
        ("libgps.so.28", "gps_close gps_open gps_read gps_stream gps_waiting"),
    ]),
    # SQLite for the catalog: a photo's catalog row is written by the finisher's thread, so its
    # loading (~1 ms at start) is done beside the first photo's decode, or never (--no-catalog).
    "catalog": (["sqlite3.h"], ["sqlite3"], [
        ("libsqlite3.so.0", """sqlite3_bind_blob sqlite3_bind_double sqlite3_bind_int64 sqlite3_bind_null
            sqlite3_bind_text sqlite3_busy_timeout sqlite3_changes sqlite3_clear_bindings sqlite3_close_v2
            sqlite3_column_blob sqlite3_column_bytes sqlite3_column_count sqlite3_column_double sqlite3_column_int64
            sqlite3_column_name sqlite3_column_text sqlite3_column_type sqlite3_db_config sqlite3_errmsg
            sqlite3_errstr sqlite3_exec sqlite3_extended_result_codes sqlite3_finalize sqlite3_limit sqlite3_open_v2
            sqlite3_prepare_v3 sqlite3_reset sqlite3_step"""),
    ]),
    # libexif for the EXIF of the photos read and written (~1 ms at start, for commands that read no photo).
    "exif": (["libexif/exif-data.h", "libexif/exif-loader.h", "libexif/exif-log.h", "libexif/exif-utils.h"], ["libexif"], [
        ("libexif.so.12", """exif_content_add_entry exif_content_get_entry exif_content_remove_entry exif_data_get_byte_order
            exif_data_load_data exif_data_log exif_data_new exif_data_save_data exif_data_set_byte_order
            exif_data_set_data_type exif_data_unref exif_data_unset_option exif_entry_initialize exif_entry_new
            exif_entry_unref exif_get_long exif_get_rational exif_get_short exif_get_srational exif_log_new
            exif_log_set_func exif_log_unref exif_set_long exif_set_rational exif_set_short exif_tag_get_name_in_ifd"""),
    ]),
}


def prototypes(headers, packages):
    source = "".join(f"#include <{h}>\n" for h in headers)
    flags = subprocess.run(["pkg-config", "--cflags", *packages], check=True, capture_output=True, text=True).stdout.split()
    out = "/tmp/stampcam-lazy-protos.txt"
    subprocess.run(["gcc", "-aux-info", out, "-fsyntax-only", "-x", "c", "-", *flags], input=source, check=True, text=True)
    found = {}
    for line in open(out):
        m = re.match(r"/\* .* \*/ extern (.*?)\b(\w+) \((.*)\);$", line.strip())
        if m:
            found[m.group(2)] = (m.group(1).strip(), m.group(3))
    return found


def split_parameters(text):
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(current.strip()); current = ""; continue
        depth += ch == "("; depth -= ch == ")"
        current += ch
    if current.strip(): parts.append(current.strip())
    return [] if parts == ["void"] else parts


def named(parameter, name):
    if "(*)" in parameter:
        return parameter.replace("(*)", f"(*{name})", 1)
    return f"{parameter} {name}"


# Variadic functions: C cannot pass "..." on. libmicrohttpd has a va_list twin for starting a
# daemon; the info calls take no further arguments for the kinds stampcam asks for
# (MHD_CONNECTION_INFO_CLIENT_ADDRESS, MHD_DAEMON_INFO_BIND_PORT), so only the fixed ones are passed.
VA_LIST_TWINS = {"MHD_start_daemon": "MHD_start_daemon_va"}
FIXED_ARGUMENTS_ONLY = {"MHD_get_connection_info", "MHD_get_daemon_info"}
# Variadic functions stampcam calls with these further arguments only: sqlite3_db_config with the
# on/off options (SQLITE_DBCONFIG_DEFENSIVE), which take an int and an int * for the old value.
FURTHER_ARGUMENTS = {"sqlite3_db_config": ["int", "int *"]}


def wrapper(index, name, result, parameters, library):
    params = split_parameters(parameters)
    variadic = params and params[-1] == "..."
    fixed = params[:-1] if variadic else params
    names = [f"a{i}" for i in range(len(fixed))]
    signature = ", ".join([named(p, n) for p, n in zip(fixed, names)] + (["..."] if variadic else [])) or "void"
    returns = result != "void"
    lines = [f"SC_LAZY {result} {name}({signature}) {{"]
    if variadic and name in FURTHER_ARGUMENTS:
        further = [f"b{i}" for i in range(len(FURTHER_ARGUMENTS[name]))]
        lines.append(f"    va_list rest;")
        lines.append(f"    va_start(rest, {names[-1]});")
        for kind, variable in zip(FURTHER_ARGUMENTS[name], further):
            lines.append(f"    {kind} {variable} = va_arg(rest, {kind});")
        lines.append("    va_end(rest);")
        call = f"((__typeof__(&{name}))sc_lazy_symbol({library}, \"{name}\", &slots[{index}]))({', '.join(names + further)})"
        lines.append(f"    {'return ' if returns else ''}{call};")
    elif variadic and name not in FIXED_ARGUMENTS_ONLY:
        twin = VA_LIST_TWINS[name]
        lines.append(f"    va_list rest;")
        lines.append(f"    va_start(rest, {names[-1]});")
        call = f"((__typeof__(&{twin}))sc_lazy_symbol({library}, \"{twin}\", &slots[{index}]))({', '.join(names + ['rest'])})"
        lines.append(f"    {result + ' value = ' if returns else ''}{call};")
        lines.append("    va_end(rest);")
        if returns: lines.append("    return value;")
    else:
        call = f"((__typeof__(&{name}))sc_lazy_symbol({library}, \"{name}\", &slots[{index}]))({', '.join(names)})"
        lines.append(f"    {'return ' if returns else ''}{call};")
    lines.append("}")
    return "\n".join(lines)


def main():
    for group, (headers, packages, libraries) in GROUPS.items():
        protos = prototypes(headers, packages)
        body, index, symbols, entries = [], 0, [], []
        library_names = [soname for soname, _ in libraries]
        for number, (soname, names) in enumerate(libraries):
            first = index
            for name in sorted(names.split()):
                if name not in protos:
                    sys.exit(f"{name}: no prototype in {headers}")
                result, parameters = protos[name]
                result = result.replace("extern ", "")
                body.append(wrapper(index, name, result, parameters, f"&libraries[{number}]"))
                symbols.append(VA_LIST_TWINS.get(name, name))
                index += 1
            # A library's slots are consecutive: they are all looked up when it is opened.
            entries.append(f'    {{"{soname}", NULL, names + {first}, slots + {first}, {index - first}}}')
        includes = "".join(f"#include <{h}>\n" for h in headers)
        sonames = ",\n".join(entries)
        name_list = "".join(f'    "{s}",\n' for s in symbols)
        body.append(f"const char *sc_lazy_check_{group}(void) {{\n"
                    f"    for (int i = 0; i < {len(library_names)}; i++) {{\n"
                    "        const char *failure = sc_lazy_try(&libraries[i]);\n"
                    "        if (failure != NULL) return failure;\n"
                    "    }\n"
                    "    return NULL;\n}")
        text = f"""// Generated by generate.py: edit the lists there and run it again.
#include "CLazyLibraries.h"
#include "lazy.h"

#include <stdarg.h>
#include <stddef.h>
{includes}
static const char *const names[{index}] = {{
{name_list}}};
static void *slots[{index}];
static struct sc_lazy_library libraries[] = {{
{sonames}
}};

{chr(10).join(body)}
"""
        with open(os.path.join(HERE, f"{group}.c"), "w") as f:
            f.write(text)
        print(f"{group}.c: {index} functions")


main()
