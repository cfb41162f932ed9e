#if canImport(Glibc)
import Glibc
#endif
import StampCLI

exit(StampCLI.run(Array(CommandLine.arguments.dropFirst())))
