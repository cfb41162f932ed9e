import Values

extension Verification {
    /// Compares the code the stamp assertion records with the one `derive` makes from its
    /// `pixelsSHA256` and `fields` (the verification code's rule, `VerificationCode.derive`). Sets
    /// `codeMatches`; a code that differs makes the photo `changed`. An assertion without a code,
    /// picture hash or fields leaves it nil: nothing to compare.
    public mutating func checkStampedCode(derive: (_ pixelsSHA256: String, _ fields: [String: String]) -> String = VerificationCode.derive) {
        guard case .object(let stamp)? = stamp, case .string(let code)? = stamp["code"],
              case .string(let pixels)? = stamp["pixelsSHA256"], case .object(let members)? = stamp["fields"] else { return }
        var fields: [String: String] = [:]
        for (name, value) in members {
            guard case .string(let text) = value else { return }
            fields[name] = text
        }
        let expected = derive(pixels, fields)
        codeMatches = expected == code
        if expected != code {
            fail(.changed, "the stamp's code \(ManifestReader.printable(code)) does not match its fields and picture hash (they give \(expected))")
        }
    }
}

extension Verification {
    /// Compares `logged`, the code a catalog logged for the photo at this path, with the code the
    /// photo's own signed assertion records (`codeMatches` says whether that one fits its fields).
    /// A photo that carries another code, or none, is not the photo that was logged: it was
    /// replaced, so the outcome becomes `changed` whatever its own signature says.
    public mutating func checkLogged(code logged: String) {
        let own = signatureValid && bindingHolds ? code : nil
        loggedCode = logged
        if own != logged {
            fail(.changed, own.map { "this file carries the code \(ManifestReader.printable($0)), not \(logged): it is not the photo that was logged" }
                ?? "this file carries no signed code, not \(logged): it is not the photo that was logged")
        }
    }
}
