#include "CWeb.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>

static struct sc_web table;
// The variadic calls, made only from the functions below.
static __typeof__(MHD_start_daemon) *start_daemon;
static __typeof__(MHD_get_daemon_info) *get_daemon_info;
static __typeof__(MHD_get_connection_info) *get_connection_info;
static const struct sc_web *loaded;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define SC_RESOLVE(library, slot, name) \
    if ((*(void **)&(slot) = dlsym(library, #name)) == NULL) { failure = dlerror(); return; }

static void load(void) {
    // The SONAME of Debian's libmicrohttpd12: what the -dev package's link points to.
    void *httpd = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (httpd == NULL) { failure = dlerror(); return; }
#define SC_HTTPD_RESOLVE(name) SC_RESOLVE(httpd, table.name, name)
    SC_WEB_HTTPD_FUNCTIONS(SC_HTTPD_RESOLVE)
#undef SC_HTTPD_RESOLVE
    SC_RESOLVE(httpd, start_daemon, MHD_start_daemon)
    SC_RESOLVE(httpd, get_daemon_info, MHD_get_daemon_info)
    SC_RESOLVE(httpd, get_connection_info, MHD_get_connection_info)
    loaded = &table;
}

const struct sc_web *sc_web_load(const char **reason) {
    pthread_once(&once, load);
    *reason = failure;
    return loaded;
}

struct MHD_Daemon *sc_mhd_start(const struct sockaddr *address, int ipv6, struct sc_mhd_limits limits,
                                MHD_AccessHandlerCallback handler, void *handler_context,
                                MHD_RequestCompletedCallback completed, void *completed_context,
                                MHD_NotifyConnectionCallback notify, void *notify_context) {
    unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    if (ipv6) flags |= MHD_USE_IPv6;
    int tls = limits.tls_key != NULL && limits.tls_certificate != NULL;
    if (tls) flags |= MHD_USE_TLS;
    struct MHD_OptionItem tls_options[] = {
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)limits.tls_key},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)limits.tls_certificate},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_OptionItem no_options[] = {{MHD_OPTION_END, 0, NULL}};
    uint16_t port = ipv6 ? ntohs(((const struct sockaddr_in6 *)address)->sin6_port)
                         : ntohs(((const struct sockaddr_in *)address)->sin_port);
    return start_daemon(flags, port, NULL, NULL, handler, handler_context,
                        MHD_OPTION_SOCK_ADDR, address,
                        MHD_OPTION_THREAD_POOL_SIZE, limits.threads,
                        MHD_OPTION_CONNECTION_LIMIT, limits.connections,
                        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.connections_per_ip,
                        MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
                        MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.memory_per_connection,
                        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                        MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                        MHD_OPTION_ARRAY, tls ? tls_options : no_options,
                        MHD_OPTION_END);
}

int sc_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

uint16_t sc_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void sc_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
    }
}
