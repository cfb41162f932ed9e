import CWeb
import Platform

#if canImport(Glibc)
import Glibc
#endif

/// One `multipart/form-data` upload as it arrives: libmicrohttpd's post processor splits the body
/// into its fields; the photo's bytes go to a temp file (never held whole in memory while they
/// trickle in), the other fields (a position, a time) are kept as short texts. The temp file has
/// no name on the disk once it is open, so nothing is left behind however the upload ends.
///
/// One thread at a time: libmicrohttpd's polling thread feeds it while the body arrives; once the
/// body is in, the daemon drops its reference and hands it to the one thread that finishes it.
final class UploadReceiver: @unchecked Sendable {
    /// Why an upload was refused, as the answer says it.
    enum Problem: Error, Equatable {
        case tooLarge(limit: Int)
        case noRoom(String)
        case malformed(String)

        var response: HTTPResponse {
            switch self {
            case .tooLarge(let limit):
                return .json(status: 413, error: "the photo is larger than the server takes (\(limit / (1 << 20)) MB); send a smaller one")
            case .noRoom(let reason):
                return .json(status: 507, error: "the server cannot keep the upload: \(reason); nothing was saved")
            case .malformed(let message):
                return .json(status: 400, error: message)
            }
        }
    }

    /// The field the photo comes in.
    static let photoField = "photo"

    private let web: sc_web
    private let limits: HTTPLimits
    private var processor: OpaquePointer?
    private let descriptor: Int32
    private var photoBytes = 0
    private var photoParts = 0
    private(set) var fields: [String: String] = [:]
    private(set) var problem: Problem?

    /// Starts receiving a request on `connection` into a temp file in `folder` (nil: a file in
    /// memory only, for a photo that must never be stored); nil (with `problem`) when the body is
    /// not a form or no temp file can be made.
    init(connection: OpaquePointer, folder: String?, limits: HTTPLimits, web: sc_web) throws(Problem) {
        self.web = web
        self.limits = limits
        if let folder {
            var template = Array((folder + "/.stampcam-upload-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { throw .noRoom("cannot make a temp file (\(Errno.current.reason))") }
            // Unnamed at once: the bytes live only as long as the descriptor.
            unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            descriptor = fd
        } else {
            do { descriptor = try FileSystem.memoryFile("stampcam-check") } catch { throw .noRoom("no memory for the upload (\(error.reason))") }
        }
        processor = nil
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let made = web.MHD_create_post_processor(connection, 64 * 1024, uploadIterator, context) else {
            throw .malformed("send the photo as multipart/form-data with a field '\(Self.photoField)'")
        }
        processor = made
    }

    deinit {
        if let processor { _ = web.MHD_destroy_post_processor(processor) }
        close(descriptor)
    }

    /// Hands a piece of the body to the post processor; false once the upload is refused.
    func receive(_ bytes: UnsafePointer<CChar>, count: Int) -> Bool {
        guard problem == nil, let processor else { return false }
        if web.MHD_post_process(processor, bytes, count) != sc_mhd_yes, problem == nil {
            problem = .malformed("the form could not be read (a multipart body cut short or garbled)")
        }
        return problem == nil
    }

    /// The whole upload: the photo's bytes and the other fields.
    func finish() throws(Problem) -> HTTPRequest.Upload {
        if let problem { throw problem }
        if let processor {
            self.processor = nil
            // It says no when the body ended inside a part (no closing boundary).
            guard web.MHD_destroy_post_processor(processor) == sc_mhd_yes else {
                throw .malformed("the form ends before its last part does (cut short?); send the photo again")
            }
        }
        guard photoParts == 1, photoBytes > 0 else {
            throw .malformed(photoParts > 1 ? "send one photo a request" : "the form has no '\(Self.photoField)' (or it is empty)")
        }
        do {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw Errno.current }
            let photo = try FileContents(descriptor: descriptor, status: try FileStatus(descriptor: descriptor))
            return HTTPRequest.Upload(photo: photo, fields: fields)
        } catch {
            throw .noRoom("the upload could not be read back (\(error))")
        }
    }

    fileprivate func field(_ key: String, data: UnsafePointer<CChar>?, offset: UInt64, size: Int) -> Bool {
        if key == Self.photoField {
            if offset == 0 { photoParts += 1 }
            guard photoBytes + size <= limits.uploadBytes else {
                problem = .tooLarge(limit: limits.uploadBytes)
                return false
            }
            guard size > 0, let data else { return true }
            do {
                try FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(start: data, count: size))
            } catch {
                problem = error == .noSpace || error == .quota ? .noRoom("the disk is full") : .noRoom(error.reason)
                return false
            }
            photoBytes += size
            return true
        }
        // A value comes in pieces (offset 0 first): a second value under the same name is a field
        // sent twice, which would otherwise be joined ("Ana" and "Bob" as "AnaBob").
        if offset == 0 && fields[key] != nil {
            problem = .malformed("the form has '\(PathEncoding.display(key))' twice; send each field once")
            return false
        }
        var value = fields[key] ?? ""
        if fields[key] == nil && fields.count >= limits.uploadFields {
            problem = .malformed("the form has more than \(limits.uploadFields) fields")
            return false
        }
        if let data, size > 0 { value += PathEncoding.decode(UnsafeRawBufferPointer(start: data, count: size)) }
        guard value.utf8.count <= limits.uploadFieldBytes else {
            problem = .malformed("the form's field '\(PathEncoding.display(key))' is longer than \(limits.uploadFieldBytes) bytes")
            return false
        }
        fields[key] = value
        return true
    }
}

private let uploadIterator: MHD_PostDataIterator = { cls, kind, key, _, _, _, data, offset, size in
    guard let cls, let key, kind == sc_mhd_post_data else { return sc_mhd_yes }
    let receiver = Unmanaged<UploadReceiver>.fromOpaque(cls).takeUnretainedValue()
    let name = PathEncoding.decode(UnsafeRawBufferPointer(start: key, count: strlen(key)))
    return receiver.field(name, data: data, offset: offset, size: size) ? sc_mhd_yes : sc_mhd_no
}
