/// COSE_Sign1 (RFC 9052) as C2PA signs a claim: ES256, the certificate chain in the protected
/// header's `x5chain`, and a detached payload (the claim is beside the signature, not inside it).
public enum COSESign1 {
    /// COSE header labels and values (RFC 9052, RFC 9360).
    static let algorithm = 1, es256 = -7, x5chain = 33
    /// The CBOR tag of a COSE_Sign1 message.
    static let tag: UInt64 = 18

    /// The protected header: the algorithm and the chain (one certificate as a byte string, more as an array).
    public static func protectedHeader(chain: [[UInt8]]) throws(ProvenanceError) -> [UInt8] {
        let certificates: CBORValue = chain.count == 1 ? .bytes(chain[0]) : .array(chain.map(CBORValue.bytes))
        return try CBORValue.map([(key: .integer(algorithm), value: .integer(es256)),
                                  (key: .integer(x5chain), value: certificates)]).encoded
    }

    /// What is signed: `Sig_structure` for a single signer, with no external data.
    public static func toBeSigned(protected: [UInt8], payload: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        try CBORValue.array([.text("Signature1"), .bytes(protected), .bytes([]), .bytes(payload)]).encoded
    }

    /// The tagged COSE_Sign1 of `payload` (detached) signed by `identity`.
    public static func sign(_ payload: [UInt8], with identity: SigningIdentity) throws(ProvenanceError) -> [UInt8] {
        let protected = try protectedHeader(chain: identity.certificateChainDER)
        let signature = try identity.sign(try toBeSigned(protected: protected, payload: payload))
        return try CBORValue.tagged(tag, .array([.bytes(protected), .map([]), .null, .bytes(signature)])).encoded
    }
}
