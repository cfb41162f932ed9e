"""A time-stamp authority made at test time: a CA and a TSA certificate from openssl (extended key
usage timeStamping, critical, as RFC 3161 asks), and a small HTTP responder that answers each
RFC 3161 request with `openssl ts -reply`. Also an address where nothing answers (a TSA that is
down) and one that takes the connection and never answers (a TSA that is slow)."""
import http.server
import os
import socket
import subprocess
import tempfile
import threading

TSA_EXTENSIONS = """basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=critical,timeStamping
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid:always
"""


def run(*args):
    return subprocess.run(list(args), check=True, capture_output=True)


def make_authority(folder):
    """A CA of its own and a TSA certificate under it: (CA certificate path, TSA folder)."""
    os.makedirs(folder, exist_ok=True)
    path = lambda name: os.path.join(folder, name)
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("ca.key"))
    run("openssl", "req", "-new", "-x509", "-key", path("ca.key"), "-out", path("ca.pem"), "-days", "7300", "-sha256",
        "-subj", "/O=stampcam tests/CN=test TSA root", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    with open(path("tsa.ext"), "w") as f:
        f.write(TSA_EXTENSIONS)
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("tsa.key"))
    run("openssl", "req", "-new", "-key", path("tsa.key"), "-out", path("tsa.csr"), "-subj", "/O=stampcam tests/CN=test TSA")
    run("openssl", "x509", "-req", "-in", path("tsa.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial",
        "-out", path("tsa.pem"), "-sha256", "-extfile", path("tsa.ext"), "-days", "7000")
    with open(path("serial"), "w") as f:
        f.write("01\n")
    with open(path("ts.cnf"), "w") as f:
        f.write(f"""[tsa]
default_tsa = test
[test]
dir = {folder}
serial = $dir/serial
signer_cert = $dir/tsa.pem
certs = $dir/ca.pem
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
""")
    return path("ca.pem"), folder


class Responder:
    """`openssl ts -reply` behind HTTP on 127.0.0.1, on a thread; `requests` counts what it answered."""

    def __init__(self, folder):
        self.folder = folder
        self.requests = 0
        responder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with tempfile.NamedTemporaryFile(dir=folder, suffix=".tsq", delete=False) as query:
                    query.write(body)
                reply = subprocess.run(["openssl", "ts", "-reply", "-config", os.path.join(folder, "ts.cnf"),
                                        "-queryfile", query.name], capture_output=True)
                os.remove(query.name)
                responder.requests += 1
                ok = reply.returncode == 0 and self.headers.get("Content-Type") == "application/timestamp-query"
                self.send_response(200 if ok else 400)
                self.send_header("Content-Type", "application/timestamp-reply")
                self.send_header("Content-Length", str(len(reply.stdout) if ok else 0))
                self.end_headers()
                if ok:
                    self.wfile.write(reply.stdout)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/tsa"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def down_url():
    """An address where nothing listens: a port taken and closed again."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/tsa"


class Silent:
    """Takes connections and never answers: a TSA that is too slow."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(8)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/tsa"

    def close(self):
        self.socket.close()
