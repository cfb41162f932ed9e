import Foundation
import Platform
@testable import Provenance
import Testing

@Suite struct InstallationKeysTests {
    @Test func madeChainVerifiesWithOpenSSL() throws {
        let keys = try KeysFixture.installation()
        #expect(keys.created)
        let result = try KeysFixture.openssl(["verify", "-CAfile", keys.folder + "/ca.pem", keys.folder + "/device.pem"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("device.pem: OK"))
        // The CA alone does not vouch for a certificate it did not sign.
        let stranger = try KeysFixture.installation()
        #expect(try KeysFixture.openssl(["verify", "-CAfile", stranger.folder + "/ca.pem", keys.folder + "/device.pem"]).status != 0)
    }

    @Test func extensionsFollowTheC2PAProfile() throws {
        let keys = try KeysFixture.installation()
        let device = try KeysFixture.openssl(["x509", "-in", keys.folder + "/device.pem", "-noout", "-text"]).out
        let ca = try KeysFixture.openssl(["x509", "-in", keys.folder + "/ca.pem", "-noout", "-text"]).out
        for expected in ["Basic Constraints: critical", "CA:FALSE", "Key Usage: critical", "Digital Signature",
                         "E-mail Protection, 1.3.6.1.5.5.7.3.36", "Subject Key Identifier", "Authority Key Identifier",
                         "ASN1 OID: prime256v1", "ecdsa-with-SHA256", "Subject: O = stampcam, CN = stampcam device testhost "] {
            #expect(device.contains(expected), "device: \(expected)")
        }
        for expected in ["Basic Constraints: critical", "CA:TRUE", "Key Usage: critical", "Certificate Sign, CRL Sign",
                         "Subject Key Identifier", "Subject: O = stampcam, CN = stampcam CA testhost "] {
            #expect(ca.contains(expected), "CA: \(expected)")
        }
        #expect(!device.contains("Certificate Sign"))
        #expect(!ca.contains("Extended Key Usage"))
    }

    @Test func fingerprintsAndDatesAreOpenSSLs() throws {
        let keys = try KeysFixture.installation()
        let printed = try KeysFixture.openssl(["x509", "-in", keys.folder + "/device.pem", "-noout", "-fingerprint", "-sha256"]).out
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "sha256 Fingerprint=" + keys.identity.certificate.fingerprint)
        let caPrinted = try KeysFixture.openssl(["x509", "-in", keys.folder + "/ca.pem", "-noout", "-fingerprint", "-sha256"]).out
        #expect(caPrinted.contains(keys.authority.fingerprint))
        #expect(keys.identity.certificate.fingerprint != keys.authority.fingerprint)
        // Two years for the device, ten for the CA, from the moment given.
        let start = Date(timeIntervalSince1970: TimeInterval(KeysFixture.now))
        let format = ISO8601DateFormatter()
        #expect(keys.identity.certificate.notBefore == format.string(from: start))
        #expect(keys.identity.certificate.notAfter == format.string(from: start.addingTimeInterval(730 * 86400)))
        #expect(keys.authority.notAfter == format.string(from: start.addingTimeInterval(3650 * 86400)))
        #expect(keys.identity.certificateChainDER.count == 2)
    }

    @Test func privateKeysAreOwnerOnly() throws {
        let keys = try KeysFixture.installation()
        #expect(KeysFixture.mode(keys.folder) == 0o700)
        #expect(KeysFixture.mode(keys.folder + "/ca.key") == 0o600)
        #expect(KeysFixture.mode(keys.folder + "/device.key") == 0o600)
        #expect(KeysFixture.mode(keys.folder + "/device.pem") == 0o644)
        // Nothing is left of the folder the identity was made in.
        let parent = (keys.folder as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["keys"])
    }

    @Test func secondOpenReusesTheIdentity() throws {
        let first = try KeysFixture.installation()
        let again = try InstallationKeys.openOrCreate(folder: first.folder, host: "otherhost", now: KeysFixture.now)
        #expect(!again.created)
        #expect(again.identity.certificate == first.identity.certificate)
        #expect(again.authority == first.authority)
    }

    @Test func linkedFolderIsRefusedAndLeftAlone() throws {
        let base = KeysFixture.scratch()
        let elsewhere = base + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/stampcam", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/stampcam/keys", withDestinationPath: elsewhere)
        #expect(throws: ProvenanceError.self) {
            try InstallationKeys.openOrCreate(folder: base + "/stampcam/keys", host: "h", now: KeysFixture.now)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/stampcam") == ["keys"])
    }

    @Test func fifoAsDeviceKeyIsOneErrorWithoutWaiting() throws {
        let keys = try KeysFixture.installation()
        let key = keys.folder + "/device.key"
        try FileManager.default.removeItem(atPath: key)
        #expect(mkfifo(key, 0o600) == 0)
        #expect(throws: ProvenanceError.cannotRead(path: key, reason: "it is a FIFO (named pipe), not a regular file")) {
            try InstallationKeys.openOrCreate(folder: keys.folder, host: "h", now: KeysFixture.now)
        }
        // Not replaced: still the FIFO, and the certificate still the first one.
        #expect(FileStatus(linkAt: FilePath(key))?.kind == .fifo)
        #expect(try KeysFixture.openssl(["verify", "-CAfile", keys.folder + "/ca.pem", keys.folder + "/device.pem"]).status == 0)
    }

    @Test func damagedFilesNameTheFile() throws {
        let keys = try KeysFixture.installation()
        let pem = KeysFixture.read(keys.folder + "/device.pem")
        KeysFixture.write(String(pem.prefix(pem.count / 2)), to: keys.folder + "/device.pem")
        #expect(throws: ProvenanceError.badPEM(path: keys.folder + "/device.pem", expected: "a certificate")) {
            try InstallationKeys.openOrCreate(folder: keys.folder, host: "h", now: KeysFixture.now)
        }
        KeysFixture.write("", to: keys.folder + "/device.pem")
        #expect(throws: ProvenanceError.badPEM(path: keys.folder + "/device.pem", expected: "a certificate")) {
            try InstallationKeys.openOrCreate(folder: keys.folder, host: "h", now: KeysFixture.now)
        }
        #expect(KeysFixture.read(keys.folder + "/device.pem").isEmpty)
    }
}
