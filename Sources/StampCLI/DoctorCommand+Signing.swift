import Platform
import Provenance

extension DoctorCommand {
    /// The signing identity: its organisation, and a warning ahead of the device certificate's end
    /// (when it cannot be renewed by the next photo: the CA key is kept elsewhere) and of the CA's.
    static func signing(_ context: Context) -> Check {
        let folder = InstallationKeys.folder(environment: context.environment)
        let now = WallClock.now().secondsSinceEpoch
        let keys: InstallationKeys
        let topic = Lp("doctor", "signing")
        do {
            guard let opened = try InstallationKeys.open(folder: folder) else {
                return Check(level: .ok, topic: topic, text: L("no identity yet: one is made with the first photo (or 'stampcam keys init --org NAME')"))
            }
            keys = opened
        } catch {
            return Check(level: .problem, topic: topic, text: Failure(provenance: error).message)
        }
        let days = { (seconds: Int) in max(0, seconds - now) / 86400 }
        if keys.authority.expires - now < 365 * 86400 {
            return Check(level: .warning, topic: topic,
                         text: Ln("the CA of {2} ends on {3} (in {1} day): make a new identity before then (move {4} away, then 'stampcam keys init --org NAME') and give verifiers its CA",
                                  "the CA of {2} ends on {3} (in {1} days): make a new identity before then (move {4} away, then 'stampcam keys init --org NAME') and give verifiers its CA",
                                  days(keys.authority.expires), days(keys.authority.expires), keys.organization, keys.authority.notAfter,
                                  PathEncoding.display(folder)))
        }
        if keys.needsRenewal(at: now) && !keys.hasAuthorityKey {
            return Check(level: .warning, topic: topic,
                         text: Ln("the signing certificate ends on {2} (in {1} day) and the CA key is kept elsewhere: where it is, run: {3}",
                                  "the signing certificate ends on {2} (in {1} days) and the CA key is kept elsewhere: where it is, run: {3}",
                                  days(keys.device.expires), days(keys.device.expires), keys.device.notAfter, "stampcam keys renew --ca-key PATH/ca.key"))
        }
        let renewal = keys.needsRenewal(at: now) ? "; " + L("it is renewed with the next photo signed") : ""
        return Check(level: .ok, topic: topic, text: L("{1}: certificate valid until {2}", keys.organization, keys.device.notAfter) + renewal
            + (keys.hasAuthorityKey ? "" : " " + L("(CA key kept elsewhere)")))
    }
}
