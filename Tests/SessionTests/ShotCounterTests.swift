import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Session

@Suite struct ShotCounterTests {
    @Test("one counter hands each number out once, counts on from the folder, and takes back only the last")
    func numbers() throws {
        let folder = try TestFiles.temporaryFolder("counter")
        try TestFiles.write([0xFF, 0xD8], to: folder + "/20261205-101500-0007.jpg")
        let counter = ShotCounter(folder: folder)
        #expect(counter.peek == 8)
        let camera = counter.take(), phone = counter.take()
        #expect((camera, phone) == (8, 9), "the camera's photo and a phone's never get the same number")
        counter.giveBack(camera)
        #expect(counter.peek == 10, "a retaken photo that is not the last gives nothing back")
        counter.giveBack(counter.take())
        #expect(counter.peek == 10)
        counter.skip(to: 15)
        counter.skip(to: 12)
        #expect(counter.take() == 15)
    }

    @Test("taken from many threads at once, no number is handed out twice")
    func concurrent() {
        let counter = ShotCounter(next: 1)
        let taken = Mutex([Int]())
        DispatchQueue.concurrentPerform(iterations: 400) { _ in
            let number = counter.take()
            taken.withLock { $0.append(number) }
        }
        #expect(taken.withLock { $0.sorted() } == Array(1...400))
    }
}

