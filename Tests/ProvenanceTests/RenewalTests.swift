import Foundation
import Platform
@testable import Provenance
import Testing

/// Keys in an organisation's name, renewed before they end, the CA key kept offline, and private
/// keys that others can read refused.
@Suite struct RenewalTests {
    static let day = 86400

    @Test func organisationNamesBothCertificates() throws {
        let folder = KeysFixture.scratch() + "/keys"
        let keys = try InstallationKeys.create(folder: folder, host: "h", organization: "Acme Site Services", now: KeysFixture.now)
        #expect(keys.organization == "Acme Site Services")
        #expect(keys.device.organization == "Acme Site Services" && keys.authority.organization == "Acme Site Services")
        let text = try KeysFixture.openssl(["x509", "-in", folder + "/device.pem", "-noout", "-subject"]).out
        #expect(text.contains("O = Acme Site Services"), "\(text)")
        #expect(throws: ProvenanceError.identityExists(folder: folder)) {
            try InstallationKeys.create(folder: folder, host: "h", organization: "Other", now: KeysFixture.now)
        }
        #expect(InstallationKeys.problem(organization: "") != nil && InstallationKeys.problem(organization: String(repeating: "x", count: 65)) != nil)
        #expect(InstallationKeys.problem(organization: "Acme\u{7}") != nil && InstallationKeys.problem(organization: "Acme") == nil)
    }

    @Test func renewalKeepsTheKeyAndReplacesTheCertificate() throws {
        let keys = try KeysFixture.installation()
        #expect(!keys.needsRenewal(at: KeysFixture.now + 600 * Self.day))
        let later = KeysFixture.now + 700 * Self.day
        #expect(keys.needsRenewal(at: later))
        let renewed = try keys.renewed(now: later)
        #expect(renewed.device.expires == later + 730 * Self.day)
        #expect(renewed.device.fingerprint != keys.device.fingerprint && renewed.device.subject == keys.device.subject)
        #expect(!renewed.needsRenewal(at: later))
        // The same key, the file replaced, and the chain still the CA's (openssl agrees).
        let reopened = try #require(try InstallationKeys.open(folder: keys.folder))
        #expect(reopened.device.fingerprint == renewed.device.fingerprint)
        #expect(try KeysFixture.openssl(["x509", "-in", keys.folder + "/device.pem", "-noout", "-pubkey"]).out
            == (try KeysFixture.openssl(["pkey", "-in", keys.folder + "/device.key", "-pubout"]).out))
        #expect(try KeysFixture.openssl(["verify", "-attime", String(later + 60), "-CAfile", keys.folder + "/ca.pem", keys.folder + "/device.pem"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys.folder).sorted() == ["ca.key", "ca.pem", "device.key", "device.pem"])
    }

    @Test func aRenewedCertificateNeverOutlivesItsCA() throws {
        let keys = try KeysFixture.installation()
        let late = KeysFixture.now + 3400 * Self.day
        let renewed = try keys.renewed(now: late)
        #expect(renewed.device.expires == renewed.authority.expires)
        #expect(throws: ProvenanceError.self) { try keys.renewed(now: KeysFixture.now + 3651 * Self.day) }
    }

    @Test func theCAKeyMayBeKeptOffline() throws {
        let keys = try KeysFixture.installation()
        let offline = KeysFixture.scratch() + "/ca.key"
        try FileManager.default.moveItem(atPath: keys.folder + "/ca.key", toPath: offline)
        let opened = try #require(try InstallationKeys.open(folder: keys.folder))
        #expect(!opened.hasAuthorityKey)
        try opened.checkValid(at: KeysFixture.now)  // signing needs only the device key
        let ended = KeysFixture.now + 731 * Self.day
        #expect(throws: ProvenanceError.authorityKeyMissing(folder: keys.folder, notAfter: opened.device.notAfter)) {
            try opened.checkValid(at: ended)
        }
        #expect(throws: ProvenanceError.authorityKeyMissing(folder: keys.folder, notAfter: opened.device.notAfter)) {
            try opened.renewed(now: ended)
        }
        #expect(ProvenanceError.authorityKeyMissing(folder: keys.folder, notAfter: "x").description.contains("stampcam keys renew --ca-key"))
        let renewed = try opened.renewed(now: ended, authorityKeyFile: offline)
        try renewed.checkValid(at: ended)
        // Another CA's key is refused.
        let stranger = try KeysFixture.installation()
        #expect(throws: ProvenanceError.keyMismatch(key: stranger.folder + "/ca.key", certificate: keys.folder + "/ca.pem")) {
            try opened.renewed(now: ended, authorityKeyFile: stranger.folder + "/ca.key")
        }
    }

    @Test func keysOthersCanReadAreRefused() throws {
        let keys = try KeysFixture.installation()
        for mode in [0o640, 0o604, 0o660] as [mode_t] {
            chmod(keys.folder + "/device.key", mode)
            #expect(throws: ProvenanceError.unsafeKey(path: keys.folder + "/device.key", mode: UInt32(mode))) {
                try InstallationKeys.open(folder: keys.folder)
            }
            #expect(throws: ProvenanceError.self) {
                try SigningIdentity(keyFile: keys.folder + "/device.key", chainFile: keys.folder + "/device.pem", now: KeysFixture.now)
            }
        }
        #expect(ProvenanceError.unsafeKey(path: "/a b/k.key", mode: 0o644).description.hasSuffix("chmod 600 '/a b/k.key'"))
        chmod(keys.folder + "/device.key", 0o600)
        _ = try #require(try InstallationKeys.open(folder: keys.folder))
        chmod(keys.folder + "/ca.key", 0o644)
        #expect(throws: ProvenanceError.unsafeKey(path: keys.folder + "/ca.key", mode: 0o644)) { try InstallationKeys.open(folder: keys.folder) }
    }

    @Test func theCAIsExportedWhateverTheKeys() throws {
        let keys = try KeysFixture.installation()
        chmod(keys.folder + "/device.key", 0o644)
        try FileManager.default.removeItem(atPath: keys.folder + "/ca.key")
        let pem = try #require(try InstallationKeys.authorityPEM(folder: keys.folder))
        #expect(pem == KeysFixture.read(keys.folder + "/ca.pem"))
        #expect(try InstallationKeys.authorityPEM(folder: KeysFixture.scratch() + "/none") == nil)
    }
}
