import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Words for why a file operation failed, for one-line error messages.
public enum FileErrorReason {
    /// What to try when an output cannot be written.
    public static let writeHint = "check the output folder's free space and permissions, or choose another with -o"

    /// The POSIX reason ("Permission denied", "File too large", "Not a directory") when
    /// there is one. Foundation keeps it under NSUnderlyingError — an NSError on Darwin, a
    /// `POSIXError` value on Linux, which an `as? NSError` cast misses — and its own text
    /// is only "The operation could not be completed".
    /// - Parameter error: a file-system error from Foundation or the system.
    /// - Returns: its reason in words, e.g. "permission denied".
    public static func describe(_ error: Error) -> String {
        #if canImport(FoundationEssentials)
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.underlying { return describe(underlying) }
            return "The operation could not be completed. (NSCocoaErrorDomain error \(cocoa.code.rawValue).)"
        }
        return "The operation could not be completed. (\(error))"
        #else
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? Error { return describe(underlying) }
        return ns.localizedDescription
        #endif
    }
}
