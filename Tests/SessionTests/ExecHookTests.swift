import Testing
@testable import Session

@Suite struct ExecHookTests {
    @Test("{} in its own word, or in a word no shell runs, is the path as it is")
    func plain() throws {
        #expect(try ExecHook("rsync -q {} backup:site/").arguments(photo: "a b$(x).jpg") == ["rsync", "-q", "a b$(x).jpg", "backup:site/"])
        #expect(try ExecHook("upload --file={}").arguments(photo: "x;y.jpg") == ["upload", "--file=x;y.jpg"])
        #expect(try ExecHook("echo").arguments(photo: "p.jpg") == ["echo", "p.jpg"])
    }

    @Test("{} bare in a shell's script is quoted, a quote in the path too")
    func shellScript() throws {
        #expect(try ExecHook("sh -c 'cp {} /backup'").arguments(photo: "x$(touch PWNED).jpg")
                == ["sh", "-c", "cp 'x$(touch PWNED).jpg' /backup"])
        #expect(try ExecHook("/usr/bin/env bash -ec 'echo {}'").arguments(photo: "O'Brien.jpg")
                == ["/usr/bin/env", "bash", "-ec", "echo 'O'\\''Brien.jpg'"])
    }

    @Test("{} inside quotes (or after a backslash) in a shell's script is refused", arguments: [
        #"sh -c 'echo "{}"'"#, #"bash -c "echo '{}'""#, #"sh -c 'echo \{}'"#,
    ])
    func quotedInScript(command: String) {
        #expect(throws: ExecHook.ParseError.self) { try ExecHook(command) }
    }
}
