import Testing
import TestSupport
@testable import Library

@Suite struct PicturesFolderTests {
    @Test("XDG_PICTURES_DIR, then user-dirs.dirs, then ~/Pictures")
    func order() throws {
        #expect(PicturesFolder.locate(environment: ["HOME": "/h", "XDG_PICTURES_DIR": "/pics"]) == "/pics/stampcam")
        #expect(PicturesFolder.locate(environment: ["HOME": "/nonexistent-home"]) == "/nonexistent-home/Pictures/stampcam")
        let config = try TestFiles.temporaryFolder("xdg")
        try TestFiles.write(Array("# made by xdg-user-dirs\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8), to: config + "/user-dirs.dirs")
        #expect(PicturesFolder.locate(environment: ["HOME": "/h", "XDG_CONFIG_HOME": config]) == "/h/Bilder/stampcam")
    }

    @Test("a user-dirs entry pointing at home itself is ignored")
    func homeItself() {
        #expect(PicturesFolder.userDirsPictures("XDG_PICTURES_DIR=\"$HOME/\"", home: "/h") == "/h/")
        #expect(PicturesFolder.userDirsPictures("XDG_PICTURES_DIR=\"$HOME\"", home: "/h") == nil)
    }
}
