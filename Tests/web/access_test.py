"""Listening on 0.0.0.0 needs the access token: without it `/`, `/api/state`, `/stream.mjpg` and
`POST /api/shutter` get 401; with the printed URL the page loads and keeps the token in a
SameSite=Strict cookie, which then opens the API. A state change from another origin is refused
even with the token."""
import http.client
import sys

from serve import Server, check


def request(port, method, path, headers=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), data


def main(binary):
    server = Server(binary, listen="0.0.0.0:0", keep_original=False)
    try:
        token = server.url.split("?token=")[1]
        check(len(token) >= 32, "the printed URL carries a token")
        for method, path in (("GET", "/"), ("GET", "/api/state"), ("GET", "/stream.mjpg"), ("POST", "/api/shutter"),
                             ("GET", "/api/events"), ("GET", "/shots/x.jpg"), ("GET", "/app.js")):
            status, _, _ = request(server.port, method, path)
            check(status == 401, "%s %s without the token: %d" % (method, path, status))
        status, _, _ = request(server.port, "GET", "/api/state?token=" + "0" * len(token))
        check(status == 401, "a wrong token: 401")
        status, headers, page = request(server.port, "GET", "/?token=" + token)
        cookie = headers.get("Set-Cookie", "")
        check(status == 200 and b"<title>stampcam</title>" in page, "the printed URL opens the page")
        check("HttpOnly" in cookie and "SameSite=Strict" in cookie, "the token is kept in a cookie: " + cookie)
        jar = cookie.split(";")[0]
        status, _, _ = request(server.port, "GET", "/api/state", headers={"Cookie": jar})
        check(status == 200, "the cookie opens the API")
        status, _, _ = request(server.port, "GET", "/api/state", headers={"Authorization": "Bearer " + token})
        check(status == 200, "so does an Authorization: Bearer header (scripts)")
        status, _, _ = request(server.port, "POST", "/api/shutter",
                               headers={"Cookie": jar, "Origin": "http://evil.example", "Content-Type": "application/json"}, body="{}")
        check(status == 403, "a shutter from another web site is refused even with the cookie")
        status, _, _ = request(server.port, "POST", "/api/shutter",
                               headers={"Cookie": jar, "Content-Type": "application/x-www-form-urlencoded"}, body="a=1")
        check(status == 415, "a form post (what another site can send) is refused")
        status, _, _ = request(server.port, "GET", "/api/shutter", headers={"Cookie": jar})
        check(status == 405, "state changes are POST only")
    finally:
        server.stop()
    # Loopback without a token: another site's name in Host (DNS rebinding) is refused.
    server = Server(binary, keep_original=False)
    try:
        status, _, _ = request(server.port, "GET", "/api/state", headers={"Host": "rebind.example:%d" % server.port})
        check(status == 403, "loopback: a request for another host name is refused (DNS rebinding)")
        status, _, _ = request(server.port, "GET", "/api/state", headers={"Host": "localhost:%d" % server.port})
        check(status == 200, "loopback: localhost is fine without a token")
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1])
