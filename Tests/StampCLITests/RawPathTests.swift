import Foundation
import Platform
import Testing
import TestSupport

/// File names are bytes: a data folder whose name is not UTF-8 (a Latin-1 USB stick) reaches
/// fontconfig, and a photo in such a folder reaches libc, byte for byte.
@Suite struct RawPathTests {
    @Test("a data folder and a photo folder named in Latin-1: the fonts load, the photo is stamped")
    func latin1Folders() throws {
        let base = try TestFiles.temporaryFolder("rawpath")
        let site = try Fixtures.site.write(to: base)
        // Made by the shell, which writes the byte 0xE9 as it is.
        let setup = try CLI.shell("""
            cd \(CLI.quoted(base)) && mkdir -p data-caf$'\\xe9' photos-caf$'\\xe9' \
            && cp -r \(CLI.quoted(TestFiles.packageRoot + "/fonts")) \(CLI.quoted(TestFiles.packageRoot + "/templates")) data-caf$'\\xe9'/ \
            && cp \(CLI.quoted(site)) photos-caf$'\\xe9'/site.jpg
            """)
        #expect(setup.code == 0, "\(setup.err)")
        func raw(_ name: String) -> String { PathEncoding.decode(Array((base + "/" + name).utf8) + [0xE9]) }
        let (data, photos) = (raw("data-caf"), raw("photos-caf"))
        #expect(FileSystem.exists(FilePath(data + "/fonts/fonts.conf")) && FileSystem.exists(FilePath(photos + "/site.jpg")))
        let result = CLI.run(["apply", "--no-catalog", photos + "/site.jpg", "-o", photos + "/out"], environment: ["STAMPCAM_DATA": data])
        #expect(result.code == 0, "\(result.err)")
        #expect(FileSystem.exists(FilePath(photos + "/out/site.jpg")))
    }
}
