#if canImport(Glibc)
import Glibc
#endif
import StampCLI

exit(StampCLI.main())
