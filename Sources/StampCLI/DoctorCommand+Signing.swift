import Platform
import Provenance

extension DoctorCommand {
    /// The signing identity: its organisation, and a warning ahead of the device certificate's end
    /// (when it cannot be renewed by the next photo: the CA key is kept elsewhere) and of the CA's.
    static func signing(_ context: Context) -> Check {
        let folder = InstallationKeys.folder(environment: context.environment)
        let now = WallClock.now().secondsSinceEpoch
        let keys: InstallationKeys
        do {
            guard let opened = try InstallationKeys.open(folder: folder) else {
                return Check(level: .ok, topic: "signing", text: "no identity yet: one is made with the first photo (or 'stampcam keys init --org NAME')")
            }
            keys = opened
        } catch {
            return Check(level: .problem, topic: "signing", text: Failure(provenance: error).message)
        }
        let days = { (seconds: Int) in max(0, seconds - now) / 86400 }
        if keys.authority.expires - now < 365 * 86400 {
            return Check(level: .warning, topic: "signing",
                         text: "the CA of \(keys.organization) ends on \(keys.authority.notAfter) (in \(days(keys.authority.expires)) days): "
                            + "make a new identity before then (move \(PathEncoding.display(folder)) away, then 'stampcam keys init --org NAME') and give verifiers its CA")
        }
        if keys.needsRenewal(at: now) && !keys.hasAuthorityKey {
            return Check(level: .warning, topic: "signing",
                         text: "the signing certificate ends on \(keys.device.notAfter) (in \(days(keys.device.expires)) days) and the CA key is kept elsewhere: "
                            + "where it is, run: stampcam keys renew --ca-key PATH/ca.key")
        }
        let renewal = keys.needsRenewal(at: now) ? "; it is renewed with the next photo signed" : ""
        return Check(level: .ok, topic: "signing", text: "\(keys.organization): certificate valid until \(keys.device.notAfter)\(renewal)"
            + (keys.hasAuthorityKey ? "" : " (CA key kept elsewhere)"))
    }
}
