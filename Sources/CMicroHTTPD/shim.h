// Fixed-argument wrappers around libmicrohttpd's variadic calls (Swift cannot call C varargs), and
// the macros Swift cannot see. Everything here is prefixed `sc_mhd_`.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

static const ssize_t sc_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t sc_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t sc_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const enum MHD_Result sc_mhd_yes = MHD_YES;
static const enum MHD_Result sc_mhd_no = MHD_NO;
static const enum MHD_ValueKind sc_mhd_headers = MHD_HEADER_KIND;
static const enum MHD_ValueKind sc_mhd_cookies = MHD_COOKIE_KIND;
static const enum MHD_ValueKind sc_mhd_query = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ResponseMemoryMode sc_mhd_copy = MHD_RESPMEM_MUST_COPY;

/// The limits a daemon runs with.
struct sc_mhd_limits {
    unsigned int threads;              // the internal thread pool
    unsigned int connections;          // open connections in all
    unsigned int connections_per_ip;
    unsigned int timeout_seconds;      // an idle (or stalled) connection is closed after this
    size_t memory_per_connection;      // request line and headers must fit
};

/// Starts a daemon with its own polling threads (epoll where there is one), suspend/resume for
/// streams, listening on `address` (IPv4 or IPv6, port included). Returns NULL (errno set where the
/// system said why) when it cannot.
static inline struct MHD_Daemon *sc_mhd_start(const struct sockaddr *address, int ipv6, struct sc_mhd_limits limits,
                                              MHD_AccessHandlerCallback handler, void *handler_context,
                                              MHD_RequestCompletedCallback completed, void *completed_context) {
    unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    if (ipv6) flags |= MHD_USE_IPv6;
    uint16_t port = ipv6 ? ntohs(((const struct sockaddr_in6 *)address)->sin6_port)
                         : ntohs(((const struct sockaddr_in *)address)->sin_port);
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, limits.threads,
                            MHD_OPTION_CONNECTION_LIMIT, limits.connections,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.connections_per_ip,
                            MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.memory_per_connection,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_END);
}

/// The port a daemon listens on (the one the system chose for port 0); 0 when unknown.
static inline uint16_t sc_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The client's address as text (`192.168.1.23`, `::1`) into `buffer`; an empty string when unknown.
static inline void sc_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
    }
}

#endif
