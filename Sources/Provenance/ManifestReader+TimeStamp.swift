extension ManifestReader {
    /// The signature's time-stamp, checked: C2PA 2.1's `sigTst2` (over the signature) or 1.x's
    /// `sigTst` (over the claim), one token in `tstTokens`; nil when the signature carries none.
    static func timeStamp(in unprotected: CBORValue, protected: [UInt8], signature: [UInt8], claim: [UInt8],
                          trust: TrustAnchors) -> TimeStamp? {
        let version2 = unprotected[COSESign1.timeStampLabel]
        guard let container = version2 ?? unprotected["sigTst"] else { return nil }
        guard let tokens = container["tstTokens"]?.array, tokens.count == 1, let token = tokens[0]["val"]?.bytes else {
            return TimeStamp(problem: "the time-stamp is malformed (one token in tstTokens is expected)")
        }
        let message = version2 != nil ? try? COSESign1.timeStamped(protected: protected, signature: signature)
                                      : try? COSESign1.counterSigned(protected: protected, payload: claim)
        guard let message else { return TimeStamp(problem: "the time-stamp cannot be checked") }
        return TimeStampToken.check(token, message: message, anchors: trust.timeStampAuthorities)
    }
}
