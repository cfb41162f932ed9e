import Foundation
@testable import Provenance
import Testing

@Suite struct SigningIdentityTests {
    /// `openssl dgst -sha256 -verify` with the device certificate's public key.
    static func opensslVerifies(_ message: [UInt8], derSignature: [UInt8], keys: InstallationKeys) throws -> Bool {
        let scratch = KeysFixture.scratch()
        let publicKey = try KeysFixture.openssl(["x509", "-in", keys.folder + "/device.pem", "-pubkey", "-noout"]).out
        KeysFixture.write(publicKey, to: scratch + "/public.pem")
        _ = FileManager.default.createFile(atPath: scratch + "/message", contents: Data(message))
        _ = FileManager.default.createFile(atPath: scratch + "/signature", contents: Data(derSignature))
        let result = try KeysFixture.openssl(["dgst", "-sha256", "-verify", scratch + "/public.pem",
                                              "-signature", scratch + "/signature", scratch + "/message"])
        return result.status == 0 && result.out.contains("Verified OK")
    }

    /// r‖s as the DER SEQUENCE of two INTEGERs that X.509 tools read.
    static func der(fromRaw raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 & 0x80 != 0 }) ?? true { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    @Test func signaturesVerifyWithOpenSSL() throws {
        let keys = try KeysFixture.installation()
        let message = Array("claim bytes to sign".utf8)
        let der = try keys.identity.signDER(message)
        #expect(try Self.opensslVerifies(message, derSignature: der, keys: keys))
        let raw = try keys.identity.sign(message)
        #expect(raw.count == 64)
        #expect(try Self.opensslVerifies(message, derSignature: Self.der(fromRaw: raw), keys: keys))
        // One changed byte of the message, or another key's signature, does not verify.
        #expect(try !Self.opensslVerifies(Array("claim bytes to sigN".utf8), derSignature: der, keys: keys))
        let other = try KeysFixture.installation()
        #expect(try !Self.opensslVerifies(message, derSignature: other.identity.signDER(message), keys: keys))
    }

    /// An organisation's files made from an installation's: device key, and chain text.
    static func organisation(_ keys: InstallationKeys, chain: [String]) -> (key: String, chain: String) {
        let scratch = KeysFixture.scratch()
        KeysFixture.write(chain.map { KeysFixture.read(keys.folder + "/" + $0) }.joined(), to: scratch + "/chain.pem")
        return (keys.folder + "/device.key", scratch + "/chain.pem")
    }

    @Test func organisationChainIsChecked() throws {
        let keys = try KeysFixture.installation()
        let good = Self.organisation(keys, chain: ["device.pem", "ca.pem"])
        let identity = try SigningIdentity(keyFile: good.key, chainFile: good.chain, now: KeysFixture.now)
        #expect(identity.certificates == keys.identity.certificates)
        #expect(identity.topCertificatePEM == KeysFixture.read(keys.folder + "/ca.pem"))

        let reversed = Self.organisation(keys, chain: ["ca.pem", "device.pem"])
        #expect(throws: ProvenanceError.keyMismatch(key: reversed.key, certificate: reversed.chain)) {
            try SigningIdentity(keyFile: reversed.key, chainFile: reversed.chain, now: KeysFixture.now)
        }
        #expect(throws: ProvenanceError.wrongOrder(path: reversed.chain, index: 0, subject: keys.authority.subject)) {
            try SigningIdentity(keyFile: keys.folder + "/ca.key", chainFile: reversed.chain, now: KeysFixture.now)
        }
        #expect(throws: ProvenanceError.keyMismatch(key: keys.folder + "/ca.key", certificate: good.chain)) {
            try SigningIdentity(keyFile: keys.folder + "/ca.key", chainFile: good.chain, now: KeysFixture.now)
        }
        // A chain whose second certificate is another installation's CA.
        let stranger = try KeysFixture.installation()
        KeysFixture.write(KeysFixture.read(keys.folder + "/device.pem") + KeysFixture.read(stranger.folder + "/ca.pem"), to: good.chain)
        #expect(throws: ProvenanceError.wrongOrder(path: good.chain, index: 0, subject: keys.identity.certificate.subject)) {
            try SigningIdentity(keyFile: good.key, chainFile: good.chain, now: KeysFixture.now)
        }
    }

    @Test func validityIsCheckedAtTheTimeGiven() throws {
        let keys = try KeysFixture.installation()
        let files = Self.organisation(keys, chain: ["device.pem", "ca.pem"])
        let device = keys.identity.certificate
        #expect(throws: ProvenanceError.expired(path: files.chain, subject: device.subject, notAfter: device.notAfter)) {
            try SigningIdentity(keyFile: files.key, chainFile: files.chain, now: KeysFixture.now + 731 * 86400)
        }
        #expect(throws: ProvenanceError.notYetValid(path: files.chain, subject: device.subject, notBefore: device.notBefore)) {
            try SigningIdentity(keyFile: files.key, chainFile: files.chain, now: KeysFixture.now - 60)
        }
        _ = try SigningIdentity(keyFile: files.key, chainFile: files.chain, now: KeysFixture.now + 729 * 86400)
    }

    @Test func otherKeysAndBadFilesAreRefused() throws {
        let keys = try KeysFixture.installation()
        let files = Self.organisation(keys, chain: ["device.pem", "ca.pem"])
        let scratch = KeysFixture.scratch()
        let rsa = try KeysFixture.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", scratch + "/rsa.key"])
        #expect(rsa.status == 0)
        #expect(throws: ProvenanceError.unsupportedKey(path: scratch + "/rsa.key", algorithm: "RSA")) {
            try SigningIdentity(keyFile: scratch + "/rsa.key", chainFile: files.chain, now: KeysFixture.now)
        }
        _ = try KeysFixture.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", scratch + "/p384.key"])
        #expect(throws: ProvenanceError.unsupportedKey(path: scratch + "/p384.key", algorithm: "EC secp384r1")) {
            try SigningIdentity(keyFile: scratch + "/p384.key", chainFile: files.chain, now: KeysFixture.now)
        }
        #expect(throws: ProvenanceError.cannotRead(path: scratch + "/none.key", reason: "No such file or directory")) {
            try SigningIdentity(keyFile: scratch + "/none.key", chainFile: files.chain, now: KeysFixture.now)
        }
        KeysFixture.write("", to: scratch + "/empty.pem")
        #expect(throws: ProvenanceError.badPEM(path: scratch + "/empty.pem", expected: "a private key")) {
            try SigningIdentity(keyFile: scratch + "/empty.pem", chainFile: files.chain, now: KeysFixture.now)
        }
        #expect(throws: ProvenanceError.badPEM(path: scratch + "/empty.pem", expected: "a certificate chain")) {
            try SigningIdentity(keyFile: files.key, chainFile: scratch + "/empty.pem", now: KeysFixture.now)
        }
        // The second certificate cut off in the middle.
        let chain = KeysFixture.read(files.chain)
        KeysFixture.write(String(chain.prefix(chain.count - 100)), to: scratch + "/cut.pem")
        #expect(throws: ProvenanceError.badPEM(path: scratch + "/cut.pem", expected: "a certificate chain")) {
            try SigningIdentity(keyFile: files.key, chainFile: scratch + "/cut.pem", now: KeysFixture.now)
        }
    }
}
