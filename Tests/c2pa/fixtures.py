"""Fixtures for the verify suite, made at test time: a CA and leaf certificates from openssl (with
the key usage and extended key usage C2PA asks of a signer), a JPEG from cjpeg, and photos signed
by the reference implementation's Builder (c2pa-python)."""
import json
import os
import subprocess

import c2pa

# The extended key usage C2PA signers carry (id-kp-emailProtection and C2PA's own).
LEAF_EXTENSIONS = """basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=emailProtection,1.3.6.1.5.5.7.3.36
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid:always
"""
CA_EXTENSIONS = """basicConstraints=critical,CA:TRUE
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash
"""


def run(*args, **kwargs):
    return subprocess.run(list(args), check=True, capture_output=True, **kwargs)


def make_ca(folder, name="verify test CA"):
    """A self-signed P-256 CA: (certificate path, key path)."""
    key, cert, ext = (os.path.join(folder, n) for n in ("ca.key", "ca.pem", "ca.ext"))
    with open(ext, "w") as f:
        f.write(CA_EXTENSIONS)
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key)
    run("openssl", "req", "-new", "-x509", "-key", key, "-out", cert, "-days", "3650", "-sha256",
        "-subj", f"/O=stampcam tests/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    return cert, key


def make_leaf(folder, ca, name="verify test signer", expired=False):
    """A signer certificate under `ca`; `expired` makes one whose validity ended in the past
    (openssl's -not_before/-not_after). Returns (chain path: leaf then CA, key path)."""
    ca_cert, ca_key = ca
    tag = "expired" if expired else "leaf"
    key, csr, cert, ext, chain = (os.path.join(folder, f"{tag}.{n}") for n in ("key", "csr", "pem", "ext", "chain.pem"))
    with open(ext, "w") as f:
        f.write(LEAF_EXTENSIONS)
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key)
    run("openssl", "req", "-new", "-key", key, "-out", csr, "-subj", f"/O=stampcam tests/CN={name}")
    if expired:
        # OpenSSL 3.0's x509 cannot set past dates; its `ca` command can, with a throwaway database.
        db = os.path.join(folder, "ca-db")
        os.makedirs(db, exist_ok=True)
        open(os.path.join(db, "index.txt"), "w").close()
        config = os.path.join(db, "ca.cnf")
        with open(config, "w") as f:
            f.write(f"[ca]\ndefault_ca=test\n[test]\ndatabase={db}/index.txt\nnew_certs_dir={db}\n"
                    f"serial={db}/serial\ndefault_md=sha256\npolicy=anything\n[anything]\n"
                    "organizationName=optional\ncommonName=supplied\n")
        with open(os.path.join(db, "serial"), "w") as f:
            f.write("01\n")
        run("openssl", "ca", "-batch", "-config", config, "-in", csr, "-cert", ca_cert, "-keyfile", ca_key,
            "-out", cert, "-extfile", ext, "-startdate", "20200101000000Z", "-enddate", "20210101000000Z", "-notext")
    else:
        run("openssl", "x509", "-req", "-in", csr, "-CA", ca_cert, "-CAkey", ca_key, "-CAcreateserial",
            "-out", cert, "-sha256", "-extfile", ext, "-days", "365")
    with open(chain, "w") as out:
        for path in (cert, ca_cert):
            with open(path) as f:
                out.write(f.read())
    return chain, key


def make_jpeg(path, width=64, height=48):
    """A small colourful JPEG made by cjpeg from a PPM written here."""
    ppm = path + ".ppm"
    with open(ppm, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(bytes(((x * 4) % 256, (y * 5) % 256, ((x + y) * 3) % 256)[c]
                      for y in range(height) for x in range(width) for c in range(3)))
    with open(path, "wb") as out:
        subprocess.run(["cjpeg", "-quality", "90", ppm], check=True, stdout=out)
    os.remove(ppm)
    return path


STAMP = {"version": 1, "software": "stampcam 0.9", "user": "Li Wei",
         "time": {"value": "2026-05-04T10:20:30+08:00", "source": "GPS", "zone": "+08:00", "zoneAssumed": False},
         "fields": {"user": "Li Wei", "project": "Bridge 7"}}


def sign(source, dest, chain, key, stamp=STAMP):
    """Signs `source` into `dest` with the reference Builder: ES256 with `chain`, a capture action
    and an org.stampcam.stamp assertion."""
    manifest = {
        "claim_generator_info": [{"name": "stampcam-tests", "version": "1"}],
        "title": os.path.basename(dest),
        "assertions": [
            {"label": "c2pa.actions", "data": {"actions": [{"action": "c2pa.created",
             "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}},
        ] + ([{"label": "org.stampcam.stamp", "data": stamp}] if stamp else []),
    }
    with open(chain) as f:
        certs = f.read()
    with open(key) as f:
        private_key = f.read()
    info = c2pa.C2paSignerInfo(c2pa.C2paSigningAlg.ES256, certs.encode(), private_key.encode(), None)
    signer = c2pa.Signer.from_info(info)
    builder = c2pa.Builder(manifest)
    with open(source, "rb") as src, open(dest, "w+b") as dst:
        builder.sign(signer, "image/jpeg", src, dst)
    return dest


def reference_codes(path, trust=None):
    """What the reference Reader says about `path`: the set of validation status codes of the active
    manifest (failures and informational ones), or {"noManifest"}."""
    settings = {"verify": {"verify_trust": True}}
    if trust:
        with open(trust) as f:
            settings["trust"] = {"trust_anchors": f.read()}
    try:
        context = c2pa.Context.from_dict(settings)
        with open(path, "rb") as f:
            reader = c2pa.Reader("image/jpeg", f, context=context)
            report = json.loads(reader.json())
    except c2pa.C2paError as error:
        if "ManifestNotFound" in type(error).__name__ or "not found" in str(error).lower():
            return {"noManifest"}
        # The reader refuses the file: its credentials cannot be read at all.
        return {"unreadable"}
    codes = {status["code"] for status in report.get("validation_status", []) or []}
    results = report.get("validation_results", {}) or {}
    for kind in ("success", "informational", "failure"):
        codes |= {s["code"] for s in (results.get("activeManifest", {}) or {}).get(kind, [])}
    # What the reader found wrong with the manifests of ingredients (a kept parent's), marked as theirs.
    for delta in results.get("ingredientDeltas", []) or []:
        for status in ((delta or {}).get("validationDeltas") or {}).get("failure", []) or []:
            codes.add("ingredient:" + status["code"])
    return codes


def reference_outcome(codes):
    """The outcome the reference reader's codes mean, in stampcam's words: the worst that applies."""
    if "noManifest" in codes:
        return "noCredentials"
    if "unreadable" in codes or "claimSignature.mismatch" in codes or "signingCredential.invalid" in codes \
            or "claimSignature.missing" in codes or "ingredient:claimSignature.mismatch" in codes:
        return "invalid"
    if any(code.endswith(".mismatch") or code.endswith(".missing") for code in codes):
        return "changed"
    if "signingCredential.expired" in codes:
        return "expired"
    if "signingCredential.untrusted" in codes:
        return "untrusted"
    assert "claimSignature.validated" in codes, codes
    return "valid"
