// The web server's library, libmicrohttpd, opened when `serve` starts rather than at every start:
// with GnuTLS and the rest it pulls in, it is heavy, and a machine without them
// still stamps and shoots. The table holds each function Swift calls, typed from the libraries' own
// headers; the calls Swift cannot make (variadic ones, macros) are the `sc_mhd_` functions below.
#ifndef CWEB_H
#define CWEB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

#define SC_WEB_HTTPD_FUNCTIONS(F) \
    F(MHD_add_response_header) F(MHD_create_response_from_buffer) F(MHD_create_response_from_callback) \
    F(MHD_create_response_from_fd) F(MHD_destroy_response) F(MHD_get_connection_values) \
    F(MHD_lookup_connection_value) F(MHD_queue_response) F(MHD_resume_connection) F(MHD_stop_daemon) \
    F(MHD_suspend_connection) F(MHD_create_post_processor) F(MHD_post_process) F(MHD_destroy_post_processor)

struct sc_web {
#define SC_WEB_POINTER(name) __typeof__(name) * _Nonnull name;
    SC_WEB_HTTPD_FUNCTIONS(SC_WEB_POINTER)
#undef SC_WEB_POINTER
};

/// The library's functions, loaded once (later calls return the same table); NULL when it cannot
/// be opened or lacks one of them, with dlerror's words in `reason`.
const struct sc_web * _Nullable sc_web_load(const char * _Nullable * _Nonnull reason);

static const ssize_t sc_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t sc_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t sc_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const enum MHD_Result sc_mhd_yes = MHD_YES;
static const enum MHD_Result sc_mhd_no = MHD_NO;
static const enum MHD_ValueKind sc_mhd_headers = MHD_HEADER_KIND;
static const enum MHD_ValueKind sc_mhd_cookies = MHD_COOKIE_KIND;
static const enum MHD_ValueKind sc_mhd_query = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ResponseMemoryMode sc_mhd_copy = MHD_RESPMEM_MUST_COPY;
static const enum MHD_ConnectionNotificationCode sc_mhd_connection_started = MHD_CONNECTION_NOTIFY_STARTED;
static const enum MHD_ValueKind sc_mhd_post_data = MHD_POSTDATA_KIND;

/// The limits a daemon runs with.
struct sc_mhd_limits {
    unsigned int threads;              // the internal thread pool
    unsigned int connections;          // open connections in all
    unsigned int connections_per_ip;
    unsigned int timeout_seconds;      // an idle (or stalled) connection is closed after this
    size_t memory_per_connection;      // request line and headers must fit
    const char * _Nullable tls_key;    // PEM key and certificate: HTTPS when both are given
    const char * _Nullable tls_certificate;
};

// The functions below need a table `sc_web_load` has returned (a daemon exists only after that).

/// Starts a daemon with its own polling threads (epoll where there is one), suspend/resume for
/// streams, listening on `address` (IPv4 or IPv6, port included); `notify` hears of each connection
/// opened and closed. Returns NULL (errno set where the system said why) when it cannot.
struct MHD_Daemon * _Nullable sc_mhd_start(const struct sockaddr * _Nonnull address, int ipv6, struct sc_mhd_limits limits,
                                           MHD_AccessHandlerCallback _Nonnull handler, void * _Nullable handler_context,
                                           MHD_RequestCompletedCallback _Nonnull completed, void * _Nullable completed_context,
                                           MHD_NotifyConnectionCallback _Nonnull notify, void * _Nullable notify_context);

/// A connection's socket; -1 when unknown.
int sc_mhd_connection_socket(struct MHD_Connection * _Nonnull connection);

/// The port a daemon listens on (the one the system chose for port 0); 0 when unknown.
uint16_t sc_mhd_port(struct MHD_Daemon * _Nonnull daemon);

/// The client's address as text (`192.168.1.23`, `::1`) into `buffer`; an empty string when unknown.
void sc_mhd_client_address(struct MHD_Connection * _Nonnull connection, char * _Nonnull buffer, size_t size);

#endif
