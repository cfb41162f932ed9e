/// COSE_Sign1 (RFC 9052) as C2PA signs a claim: ES256, the certificate chain in the protected
/// header's `x5chain`, and a detached payload (the claim is beside the signature, not inside it).
/// A time-stamp goes in the unprotected header as C2PA 2.1's `sigTst2`: an RFC 3161 token over the
/// COSE countersignature structure of the signature, so it is added after signing.
public enum COSESign1 {
    /// COSE header labels and values (RFC 9052, RFC 9360).
    static let algorithm = 1, es256 = -7, x5chain = 33
    /// The CBOR tag of a COSE_Sign1 message.
    static let tag: UInt64 = 18
    /// The unprotected header's time-stamp (`{"tstTokens": [{"val": token}]}`), and its padding.
    static let timeStampLabel = "sigTst2", padLabels = ["pad", "pad2"]

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

    /// What a time-stamp authority stamps for `sigTst2`: the countersignature structure of the
    /// signature (its bytes as a CBOR byte string) under the signature's protected header.
    static func timeStamped(protected: [UInt8], signature: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        try counterSigned(protected: protected, payload: try CBORValue.bytes(signature).encoded)
    }

    /// The countersignature structure (RFC 9338's `Countersign_structure` without a signer's header).
    static func counterSigned(protected: [UInt8], payload: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        try CBORValue.array([.text("CounterSignature"), .bytes(protected), .bytes([]), .bytes(payload)]).encoded
    }

    /// The tagged COSE_Sign1 of `payload` (detached) signed by `identity`.
    public static func sign(_ payload: [UInt8], with identity: SigningIdentity) throws(ProvenanceError) -> [UInt8] {
        let protected = try protectedHeader(chain: identity.certificateChainDER)
        let signature = try identity.sign(try toBeSigned(protected: protected, payload: payload))
        guard let message = try message(protected: protected, signature: signature) else { throw .crypto("encode the signature") }
        return message
    }

    /// The tagged COSE_Sign1 with `signature`, the time-stamp `token` when there is one, and padded
    /// with zeros in the unprotected header to exactly `length` bytes when given; nil when it does
    /// not fit in `length`.
    static func message(protected: [UInt8], signature: [UInt8], token: [UInt8]? = nil,
                        length: Int? = nil) throws(ProvenanceError) -> [UInt8]? {
        var header: [(key: CBORValue, value: CBORValue)] = []
        if let token {
            header.append((.text(timeStampLabel), .textMap(["tstTokens": .array([.textMap(["val": .bytes(token)])])])))
        }
        let encode = { (header: [(key: CBORValue, value: CBORValue)]) throws(ProvenanceError) -> [UInt8] in
            try CBORValue.tagged(tag, .array([.bytes(protected), .map(header), .null, .bytes(signature)])).encoded
        }
        let bare = try encode(header)
        guard let length, length != bare.count else { return bare }
        guard let pads = padding(length - bare.count) else { return nil }
        let padded = try encode(header + zip(padLabels, pads).map { (.text($0), .bytes([UInt8](repeating: 0, count: $1))) })
        guard padded.count == length else { throw .crypto("pad the signature to its reserved size") }
        return padded
    }

    /// Sizes of one or two zero byte strings ("pad", "pad2") whose entries take exactly `extra`
    /// bytes of a map of a few entries; nil when `extra` is too small. A CBOR byte string's head
    /// grows with its length, so some sizes need a second pad.
    static func padding(_ extra: Int) -> [Int]? {
        func single(_ room: Int) -> Int? {
            [room - 1, room - 2, room - 3, room - 5].first { $0 >= 0 && $0 + CBORValue.headSize($0) == room }
        }
        let first = padLabels[0].utf8.count + 1, second = padLabels[1].utf8.count + 1
        if let size = single(extra - first) { return [size] }
        for small in 0..<24 {
            if let size = single(extra - first - second - 1 - small) { return [size, small] }
        }
        return nil
    }
}
